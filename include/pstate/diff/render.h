// Text and JSON renderings of a resource's change list, shared by
// `pstate diff` and `pstate edit --dry-run` so both print changes alike.
//
// Text: one line per change with Pulumi's step symbols ("+" add, "-"
// delete, "~" update; pkg/resource/deploy/step.go RawPrefix) and the
// section joined to the property path:
//     ~ inputs.tags.Name: "a" => "b"
//     + outputs.arn: "arn:aws:..."
//     ~ outputs.password: [secret] => [secret] (unknown: different ciphertexts)
//     ~ protect: false => true
// Values are compact JSON cut to a width; secrets print as [secret]. Every
// line is passed through diag::TerminalSafe.
//
// JSON (docs/inspect.md): the members
//     "properties": [{"section", "path", "kind"[, "secret": true]
//                     [, "unknown": true][, "transition": "to-secret" |
//                     "to-plaintext"][, "before": v][, "after": v]}],
//     "fields": ["protect", ...],
//     "field_changes": [{"name", "kind"[, "before"][, "after"]}]
#ifndef PSTATE_DIFF_RENDER_H_
#define PSTATE_DIFF_RENDER_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "pstate/diff/resource_diff.h"

namespace pstate::diff {

struct TextOptions {
  std::string_view indent = "    ";
  /// Values longer than this many bytes are cut and end in "...".
  std::size_t max_value_width = 80;
};

/// Appends one line per change (properties, then fields) to `out`.
void RenderChangesText(const ResourceChanges& changes, std::string* out,
                       const TextOptions& options = {});

/// One change as a text line without indent or newline.
std::string ChangeLine(const PropertyChange& change,
                       std::size_t max_value_width = 80);
std::string ChangeLine(const FieldChange& change,
                       std::size_t max_value_width = 80);

/// Appends `"properties":[...],"fields":[...],"field_changes":[...]`
/// (members of an enclosing object, no braces) to `out`.
void AppendChangesJson(const ResourceChanges& changes, std::string* out);

/// The step symbol of a kind: "+", "-" or "~".
std::string_view Symbol(ChangeKind kind);

}  // namespace pstate::diff

#endif  // PSTATE_DIFF_RENDER_H_
