// Field tables: the JSON type Pulumi's Go structs give each known field,
// and one generic check of an object against such a table.
#ifndef PSTATE_CHECK_FIELDS_H_
#define PSTATE_CHECK_FIELDS_H_

#include <span>
#include <string_view>

#include "pstate/check/check_context.h"
#include "pstate/json/value.h"

namespace pstate::check {

enum class FieldType {
  kString,
  kBool,
  kNumber,
  kObject,
  kArray,
  kStringArray,  ///< array of strings
  kAny,
};

struct FieldSpec {
  std::string_view name;
  FieldType type;
};

/// Reports field-type for known fields of the wrong type (JSON null is
/// accepted everywhere: Go leaves the zero value) and, when
/// `report_unknown`, field-unknown notes for fields not in `fields`.
void CheckFields(const json::Value& object, std::span<const FieldSpec> fields,
                 Reporter& reporter, std::string_view what,
                 bool report_unknown = true);

/// True when `value` has the JSON type `type` asks for (null excepted).
bool HasFieldType(const json::Value& value, FieldType type);

/// RFC 3339 as Go's time.Time accepts it: date, 'T', time, optional
/// fraction, 'Z' or a numeric offset.
bool IsRfc3339(std::string_view text);

}  // namespace pstate::check

#endif  // PSTATE_CHECK_FIELDS_H_
