// The Terraform type-constraint language (`--system terraform`): the type
// expressions of a Terraform variable's `type` argument, parsed as HCL
// native syntax the way hashicorp/hcl ext/typeexpr does
// (TypeConstraintWithDefaults): `string`, `number`, `bool`, `any`,
// `list(T)`, `set(T)`, `map(T)`, `tuple([T, ...])`,
// `object({name = T, opt = optional(T, default)})`.
//
// A value is assigned as terraform/internal/terraform/eval_variable.go
// does: the constraint's defaults are applied to a non-null value
// (ext/typeexpr/defaults.go Defaults.Apply), then it is converted with
// go-cty's convert.Convert (cty.h). A type that does not parse is an
// Errc::kSyntax status "at offset N of the type: ...", N a byte offset in
// the type string.
#ifndef PSTATE_TYPES_TERRAFORM_H_
#define PSTATE_TYPES_TERRAFORM_H_

#include <memory>
#include <string>
#include <string_view>

#include "base/result.h"
#include "types/cty.h"
#include "types/type_system.h"

namespace pstate::types {

std::unique_ptr<TypeSystem> MakeTerraformSystem();

namespace terraform {

/// A parsed constraint, for tests and tools: the cty type and its
/// canonical spelling (typeexpr.TypeString, e.g. `object({a=string})`).
struct ParsedConstraint {
  std::string canonical;
  bool has_defaults = false;
};

/// Parses `text` as a type constraint with defaults.
Result<ParsedConstraint> ParseConstraint(std::string_view text);

}  // namespace terraform
}  // namespace pstate::types

#endif  // PSTATE_TYPES_TERRAFORM_H_
