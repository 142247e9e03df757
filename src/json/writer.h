// Writes JSON the way Go's encoding/json does, so rewritten states look
// like what Pulumi writes: `pulumi stack export`'s 4-space indented layout
// (json.Encoder with SetIndent("", "    ") and SetEscapeHTML(false)) or the
// compact one-line layout of file-backend checkpoints.
//
// Numbers are written exactly as they were read. Strings are re-escaped to
// Go's canonical form only when their text differs from it; otherwise the
// input bytes are copied as they are.
#ifndef PSTATE_JSON_WRITER_H_
#define PSTATE_JSON_WRITER_H_

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "io/output.h"
#include "json/string_codec.h"
#include "json/value.h"

namespace pstate::json {

enum class Layout {
  kIndented,  ///< 4 spaces, "key": value, trailing newline
  kCompact,   ///< no whitespace, no trailing newline
};

class Writer {
 public:
  Writer(io::Output& out, Layout layout,
         EscapeStyle style = EscapeStyle::kExport)
      : out_(out), layout_(layout), style_(style) {}

  void BeginObject();
  void EndObject();
  void BeginArray();
  void EndArray();
  /// `escaped` is JSON string text (without quotes) as the parser kept it;
  /// `ascii` when it is known to hold only ASCII bytes.
  void Key(std::string_view escaped, bool has_escapes, bool ascii = false);
  /// Key for a key as the parser read it (checked as Write checks strings).
  void Key(const Value& key);
  /// Called with each string Write or Key(Value) writes (a member's key or
  /// a value, with its offset) whose canonical form cannot keep it byte for
  /// byte: it holds a lone surrogate escape (HasLoneSurrogate), written as
  /// U+FFFD because that is what Go reads. Rewriting commands note these,
  /// as they note numbers they cannot keep.
  void OnLossyString(std::function<void(const Value&)> callback) {
    on_lossy_ = std::move(callback);
  }
  /// A complete value, at the current position.
  void Write(const Value& value);
  /// Ends the document (a newline in the indented layout).
  void Finish();

  /// Like Write, but strings are copied as their source text, escapes and
  /// all, and object members keep their order: how Go's encoder passes a
  /// json.RawMessage through (only whitespace changes; with the HTML-safe
  /// style raw <, >, &, U+2028 and U+2029 are escaped, as Go's compaction
  /// of a RawMessage does). For `secrets_providers.state`.
  void WriteVerbatim(const Value& value);
  /// Starts a value whose text the caller writes itself to the returned
  /// output (a number in a chosen spelling, a spooled subtree): the
  /// separator and indentation before it are written here. The caller must
  /// write exactly one complete JSON value.
  io::Output& BeginRawValue() {
    BeforeValue();
    return out_;
  }
  // Values made by the program rather than read (reports, listings):
  // `bytes` is decoded text, escaped here as Go's encoder escapes it
  // (AppendEscaped: invalid UTF-8 becomes \ufffd).
  void Name(std::string_view bytes);  ///< an object member's key
  void String(std::string_view bytes);
  void Int(std::int64_t n);
  void Uint(std::uint64_t n);
  void Bool(bool b);
  void Null();
  /// `json_text` is one complete JSON value already in compact form (a
  /// value rendered by json::AppendCompactJson), copied as it is.
  void RawValue(std::string_view json_text);
  /// Open containers: the indentation depth of the next value.
  std::size_t depth() const { return stack_.size(); }

 private:
  void BeforeValue();
  void Newline();
  void WriteString(std::string_view escaped, bool has_escapes,
                   bool ascii = false);
  void WriteValue(const Value& value);
  void WriteDecoded(std::string_view bytes);
  void WriteVerbatimText(std::string_view text);

  struct Frame {
    bool is_object;
    bool empty = true;
  };

  io::Output& out_;
  Layout layout_;
  EscapeStyle style_;
  std::vector<Frame> stack_;
  bool after_key_ = false;
  std::string scratch_;
  std::string indent_;
  std::function<void(const Value&)> on_lossy_;
};

/// An io::Output that appends to a std::string or passes its bytes to a
/// std::ostream when flushed (Commit, or destruction): where reports
/// written with a Writer go.
class StringSink : public io::Output {
 public:
  explicit StringSink(std::string* out) : str_(out) { name_ = "<string>"; }
  explicit StringSink(std::ostream* out) : stream_(out) { name_ = "<stream>"; }
  ~StringSink() override { Flush(); }
  Status Commit() override {
    Flush();
    return Status::Ok();
  }
  void Abandon() override { DiscardBuffer(); }

 private:
  void WriteOut(std::string_view bytes) override {
    if (str_ != nullptr) str_->append(bytes);
    if (stream_ != nullptr)
      stream_->write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  std::string* str_ = nullptr;
  std::ostream* stream_ = nullptr;
};

}  // namespace pstate::json

#endif  // PSTATE_JSON_WRITER_H_
