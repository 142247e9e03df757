#include "pstate/state/reader.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <set>

#include "pstate/json/pointer.h"
#include "pstate/json/string_codec.h"

namespace pstate::state {
namespace {

using diag::Code;

constexpr std::array<std::string_view, 8> kKnownFeatures = {
    "byteString", "extensionParameterization", "hooks", "refreshBeforeUpdate",
    "replaceWith", "snippets-prototype", "taint", "views"};

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
    report_.Add(std::move(finding));
  }
  void ReportUnlocated(diag::Finding finding) override {
    report_.Add(std::move(finding));
  }
  io::LineColumn Locate(std::uint64_t offset) override {
    return window_.Locate(offset);
  }
  const Envelope& envelope() const override { return envelope_; }
  json::Parser& parser() override { return parser_; }

 private:
  Status Fill();
  void ReportProgress();
  /// Skips whitespace; `*c` is the next byte, or '\0' at end of input.
  Status Peek(char* c);
  Status ParseValue(json::Value* out);
  Status Fatal(Code code, std::string message, std::uint64_t offset);
  Status Expect(char c, const char* context);
  std::uint64_t Offset() const { return window_.OffsetOf(pos_); }
  /// After Peek returned '\0': true at the end of input, false for a NUL
  /// byte in the input (which is never valid JSON there).
  bool AtEnd() const { return pos_ >= window_.end() && window_.eof(); }

  /// Reads one object of the envelope: calls `read_member` with pos_ at each
  /// member's value (the pointer already names it) and reports duplicate
  /// keys. The reader's only loop over object members.
  using MemberReader =
      std::function<Status(std::string_view key, io::LineColumn key_at)>;
  Status ReadMembers(const MemberReader& read_member);
  Status ReadObject(Level level);
  Status ReadMember(Level level, std::string_view key, io::LineColumn key_at);
  Status ReadLeafArray(Role element_role);
  Status ReadLeafObject(Role member_role);
  /// A syntax error at `c`: the end of input, or `expected`, found `c`.
  Status Unexpected(char c, std::string_view inside, std::string_view expected);
  Status ReadContainerOrLeaf(char open, Role element_role, std::string_view name,
                             Level level);
  Status EmitLeaf(Role role, std::string_view key, std::size_t index);
  void Note(Code code, std::string message, std::uint64_t offset) {
    Report(diag::MakeFinding(code, std::move(message), pointer_.str()), offset);
  }
  /// Like Note, at a place located before the window moved on.
  void NoteAt(Code code, std::string message, io::LineColumn at) {
    diag::Finding f = diag::MakeFinding(code, std::move(message), pointer_.str());
    f.line = at.line;
    f.column = at.column;
    report_.Add(std::move(f));
  }

  void InterpretVersion(const json::Value& v);
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
  io::LineColumn features_at_;
  std::uint64_t root_end_ = 0;
  bool fatal_ = false;
  Status fatal_status_;
};

Status StreamReader::Fatal(Code code, std::string message,
                           std::uint64_t offset) {
  if (!fatal_) {
    fatal_ = true;
    Report(diag::MakeFinding(code, message, pointer_.str()), offset);
  }
  io::LineColumn lc = window_.Locate(offset);
  fatal_status_ = Status(code == Code::kIoError ? Errc::kIo
                : (code == Code::kNotAState || code == Code::kVersionUnsupported)
                    ? Errc::kFormat
                    : Errc::kSyntax,
                window_.input().name() + ":" + std::to_string(lc.line) + ":" +
                    std::to_string(lc.column) + ": " + message);
  return fatal_status_;
}

Status StreamReader::Fill() {
  if (window_.eof()) return Status::Ok();  // keeps pos_: nothing moves
  std::uint64_t at = Offset();
  Status s = window_.Fill(pos_);
  pos_ = window_.begin();
  if (!s.ok()) {
    if (!fatal_) {
      fatal_ = true;
      Report(diag::MakeFinding(Code::kIoError, s.message(), pointer_.str()),
             at);
    }
    return s;
  }
  ReportProgress();
  return Status::Ok();
}

void StreamReader::ReportProgress() {
  if (!options_.on_progress) return;
  std::uint64_t consumed = window_.input().source_consumed();
  if (consumed >= next_progress_) {
    next_progress_ = consumed + kProgressStep;
    options_.on_progress(consumed, window_.input().source_size().value_or(0));
  }
}

Status StreamReader::Peek(char* c) {
  for (;;) {
    const char* end = window_.end();
    while (pos_ < end && (*pos_ == ' ' || *pos_ == '\n' || *pos_ == '\r' ||
                          *pos_ == '\t')) {
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
    json::ParseStatus st =
        parser_.Parse(pos_, window_.end(), window_.eof(), Offset(), arena_,
                      out, &stop);
    if (st == json::ParseStatus::kOk) {
      pos_ = stop;
      for (const json::DuplicateKey& d : parser_.duplicates()) {
        Report(diag::MakeFinding(Code::kJsonDuplicateKey,
                                 "duplicate key \"" + d.key +
                                     "\" in object; Pulumi keeps the last one",
                                 pointer_.str()),
               d.offset);
      }
      return Status::Ok();
    }
    if (st == json::ParseStatus::kError) {
      const json::SyntaxError& e = parser_.error();
      Code code = e.code == "json-invalid-utf8" ? Code::kJsonInvalidUtf8
                  : e.code == "json-too-deep"   ? Code::kJsonTooDeep
                                                : Code::kJsonSyntax;
      return Fatal(code, e.message, e.offset);
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
  std::string found = next == '\0' && AtEnd() ? std::string("end of input")
                                   : json::DescribeByte(
                                         static_cast<unsigned char>(next));
  return Fatal(Code::kJsonSyntax,
               std::string("expected '") + c + "' " + context + ", found " +
                   found,
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
  leaf.pointer = pointer_.str();
  if (role == Role::kResource) ++envelope_.resources;
  if (role == Role::kPendingOperation) ++envelope_.pending_operations;
  if (role == Role::kVersion) InterpretVersion(leaf.value);
  if (role == Role::kFeatures) InterpretFeatures(leaf.value);
  handler_.OnLeaf(leaf, *this);
  arena_.Reset();
  if (window_.mapped()) {
    window_.Release(pos_);
    ReportProgress();
  }
  if (fatal_) return fatal_status_;
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
  if (c != '{') {
    std::string what = c == '[' ? "an array"
                       : c == '"' ? "a string"
                                  : json::DescribeByte(
                                        static_cast<unsigned char>(c));
    if (c == '[' || c == '"' || c == '-' || (c >= '0' && c <= '9') ||
        c == 't' || c == 'f' || c == 'n') {
      return Fatal(Code::kNotAState,
                   "a Pulumi state is a JSON object, but the input starts "
                   "with " + what,
                   Offset());
    }
    return Fatal(Code::kJsonSyntax,
                 "unexpected " + what + " where a JSON value was expected",
                 Offset());
  }
  s = ReadObject(Level::kRoot);
  if (!s.ok()) return s;
  root_end_ = Offset() - 1;  // the root object's closing '}'
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
  handler_.OnFinish(envelope_, *this);
  return Status::Ok();
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

Status StreamReader::ReadMembers(const MemberReader& read_member) {
  ++pos_;  // '{'
  handler_.BeginObject();
  std::set<std::string> seen;
  char c = 0;
  Status s = Peek(&c);
  if (!s.ok()) return s;
  if (c == '}') {
    ++pos_;
    handler_.EndObject();
    return Status::Ok();
  }
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
    if (!seen.insert(key).second) {
      Report(diag::MakeFinding(Code::kJsonDuplicateKey,
                               "duplicate key \"" + key +
                                   "\" in object; Pulumi keeps the last one",
                               pointer_.str()),
             key_offset);
    }
    // Findings about the member point at its key: locate it before
    // Expect() may refill the window past it.
    io::LineColumn key_at = window_.Locate(key_offset);
    s = Expect(':', "after object key");
    if (!s.ok()) return s;
    handler_.Key(raw_key);
    std::size_t mark = pointer_.PushKey(key);
    s = read_member(key, key_at);
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

Status StreamReader::ReadObject(Level level) {
  return ReadMembers([&](std::string_view key, io::LineColumn key_at) {
    return ReadMember(level, key, key_at);
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
  // Not the container Pulumi writes: hand the whole value over as one leaf.
  std::uint64_t at = Offset();
  bool is_null = c == 'n';
  s = EmitLeaf(Role::kMisshapenContainer, name, 0);
  if (!s.ok()) return s;
  // null is what Go reads as "absent" for slices, maps and pointers.
  if (!is_null) {
    Note(Code::kFieldType,
         "\"" + std::string(name) + "\" must be " +
             (open == '[' ? "an array" : "an object"),
         at);
  }
  return Status::Ok();
}

Status StreamReader::ReadLeafArray(Role element_role) {
  ++pos_;  // '['
  handler_.BeginArray();
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
  return ReadMembers([&](std::string_view key, io::LineColumn) {
    return EmitLeaf(member_role, key, 0);
  });
}

Status StreamReader::ReadMember(Level level, std::string_view key,
                                io::LineColumn key_at) {
  auto unknown = [&]() -> Status {
    NoteAt(Code::kFieldUnknown,
           "unknown field \"" + std::string(key) + "\"; Pulumi ignores it",
           key_at);
    return EmitLeaf(Role::kUnknown, key, 0);
  };
  auto begin_kind = [&](EnvelopeKind kind) {
    if (envelope_.kind == EnvelopeKind::kUnknown ||
        envelope_.kind == EnvelopeKind::kLegacyCheckpoint) {
      envelope_.kind = kind;
      return true;
    }
    return envelope_.kind == kind;
  };
  auto deployment_value = [&](EnvelopeKind kind) -> Status {
    char c = 0;
    Status s = Peek(&c);
    if (!s.ok()) return s;
    if (c == '{') {
      if (kind != EnvelopeKind::kCheckpoint || level != Level::kRoot) {
        envelope_.has_deployment = true;
      }
    }
    return ReadContainerOrLeaf('{', Role::kUnknown, key,
                               kind == EnvelopeKind::kCheckpoint &&
                                       level == Level::kRoot
                                   ? Level::kCheckpoint
                                   : Level::kDeployment);
  };

  switch (level) {
    case Level::kRoot:
      if (key == "version") {
        return EmitLeaf(Role::kVersion, key, 0);
      }
      if (key == "features") {
        char c = 0;
        Status s = Peek(&c);
        if (!s.ok()) return s;
        features_at_ = window_.Locate(Offset());
        return EmitLeaf(Role::kFeatures, key, 0);
      }
      if (key == "deployment") {
        if (!begin_kind(EnvelopeKind::kExport)) return unknown();
        return deployment_value(EnvelopeKind::kExport);
      }
      if (key == "checkpoint") {
        if (!begin_kind(EnvelopeKind::kCheckpoint)) return unknown();
        return deployment_value(EnvelopeKind::kCheckpoint);
      }
      // Unversioned checkpoints are a CheckpointV1 at the top level.
      if (!envelope_.version &&
          (envelope_.kind == EnvelopeKind::kUnknown ||
           envelope_.kind == EnvelopeKind::kLegacyCheckpoint) &&
          (key == "latest" || key == "stack" || key == "target" ||
           key == "config")) {
        envelope_.kind = EnvelopeKind::kLegacyCheckpoint;
        if (key == "latest") return deployment_value(EnvelopeKind::kLegacyCheckpoint);
        if (key == "config") return EmitLeaf(Role::kConfig, key, 0);
        if (key == "target") {
          NoteAt(Code::kFieldUnknown,
                 "\"target\" is the pre-2018 name of \"stack\"; Pulumi ignores "
                 "it, so the checkpoint has no stack name",
                 key_at);
        }
        return EmitLeaf(Role::kStack, key, 0);
      }
      return unknown();
    case Level::kCheckpoint:
      if (key == "stack") return EmitLeaf(Role::kStack, key, 0);
      if (key == "config") return EmitLeaf(Role::kConfig, key, 0);
      if (key == "latest") {
        char c = 0;
        Status s = Peek(&c);
        if (!s.ok()) return s;
        if (c == '{') envelope_.has_deployment = true;
        return ReadContainerOrLeaf('{', Role::kUnknown, key,
                                   Level::kDeployment);
      }
      return unknown();
    case Level::kDeployment:
      if (key == "manifest") return EmitLeaf(Role::kManifest, key, 0);
      if (key == "secrets_providers") {
        return EmitLeaf(Role::kSecretsProviders, key, 0);
      }
      if (key == "resources") {
        return ReadContainerOrLeaf('[', Role::kResource, key, level);
      }
      if (key == "pending_operations") {
        return ReadContainerOrLeaf('[', Role::kPendingOperation, key, level);
      }
      if (key == "metadata") return EmitLeaf(Role::kMetadata, key, 0);
      if (key == "snippets") {
        return ReadContainerOrLeaf('[', Role::kSnippet, key, level);
      }
      if (key == "extensions") {
        return ReadContainerOrLeaf('{', Role::kExtension, key, level);
      }
      return unknown();
  }
  return unknown();
}

void StreamReader::InterpretVersion(const json::Value& v) {
  if (!v.is_number()) {
    static_cast<void>(Fatal(Code::kVersionUnsupported,
          "\"version\" must be an integer, found " +
              std::string(json::TypeName(v.type)),
          v.offset));
    return;
  }
  std::string_view text = v.raw();
  std::int64_t n = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || ptr != text.data() + text.size()) {
    static_cast<void>(Fatal(Code::kVersionUnsupported,
          "\"version\" must be an integer, found " + std::string(text),
          v.offset));
    return;
  }
  envelope_.version = n;
  if (n > 4) {
    static_cast<void>(Fatal(Code::kVersionUnsupported,
          "state version " + std::to_string(n) +
              " is too new: Pulumi and pstate read versions 1 to 4",
          v.offset));
  } else if (n < 1) {
    static_cast<void>(Fatal(Code::kVersionUnsupported,
          "state version " + std::to_string(n) +
              " is too old: Pulumi reads versions 1 to 4 (unversioned "
              "checkpoints have no \"version\" key)",
          v.offset));
  }
}

void StreamReader::InterpretFeatures(const json::Value& v) {
  if (v.is_null()) return;
  if (!v.is_array()) {
    Note(Code::kFieldType, "\"features\" must be an array of strings",
         v.offset);
    return;
  }
  for (const json::Value& e : v.array()) {
    if (!e.is_string()) {
      Note(Code::kFieldType, "\"features\" must be an array of strings",
           e.offset);
      continue;
    }
    envelope_.features.push_back(e.Str());
  }
}

Status StreamReader::FinishEnvelope() {
  // Envelope problems are about the root object as a whole: point at its
  // closing brace, not past the end of the input.
  std::uint64_t end = root_end_;
  if (envelope_.kind == EnvelopeKind::kUnknown) {
    return Fatal(Code::kNotAState,
                 "not a Pulumi state: expected a \"deployment\" (pulumi stack "
                 "export) or \"checkpoint\" (file backend) member",
                 end);
  }
  if (envelope_.kind != EnvelopeKind::kLegacyCheckpoint &&
      !envelope_.version) {
    return Fatal(Code::kVersionUnsupported,
                 std::string("the ") +
                     (envelope_.kind == EnvelopeKind::kExport ? "export"
                                                              : "checkpoint") +
                     " has no \"version\"; Pulumi reads versions 1 to 4",
                 end);
  }
  std::int64_t version = envelope_.version.value_or(0);
  const auto& features = envelope_.features;
  if (!features.empty()) {
    // The window has moved on since "features"; use the place noted then.
    auto finding = [&](Code code, std::string message) {
      diag::Finding f = diag::MakeFinding(code, std::move(message), "/features");
      f.line = features_at_.line;
      f.column = features_at_.column;
      report_.Add(std::move(f));
    };
    if (version < 4) {
      finding(Code::kFeaturesIgnored,
              "\"features\" is only read from version 4 states; Pulumi "
              "ignores it in version " + std::to_string(version));
    } else {
      std::vector<std::string> unknown;
      for (const std::string& f : features) {
        if (!IsKnownFeature(f)) unknown.push_back(f);
      }
      if (!unknown.empty()) {
        std::string list;
        for (const std::string& f : unknown) {
          list += (list.empty() ? "" : ", ") + ("\"" + f + "\"");
        }
        finding(Code::kFeaturesUnsupported,
                "this state needs features Pulumi does not define: " + list);
      }
    }
    std::vector<std::string> sorted = features;
    std::sort(sorted.begin(), sorted.end());
    bool unique = std::adjacent_find(sorted.begin(), sorted.end()) ==
                  sorted.end();
    if (sorted != features || !unique) {
      finding(Code::kFeaturesUnsorted,
              "Pulumi writes \"features\" sorted and without duplicates");
    }
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
