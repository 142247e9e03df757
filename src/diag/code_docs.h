// Each finding code's documentation, taken from docs/diagnostics.md at
// build time (scripts/gen_code_docs.py): `pstate explain`, `pstate rules`,
// the man page and SARIF's rule help all print the same text.
#ifndef PSTATE_DIAG_CODE_DOCS_H_
#define PSTATE_DIAG_CODE_DOCS_H_

#include <string>
#include <string_view>

#include "diag/codes.h"

namespace pstate::diag {

/// Where the documentation is (PSTATE_DOCS_URI at build time: the installed
/// docs as a file:// URI, or the address a project publishes them at):
/// SARIF's informationUri and each rule's helpUri
/// (docs/diagnostics.md#<code>) start with it.
using ::pstate::DocsBaseUri;  // the API's, defined in code_docs.cc

/// True when docs/diagnostics.md documents the code (a section or a table
/// row); a unit test checks every code is.
bool Documented(Code code);

/// The code's section of docs/diagnostics.md (or its table row's meaning),
/// as markdown without its heading; the summary when undocumented.
std::string_view CodeMarkdown(Code code);

/// The section's description as one line of plain text: the sentences
/// before its "Example:" or "Fix:", at most 1024 bytes (GitHub's limit for
/// a rule's fullDescription), falling back to the code's summary.
std::string CodeDescription(Code code);

/// The markdown as plain text: backquotes and link targets dropped.
std::string CodePlainText(Code code);

/// DocsBaseUri() + "/diagnostics.md#" + the code's name.
std::string CodeHelpUri(Code code);

}  // namespace pstate::diag

#endif  // PSTATE_DIAG_CODE_DOCS_H_
