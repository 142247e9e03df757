// Hiding known secrets in what pstate prints about a state (review F5).
//
// Findings name their place: a URN, a JSON pointer, property names quoted
// in the message. Those are identifiers, printed as they are, and a state
// may use a secret's plaintext as one (a resource named after its own
// generated password, pulumi/pulumi#8946; a map keyed by a token; a stack
// named like a secret's value). Every occurrence of a plaintext the state
// itself reveals (KnownSecrets, both tiers) is replaced by kMaskedText
// ("***") in the message, the pointer and the URN, in every output format.
//
// scan masks each leak as it is made (its known secrets are complete before
// its reporting pass); verify reads once, so it learns a secret possibly
// after a finding that names it, and masks its report once the pass ended
// (MaskReport), before anything is rendered.
#ifndef PSTATE_SECRETS_MASK_H_
#define PSTATE_SECRETS_MASK_H_

#include <string>

#include "diag/finding.h"
#include "diag/report.h"
#include "secrets/known_secrets.h"

namespace pstate::secrets {

/// Masks every known plaintext in `message`, `pointer` and `urn` (each may
/// be null). Returns true when anything changed.
bool MaskIdentifiers(const KnownSecrets& known, std::string* message,
                     std::string* pointer, std::string* urn);

/// MaskIdentifiers on a finding's message, pointer and URN.
bool MaskFinding(const KnownSecrets& known, diag::Finding* finding);

/// Masks every finding `report` keeps; a changed finding gets the
/// fingerprint of its masked text (a fingerprint is an unkeyed hash of the
/// URN and pointer, so it must not be computed over a secret either).
/// Counts do not change. No-op when nothing is known.
void MaskReport(const KnownSecrets& known, diag::Report* report);

}  // namespace pstate::secrets

#endif  // PSTATE_SECRETS_MASK_H_
