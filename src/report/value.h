// The renderings of a displayed value (pstate::Value, diff::DisplayValue):
// compact JSON, in which a hidden secret is the string "[secret]" and a
// shown secret is its value, and the cut text diff and show print.
#ifndef PSTATE_REPORT_VALUE_H_
#define PSTATE_REPORT_VALUE_H_

#include <cstddef>
#include <string>

#include "diff/resource_diff.h"
#include "json/writer.h"

namespace pstate::report {

/// What a hidden secret prints as (text).
inline constexpr std::string_view kHiddenText = "[secret]";

/// Writes `value` at the writer's position: strings, numbers and keys as
/// stored, a hidden secret as the string "[secret]", a shown secret as its
/// value.
void WriteValue(const diff::Value& value, json::Writer& w);

/// `value` as compact JSON (WriteValue).
std::string CompactJson(const diff::Value& value);

/// `value` for a line of text: compact JSON cut to `width` bytes
/// (report::Shorten; 0: whole), a hidden secret as [secret] (no quotes).
std::string ValueText(const diff::Value& value, std::size_t width);

}  // namespace pstate::report

#endif  // PSTATE_REPORT_VALUE_H_
