#include "state/reader.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>
#include <string_view>
#include <unordered_set>

#include "io/encoding.h"
#include "json/pointer.h"
#include "json/string_codec.h"
#include "state/schema.h"

namespace pstate::state {
namespace {

using diag::Code;

constexpr std::array<std::string_view, 8> kKnownFeatures = {
    "byteString",  "extensionParameterization", "hooks", "refreshBeforeUpdate",
    "replaceWith", "snippets-prototype",        "taint", "views"};

constexpr std::uint64_t kProgressStep = 8u << 20;

/// Where a skeleton object sits, which decides how its members are read.
enum class Level { kRoot, kCheckpoint, kDeployment };

class StreamReader final : public Context {
 public:
  StreamReader(io::InputStream& input, Handler& handler, diag::Report& report,
               const ReadOptions& options)
      : window_(input, options.window_size),
        handler_(handler),
        report_(report),
        options_(options),
        parser_(options.max_depth) {}

  Status Run();

  // Context
  void Report(diag::Finding finding, std::uint64_t offset) override {
    io::LineColumn lc = window_.Locate(offset);
    finding.line = lc.line;
    finding.column = lc.column;
    finding.char_column = lc.char_column;
    report_.Add(std::move(finding));
  }
  void ReportUnlocated(diag::Finding finding) override {
    report_.Add(std::move(finding));
  }
  io::LineColumn Locate(std::uint64_t offset) override {
    return window_.Locate(offset);
  }
  const Envelope& envelope() const override { return envelope_; }
  const io::InputStream* input_file() const override {
    const io::InputStream& input = window_.input();
    return input.plain_file_fd() >= 0 ? &input : nullptr;
  }

 private:
  Status Fill();
  void ReportProgress();
  /// Skips whitespace; `*c` is the next byte, or '\0' at end of input.
  Status Peek(char* c);
  Status ParseValue(json::Value* out);
  Status Fatal(Code code, std::string message, std::uint64_t offset);
  /// Fatal for an I/O failure `s` of the input.
  Status IoFatal(const Status& s, std::uint64_t offset);
  /// Fatal at a place located earlier (its bytes may have left the window).
  Status Fatal(Code code, std::string message, io::LineColumn at);
  Status Expect(char c, const char* context);
  std::uint64_t Offset() const { return window_.OffsetOf(pos_); }
  /// After Peek returned '\0': true at the end of input, false for a NUL
  /// byte in the input (which is never valid JSON there).
  bool AtEnd() const { return pos_ >= window_.end() && window_.eof(); }

  /// Reads one object of the envelope: calls `read_member` with pos_ at each
  /// member's value (the pointer already names it) and reports duplicate
  /// keys. The reader's only loop over object members.
  using FieldResolver = std::function<std::string_view(std::string_view key)>;
  using MemberReader =
      std::function<Status(std::string_view key, std::string_view field)>;
  Status ReadMembers(const FieldResolver& resolve,
                     const MemberReader& read_member);
  /// The Pulumi field `key` names in an object at `level` ("" if none).
  std::string_view FieldAt(Level level, std::string_view key);
  Status ReadObject(Level level);
  Status ReadMember(Level level, std::string_view key, std::string_view field);
  Status ReadLeafArray(Role element_role);
  Status ReadLeafObject(Role member_role);
  /// A syntax error at `c`: the end of input, or `expected`, found `c`.
  Status Unexpected(char c, std::string_view inside, std::string_view expected);
  Status ReadContainerOrLeaf(char open, Role element_role,
                             std::string_view name, Level level);
  Status EmitLeaf(Role role, std::string_view key, std::size_t index);
  /// Offers the "resources" array just entered to ReadOptions::
  /// on_resources; `handled`: it was read there, up to its ']'.
  Status HandOverResources(bool* handled);
  /// Unwinds the read after the handler asked to stop.
  Status Stop() {
    stopped_ = true;
    return Status(Errc::kInvalidArgument, "stopped by the handler");
  }

  Status InterpretVersion(const json::Value& v);
  void InterpretFeatures(const json::Value& v);
  Status FinishEnvelope();

  io::Window window_;
  Handler& handler_;
  diag::Report& report_;
  const ReadOptions& options_;
  json::Parser parser_;
  json::Arena arena_;
  const char* pos_ = nullptr;
  json::PointerBuilder pointer_;
  Envelope envelope_;
  std::uint64_t next_progress_ = kProgressStep;
  /// The root object's closing '}', located while it was in the window:
  /// reading on to the end of the input may refill the window past it.
  io::LineColumn root_end_;
  /// Members of an update-history file (.pulumi/history/*.history.json)
  /// seen at the root: such a file is named as what it is.
  bool saw_history_member_ = false;
  /// "latest", "stack" or "target": a legacy checkpoint for sure ("config"
  /// alone is also a member of a history record).
  bool saw_legacy_anchor_ = false;
  bool fatal_ = false;
  bool stopped_ = false;
  Status fatal_status_;
};

/// The root of both envelopes: UntypedDeployment and VersionedCheckpoint.
constexpr std::array<Field, 4> kRootFields = {
    {kExportFields[0], kExportFields[1], kExportFields[2],
     kVersionedCheckpointFields[2]}};
/// Members of apitype.UpdateInfo, the body of a DIY history file.
constexpr std::array<Field, 6> kHistoryFields = {
    {{"kind", K::kString},
     {"startTime", K::kNumber},
     {"message", K::kString},
     {"environment", K::kObject},
     {"result", K::kString},
     {"resourceChanges", K::kObject}}};

Errc ErrcOf(Code code) {
  switch (code) {
    case Code::kIoError: return Errc::kIo;
    case Code::kNotAState:
    case Code::kVersionUnsupported: return Errc::kFormat;
    default: return Errc::kSyntax;
  }
}

Code CodeOf(json::SyntaxCode code) {
  switch (code) {
    case json::SyntaxCode::kSyntax: return Code::kJsonSyntax;
    case json::SyntaxCode::kInvalidUtf8: return Code::kJsonInvalidUtf8;
    case json::SyntaxCode::kTooDeep: return Code::kJsonTooDeep;
  }
  return Code::kJsonSyntax;
}

Status StreamReader::Fatal(Code code, std::string message,
                           std::uint64_t offset) {
  if (!fatal_) {
    fatal_ = true;
    fatal_status_ = Status(ErrcOf(code), message);
    Report(diag::MakeFinding(code, std::move(message), pointer_.str()), offset);
  }
  return fatal_status_;
}

Status StreamReader::Fatal(Code code, std::string message, io::LineColumn at) {
  if (!fatal_) {
    fatal_ = true;
    fatal_status_ = Status(ErrcOf(code), message);
    diag::Finding finding =
        diag::MakeFinding(code, std::move(message), pointer_.str());
    finding.line = at.line;
    finding.column = at.column;
    finding.char_column = at.char_column;
    ReportUnlocated(std::move(finding));
  }
  return fatal_status_;
}

Status StreamReader::Fill() {
  if (window_.eof()) return Status::Ok();  // keeps pos_: nothing moves
  std::uint64_t at = Offset();
  Status s = window_.Fill(pos_);
  pos_ = window_.begin();
  if (!s.ok()) return IoFatal(s, at);
  ReportProgress();
  return Status::Ok();
}

Status StreamReader::IoFatal(const Status& s, std::uint64_t offset) {
  // io's messages start with the input's name, for callers that print
  // them as they are; a finding is located in that input already.
  std::string message = s.message();
  std::string prefix = window_.input().name() + ": ";
  if (message.starts_with(prefix)) message.erase(0, prefix.size());
  return Fatal(Code::kIoError, std::move(message), offset);
}

void StreamReader::ReportProgress() {
  if (!options_.on_progress) return;
  const io::InputStream& input = window_.input();
  std::uint64_t consumed = input.source_consumed();
  std::uint64_t size = input.source_size().value_or(0);
  if (input.compression() == io::Compression::kNone) {
    if (consumed >= next_progress_) {
      next_progress_ = consumed + kProgressStep;
      options_.on_progress(consumed, size);
    }
    return;
  }
  // Compressed input: progress counts decompressed bytes (what the reader
  // works through), and the total is the decompressed size the compression
  // ratio so far predicts, so a small .gz holding a big state still shows
  // its progress and the fraction done stays the compressed one.
  std::uint64_t decoded = window_.OffsetOf(window_.end());
  if (decoded < next_progress_) return;
  next_progress_ = decoded + kProgressStep;
  std::uint64_t total = 0;
  if (size > 0 && consumed > 0) {
    long double ratio =
        static_cast<long double>(decoded) / static_cast<long double>(consumed);
    total = static_cast<std::uint64_t>(ratio * static_cast<long double>(size));
    total = std::max(total, decoded);
  }
  options_.on_progress(decoded, total);
}

Status StreamReader::Peek(char* c) {
  for (;;) {
    const char* end = window_.end();
    while (pos_ < end &&
           (*pos_ == ' ' || *pos_ == '\n' || *pos_ == '\r' || *pos_ == '\t')) {
      ++pos_;
    }
    if (pos_ < end) {
      *c = *pos_;
      return Status::Ok();
    }
    if (window_.eof()) {
      *c = '\0';
      return Status::Ok();
    }
    Status s = Fill();
    if (!s.ok()) return s;
  }
}

Status StreamReader::ParseValue(json::Value* out) {
  for (;;) {
    const char* stop = nullptr;
    json::ParseStatus st = parser_.Parse(pos_, window_.end(), window_.eof(),
                                         Offset(), arena_, out, &stop);
    if (st == json::ParseStatus::kOk) {
      pos_ = stop;
      return Status::Ok();
    }
    if (st == json::ParseStatus::kError) {
      const json::SyntaxError& e = parser_.error();
      return Fatal(CodeOf(e.code), e.message, e.offset);
    }
    // Incomplete: keep the value's bytes, read more, parse again. Growth
    // doubles, so a value is re-parsed O(log size) times at most.
    arena_.Reset();
    Status s = Fill();
    if (!s.ok()) return s;
  }
}

Status StreamReader::Expect(char c, const char* context) {
  char next = 0;
  Status s = Peek(&next);
  if (!s.ok()) return s;
  if (next == c) {
    ++pos_;
    return Status::Ok();
  }
  std::string found =
      next == '\0' && AtEnd()
          ? std::string("end of input")
          : json::DescribeByte(static_cast<unsigned char>(next));
  return Fatal(
      Code::kJsonSyntax,
      std::string("expected '") + c + "' " + context + ", found " + found,
      Offset());
}

Status StreamReader::EmitLeaf(Role role, std::string_view key,
                              std::size_t index) {
  Leaf leaf;
  leaf.role = role;
  leaf.key = key;
  leaf.index = index;
  leaf.arena = &arena_;
  Status s = ParseValue(&leaf.value);
  if (!s.ok()) return s;
  leaf.end_offset = Offset();
  // The parser stopped right after the value, in one contiguous window.
  auto length = static_cast<std::size_t>(leaf.end_offset - leaf.value.offset);
  leaf.bytes = std::string_view(pos_ - length, length);
  leaf.pointer = pointer_.str();
  leaf.duplicates = parser_.duplicates();
  if (role == Role::kResource) ++envelope_.resources;
  if (role == Role::kPendingOperation) ++envelope_.pending_operations;
  if (role == Role::kVersion) {
    s = InterpretVersion(leaf.value);
    if (!s.ok()) return s;
  }
  if (role == Role::kFeatures) InterpretFeatures(leaf.value);
  Result<Flow> flow = handler_.OnLeaf(leaf, *this);
  arena_.Reset();
  if (!flow.ok()) return flow.status();
  if (*flow == Flow::kStop) return Stop();
  return Status::Ok();
}

Status StreamReader::HandOverResources(bool* handled) {
  ResourcesSpan span;
  span.pointer = pointer_.str();
  span.offset = Offset();
  span.at = window_.Locate(span.offset);
  Result<ResourcesRead> read = options_.on_resources(span, *this);
  if (!read.ok()) return read.status();
  if (!read->handled) return Status::Ok();
  if (read->stopped) return Stop();
  Status s = window_.SkipTo(read->end, read->at_end);
  pos_ = window_.begin();
  if (!s.ok()) return IoFatal(s, span.offset);
  envelope_.resources += read->elements;
  ReportProgress();
  *handled = true;
  return Status::Ok();
}

Status StreamReader::Run() {
  pos_ = window_.begin();
  Status s = Fill();
  if (!s.ok()) return s;
  char c = 0;
  s = Peek(&c);
  if (!s.ok()) return s;
  if (c == '\0' && AtEnd()) {
    return Fatal(Code::kJsonSyntax,
                 "the input is empty; expected a Pulumi state (a JSON object)",
                 Offset());
  }
  // A byte-order mark or UTF-16: say so, with the fix (io/encoding.h).
  if (std::optional<std::string> encoding =
          io::ForeignEncoding(std::string_view(
              pos_, static_cast<std::size_t>(window_.end() - pos_)))) {
    return Fatal(Code::kJsonSyntax, *encoding, Offset());
  }
  if (c != '{') {
    std::string what = c == '[' ? "an array"
                       : c == '"'
                           ? "a string"
                           : json::DescribeByte(static_cast<unsigned char>(c));
    if (c == '[' || c == '"' || c == '-' || (c >= '0' && c <= '9') ||
        c == 't' || c == 'f' || c == 'n') {
      return Fatal(Code::kNotAState,
                   "a Pulumi state is a JSON object, but the input starts "
                   "with " +
                       what,
                   Offset());
    }
    return Fatal(Code::kJsonSyntax,
                 "unexpected " + what + " where a JSON value was expected",
                 Offset());
  }
  s = ReadObject(Level::kRoot);
  if (stopped_) return Status::Ok();
  if (!s.ok()) return s;
  root_end_ = window_.Locate(Offset() - 1);  // the root's closing '}'
  s = Peek(&c);
  if (!s.ok()) return s;
  if (!AtEnd()) {
    return Fatal(Code::kJsonSyntax,
                 "unexpected " +
                     json::DescribeByte(static_cast<unsigned char>(c)) +
                     " after the end of the JSON document",
                 Offset());
  }
  s = FinishEnvelope();
  if (!s.ok()) return s;
  report_.set_resources(envelope_.resources);
  return handler_.OnFinish(envelope_, *this);
}

Status StreamReader::Unexpected(char c, std::string_view inside,
                                std::string_view expected) {
  return Fatal(Code::kJsonSyntax,
               c == '\0' && AtEnd()
                   ? "unexpected end of input " + std::string(inside)
                   : std::string(expected) + ", found " +
                         json::DescribeByte(static_cast<unsigned char>(c)),
               Offset());
}

Status StreamReader::ReadMembers(const FieldResolver& resolve,
                                 const MemberReader& read_member) {
  ++pos_;  // '{'
  handler_.BeginObject();
  // Fields (or, for members Pulumi ignores, keys) already seen, as hashes:
  // memory stays small even for an object with millions of members.
  std::unordered_set<std::size_t> seen;
  char c = 0;
  Status s = Peek(&c);
  if (!s.ok()) return s;
  if (c == '}') {
    ++pos_;
    handler_.EndObject();
    return Status::Ok();
  }
  std::string parent(pointer_.str());
  for (;;) {
    if (c != '"') {
      return Unexpected(c, "inside an object",
                        "expected a string key in object");
    }
    json::Value key_value;
    std::uint64_t key_offset = Offset();
    s = ParseValue(&key_value);
    if (!s.ok()) return s;
    std::string key = key_value.Str();
    // Expect() may refill the window and move the key's bytes: copy them.
    std::string raw_key(key_value.raw());
    std::string_view field = resolve(key);
    std::size_t id =
        std::hash<std::string_view>()(field.empty() ? key : field) ^
        (field.empty() ? 0x9e3779b97f4a7c15u : 0u);
    EnvelopeMember member;
    member.parent = parent;
    member.key = key;
    member.field = field;
    member.key_offset = key_offset;
    member.duplicate = !seen.insert(id).second;
    // Announced before Expect() can move the window past the key, so the
    // handler can still locate it.
    handler_.OnEnvelopeMember(member, *this);
    s = Expect(':', "after object key");
    if (!s.ok()) return s;
    handler_.Key(raw_key);
    std::size_t mark = pointer_.PushKey(key);
    s = read_member(key, field);
    pointer_.Pop(mark);
    if (!s.ok()) return s;
    s = Peek(&c);
    if (!s.ok()) return s;
    if (c == ',') {
      ++pos_;
      s = Peek(&c);
      if (!s.ok()) return s;
      continue;
    }
    if (c == '}') {
      ++pos_;
      break;
    }
    return Unexpected(c, "inside an object", "expected ',' or '}' in object");
  }
  handler_.EndObject();
  return Status::Ok();
}

std::string_view StreamReader::FieldAt(Level level, std::string_view key) {
  switch (level) {
    case Level::kRoot: {
      std::string_view field = MatchField(key, kRootFields);
      if (!field.empty()) return field;
      // Unversioned checkpoints are a CheckpointV1 at the top level.
      if (!envelope_.version &&
          (envelope_.kind == EnvelopeKind::kUnknown ||
           envelope_.kind == EnvelopeKind::kLegacyCheckpoint)) {
        return MatchField(key, kCheckpointFields);
      }
      return {};
    }
    case Level::kCheckpoint: return MatchField(key, kCheckpointFields);
    case Level::kDeployment: return MatchField(key, kDeploymentFields);
  }
  return {};
}

Status StreamReader::ReadObject(Level level) {
  return ReadMembers([&](std::string_view key) { return FieldAt(level, key); },
                     [&](std::string_view key, std::string_view field) {
                       return ReadMember(level, key, field);
                     });
}

Status StreamReader::ReadContainerOrLeaf(char open, Role element_role,
                                         std::string_view name, Level level) {
  char c = 0;
  Status s = Peek(&c);
  if (!s.ok()) return s;
  if (c == open) {
    if (open == '[') return ReadLeafArray(element_role);
    if (element_role == Role::kExtension) {
      return ReadLeafObject(element_role);
    }
    return ReadObject(level);
  }
  // Not the container Pulumi writes (null is Go's "absent"): hand the whole
  // value over as one leaf; verify judges it.
  return EmitLeaf(Role::kMisshapenContainer, name, 0);
}

Status StreamReader::ReadLeafArray(Role element_role) {
  ++pos_;  // '['
  handler_.BeginArray();
  if (element_role == Role::kResource && options_.on_resources) {
    bool handled = false;
    Status s = HandOverResources(&handled);
    if (!s.ok()) return s;
    if (handled) {
      handler_.EndArray();
      return Status::Ok();
    }
  }
  char c = 0;
  Status s = Peek(&c);
  if (!s.ok()) return s;
  std::size_t index = 0;
  if (c == ']') {
    ++pos_;
    handler_.EndArray();
    return Status::Ok();
  }
  for (;;) {
    std::size_t mark = pointer_.PushIndex(index);
    s = EmitLeaf(element_role, {}, index);
    pointer_.Pop(mark);
    if (!s.ok()) return s;
    ++index;
    s = Peek(&c);
    if (!s.ok()) return s;
    if (c == ',') {
      ++pos_;
      continue;
    }
    if (c == ']') {
      ++pos_;
      break;
    }
    return Unexpected(c, "inside an array", "expected ',' or ']' in array");
  }
  handler_.EndArray();
  return Status::Ok();
}

Status StreamReader::ReadLeafObject(Role member_role) {
  return ReadMembers([](std::string_view key) { return key; },
                     [&](std::string_view key, std::string_view) {
                       return EmitLeaf(member_role, key, 0);
                     });
}

Status StreamReader::ReadMember(Level level, std::string_view key,
                                std::string_view field) {
  auto begin_kind = [&](EnvelopeKind kind) {
    if (envelope_.kind == EnvelopeKind::kUnknown ||
        envelope_.kind == EnvelopeKind::kLegacyCheckpoint) {
      envelope_.kind = kind;
      return true;
    }
    return envelope_.kind == kind;
  };
  auto deployment_value = [&](Level inner) -> Status {
    char c = 0;
    Status s = Peek(&c);
    if (!s.ok()) return s;
    if (c == '{' && inner == Level::kDeployment)
      envelope_.has_deployment = true;
    return ReadContainerOrLeaf('{', Role::kUnknown, key, inner);
  };

  switch (level) {
    case Level::kRoot:
      if (field == "version") return EmitLeaf(Role::kVersion, key, 0);
      if (field == "features") return EmitLeaf(Role::kFeatures, key, 0);
      if (field == "deployment" && begin_kind(EnvelopeKind::kExport)) {
        return deployment_value(Level::kDeployment);
      }
      if (field == "checkpoint" && begin_kind(EnvelopeKind::kCheckpoint)) {
        return deployment_value(Level::kCheckpoint);
      }
      if (field == "latest" || field == "stack" || field == "config") {
        envelope_.kind = EnvelopeKind::kLegacyCheckpoint;
        if (field != "config") saw_legacy_anchor_ = true;
        if (field == "latest") return deployment_value(Level::kDeployment);
        if (field == "config") return EmitLeaf(Role::kConfig, key, 0);
        return EmitLeaf(Role::kStack, key, 0);
      }
      if (field.empty() && !envelope_.version &&
          envelope_.kind != EnvelopeKind::kExport &&
          envelope_.kind != EnvelopeKind::kCheckpoint) {
        // "target" is the pre-2018 name of "stack" (Pulumi ignores it, but
        // it marks an unversioned checkpoint).
        if (key == "target") {
          envelope_.kind = EnvelopeKind::kLegacyCheckpoint;
          saw_legacy_anchor_ = true;
        }
        if (!MatchField(key, kHistoryFields).empty()) {
          saw_history_member_ = true;
        }
      }
      return EmitLeaf(Role::kUnknown, key, 0);
    case Level::kCheckpoint:
      if (field == "stack") return EmitLeaf(Role::kStack, key, 0);
      if (field == "config") return EmitLeaf(Role::kConfig, key, 0);
      if (field == "latest") return deployment_value(Level::kDeployment);
      return EmitLeaf(Role::kUnknown, key, 0);
    case Level::kDeployment:
      if (field == "manifest") return EmitLeaf(Role::kManifest, key, 0);
      if (field == "secrets_providers") {
        return EmitLeaf(Role::kSecretsProviders, key, 0);
      }
      if (field == "resources") {
        return ReadContainerOrLeaf('[', Role::kResource, key, level);
      }
      if (field == "pending_operations") {
        return ReadContainerOrLeaf('[', Role::kPendingOperation, key, level);
      }
      if (field == "metadata") return EmitLeaf(Role::kMetadata, key, 0);
      if (field == "snippets") {
        return ReadContainerOrLeaf('[', Role::kSnippet, key, level);
      }
      if (field == "extensions") {
        return ReadContainerOrLeaf('{', Role::kExtension, key, level);
      }
      return EmitLeaf(Role::kUnknown, key, 0);
  }
  return EmitLeaf(Role::kUnknown, key, 0);
}

Status StreamReader::InterpretVersion(const json::Value& v) {
  if (!v.is_number()) {
    return Fatal(Code::kVersionUnsupported,
                 "\"version\" must be an integer, found " +
                     std::string(json::TypeName(v.type)),
                 v.offset);
  }
  std::string_view text = v.raw();
  std::int64_t n = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || ptr != text.data() + text.size()) {
    return Fatal(Code::kVersionUnsupported,
                 "\"version\" must be an integer, found " + std::string(text),
                 v.offset);
  }
  // Go reads an explicit 0 as its zero value: the same as no "version".
  if (n == 0) return Status::Ok();
  envelope_.version = n;
  if (n > 4) {
    return Fatal(Code::kVersionUnsupported,
                 "state version " + std::to_string(n) +
                     " is too new: Pulumi and pstate read versions 1 to 4",
                 v.offset);
  }
  if (n < 1) {
    return Fatal(Code::kVersionUnsupported,
                 "state version " + std::to_string(n) +
                     " is not a version: Pulumi reads versions 1 to 4 (and "
                     "unversioned checkpoints)",
                 v.offset);
  }
  return Status::Ok();
}

void StreamReader::InterpretFeatures(const json::Value& v) {
  // Misshapen features are verify's to report; the envelope keeps what is
  // readable.
  if (!v.is_array()) return;
  for (const json::Value& e : v.array()) {
    if (e.is_string()) envelope_.features.push_back(e.Str());
  }
}

Status StreamReader::FinishEnvelope() {
  // Envelope problems are about the root object as a whole: point at its
  // closing brace, not past the end of the input.
  const io::LineColumn end = root_end_;
  bool history = saw_history_member_ && !saw_legacy_anchor_ &&
                 (envelope_.kind == EnvelopeKind::kUnknown ||
                  envelope_.kind == EnvelopeKind::kLegacyCheckpoint);
  if (envelope_.kind == EnvelopeKind::kUnknown || history) {
    if (history) {
      return Fatal(Code::kNotAState,
                   "not a Pulumi state: this is an update-history record (a "
                   "file-backend .pulumi/history/*.history.json file); the "
                   "stack's state is in .pulumi/stacks/",
                   end);
    }
    return Fatal(Code::kNotAState,
                 "not a Pulumi state: expected a \"deployment\" (pulumi stack "
                 "export) or \"checkpoint\" (file backend) member",
                 end);
  }
  if (envelope_.kind != EnvelopeKind::kLegacyCheckpoint && !envelope_.version) {
    return Fatal(Code::kVersionUnsupported,
                 std::string("the ") +
                     (envelope_.kind == EnvelopeKind::kExport ? "export"
                                                              : "checkpoint") +
                     " has no \"version\"; Pulumi reads versions 1 to 4",
                 end);
  }
  return Status::Ok();
}

}  // namespace

std::string_view EnvelopeKindName(EnvelopeKind kind) {
  switch (kind) {
    case EnvelopeKind::kUnknown: return "unknown";
    case EnvelopeKind::kExport: return "export";
    case EnvelopeKind::kCheckpoint: return "checkpoint";
    case EnvelopeKind::kLegacyCheckpoint: return "legacy-checkpoint";
  }
  return "unknown";
}

Result<Flow> Tee::OnLeaf(Leaf& leaf, Context& context) {
  Result<Flow> a = first_.OnLeaf(leaf, context);
  if (!a.ok()) return a;
  Result<Flow> b = second_.OnLeaf(leaf, context);
  if (!b.ok()) return b;
  return *a == Flow::kStop || *b == Flow::kStop ? Flow::kStop : Flow::kContinue;
}

Status Tee::OnFinish(const Envelope& envelope, Context& context) {
  Status a = first_.OnFinish(envelope, context);
  Status b = second_.OnFinish(envelope, context);
  return a.ok() ? b : a;
}

bool IsKnownFeature(std::string_view name) {
  return std::find(kKnownFeatures.begin(), kKnownFeatures.end(), name) !=
         kKnownFeatures.end();
}

Status Read(io::InputStream& input, Handler& handler, diag::Report& report,
            const ReadOptions& options) {
  StreamReader reader(input, handler, report, options);
  return reader.Run();
}

}  // namespace pstate::state
