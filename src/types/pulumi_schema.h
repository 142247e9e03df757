// Pulumi package-schema type specs, `system: "pulumi-schema"`
// (docs/types.md; Pulumi's pkg/codegen/schema/pulumi.json metaschema and
// bind.go for the grammar, sdk/go/pulumi/rpc.go unmarshalOutput for how a
// value is read into a schema type).
//
// A type is a typeSpec or propertySpec written as JSON:
//   {"type": "boolean"|"integer"|"number"|"string"}
//   {"type": "array", "items": SPEC}
//   {"type": "object", "additionalProperties": SPEC}   (default: string)
//   {"$ref": "#/types/<token>" | "#/resources/<token>" | "#/provider"
//            | "pulumi.json#/Any" | ".../Json" | ".../Asset" | ".../Archive"}
//   {"oneOf": [SPEC, ...], "discriminator": {"propertyName", "mapping"}}
// plus "plain", "const", "default", "secret" and the other propertySpec
// keys. `$ref`s are resolved against the SchemaSet the system was made
// with; a ref no loaded schema has is an error of the type.
#ifndef PSTATE_TYPES_PULUMI_SCHEMA_H_
#define PSTATE_TYPES_PULUMI_SCHEMA_H_

#include <memory>

#include "types/schema_set.h"
#include "types/type_system.h"

namespace pstate::types {

/// `schemas` may be null (no package loaded: only built-ins and inline
/// specs resolve); it must outlive the system.
std::unique_ptr<TypeSystem> MakePulumiSchemaSystem(const SchemaSet* schemas);

}  // namespace pstate::types

#endif  // PSTATE_TYPES_PULUMI_SCHEMA_H_
