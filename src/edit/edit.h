// `pstate edit`: offline state surgery (issue 14). The command's core:
//   pass 1  the state reader feeds the verifier and the Indexer at once;
//   plan    the edit is planned on the index (plan.h), or refused;
//   splice  the output is the input's bytes with only the changed
//           resources re-serialized (splice.h);
//   verify  the output is streamed through the verifier (pass 2); an edit
//           that adds an error-severity finding the input did not have is
//           refused unless forced. When the edit keeps the resources'
//           order, only what it can affect is read again: resources it
//           rewrites or whose references name a URN it renames or removes
//           (splice.h, Assembly::check_segments);
//   write   to the output (atomic; --in-place keeps a .bak), compressed
//           like the input.
// No secret is decrypted: secrets are opaque bytes to every step.
#ifndef PSTATE_EDIT_EDIT_H_
#define PSTATE_EDIT_EDIT_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/fingerprint.h"
#include "base/fingerprint_table.h"
#include "base/result.h"
#include "diag/finding.h"
#include "diag/report.h"
#include "diff/differ.h"
#include "edit/plan.h"
#include "edit/splice.h"
#include "io/spool.h"

namespace pstate::edit {

struct Config {
  Request request;
  std::string input = "-";   ///< path, or "-" for standard input
  std::string output = "-";  ///< path, or "-" for standard output
  bool in_place = false;     ///< write back into `input`, keeping `.bak`
  /// Plan, splice and verify; write nothing, and diff the input with the
  /// result as `pstate diff` does (Outcome::diff).
  bool dry_run = false;
  /// state::ReadOptions::on_progress of the first read of the input (the
  /// index), the one that reads every byte.
  std::function<void(std::uint64_t, std::uint64_t)> on_progress;
};

struct Outcome {
  /// Refused (exit 1): nothing was written.
  bool refused = false;
  std::string refusal;
  ChangeList changes;
  /// The URNs names or filters selected (Plan::selected), to print.
  std::vector<std::string> selected;
  /// Plan notes (repair's list, --force warnings), typed records rendered
  /// when read (records.h).
  Notes notes;
  /// Error findings the edit adds (the reason for a refusal, or written
  /// anyway with --force).
  std::vector<diag::Finding> new_findings;
  bool written = false;
  /// The output equals the input (nothing to do).
  bool unchanged = false;
  std::string backup;  ///< the .bak written by --in-place
  /// --dry-run: the input against the edited state, as `pstate diff`
  /// reports it (secrets stay closed).
  std::optional<diff::DiffResult> diff;
};

/// What the verify gate keeps of an error finding of the input: its code
/// and the fingerprint of its URN or, for a finding about no resource, of
/// its message (how NewErrors tells findings apart). Fixed-size: a state
/// with an error per resource (a chain written in reverse: one
/// dependency-order error each) costs 24 bytes a resource, not the
/// findings' texts.
struct ErrorKey {
  Fingerprint text;
  diag::Code code = diag::Code::kJsonSyntax;
  bool about_resource = false;
  static ErrorKey Of(const diag::Finding& finding);
};

/// The input's findings as an edit needs them after pass 1: the gate's
/// keys, the count of each code, and the one finding edit quotes (a
/// manifest magic mismatch, which repair refuses).
struct InputFindings {
  /// In chunks (no doubling slack: a key per resource on a chain).
  std::deque<ErrorKey> errors;
  std::vector<std::uint64_t> by_code;  ///< indexed by diag::Code
  std::optional<diag::Finding> magic;
  void Add(const diag::Finding& finding);
  std::uint64_t Count(diag::Code code) const {
    auto i = static_cast<std::size_t>(code);
    return i < by_code.size() ? by_code[i] : 0;
  }
};

/// Pass 2's side of the gate: each error finding of the edited state is
/// matched against the input's keys (their URNs through `renamed`, old URN
/// -> new), counting duplicates; the unmatched ones are new. The keys are
/// held sorted, each once with its count (20 bytes a distinct key; a
/// state with an error per resource has 200k).
class GateMatcher {
 public:
  GateMatcher(const std::deque<ErrorKey>& before,
              const std::unordered_map<std::string, std::string>& renamed);
  /// True when `finding` is an error the input did not have (a match is
  /// used up).
  bool IsNew(const diag::Finding& finding);

 private:
  std::vector<Fingerprint> keys_;    ///< sorted, distinct
  std::vector<std::uint32_t> left_;  ///< per key: matches left
};

/// The error-severity findings of `after` (the edited state) that `before`
/// (the input) did not have. Findings about a resource are matched by code
/// and URN (through `renamed`, old URN -> new), the others by code and
/// message, counting duplicates.
std::vector<diag::Finding> NewErrors(
    const diag::Report& before, const diag::Report& after,
    const std::unordered_map<std::string, std::string>& renamed);

/// Pass 2: the error findings the edited state `assembly` (of `bytes`,
/// indexed as `index`, under `plan`) has that the input's report `before`
/// does not. Verifies the assembly's check document when it has one (its
/// stubs' findings are the input's: Assembly::check_segments), else the
/// whole output. Fails when the edited state does not read back (an
/// internal error).
/// Only the new findings are kept (GateMatcher): the edited state's
/// findings are never all held. The gate takes the input's keys from
/// `before.errors`, which is left empty (a chain has a key per resource:
/// they are not held twice while pass 2 reads).
Result<std::vector<diag::Finding>> AddedErrors(
    std::string_view bytes, const Index& index, const Plan& plan,
    const Assembly& assembly, InputFindings& before, const std::string& name,
    const ReleaseFn& release = {});

/// A state after pass 1: its replayable input, its index and its own
/// findings (`report` keeps only what makes it unreadable; the rest is
/// `before`).
struct Loaded {
  io::Replayable input;
  Index index;
  diag::Report report;
  InputFindings before;
};

/// Pass 1 of `path` ("-": standard input): the index and the verifier's
/// findings in one read. Fails (exit 2) on an unreadable input, located,
/// or one without a deployment.
Result<Loaded> Load(
    const std::string& path,
    const std::function<void(std::uint64_t, std::uint64_t)>& on_progress = {});

/// Runs the edit. A Status failure is exit 2: unreadable input (its
/// message located as "file:line:column: ..."), bad usage, or an output
/// that cannot be written.
Result<Outcome> Run(const Config& config);

/// `pstate edit move SRC DEST URN...`: Pulumi's `pulumi state move`
/// between two state files (plan.h, PlanMove). Both files are written in
/// place, each keeping a `.bak`, or neither is: both results must verify no
/// worse than their inputs, both are written to temporary files first, and
/// when the source cannot be replaced after the destination was, the
/// destination is put back from its `.bak`.
struct MoveConfig {
  Request request;  ///< urns, select, include_parents, allow_new_errors
  std::string source, destination;
  bool dry_run = false;  ///< plan, splice and verify; write nothing
};

/// The move's decision is the API's MoveSummary (refusal, broken
/// dependencies, selection, notes, what moved: pstate/pstate.h); each
/// file's outcome is the module's own (its changes as typed records).
struct MoveOutcome : ::pstate::MoveSummary {
  /// Each state's changes, added errors, .bak; `written` on both or none.
  Outcome source, destination;
};

Result<MoveOutcome> Move(const MoveConfig& config);

}  // namespace pstate::edit

#endif  // PSTATE_EDIT_EDIT_H_
