// Stable finding fingerprints, and the filter that baselines, ignore files
// and --only/--skip apply to findings as they are reported.
//
// A fingerprint names "this finding in this place" so that CI can accept
// the findings a stack already has (--baseline, .pstateignore) and GitHub
// code scanning can follow an alert across runs (SARIF
// partialFingerprints). It is the same on every run and every machine, and
// it discloses nothing a finding's message does not already say:
//
//   sha256("pstate-fingerprint/1" NUL code NUL subject NUL place NUL
//          normalized message), the first 16 bytes in lowercase hex
//
// where `subject` is the resource's URN when the finding has one, else the
// file's logical identity (LogicalIdentity: its name without directories
// or .json/.gz/.zst/.bak suffixes, so moving or compressing a state keeps
// its fingerprints); `place` is the JSON pointer, relative to the resource
// (/deployment/resources/7/outputs/x -> outputs/x) when there is a URN, so
// inserting a resource before it does not change it; and the normalized
// message has every quoted string emptied and every word holding a digit
// replaced by "#", so run-dependent values (counts, offsets, scan's keyed
// fingerprints) do not change it. Line and column are not part of it: a
// reformatted file keeps its fingerprints.
#ifndef PSTATE_DIAG_FINGERPRINT_H_
#define PSTATE_DIAG_FINGERPRINT_H_

#include <string>
#include <string_view>

#include "diag/codes.h"
#include "diag/finding.h"

namespace pstate::diag {

/// "dev" for ".pulumi/stacks/app/dev.json.gz", "stdin" for "<stdin>".
std::string LogicalIdentity(std::string_view path);

/// The message with quoted strings emptied and words with digits as "#".
std::string NormalizeMessage(std::string_view message);

/// The pointer relative to its resource ("outputs/x"), or unchanged when it
/// is not inside /deployment/resources/N, /checkpoint/latest/resources/N or
/// /latest/resources/N.
std::string_view ResourceRelativePointer(std::string_view pointer);

/// 32 lowercase hex digits; see the file comment. `file`, the path the
/// report names, is data where a message quotes it without quotes (an
/// unreadable input's "PATH: reason"): it is left out, so the fingerprint
/// does not depend on the directory the state is read from.
std::string Fingerprint(const Finding& finding, std::string_view identity,
                        std::string_view file = {});

/// The API's (pstate/pstate.h): --only, --skip and the fingerprints of
/// baselines and ignore files.
using FindingFilter = ::pstate::FindingFilter;
/// The API's: a baseline's and an ignore file's fingerprints.
using ::pstate::ParseBaseline;
using ::pstate::ParseIgnoreFile;

}  // namespace pstate::diag

#endif  // PSTATE_DIAG_FINGERPRINT_H_
