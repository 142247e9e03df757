// What every check needs: somewhere to report, and where it is in the file.
#ifndef PSTATE_VERIFY_CHECK_CONTEXT_H_
#define PSTATE_VERIFY_CHECK_CONTEXT_H_

#include <string>
#include <string_view>
#include <vector>

#include "diag/finding.h"
#include "json/pointer.h"
#include "json/value.h"
#include "state/reader.h"

namespace pstate::verify {

/// Reports findings for the leaf being checked: fills in the JSON pointer
/// of the current position, the URN of the resource being checked, and
/// line:column.
///
/// The pointer is kept as a stack of segments and only spelled out when a
/// finding is made: checks descend into every value, findings are rare.
class Reporter {
 public:
  Reporter(state::Context& context, std::string_view base_pointer)
      : context_(context), path_(base_pointer) {}

  void Add(diag::Code code, std::string message, const json::Value& at) {
    Add(code, std::move(message), at.offset);
  }
  void Add(diag::Code code, std::string message, std::uint64_t offset) {
    diag::Finding f =
        diag::MakeFinding(code, std::move(message), PointerString(), urn_);
    context_.Report(std::move(f), offset_override_ ? offset_override_ : offset);
  }

  /// The JSON pointer of the current position.
  std::string PointerString() const;
  /// Appends it to `out`.
  void AppendPointer(std::string* out) const { path_.AppendTo(out); }

  state::Context& context() { return context_; }
  /// `urn_at`: where the URN's text is in the input, byte for byte (the
  /// first byte after the quote of a string without escapes), or 0.
  void set_urn(std::string urn, std::uint64_t urn_at = 0) {
    urn_ = std::move(urn);
    urn_at_ = urn_at;
  }
  const std::string& urn() const { return urn_; }
  std::uint64_t urn_at() const { return urn_at_; }
  /// While non-zero, every finding is placed here (values parsed out of a
  /// string, whose own offsets do not map onto the file).
  void set_offset_override(std::uint64_t offset) { offset_override_ = offset; }
  std::uint64_t offset_override() const { return offset_override_; }

 private:
  friend class PointerScope;

  state::Context& context_;
  json::PointerPath path_;
  std::string urn_;
  std::uint64_t urn_at_ = 0;
  std::uint64_t offset_override_ = 0;
};

/// An escaped JSON pointer suffix ("/a/0/~1b") below the current position,
/// as a walker that tracks its own path spells it (state/property.h).
struct PointerSuffix {
  std::string_view text;
};

/// Scoped pointer segment: pushed on construction, popped on destruction.
///
/// IMPORTANT: the key is not copied; the string (or the json::Value key)
/// must outlive the scope.
class PointerScope {
 public:
  PointerScope(Reporter& r, std::string_view key) : r_(r) {
    r_.path_.PushName(key);
  }
  PointerScope(Reporter& r, const char* key)
      : PointerScope(r, std::string_view(key)) {}
  PointerScope(Reporter& r, const std::string& key)
      : PointerScope(r, std::string_view(key)) {}
  PointerScope(Reporter& r, const json::Value& key) : r_(r) {
    r_.path_.PushKey(key);
  }
  PointerScope(Reporter& r, PointerSuffix suffix) : r_(r) {
    r_.path_.PushSuffix(suffix.text);
  }
  PointerScope(Reporter& r, std::size_t index) : r_(r) {
    r_.path_.PushIndex(index);
  }
  PointerScope(Reporter& r, std::string&& key) = delete;
  ~PointerScope() { r_.path_.Pop(); }
  PointerScope(const PointerScope&) = delete;
  PointerScope& operator=(const PointerScope&) = delete;

 private:
  Reporter& r_;
};

}  // namespace pstate::verify

#endif  // PSTATE_VERIFY_CHECK_CONTEXT_H_
