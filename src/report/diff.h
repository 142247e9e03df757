// Text and JSON renderings of a diff: a resource's change list and the
// whole DiffResult, shared by `pstate diff` and `pstate edit --dry-run` so
// both print changes alike.
//
// Text: one line per change with Pulumi's step symbols ("+" add, "-"
// delete, "~" update; pkg/resource/deploy/step.go RawPrefix) and the
// section joined to the property path:
//     ~ inputs.tags.Name: "a" => "b"
//     + outputs.arn: "arn:aws:..."
//     ~ outputs.password: [secret] => [secret] (unknown: different ciphertexts)
//     ~ protect: false => true
// Values are compact JSON cut to a width; secrets print as [secret]. Every
// line is passed through TerminalSafe.
//
// JSON (docs/inspect.md): the members
//     "properties": [{"section", "path", "kind"[, "secret": true]
//                     [, "unknown": true][, "transition": "to-secret" |
//                     "to-plaintext"][, "before": v][, "after": v]}],
//     "fields": ["protect", ...],
//     "field_changes": [{"name", "kind"[, "before"][, "after"]}]
#ifndef PSTATE_REPORT_DIFF_H_
#define PSTATE_REPORT_DIFF_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "diff/differ.h"
#include "diff/resource_diff.h"
#include "json/writer.h"

namespace pstate::report {

struct ChangesTextOptions {
  std::string_view indent = "    ";
  /// Values longer than this many bytes are cut and end in "...".
  std::size_t max_value_width = 80;
};

/// One resource's changes (DiffResource's, or a ResourceChange's
/// properties and fields).
struct ChangesView {
  const std::vector<diff::PropertyChange>& properties;
  const std::vector<diff::FieldChange>& fields;
  ChangesView(const std::vector<diff::PropertyChange>& p,
              const std::vector<diff::FieldChange>& f)
      : properties(p), fields(f) {}
  ChangesView(const diff::ResourceChanges& c)  // NOLINT: a view of it
      : properties(c.properties), fields(c.fields) {}
  ChangesView(const ::pstate::ResourceChange& c)  // NOLINT: a view of it
      : properties(c.properties), fields(c.fields) {}
};

/// Appends one line per change (properties, then fields) to `out`.
void RenderChangesText(ChangesView changes, std::string* out,
                       const ChangesTextOptions& options = {});

/// One change as a text line without indent or newline.
std::string ChangeLine(const diff::PropertyChange& change,
                       std::size_t max_value_width = 80);
std::string ChangeLine(const diff::FieldChange& change,
                       std::size_t max_value_width = 80);

/// Writes the members "properties", "fields" and "field_changes" into the
/// object `w` has open.
void WriteChangesJson(ChangesView changes, json::Writer& w);

/// The step symbol of a kind: "+", "-" or "~".
std::string_view Symbol(diff::ChangeKind kind);

/// Text rendering: one line per resource with Pulumi's step symbols and
/// the property lines below it, the envelope changes, and a summary line;
/// `stat_only` prints the summary alone. A `limit` above 0 prints the
/// first `limit` resource entries only, then a line saying how many were
/// left out; the envelope changes and the summary stay whole.
std::string RenderDiffText(const ::pstate::DiffResult& result, bool stat_only,
                           std::size_t limit = 0);

struct DiffTextOptions {
  /// The counts only: per resource type, then the summary line.
  bool stat_only = false;
  std::size_t limit = 0;  ///< as above
  /// Colour each line by its step symbol (+ green, - red, ~ yellow, ! for
  /// an order note magenta), reset before the end of the line.
  bool color = false;
};
std::string RenderDiffText(const ::pstate::DiffResult& result,
                           const DiffTextOptions& options);
/// {"resources": [...], "envelope": [...], "summary": {...}} and a newline
/// (schema in docs/inspect.md). A `limit` above 0 keeps the first `limit`
/// resource entries; when some were left out, "truncated": true and
/// "omitted": N follow "resources" (the summary stays whole).
std::string RenderDiffJson(const ::pstate::DiffResult& result,
                           std::size_t limit = 0);

}  // namespace pstate::report

#endif  // PSTATE_REPORT_DIFF_H_
