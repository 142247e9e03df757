// Field tables: the JSON type Pulumi's Go structs give each known field,
// and one generic check of an object against such a table.
#ifndef PSTATE_VERIFY_FIELDS_H_
#define PSTATE_VERIFY_FIELDS_H_

#include <span>
#include <string_view>

#include "pstate/json/value.h"
#include "pstate/state/schema.h"
#include "pstate/verify/check_context.h"

namespace pstate::verify {

// The tables themselves are Pulumi's structs, in state/schema.h.
using FieldType = state::FieldKind;
using FieldSpec = state::Field;

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
bool IsRfc3339(std::string_view s);

}  // namespace pstate::verify

#endif  // PSTATE_VERIFY_FIELDS_H_
