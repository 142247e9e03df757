// What every check needs: somewhere to report, and where it is in the file.
#ifndef PSTATE_CHECK_CHECK_CONTEXT_H_
#define PSTATE_CHECK_CHECK_CONTEXT_H_

#include <string>
#include <string_view>

#include "pstate/diag/finding.h"
#include "pstate/json/pointer.h"
#include "pstate/json/value.h"
#include "pstate/state/reader.h"

namespace pstate::check {

/// Reports findings for the leaf being checked: fills in the pointer kept
/// in `pointer`, the URN of the resource being checked, and line:column.
class Reporter {
 public:
  Reporter(state::Context& context, std::string_view base_pointer)
      : context_(context), pointer_(std::string(base_pointer)) {}

  void Add(diag::Code code, std::string message, const json::Value& at) {
    Add(code, std::move(message), at.offset);
  }
  void Add(diag::Code code, std::string message, std::uint64_t offset) {
    diag::Finding f =
        diag::MakeFinding(code, std::move(message), pointer_.str(), urn_);
    context_.Report(std::move(f),
                    offset_override_ ? offset_override_ : offset);
  }

  json::PointerBuilder& pointer() { return pointer_; }
  state::Context& context() { return context_; }
  void set_urn(std::string urn) { urn_ = std::move(urn); }
  const std::string& urn() const { return urn_; }
  /// While non-zero, every finding is placed here (values parsed out of a
  /// string, whose own offsets do not map onto the file).
  void set_offset_override(std::uint64_t offset) { offset_override_ = offset; }
  std::uint64_t offset_override() const { return offset_override_; }

 private:
  state::Context& context_;
  json::PointerBuilder pointer_;
  std::string urn_;
  std::uint64_t offset_override_ = 0;
};

/// Scoped pointer segment: pushes on construction, pops on destruction.
class PointerScope {
 public:
  PointerScope(Reporter& r, std::string_view key)
      : r_(r), mark_(r.pointer().PushKey(key)) {}
  PointerScope(Reporter& r, std::size_t index)
      : r_(r), mark_(r.pointer().PushIndex(index)) {}
  ~PointerScope() { r_.pointer().Pop(mark_); }
  PointerScope(const PointerScope&) = delete;
  PointerScope& operator=(const PointerScope&) = delete;

 private:
  Reporter& r_;
  std::size_t mark_;
};

}  // namespace pstate::check

#endif  // PSTATE_CHECK_CHECK_CONTEXT_H_
