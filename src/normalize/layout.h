// The byte layouts Pulumi writes a state in (state-operations.md §1.3 in
// the reference notes; Pulumi's pkg/backend/diy/state.go and
// pkg/cmd/pulumi/stack/stack_export.go), and telling which one a file uses.
//
// `pstate normalize` writes one of them; `pstate edit` and `convert` use
// DetectLayout to write a state back in the layout it came in.
#ifndef PSTATE_NORMALIZE_LAYOUT_H_
#define PSTATE_NORMALIZE_LAYOUT_H_

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "json/string_codec.h"
#include "json/writer.h"

namespace pstate::normalize {

/// Pulumi's layouts (the API's pstate::Layout): kExport is `pulumi stack
/// export` of a DIY stack (4-space indent, no HTML escapes, one trailing
/// newline); kDiy an engine save of a DIY checkpoint (`pulumi up`, since
/// v3.238.0: compact, no HTML escapes, no trailing newline); kDiyStateCommand
/// what `pulumi state …` commands and `stack import` leave in a DIY
/// checkpoint (compact, with <, > and & escaped as \u003c, \u003e, \u0026).
using Layout = ::pstate::Layout;

/// "export", "diy" or "diy-state-command".
std::string_view LayoutName(Layout layout);
/// The layout named `name` (as LayoutName spells it), or nullopt.
std::optional<Layout> ParseLayout(std::string_view name);

/// The whitespace and escaping a layout uses.
json::Layout WhitespaceOf(Layout layout);
json::EscapeStyle EscapeOf(Layout layout);

/// Which layout `text` (a state's decoded bytes, or a prefix of them) is
/// written in. Indented text (a newline before the first key) is kExport,
/// whatever its escapes: pre-v3.238 DIY checkpoints were indented too.
/// Compact text is kDiyStateCommand when it holds a \u003c, \u003e or
/// \u0026 escape and no raw <, > or & inside a string, otherwise kDiy. Only
/// the bytes given are looked at: pass a few MiB for a quick answer.
Layout DetectLayout(std::string_view text);

/// DetectLayout over the first `max_bytes` decoded bytes of `path` (gzip
/// and zstd are decompressed; "-" is not allowed: standard input cannot
/// be read twice). Fails with the input's error (kNotFound, kIo, ...).
Result<Layout> DetectLayoutOfFile(const std::string& path,
                                  std::size_t max_bytes = 4u << 20);

}  // namespace pstate::normalize

#endif  // PSTATE_NORMALIZE_LAYOUT_H_
