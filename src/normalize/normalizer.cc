#include "normalize/normalizer.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <functional>
#include <span>
#include <tuple>
#include <utility>

#include "json/number.h"
#include "json/pointer.h"
#include "json/string_codec.h"
#include "normalize/go_text.h"
#include "state/schema.h"

namespace pstate::normalize {
namespace {

using state::Field;
using state::K;

/// A Go struct a JSON object stands for: decides each field's shape.
enum class Struct {
  kResource,
  kResourceV1,
  kManifest,
  kPlugin,
  kSecretsProviders,
  kMetadata,
  kIntegrityError,
  kSnippet,
  kDescriptor,
  kParameterization,
  kExtension,
  kOperation,
  kCustomTimeouts,
  kStackFrame,
};

std::span<const Field> TableOf(Struct s) {
  switch (s) {
    case Struct::kResource:
      // The last entry, `defaults`, is ResourceV1's only.
      return std::span<const Field>(state::kResourceFields)
          .first(state::kResourceFields.size() - 1);
    case Struct::kResourceV1: return state::kResourceV1Fields;
    case Struct::kManifest: return state::kManifestFields;
    case Struct::kPlugin: return state::kPluginFields;
    case Struct::kSecretsProviders: return state::kSecretsProviderFields;
    case Struct::kMetadata: return state::kMetadataFields;
    case Struct::kIntegrityError: return state::kIntegrityErrorFields;
    case Struct::kSnippet: return state::kSnippetFields;
    case Struct::kDescriptor: return state::kDescriptorFields;
    case Struct::kParameterization: return state::kParameterizationFields;
    case Struct::kExtension: return state::kExtensionFields;
    case Struct::kOperation: return state::kOperationFields;
    case Struct::kCustomTimeouts: return state::kCustomTimeoutsFields;
    case Struct::kStackFrame: return state::kStackFrameFields;
  }
  return {};
}

/// How a field's value is written.
enum class Shape {
  kValue,     ///< interface{} / scalars / []string: maps sorted
  kVerbatim,  ///< json.RawMessage
  kTime,      ///< time.Time
  kStruct,    ///< a struct value (never omitted)
  kPointer,   ///< a pointer to a struct (omitted only when null)
  kStructs,   ///< a slice of structs
};

struct FieldShape {
  Shape shape = Shape::kValue;
  Struct nested = Struct::kResource;
};

FieldShape ShapeOf(Struct s, std::string_view f) {
  switch (s) {
    case Struct::kResource:
    case Struct::kResourceV1:
      if (f == "created" || f == "modified") return {Shape::kTime};
      if (f == "customTimeouts") {
        return {Shape::kPointer, Struct::kCustomTimeouts};
      }
      if (f == "stackTrace") return {Shape::kStructs, Struct::kStackFrame};
      break;
    case Struct::kManifest:
      if (f == "time") return {Shape::kTime};
      if (f == "plugins") return {Shape::kStructs, Struct::kPlugin};
      break;
    case Struct::kSecretsProviders:
      if (f == "state") return {Shape::kVerbatim};
      break;
    case Struct::kMetadata:
      if (f == "integrity_error") {
        return {Shape::kPointer, Struct::kIntegrityError};
      }
      break;
    case Struct::kSnippet:
      if (f == "descriptor") return {Shape::kStruct, Struct::kDescriptor};
      break;
    case Struct::kDescriptor:
      if (f == "parameterization") {
        return {Shape::kPointer, Struct::kParameterization};
      }
      break;
    case Struct::kOperation:
      if (f == "resource") return {Shape::kStruct, Struct::kResource};
      break;
    default: break;
  }
  return {};
}

constexpr std::size_t kStructCount =
    static_cast<std::size_t>(Struct::kStackFrame) + 1;

/// A struct's fields with their shapes, computed once: WriteStruct runs
/// for every resource, and string compares per field add up.
struct StructInfo {
  std::span<const Field> table;
  std::vector<FieldShape> shapes;
};

const StructInfo& InfoOf(Struct s) {
  static const std::array<StructInfo, kStructCount> infos = [] {
    std::array<StructInfo, kStructCount> out;
    for (std::size_t i = 0; i < kStructCount; ++i) {
      auto st = static_cast<Struct>(i);
      out[i].table = TableOf(st);
      for (const Field& f : out[i].table) {
        out[i].shapes.push_back(ShapeOf(st, f.name));
      }
    }
    return out;
  }();
  return infos[static_cast<std::size_t>(s)];
}

/// The index in `table` of the field `key` fills, as Go's decoder matches
/// it (exactly, else case-insensitively), or table.size(). Exact matches
/// are looked for from `hint` on first: a file Pulumi wrote lists members
/// in field order, so the next match is usually a few entries ahead.
std::size_t FieldIndex(std::string_view key, std::span<const Field> table,
                       std::size_t hint) {
  const std::size_t n = table.size();
  for (std::size_t i = hint; i < n; ++i) {
    if (table[i].name == key) return i;
  }
  for (std::size_t i = 0; i < hint && i < n; ++i) {
    if (table[i].name == key) return i;
  }
  std::string_view name = state::MatchField(key, table);
  if (name.empty()) return n;
  for (std::size_t i = 0; i < n; ++i) {
    if (table[i].name.data() == name.data()) return i;
  }
  return n;
}

/// Go's zero value check for omitempty: false, 0, "", empty, nil.
bool IsGoEmpty(const json::Value& v) {
  switch (v.type) {
    case json::Type::kNull:
    case json::Type::kFalse: return true;
    case json::Type::kTrue: return false;
    case json::Type::kNumber: return json::NumbersEqual(v.raw(), "0");
    case json::Type::kString:
    case json::Type::kArray:
    case json::Type::kObject: return v.size == 0;
  }
  return false;
}

/// Go's omitempty test for a field of kind `kind`: the value is that
/// kind's zero (or null, which leaves the field at its zero). A value of
/// another JSON type is not the field's zero whatever it holds ("inputs":
/// false): Go cannot decode it at all, so it is kept for verify to report,
/// never dropped as if it were empty.
bool IsGoEmptyAs(const json::Value& v, state::FieldKind kind) {
  if (v.is_null()) return true;
  switch (kind) {
    case K::kBool: return v.type == json::Type::kFalse;
    case K::kNumber:
      return v.type == json::Type::kNumber && json::NumbersEqual(v.raw(), "0");
    case K::kString: return v.type == json::Type::kString && v.size == 0;
    case K::kObject: return v.type == json::Type::kObject && v.size == 0;
    case K::kArray:
    case K::kStringArray: return v.type == json::Type::kArray && v.size == 0;
    case K::kAny: return IsGoEmpty(v);
  }
  return false;
}

/// The decoded key of a member, using `storage` only when it has escapes.
std::string_view DecodedKey(const json::Member& m, std::string* storage) {
  if (!m.key.has_escapes) return m.key.raw();
  storage->clear();
  json::AppendUnescaped(m.key.raw(), storage);
  return *storage;
}

/// An io::Output appending to a temporary file (spooled arrays).
class FileOutput : public io::Output {
 public:
  FileOutput() : file_(std::tmpfile()) { name_ = "<spool>"; }
  ~FileOutput() override {
    if (file_) std::fclose(file_);
  }
  FileOutput(const FileOutput&) = delete;
  FileOutput& operator=(const FileOutput&) = delete;
  Status Commit() override {
    Flush();
    if (!file_ || error_ || std::fflush(file_) != 0) {
      return Status(Errc::kIo, "cannot write a temporary spool file");
    }
    return Status::Ok();
  }
  void Abandon() override { DiscardBuffer(); }
  std::FILE* file() { return file_; }

 private:
  void WriteOut(std::string_view bytes) override {
    if (!file_ || error_) {
      error_ = true;
      return;
    }
    if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) {
      error_ = true;
    }
  }
  std::FILE* file_;
  bool error_ = false;
};

/// Copies JSON text rendered at depth 0 to `out` at `depth`: each newline
/// of the indented layout gets 4 spaces per level (strings never hold a
/// raw newline, so every newline is layout).
void CopyIndented(io::Output& out, std::string_view text, std::size_t depth,
                  json::Layout layout) {
  if (layout != json::Layout::kIndented || depth == 0) {
    out.Write(text);
    return;
  }
  std::string pad(4 * depth, ' ');
  std::size_t start = 0;
  for (;;) {
    const void* nl =
        std::memchr(text.data() + start, '\n', text.size() - start);
    if (nl == nullptr) break;
    std::size_t at =
        static_cast<std::size_t>(static_cast<const char*>(nl) - text.data());
    out.Write(text.substr(start, at + 1 - start));
    out.Write(pad);
    start = at + 1;
  }
  out.Write(text.substr(start));
}

}  // namespace

// ---------------------------------------------------------------------------

class Normalizer::Impl {
 public:
  Impl(io::Output& out, Options options, Mode mode)
      : out_(out), options_(std::move(options)), mode_(mode) {}

  // --- handler events -----------------------------------------------------
  void BeginObject();
  void Key(std::string_view raw_key) { raw_key_.assign(raw_key); }
  void EndObject();
  void BeginArray();
  void EndArray();
  void OnEnvelopeMember(const state::EnvelopeMember& member,
                        state::Context& context);
  Result<state::Flow> OnLeaf(state::Leaf& leaf, state::Context& context);
  Status OnFinish(const state::Envelope& envelope);

  bool needs_reorder() const { return needs_reorder_; }
  const std::optional<diag::Failure>& failure() const { return located_; }
  Layout layout() const { return layout_.value_or(Layout::kExport); }
  const std::vector<Note>& notes() const { return notes_; }
  std::uint64_t note_count(NoteKind kind) const {
    return counts_[static_cast<std::size_t>(kind)];
  }

 private:
  enum class FrameType { kRoot, kCheckpoint, kDeployment, kArray, kExtensions };

  struct Slot {
    enum Kind {
      kNone,
      kText,
      kDeferred,
      kSpool,
      kFrame,
      kEmitted
    } kind = kNone;
    std::string text;
    /// kDeferred: a value read before the envelope kind (and so the
    /// layout) was known, cloned, rendered when written.
    json::Value value;
    state::Role role = state::Role::kUnknown;
    std::shared_ptr<FileOutput> spool;
    int frame = -1;
  };

  struct Frame {
    FrameType type;
    int parent = -1;
    std::string field;  ///< the parent's field this frame is the value of
    std::vector<std::pair<std::string, Slot>> slots;
    std::vector<std::pair<std::string, Slot>> unknowns;  // raw key, value
    bool opened = false;     ///< its '{' was written (stream mode)
    std::size_t cursor = 0;  ///< table fields before this were emitted
    // kArray
    std::size_t elements = 0;
    std::shared_ptr<FileOutput> spool;
    std::unique_ptr<json::Writer> spool_writer;
    // kExtensions: decoded key, raw key, text
    std::vector<std::tuple<std::string, std::string, std::string>> members;
  };

  /// The member being read in the innermost envelope object.
  struct Pending {
    std::string field;
    std::string key;
    std::uint64_t key_offset = 0;
    bool duplicate = false;
  };

  // --- output -------------------------------------------------------------
  Layout OutputLayout();
  json::Writer& Main();
  state::EnvelopeKind OutputKind() const;
  std::span<const Field> TableOfFrame(const Frame& f) const;
  std::size_t IndexIn(const Frame& f, std::string_view field) const;
  Slot* FindSlot(Frame& f, std::string_view field);
  Slot& SetSlot(Frame& f, const std::string& field);
  /// Stream mode: writes frame `fi` (and its ancestors) up to `field`.
  bool OpenFor(int fi, std::string_view field);
  void WriteSlot(json::Writer& w, Slot& slot);
  void WriteZero(json::Writer& w, const Frame& f, std::string_view field);
  void EmitRest(int fi, json::Writer& w);
  void Restructure(const state::Envelope& envelope);

  // --- values -------------------------------------------------------------
  std::string Render(const std::function<void(json::Writer&)>& fn);
  void WriteStruct(json::Writer& w, const json::Value& v, Struct s);
  void WriteValue(json::Writer& w, const json::Value& v);
  void WriteNumber(json::Writer& w, const json::Value& v);
  void WriteResource(json::Writer& w, const json::Value& v);
  json::Value MigrateResource(const json::Value& v, int from_version);

  void AddNote(NoteKind kind, std::uint64_t offset, std::string message,
               std::optional<std::string> pointer = std::nullopt);
  /// Makes `w` note every string it cannot keep byte for byte.
  void NoteLossyStrings(json::Writer& w);
  void NoteUnknown(const json::Member& m);
  std::string PointerHere() const;
  int InputVersion() const;
  bool Deferring() const {
    return !layout_ && !options_.layout &&
           input_kind_ == state::EnvelopeKind::kUnknown;
  }

  io::Output& out_;
  Options options_;
  Mode mode_;
  std::optional<Layout> layout_;
  std::unique_ptr<json::Writer> main_;
  json::Arena persist_;  ///< deferred values
  std::vector<std::unique_ptr<Frame>> frames_;
  std::vector<int> stack_;
  Pending pending_;
  std::string raw_key_;
  state::EnvelopeKind input_kind_ = state::EnvelopeKind::kUnknown;
  std::optional<std::int64_t> input_version_;
  bool needs_reorder_ = false;
  Status failure_;
  /// failure_ with its place, when the normalizer found it in the input.
  std::optional<diag::Failure> located_;
  std::vector<Note> notes_;
  std::uint64_t counts_[kNoteKinds] = {};

  // The leaf being rendered.
  state::Context* context_ = nullptr;
  state::Leaf* leaf_ = nullptr;
  struct PathSeg {
    const json::Value* key = nullptr;
    std::size_t index = 0;
  };
  /// The path below the leaf, for notes' pointers. A member is pushed and
  /// popped for every value written, so this is a plain array that only
  /// grows (std::vector's push_back was not inlined: 2% of normalize's CPU).
  class PathStack {
   public:
    void push_back(PathSeg seg) {
      if (size_ == segs_.size()) [[unlikely]] {
        segs_.resize(2 * segs_.size() + 16);
      }
      segs_[size_++] = seg;
    }
    void pop_back() { --size_; }
    void clear() { size_ = 0; }
    const PathSeg* begin() const { return segs_.data(); }
    const PathSeg* end() const { return segs_.data() + size_; }

   private:
    std::vector<PathSeg> segs_;
    std::size_t size_ = 0;
  };
  PathStack path_;
  std::string key_scratch_a_, key_scratch_b_;
  std::string number_;
};

// --- notes -----------------------------------------------------------------

std::string Normalizer::Impl::PointerHere() const {
  std::string p = leaf_ ? std::string(leaf_->pointer) : std::string();
  for (const PathSeg& s : path_) {
    if (s.key) {
      json::AppendPointerToken(&p, s.key->Str());
    } else {
      json::AppendPointerIndex(&p, s.index);
    }
  }
  return p;
}

void Normalizer::Impl::AddNote(NoteKind kind, std::uint64_t offset,
                               std::string message,
                               std::optional<std::string> pointer) {
  std::uint64_t& n = counts_[static_cast<std::size_t>(kind)];
  ++n;
  if (n > options_.max_notes) return;
  Note note;
  note.kind = kind;
  note.pointer = pointer ? std::move(*pointer) : PointerHere();
  if (context_) {
    io::LineColumn lc = context_->Locate(offset);
    note.line = lc.line;
    note.column = lc.column;
  }
  note.message = std::move(message);
  notes_.push_back(std::move(note));
}

void Normalizer::Impl::NoteLossyStrings(json::Writer& w) {
  w.OnLossyString([this](const json::Value& s) {
    // Go's decoder reads a lone surrogate escape as U+FFFD
    // (encoding/json's unquote), so that is what Pulumi would write back.
    AddNote(NoteKind::kInexactString, s.offset,
            "a string with a lone UTF-16 surrogate escape (such as "
            "\\ud800) is written with U+FFFD in its place, as Pulumi "
            "reads and would write it");
  });
}

void Normalizer::Impl::NoteUnknown(const json::Member& m) {
  path_.push_back({&m.key, 0});
  AddNote(NoteKind::kUnknownMember, m.key.offset,
          options_.drop_unknown
              ? "dropped \"" + m.key.Str() + "\": Pulumi does not define it"
              : "kept \"" + m.key.Str() +
                    "\" after the known members: Pulumi does not define it "
                    "and drops it on its next write");
  path_.pop_back();
}

int Normalizer::Impl::InputVersion() const {
  if (input_kind_ == state::EnvelopeKind::kLegacyCheckpoint) return 0;
  return static_cast<int>(input_version_.value_or(3));
}

// --- values ----------------------------------------------------------------

std::string Normalizer::Impl::Render(
    const std::function<void(json::Writer&)>& fn) {
  io::StringOutput s;
  json::Writer w(s, WhitespaceOf(OutputLayout()), EscapeOf(OutputLayout()));
  NoteLossyStrings(w);
  fn(w);
  return s.str();
}

void Normalizer::Impl::WriteNumber(json::Writer& w, const json::Value& v) {
  std::string_view raw = v.raw();
  if (IsPlainInteger(raw) || IsGoDecimal(raw)) {
    w.BeginRawValue().Write(raw);
    return;
  }
  std::optional<double> d = json::ToDouble(raw);
  if (options_.pulumi_numbers) {
    if (!d) {
      if (failure_.ok()) {
        diag::Failure f;
        f.errc = Errc::kFormat;
        if (context_) {
          io::LineColumn lc = context_->Locate(v.offset);
          f.line = lc.line;
          f.column = lc.column;
        }
        f.pointer = PointerHere();
        f.reason = "Pulumi cannot read the number " + std::string(raw) +
                   " (beyond float64); --pulumi-numbers cannot round it";
        failure_ = Status(f.errc, f.reason);
        located_ = std::move(f);
      }
      w.BeginRawValue().Write(raw);
      return;
    }
    number_ = json::GoFloatText(*d);
    w.BeginRawValue().Write(number_);
    return;
  }
  // Go's spelling is used when it denotes the very same decimal value
  // ("0.10" -> "0.1", "1e2" -> "100"); otherwise Go would change the value.
  if (d) {
    number_ = json::GoFloatText(*d);
    if (json::NumbersEqual(number_, raw)) {
      w.BeginRawValue().Write(number_);
      return;
    }
  }
  w.BeginRawValue().Write(raw);
  AddNote(NoteKind::kInexactNumber, v.offset,
          d ? "kept " + std::string(raw) +
                  " exactly; Pulumi would write it "
                  "as " +
                  json::GoFloatText(*d)
            : "kept " + std::string(raw) +
                  " exactly; Pulumi cannot read it (beyond float64)");
}

void Normalizer::Impl::WriteValue(json::Writer& w, const json::Value& v) {
  switch (v.type) {
    case json::Type::kNumber: WriteNumber(w, v); return;
    case json::Type::kArray: {
      w.BeginArray();
      for (std::size_t i = 0; i < v.size; ++i) {
        path_.push_back({nullptr, i});
        WriteValue(w, v.elements[i]);
        path_.pop_back();
      }
      w.EndArray();
      return;
    }
    case json::Type::kObject: {
      // A Go map: keys sorted bytewise (unescaped), the last duplicate wins.
      std::span<const json::Member> members = v.object();
      // Each key is decoded once, into the scratch buffer the previous one
      // does not use (raw keys without escapes need no buffer at all).
      bool sorted = true;
      if (members.size() > 1) {
        std::string_view prev = DecodedKey(members[0], &key_scratch_a_);
        for (std::size_t i = 1; i < members.size(); ++i) {
          std::string_view cur = DecodedKey(
              members[i], (i & 1) != 0 ? &key_scratch_b_ : &key_scratch_a_);
          if (!(prev < cur)) {
            sorted = false;
            break;
          }
          prev = cur;
        }
      }
      w.BeginObject();
      if (sorted) {
        for (const json::Member& m : members) {
          w.Key(m.key);
          path_.push_back({&m.key, 0});
          WriteValue(w, m.value);
          path_.pop_back();
        }
        w.EndObject();
        return;
      }
      std::vector<std::pair<std::string, std::uint32_t>> keys;
      keys.reserve(members.size());
      for (std::uint32_t i = 0; i < members.size(); ++i) {
        keys.emplace_back(members[i].key.Str(), i);
      }
      std::stable_sort(
          keys.begin(), keys.end(),
          [](const auto& a, const auto& b) { return a.first < b.first; });
      for (std::size_t k = 0; k < keys.size(); ++k) {
        const json::Member& m = members[keys[k].second];
        if (k + 1 < keys.size() && keys[k + 1].first == keys[k].first) {
          path_.push_back({&m.key, 0});
          AddNote(NoteKind::kDuplicateKey, m.key.offset,
                  "dropped a duplicate of \"" + keys[k].first +
                      "\": the last one wins, as in Pulumi");
          path_.pop_back();
          continue;
        }
        w.Key(m.key);
        path_.push_back({&m.key, 0});
        WriteValue(w, m.value);
        path_.pop_back();
      }
      w.EndObject();
      return;
    }
    default: w.Write(v); return;
  }
}

void Normalizer::Impl::WriteStruct(json::Writer& w, const json::Value& v,
                                   Struct s) {
  if (!v.is_object()) {
    WriteValue(w, v);
    return;
  }
  const StructInfo& info = InfoOf(s);
  std::span<const Field> table = info.table;
  std::span<const json::Member> members = v.object();
  // Which member fills each field: Go's decoder matches exactly, then
  // case-insensitively, and the last match wins.
  constexpr std::size_t kMaxFields = 40;
  int chosen[kMaxFields];
  std::fill(chosen, chosen + kMaxFields, -1);
  std::vector<std::uint32_t> unknown;
  std::size_t hint = 0;
  for (std::uint32_t i = 0; i < members.size(); ++i) {
    const json::Member& m = members[i];
    std::string_view key = DecodedKey(m, &key_scratch_a_);
    std::size_t fi = FieldIndex(key, table, hint);
    if (fi == table.size()) {
      unknown.push_back(i);
      continue;
    }
    hint = fi + 1;
    if (chosen[fi] >= 0) {
      const json::Member& old = members[static_cast<std::size_t>(chosen[fi])];
      path_.push_back({&old.key, 0});
      AddNote(NoteKind::kDuplicateKey, old.key.offset,
              "dropped a duplicate of \"" + std::string(table[fi].name) +
                  "\": the last one wins, as in Pulumi");
      path_.pop_back();
    }
    chosen[fi] = static_cast<int>(i);
  }
  w.BeginObject();
  for (std::size_t fi = 0; fi < table.size(); ++fi) {
    const Field& field = table[fi];
    const FieldShape& shape = info.shapes[fi];
    const json::Value* value =
        chosen[fi] >= 0 ? &members[static_cast<std::size_t>(chosen[fi])].value
                        : nullptr;
    // A json.RawMessage is empty only when absent: "null" and "{}" are
    // bytes Go writes back.
    const bool raw = shape.shape == Shape::kVerbatim;
    if (value == nullptr || (value->is_null() && !raw)) {
      if (field.omitempty && shape.shape != Shape::kStruct) continue;
      // Go writes a non-omitempty field's zero value.
      w.Key(field.name, false, true);
      if (shape.shape == Shape::kStruct) {
        json::Value empty;
        empty.type = json::Type::kObject;
        WriteStruct(w, empty, shape.nested);
      } else if (shape.shape == Shape::kTime) {
        w.BeginRawValue().Write("\"0001-01-01T00:00:00Z\"");
      } else if (field.kind == K::kString) {
        w.BeginRawValue().Write("\"\"");
      } else if (field.kind == K::kBool) {
        w.BeginRawValue().Write("false");
      } else if (field.kind == K::kNumber) {
        w.BeginRawValue().Write("0");
      } else {
        w.BeginRawValue().Write("null");
      }
      continue;
    }
    if (field.omitempty && !raw && shape.shape != Shape::kPointer &&
        shape.shape != Shape::kStruct && IsGoEmptyAs(*value, field.kind)) {
      continue;
    }
    const json::Member& m = members[static_cast<std::size_t>(chosen[fi])];
    w.Key(field.name, false, true);
    path_.push_back({&m.key, 0});
    switch (shape.shape) {
      case Shape::kVerbatim: w.WriteVerbatim(*value); break;
      case Shape::kTime: {
        std::optional<std::string> t;
        if (value->is_string()) t = GoTimeText(value->raw());
        if (t) {
          w.BeginRawValue().Write("\"" + *t + "\"");
        } else {
          WriteValue(w, *value);
        }
        break;
      }
      case Shape::kStruct:
      case Shape::kPointer: WriteStruct(w, *value, shape.nested); break;
      case Shape::kStructs:
        if (value->is_array()) {
          w.BeginArray();
          for (std::size_t i = 0; i < value->size; ++i) {
            path_.push_back({nullptr, i});
            WriteStruct(w, value->elements[i], shape.nested);
            path_.pop_back();
          }
          w.EndArray();
        } else {
          WriteValue(w, *value);
        }
        break;
      case Shape::kValue: WriteValue(w, *value); break;
    }
    path_.pop_back();
  }
  // Members Pulumi does not define: after the known ones, in their order.
  for (std::size_t u = 0; u < unknown.size(); ++u) {
    const json::Member& m = members[unknown[u]];
    bool later_same = false;
    for (std::size_t x = u + 1; x < unknown.size(); ++x) {
      if (members[unknown[x]].key.Str() == m.key.Str()) later_same = true;
    }
    if (later_same) {
      path_.push_back({&m.key, 0});
      AddNote(NoteKind::kDuplicateKey, m.key.offset,
              "dropped a duplicate of \"" + m.key.Str() +
                  "\": the last one wins, as in Pulumi");
      path_.pop_back();
      continue;
    }
    NoteUnknown(m);
    if (options_.drop_unknown) continue;
    w.Key(m.key);
    path_.push_back({&m.key, 0});
    WriteValue(w, m.value);
    path_.pop_back();
  }
  w.EndObject();
}

json::Value Normalizer::Impl::MigrateResource(const json::Value& v,
                                              int from_version) {
  // pkg/resource/stack/migrate: V1 -> V2 drops `defaults` (and ignores any
  // `external`/`provider` a V1 file has); V2 -> V3 sets
  // propertyDependencies[k] = dependencies for every input key k.
  json::Arena& arena = *leaf_->arena;
  std::vector<json::Member> out;
  const json::Value* inputs = nullptr;
  const json::Value* deps = nullptr;
  std::span<const Field> source =
      from_version <= 1 ? std::span<const Field>(state::kResourceV1Fields)
                        : std::span<const Field>(state::kResourceFields)
                              .subspan(0, 14);  // ResourceV2: up to provider
  for (const json::Member& m : v.object()) {
    std::string key = m.key.Str();
    std::string_view name = state::MatchField(key, source);
    if (name.empty()) {
      // A V3 field in an older file means nothing to Pulumi's decoder.
      if (!state::MatchField(key, state::kResourceFields).empty()) {
        path_.push_back({&m.key, 0});
        AddNote(NoteKind::kDropped, m.key.offset,
                "dropped \"" + key + "\": version " +
                    std::to_string(from_version) +
                    " resources have no such field, so Pulumi ignores it");
        path_.pop_back();
        continue;
      }
      out.push_back(m);
      continue;
    }
    if (name == "defaults") {
      path_.push_back({&m.key, 0});
      AddNote(NoteKind::kDropped, m.key.offset,
              "dropped \"defaults\": the version 1 to 2 migration removes it");
      path_.pop_back();
      continue;
    }
    json::Member copy = m;
    if (name != key) copy.key = arena.MakeString(name, m.key.offset);
    if (name == "inputs") inputs = &m.value;
    if (name == "dependencies") deps = &m.value;
    out.push_back(copy);
  }
  if (inputs && inputs->is_object() && inputs->size > 0) {
    std::vector<json::Member> pd;
    json::Value list =
        deps && deps->is_array() && deps->size > 0 ? *deps : json::MakeNull();
    for (const json::Member& in : inputs->object()) {
      pd.push_back({in.key, list});
    }
    json::Member m;
    m.key = arena.MakeString("propertyDependencies", v.offset);
    m.value = arena.MakeObject(pd, v.offset);
    out.push_back(m);
  }
  return arena.MakeObject(out, v.offset);
}

void Normalizer::Impl::WriteResource(json::Writer& w, const json::Value& v) {
  int from = InputVersion();
  bool migrate = options_.version && from < 3;
  if (migrate && v.is_object()) {
    WriteStruct(w, MigrateResource(v, from), Struct::kResource);
    return;
  }
  WriteStruct(w, v, from <= 1 ? Struct::kResourceV1 : Struct::kResource);
}

// --- frames and output ------------------------------------------------------

state::EnvelopeKind Normalizer::Impl::OutputKind() const {
  switch (options_.envelope) {
    case Envelope::kExport: return state::EnvelopeKind::kExport;
    case Envelope::kCheckpoint: return state::EnvelopeKind::kCheckpoint;
    case Envelope::kSameAsInput: break;
  }
  return input_kind_;
}

Layout Normalizer::Impl::OutputLayout() {
  if (!layout_) {
    layout_ = options_.layout                                ? *options_.layout
              : OutputKind() == state::EnvelopeKind::kExport ? Layout::kExport
                                                             : Layout::kDiy;
  }
  return *layout_;
}

json::Writer& Normalizer::Impl::Main() {
  if (!main_) {
    main_ = std::make_unique<json::Writer>(out_, WhitespaceOf(OutputLayout()),
                                           EscapeOf(OutputLayout()));
    NoteLossyStrings(*main_);
  }
  return *main_;
}

std::span<const Field> Normalizer::Impl::TableOfFrame(const Frame& f) const {
  switch (f.type) {
    case FrameType::kRoot:
      switch (OutputKind()) {
        case state::EnvelopeKind::kExport: return state::kExportFields;
        case state::EnvelopeKind::kLegacyCheckpoint:
          return state::kCheckpointFields;
        default: return state::kVersionedCheckpointFields;
      }
    case FrameType::kCheckpoint: return state::kCheckpointFields;
    case FrameType::kDeployment: return state::kDeploymentFields;
    default: return {};
  }
}

std::size_t Normalizer::Impl::IndexIn(const Frame& f,
                                      std::string_view field) const {
  std::span<const Field> t = TableOfFrame(f);
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i].name == field) return i;
  }
  return t.size();
}

Normalizer::Impl::Slot* Normalizer::Impl::FindSlot(Frame& f,
                                                   std::string_view field) {
  for (auto& [name, slot] : f.slots) {
    if (name == field) return &slot;
  }
  return nullptr;
}

Normalizer::Impl::Slot& Normalizer::Impl::SetSlot(Frame& f,
                                                  const std::string& field) {
  if (Slot* s = FindSlot(f, field)) {
    // A repeated envelope member: Go keeps the last one.
    if (s->kind == Slot::kEmitted) needs_reorder_ = true;
    *s = Slot();
    return *s;
  }
  if (mode_ == Mode::kStream && f.opened && IndexIn(f, field) < f.cursor) {
    needs_reorder_ = true;
  }
  f.slots.emplace_back(field, Slot());
  return f.slots.back().second;
}

void Normalizer::Impl::WriteZero(json::Writer& w, const Frame& f,
                                 std::string_view field) {
  // Go's zero values of the envelope's non-omitempty fields.
  if (f.type == FrameType::kDeployment && field == "metadata") {
    w.BeginObject();
    w.EndObject();
  } else if (f.type == FrameType::kDeployment && field == "manifest") {
    json::Value empty;
    empty.type = json::Type::kObject;
    WriteStruct(w, empty, Struct::kManifest);
  } else if (field == "version") {
    w.BeginRawValue().Write("0");
  } else if (field == "stack") {
    w.BeginRawValue().Write("\"\"");
  } else {
    w.BeginRawValue().Write("null");
  }
}

void Normalizer::Impl::WriteSlot(json::Writer& w, Slot& slot) {
  switch (slot.kind) {
    case Slot::kText:
      CopyIndented(w.BeginRawValue(), slot.text, w.depth(),
                   WhitespaceOf(OutputLayout()));
      break;
    case Slot::kDeferred:
      if (slot.role == state::Role::kVersion) {
        w.BeginRawValue().Write(slot.text);
      } else if (slot.role == state::Role::kFeatures && slot.value.is_array()) {
        std::vector<json::Value> sorted(slot.value.elements,
                                        slot.value.elements + slot.value.size);
        std::stable_sort(sorted.begin(), sorted.end(),
                         [](const json::Value& a, const json::Value& b) {
                           return a.Str() < b.Str();
                         });
        w.BeginArray();
        for (const json::Value& e : sorted) WriteValue(w, e);
        w.EndArray();
      } else {
        WriteValue(w, slot.value);
      }
      break;
    case Slot::kSpool: {
      io::Output& o = w.BeginRawValue();
      std::FILE* file = slot.spool->file();
      std::rewind(file);
      std::string buf(1u << 20, '\0');
      for (;;) {
        std::size_t n = std::fread(buf.data(), 1, buf.size(), file);
        if (n == 0) break;
        CopyIndented(o, std::string_view(buf.data(), n), w.depth(),
                     WhitespaceOf(OutputLayout()));
      }
      slot.spool.reset();
      break;
    }
    case Slot::kFrame: {
      Frame& child = *frames_[static_cast<std::size_t>(slot.frame)];
      w.BeginObject();
      child.opened = true;
      EmitRest(slot.frame, w);
      w.EndObject();
      break;
    }
    default: break;
  }
  slot.kind = Slot::kEmitted;
}

void Normalizer::Impl::EmitRest(int fi, json::Writer& w) {
  Frame& f = *frames_[static_cast<std::size_t>(fi)];
  std::span<const Field> table = TableOfFrame(f);
  int version = options_.version ? *options_.version : InputVersion();
  for (std::size_t i = f.cursor; i < table.size(); ++i) {
    const Field& field = table[i];
    Slot* slot = FindSlot(f, field.name);
    if (slot && slot->kind != Slot::kNone && slot->kind != Slot::kEmitted) {
      w.Key(field.name, false, true);
      WriteSlot(w, *slot);
    } else if (!slot && !field.omitempty) {
      if (f.type == FrameType::kDeployment && field.name == "metadata" &&
          version < 3) {
        continue;  // DeploymentV1 and V2 have no metadata
      }
      w.Key(field.name, false, true);
      WriteZero(w, f, field.name);
    }
  }
  f.cursor = table.size();
  for (auto& [key, slot] : f.unknowns) {
    w.Key(key, key.find('\\') != std::string::npos);
    WriteSlot(w, slot);
  }
  f.unknowns.clear();
}

bool Normalizer::Impl::OpenFor(int fi, std::string_view field) {
  Frame& f = *frames_[static_cast<std::size_t>(fi)];
  if (!f.opened) {
    if (f.parent >= 0) {
      if (!OpenFor(f.parent, f.field)) return false;
      Main().Key(f.field, false, true);
    }
    Main().BeginObject();
    f.opened = true;
    if (f.parent >= 0) {
      Frame& p = *frames_[static_cast<std::size_t>(f.parent)];
      if (Slot* s = FindSlot(p, f.field)) s->kind = Slot::kEmitted;
    }
  }
  std::size_t target = IndexIn(f, field);
  if (target < f.cursor) {
    needs_reorder_ = true;
    return false;
  }
  std::span<const Field> table = TableOfFrame(f);
  for (std::size_t i = f.cursor; i < target; ++i) {
    Slot* slot = FindSlot(f, table[i].name);
    if (slot && slot->kind != Slot::kNone && slot->kind != Slot::kEmitted) {
      Main().Key(table[i].name, false, true);
      WriteSlot(Main(), *slot);
    } else if (!slot && !table[i].omitempty) {
      Main().Key(table[i].name, false, true);
      WriteZero(Main(), f, table[i].name);
    }
  }
  f.cursor = target;
  return true;
}

// --- events -----------------------------------------------------------------

void Normalizer::Impl::OnEnvelopeMember(const state::EnvelopeMember& member,
                                        state::Context& context) {
  input_kind_ = context.envelope().kind;
  input_version_ = context.envelope().version;
  pending_.field = std::string(member.field);
  pending_.key = std::string(member.key);
  pending_.key_offset = member.key_offset;
  pending_.duplicate = member.duplicate;
  if (member.duplicate && !stack_.empty() &&
      frames_[static_cast<std::size_t>(stack_.back())]->type !=
          FrameType::kExtensions) {
    context_ = &context;
    leaf_ = nullptr;
    std::string pointer(member.parent);
    json::AppendPointerToken(&pointer, member.key);
    AddNote(NoteKind::kDuplicateKey, member.key_offset,
            "\"" + std::string(member.key) +
                "\" appears again: the earlier one is dropped, as in Pulumi",
            pointer);
    context_ = nullptr;
  }
}

void Normalizer::Impl::BeginObject() {
  auto frame = std::make_unique<Frame>();
  if (stack_.empty()) {
    frame->type = FrameType::kRoot;
  } else {
    Frame& parent = *frames_[static_cast<std::size_t>(stack_.back())];
    frame->parent = stack_.back();
    frame->field = pending_.field;
    if (pending_.field == "checkpoint") {
      frame->type = FrameType::kCheckpoint;
    } else if (pending_.field == "extensions") {
      frame->type = FrameType::kExtensions;
    } else {
      frame->type = FrameType::kDeployment;
    }
    if (frame->type != FrameType::kExtensions) {
      Slot& s = SetSlot(parent, pending_.field);
      s.kind = Slot::kFrame;
      s.frame = static_cast<int>(frames_.size());
    }
  }
  frames_.push_back(std::move(frame));
  stack_.push_back(static_cast<int>(frames_.size() - 1));
}

void Normalizer::Impl::EndObject() {
  int fi = stack_.back();
  stack_.pop_back();
  Frame& f = *frames_[static_cast<std::size_t>(fi)];
  if (f.type == FrameType::kExtensions) {
    Frame& parent = *frames_[static_cast<std::size_t>(f.parent)];
    std::stable_sort(f.members.begin(), f.members.end(),
                     [](const auto& a, const auto& b) {
                       return std::get<0>(a) < std::get<0>(b);
                     });
    std::string text = Render([&](json::Writer& w) {
      w.BeginObject();
      for (std::size_t i = 0; i < f.members.size(); ++i) {
        if (i + 1 < f.members.size() &&
            std::get<0>(f.members[i + 1]) == std::get<0>(f.members[i])) {
          continue;  // the last duplicate wins (noted when read)
        }
        const std::string& raw = std::get<1>(f.members[i]);
        w.Key(raw, raw.find('\\') != std::string::npos);
        CopyIndented(w.BeginRawValue(), std::get<2>(f.members[i]), w.depth(),
                     WhitespaceOf(OutputLayout()));
      }
      w.EndObject();
    });
    Slot& s = SetSlot(parent, "extensions");
    if (!f.members.empty()) {
      s.kind = Slot::kText;
      s.text = std::move(text);
    }
    return;
  }
  if (mode_ == Mode::kStream && f.opened && !needs_reorder_) {
    EmitRest(fi, Main());
    Main().EndObject();
    if (f.parent >= 0) {
      Frame& parent = *frames_[static_cast<std::size_t>(f.parent)];
      parent.cursor = IndexIn(parent, f.field) + 1;
    }
  }
}

void Normalizer::Impl::BeginArray() {
  int parent = stack_.back();
  // A repeated array (Go keeps the last) after the first was written.
  if (Slot* s =
          FindSlot(*frames_[static_cast<std::size_t>(parent)], pending_.field);
      s && s->kind == Slot::kEmitted && mode_ == Mode::kStream) {
    needs_reorder_ = true;
  }
  auto frame = std::make_unique<Frame>();
  frame->type = FrameType::kArray;
  frame->parent = parent;
  frame->field = pending_.field;
  frames_.push_back(std::move(frame));
  stack_.push_back(static_cast<int>(frames_.size() - 1));
}

void Normalizer::Impl::EndArray() {
  int fi = stack_.back();
  stack_.pop_back();
  Frame& f = *frames_[static_cast<std::size_t>(fi)];
  Frame& parent = *frames_[static_cast<std::size_t>(f.parent)];
  if (f.elements == 0) {
    // An empty slice is omitted (omitempty), as Go omits it.
    if (Slot* s = FindSlot(parent, f.field)) *s = Slot();
    return;
  }
  if (f.spool_writer) {
    f.spool_writer->EndArray();
    if (Status st = f.spool->Commit(); !st.ok() && failure_.ok()) {
      failure_ = st;
    }
    Slot& s = SetSlot(parent, f.field);
    s.kind = Slot::kSpool;
    s.spool = f.spool;
    f.spool_writer.reset();
    return;
  }
  if (!needs_reorder_) {
    Main().EndArray();
    parent.cursor = IndexIn(parent, f.field) + 1;
    if (Slot* s = FindSlot(parent, f.field)) s->kind = Slot::kEmitted;
  }
}

Result<state::Flow> Normalizer::Impl::OnLeaf(state::Leaf& leaf,
                                             state::Context& context) {
  input_kind_ = context.envelope().kind;
  input_version_ = context.envelope().version;
  context_ = &context;
  leaf_ = &leaf;
  path_.clear();
  Frame& top = *frames_[static_cast<std::size_t>(stack_.back())];
  const json::Value& v = leaf.value;

  if (top.type == FrameType::kArray &&
      leaf.role == state::Role::kPendingOperation &&
      options_.drop_pending_operations) {
    const json::Value* type = v.is_object() ? v.Find("type") : nullptr;
    const json::Value* res = v.is_object() ? v.Find("resource") : nullptr;
    const json::Value* urn =
        res && res->is_object() ? res->Find("urn") : nullptr;
    AddNote(NoteKind::kDropped, v.offset,
            "removed pending operation '" +
                (type && type->is_string() ? type->Str() : std::string("?")) +
                "' on '" +
                (urn && urn->is_string() ? urn->Str() : std::string("?")) +
                "', as `pulumi stack import` does");
    context_ = nullptr;
    leaf_ = nullptr;
    return state::Flow::kContinue;
  }
  if (top.type == FrameType::kArray) {
    json::Writer* w = nullptr;
    if (top.elements == 0) {
      // The array is written only once it has an element (omitempty).
      if (mode_ == Mode::kSpool) {
        top.spool = std::make_shared<FileOutput>();
        top.spool_writer = std::make_unique<json::Writer>(
            *top.spool, WhitespaceOf(OutputLayout()), EscapeOf(OutputLayout()));
        NoteLossyStrings(*top.spool_writer);
        top.spool_writer->BeginArray();
      } else {
        Frame& parent = *frames_[static_cast<std::size_t>(top.parent)];
        Slot& s = SetSlot(parent, top.field);
        s.kind = Slot::kEmitted;
        if (needs_reorder_ || !OpenFor(top.parent, top.field)) {
          return Status(Errc::kUnsupported, "members out of Go's order");
        }
        Main().Key(top.field, false, true);
        Main().BeginArray();
      }
    }
    w = top.spool_writer ? top.spool_writer.get() : &Main();
    ++top.elements;
    switch (leaf.role) {
      case state::Role::kResource: WriteResource(*w, v); break;
      case state::Role::kPendingOperation:
        if (options_.version && InputVersion() < 3 && v.is_object()) {
          // OperationV1 -> OperationV2: the resource is migrated.
          w->BeginObject();
          const json::Value* res = v.Find("resource");
          const json::Value* type = v.Find("type");
          w->Key("resource", false, true);
          // OperationV2.Resource is a ResourceV3 value, not a pointer
          // (migrate.UpToOperationV2): an absent one is the zero struct,
          // as the version 3 path writes it.
          json::Value zero;
          zero.type = json::Type::kObject;
          WriteResource(*w, res != nullptr && !res->is_null() ? *res : zero);
          w->Key("type", false, true);
          if (type) {
            WriteValue(*w, *type);
          } else {
            w->BeginRawValue().Write("\"\"");
          }
          w->EndObject();
        } else {
          WriteStruct(*w, v, Struct::kOperation);
        }
        break;
      case state::Role::kSnippet: WriteStruct(*w, v, Struct::kSnippet); break;
      default: WriteValue(*w, v); break;
    }
  } else if (top.type == FrameType::kExtensions) {
    std::string text =
        Render([&](json::Writer& w) { WriteStruct(w, v, Struct::kExtension); });
    top.members.emplace_back(std::string(leaf.key), raw_key_, std::move(text));
    if (pending_.duplicate) {
      AddNote(NoteKind::kDuplicateKey, pending_.key_offset,
              "dropped an earlier \"" + std::string(leaf.key) +
                  "\": the last one wins, as in Pulumi");
    }
  } else {
    std::string field = pending_.field;
    std::string text;
    bool omit = false;
    // Before the envelope kind is known the layout is not: version,
    // features and stray root members are kept as values until written.
    const bool deferred = Deferring();
    switch (leaf.role) {
      case state::Role::kVersion: {
        std::int64_t n = 0;
        std::string_view raw = v.raw();
        auto r = std::from_chars(raw.data(), raw.data() + raw.size(), n);
        text = r.ec == std::errc() ? std::to_string(n) : std::string(raw);
        omit = n == 0 && OutputKind() == state::EnvelopeKind::kExport;
        break;
      }
      case state::Role::kFeatures: {
        if (!v.is_array()) {
          if (!deferred) {
            text = Render([&](json::Writer& w) { WriteValue(w, v); });
          }
          break;
        }
        std::vector<json::Value> sorted(v.elements, v.elements + v.size);
        std::stable_sort(sorted.begin(), sorted.end(),
                         [](const json::Value& a, const json::Value& b) {
                           return a.Str() < b.Str();
                         });
        omit = sorted.empty();
        if (deferred) break;
        text = Render([&](json::Writer& w) {
          w.BeginArray();
          for (const json::Value& e : sorted) WriteValue(w, e);
          w.EndArray();
        });
        break;
      }
      case state::Role::kManifest:
        text = Render(
            [&](json::Writer& w) { WriteStruct(w, v, Struct::kManifest); });
        break;
      case state::Role::kSecretsProviders:
        if (options_.version && InputVersion() < 3) {
          // DeploymentV1 and V2 have no secrets_providers: Pulumi's
          // migration to V3 (pkg/resource/stack/migrate) drops it.
          AddNote(NoteKind::kDropped, pending_.key_offset,
                  "dropped \"" + pending_.key + "\": version " +
                      std::to_string(InputVersion()) +
                      " deployments have no such member, so Pulumi's "
                      "migration drops it");
          context_ = nullptr;
          leaf_ = nullptr;
          return state::Flow::kContinue;
        }
        omit = v.is_null();
        text = Render([&](json::Writer& w) {
          WriteStruct(w, v, Struct::kSecretsProviders);
        });
        break;
      case state::Role::kMetadata:
        text = Render(
            [&](json::Writer& w) { WriteStruct(w, v, Struct::kMetadata); });
        break;
      case state::Role::kUnknown: {
        AddNote(
            NoteKind::kUnknownMember, pending_.key_offset,
            options_.drop_unknown
                ? "dropped \"" + pending_.key + "\": Pulumi does not define it"
                : "kept \"" + pending_.key +
                      "\" after the known members: Pulumi does not "
                      "define it and drops it on its next write");
        if (!options_.drop_unknown) {
          if (!Deferring()) {
            text = Render([&](json::Writer& w) { WriteValue(w, v); });
          }
          if (pending_.duplicate) {
            for (auto it = top.unknowns.begin(); it != top.unknowns.end();
                 ++it) {
              if (it->first == raw_key_) {
                top.unknowns.erase(it);
                break;
              }
            }
          }
          Slot u;
          u.kind = Slot::kText;
          u.text = std::move(text);
          if (Deferring()) {
            u.kind = Slot::kDeferred;
            u.value = json::Clone(v, persist_);
          }
          top.unknowns.emplace_back(raw_key_, std::move(u));
        }
        context_ = nullptr;
        leaf_ = nullptr;
        return state::Flow::kContinue;
      }
      default:
        // stack, config, a misshapen container ("resources": null), ...
        omit =
            v.is_null() || (leaf.role == state::Role::kConfig && IsGoEmpty(v));
        // A json.RawMessage "null" is not empty: Go writes it.
        if (leaf.role == state::Role::kStack || field == "deployment") {
          omit = false;
        }
        if (!deferred) {
          text = Render([&](json::Writer& w) { WriteValue(w, v); });
        }
        break;
    }
    if (leaf.role == state::Role::kVersion) field = "version";
    if (leaf.role == state::Role::kFeatures) field = "features";
    Slot& slot = SetSlot(top, field);
    if (!omit) {
      slot.kind = Slot::kText;
      slot.text = std::move(text);
      if (deferred) {
        slot.kind = Slot::kDeferred;
        slot.role = leaf.role;
        slot.value = json::Clone(v, persist_);
      }
    }
  }
  context_ = nullptr;
  leaf_ = nullptr;
  if (!failure_.ok()) return failure_;
  if (needs_reorder_) {
    return Status(Errc::kUnsupported, "members out of Go's order");
  }
  return state::Flow::kContinue;
}

void Normalizer::Impl::Restructure(const state::Envelope& envelope) {
  // The input's frames hold the deployment; the output's envelope is built
  // around it (state-operations.md §2.3).
  Frame& root = *frames_[0];
  Slot deployment;
  Slot config;
  std::vector<std::pair<std::string, Slot>> checkpoint_unknowns;
  auto take = [](Frame& f, std::string_view field) {
    for (auto& [name, slot] : f.slots) {
      if (name == field) return std::move(slot);
    }
    return Slot();
  };
  Slot stack_slot;
  if (envelope.kind == state::EnvelopeKind::kExport) {
    deployment = take(root, "deployment");
  } else if (envelope.kind == state::EnvelopeKind::kLegacyCheckpoint) {
    deployment = take(root, "latest");
    config = take(root, "config");
    stack_slot = take(root, "stack");
  } else {
    Slot cp = take(root, "checkpoint");
    if (cp.kind == Slot::kFrame) {
      Frame& c = *frames_[static_cast<std::size_t>(cp.frame)];
      deployment = take(c, "latest");
      config = take(c, "config");
      stack_slot = take(c, "stack");
      checkpoint_unknowns = std::move(c.unknowns);
    }
  }
  auto root_out = std::make_unique<Frame>();
  root_out->type = FrameType::kRoot;
  root_out->unknowns = std::move(root.unknowns);
  int version = options_.version ? *options_.version : 3;
  Slot v;
  v.kind = Slot::kText;
  v.text = std::to_string(version);
  root_out->slots.emplace_back("version", std::move(v));
  if (!options_.features.empty()) {
    Slot f;
    f.kind = Slot::kText;
    f.text = Render([&](json::Writer& w) {
      w.BeginArray();
      for (const std::string& name : options_.features) {
        json::Arena a;
        w.Write(a.MakeString(name));
      }
      w.EndArray();
    });
    root_out->slots.emplace_back("features", std::move(f));
  }
  if (OutputKind() == state::EnvelopeKind::kExport) {
    if (config.kind == Slot::kText) {
      AddNote(NoteKind::kDropped, 0,
              "dropped the checkpoint's \"config\": an export has none");
    }
    for (auto& u : checkpoint_unknowns) {
      AddNote(NoteKind::kDropped, 0,
              "dropped the checkpoint's \"" + json::Unescape(u.first) +
                  "\": an export has no checkpoint object");
    }
    if (deployment.kind == Slot::kNone) {
      deployment.kind = Slot::kText;
      deployment.text = "null";
    }
    root_out->slots.emplace_back("deployment", std::move(deployment));
  } else {
    auto cp = std::make_unique<Frame>();
    cp->type = FrameType::kCheckpoint;
    cp->field = "checkpoint";
    cp->parent = static_cast<int>(frames_.size());
    Slot s;
    s.kind = Slot::kText;
    s.text = Render([&](json::Writer& w) {
      json::Arena a;
      w.Write(a.MakeString(options_.stack));
    });
    if (options_.stack.empty() && stack_slot.kind == Slot::kText) {
      s = std::move(stack_slot);
    }
    cp->slots.emplace_back("stack", std::move(s));
    if (config.kind == Slot::kText) {
      cp->slots.emplace_back("config", std::move(config));
    }
    if (deployment.kind != Slot::kNone) {
      cp->slots.emplace_back("latest", std::move(deployment));
    }
    cp->unknowns = std::move(checkpoint_unknowns);
    Slot c;
    c.kind = Slot::kFrame;
    c.frame = static_cast<int>(frames_.size()) + 1;
    root_out->slots.emplace_back("checkpoint", std::move(c));
    frames_.push_back(std::move(root_out));
    frames_.push_back(std::move(cp));
    return;
  }
  frames_.push_back(std::move(root_out));
}

Status Normalizer::Impl::OnFinish(const state::Envelope& envelope) {
  input_kind_ = envelope.kind;
  input_version_ = envelope.version;
  if (!failure_.ok()) return failure_;
  if (needs_reorder_) {
    return Status(Errc::kUnsupported, "members out of Go's order");
  }
  bool convert = options_.version.has_value() ||
                 options_.envelope != Envelope::kSameAsInput;
  if (mode_ == Mode::kSpool || convert) {
    int root = 0;
    if (convert) {
      Restructure(envelope);
      // The new root is the first frame Restructure added.
      for (std::size_t i = frames_.size(); i-- > 0;) {
        if (frames_[i]->type == FrameType::kRoot && i != 0) {
          root = static_cast<int>(i);
          break;
        }
      }
    }
    json::Writer& w = Main();
    w.BeginObject();
    EmitRest(root, w);
    w.EndObject();
  } else if (!frames_.empty() && !frames_[0]->opened) {
    json::Writer& w = Main();
    w.BeginObject();
    frames_[0]->opened = true;
    EmitRest(0, w);
    w.EndObject();
  }
  Main().Finish();
  return Status::Ok();
}

// ---------------------------------------------------------------------------

Normalizer::Normalizer(io::Output& out, Options options, Mode mode) {
  // A conversion rebuilds the envelope at the end: it always spools.
  if (options.version || options.envelope != Envelope::kSameAsInput) {
    mode = Mode::kSpool;
  }
  impl_ = std::make_unique<Impl>(out, std::move(options), mode);
}
Normalizer::~Normalizer() = default;
void Normalizer::BeginObject() { impl_->BeginObject(); }
void Normalizer::Key(std::string_view raw_key) { impl_->Key(raw_key); }
void Normalizer::EndObject() { impl_->EndObject(); }
void Normalizer::BeginArray() { impl_->BeginArray(); }
void Normalizer::EndArray() { impl_->EndArray(); }
void Normalizer::OnEnvelopeMember(const state::EnvelopeMember& member,
                                  state::Context& context) {
  impl_->OnEnvelopeMember(member, context);
}
Result<state::Flow> Normalizer::OnLeaf(state::Leaf& leaf,
                                       state::Context& context) {
  return impl_->OnLeaf(leaf, context);
}
Status Normalizer::OnFinish(const state::Envelope& envelope,
                            state::Context& context) {
  (void)context;
  return impl_->OnFinish(envelope);
}
bool Normalizer::needs_reorder() const { return impl_->needs_reorder(); }
const std::optional<diag::Failure>& Normalizer::failure() const {
  return impl_->failure();
}
Layout Normalizer::layout() const { return impl_->layout(); }
const std::vector<Note>& Normalizer::notes() const { return impl_->notes(); }
std::uint64_t Normalizer::note_count(NoteKind kind) const {
  return impl_->note_count(kind);
}

}  // namespace pstate::normalize
