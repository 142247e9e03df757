// `pstate diff A B`: what changed between two states, resource by resource
// (issue 13; reference: state-operations.md §4.3).
//
// At scale neither file is held: one pass over A builds an index (a 128-bit
// fingerprint of each resource's identity -> its byte range, a digest of
// its bytes as written (BytesDigest: no tree walk), and a hash of its type
// and ID), one pass over B builds the same and looks each resource up;
// only resources whose bytes differ, renames and moves are read again, by
// byte range, and compared by meaning (DiffResource: a resource rewritten
// with other key order or number spellings is unchanged). A state whose
// every resource was reformatted is correct but slower (every pair is read
// again). Compressed inputs and standard input
// are first decoded into an unlinked temporary file so they can be read by
// range too.
//
// Identity: the URN; among duplicates, live copies pair with live copies in
// order, and `delete: true` copies by (URN, ID). When the two states'
// stacks or projects differ (the root stack's URN, else the first
// resource's), a resource only in B whose URN, rewritten back to A's stack
// and project as `pulumi stack rename` rewrites URNs (state::RestackUrn),
// names a resource only in A is that resource renamed with its stack
// (RenameKind::kStack; its references are compared in B's terms, and the
// envelope gets a "stack" and/or "project" change). Then a resource only in
// B whose type and ID equal those of a resource only in A is a rename
// (state rename, state move), not an addition and a removal. A
// resource that is unchanged but moved so that the matched resources are no
// longer in the same relative order is "order-only" (the fewest such moves:
// everything off one longest increasing subsequence).
//
// A reordering can also break B: Pulumi refuses a state where a resource
// comes before its provider, parent or a dependency (order.h). Each pass
// checks its side's order; a resource that comes before something it needs
// in B, where it did not in A, carries the breaks (ResourceEntry::order),
// and one whose content is unchanged is "order-broken", not "order-only".
// Breaks A already had are not reported: a state is the same as itself.
#ifndef PSTATE_DIFF_DIFFER_H_
#define PSTATE_DIFF_DIFFER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "diff/resource_diff.h"
#include "io/input.h"
#include "state/reader.h"

namespace pstate::diff {

/// The API's (pstate/pstate.h).
using ResourceChangeKind = ::pstate::ResourceChangeKind;

/// "added", "removed", "renamed", "changed", "order-only", "order-broken".
std::string_view ResourceChangeKindName(ResourceChangeKind kind);

/// A reference in B to a resource (or provider) that comes after the
/// resource in B (order.h).
using OrderNote = ::pstate::OrderNote;

/// The API's (pstate/pstate.h): what makes a resource of another URN the
/// same resource; one resource's entry (properties and fields as
/// DiffResource gives them, order notes, the rename).
using RenameKind = ::pstate::RenameKind;
using ResourceEntry = ::pstate::ResourceChange;

/// A difference outside the resources: version, features, manifest,
/// secrets provider, pending operations, metadata, snippets, extensions.
using EnvelopeEntry = ::pstate::EnvelopeChange;

/// The API's (pstate/pstate.h).
using DiffSummary = ::pstate::DiffSummary;

/// The API's result (B's order, then removals in A's order), and how it
/// was read.
struct DiffResult : ::pstate::DiffResult {
  /// How many of the two states' resources arrays the parallel executor
  /// read (0 to 2; DiffConfig::jobs and plain files). Only how, never
  /// what: the rest of the result is the same either way.
  int read_in_parallel = 0;
};

struct DiffConfig {
  std::string before;  ///< path, "-" for standard input
  std::string after;
  /// Asked only when a state uses the passphrase provider; an error it
  /// returns with kInvalidArgument means "no passphrase was given" (secrets
  /// then stay closed); any other error fails the diff.
  std::function<Result<std::string>()> passphrase;
  /// Print the values of secrets that could be opened.
  bool show_secrets = false;
  /// Where compressed inputs and standard input are decoded ("" = $TMPDIR
  /// or /tmp).
  std::string spool_directory;
  /// state::ReadOptions::on_progress of the read of `after` (the two sides
  /// are read at once, on two threads; this one is called on the caller's).
  std::function<void(std::uint64_t, std::uint64_t)> on_progress;
  /// Threads reading each side's resources (engine::Options::jobs): the
  /// two sides are read at once either way; the result is the same for
  /// any value.
  int jobs = 1;
};

/// The opener for a state's secrets (crypto::Unlock): b64 always;
/// passphrase when `passphrase` gives one (kInvalidArgument from it: none
/// given, nullptr returned); nullptr for other providers and for a
/// passphrase provider without a salt. A wrong passphrase fails with
/// kCrypto naming `name`.
Result<std::unique_ptr<SecretOpener>> MakeSecretOpener(
    const json::Value* secrets_providers,
    const std::function<Result<std::string>()>& passphrase,
    const std::string& name);

/// Runs the diff. A state that cannot be read fails with a Status whose
/// message names the file and, where there is one, the line:column and
/// JSON pointer ("a.json:3:7: unexpected end of input (at /deployment)").
Result<DiffResult> Run(const DiffConfig& config);

}  // namespace pstate::diff

#endif  // PSTATE_DIFF_DIFFER_H_
