// Field tables: the JSON type Pulumi's Go structs give each known field,
// and one generic check of an object against such a table.
#ifndef PSTATE_VERIFY_FIELDS_H_
#define PSTATE_VERIFY_FIELDS_H_

#include <span>
#include <string_view>

#include "json/value.h"
#include "state/schema.h"
#include "verify/check_context.h"

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

/// True when Pulumi can load and save a time.Time written as `raw` (a JSON
/// string's text as stored, between the quotes): ParseRfc3339 accepts it
/// and FormatRfc3339 can write it (base/rfc3339.h). normalize rewrites
/// exactly these times.
bool IsRfc3339(std::string_view raw);

}  // namespace pstate::verify

#endif  // PSTATE_VERIFY_FIELDS_H_
