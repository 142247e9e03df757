// The property-level difference of two resources, as `pstate diff` reports
// it and `pstate edit --dry-run` prints it.
//
// Inputs and outputs are compared value by value (json::Equal: numbers by
// value, keys unordered, escapes resolved) and every difference is named by
// a Pulumi property path (property_path.h) with the kind Pulumi's engine
// uses in a detailed diff (apitype.DiffKind in
// sdk/go/common/apitype/events.go: add, delete, update). The other fields
// of the resource are compared by meaning: a field Go omits when empty
// equals an absent one, dependency lists are sets, `created` and
// `modified` are instants (the same time written with another offset is
// equal).
//
// Secrets (pulumi-state-format.md §5): a secret's value never appears in a
// change unless the caller asks for it and the secret could be opened.
// Equal ciphertexts are equal; different ciphertexts prove nothing (each
// encryption draws a fresh nonce), so without a way to open both they are
// an "unknown" update; with one they are compared by the decrypted value.
// A secret that became plaintext, or the reverse, is always a change.
#ifndef PSTATE_DIFF_RESOURCE_DIFF_H_
#define PSTATE_DIFF_RESOURCE_DIFF_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "json/value.h"

namespace pstate::diff {

/// Opens the secrets of one state: the plaintext (a JSON text) of a
/// ciphertext. Implementations must not put the plaintext or ciphertext in
/// a failure message.
class SecretOpener {
 public:
  virtual ~SecretOpener() = default;
  virtual Result<std::string> Open(std::string_view ciphertext) const = 0;
};

/// The API's (pstate/pstate.h): Section; ChangeKind (Pulumi's DiffKind
/// names: "add", "delete", "update"); SecretTransition (how a secret took
/// part in a change).
using Section = ::pstate::Section;
using ChangeKind = ::pstate::ChangeKind;
using SecretTransition = ::pstate::SecretTransition;

std::string_view SectionName(Section section);
std::string_view ChangeKindName(ChangeKind kind);

/// The API's (pstate/pstate.h): the values as DisplayValue gives them,
/// nullopt when absent; secrets hidden unless shown
/// (DiffOptions::show_secrets).
using PropertyChange = ::pstate::PropertyChange;

/// A resource field other than urn, inputs and outputs that changed.
using FieldChange = ::pstate::FieldChange;

struct ResourceChanges {
  std::vector<PropertyChange> properties;
  std::vector<FieldChange> fields;
  bool empty() const { return properties.empty() && fields.empty(); }
};

struct DiffOptions {
  /// Open the secrets of the `before` and `after` resources (nullptr: that
  /// side's secrets stay closed).
  const SecretOpener* before_secrets = nullptr;
  const SecretOpener* after_secrets = nullptr;
  /// Put opened secrets' values in PropertyChange::before/after.
  bool show_secrets = false;
};

/// The changes from `before` to `after` (two ResourceV3 objects), inputs
/// first, then outputs, each in key order (bytewise, as Go sorts map keys),
/// then the fields in Pulumi's declaration order. The `urn` field is not
/// compared: callers match resources by URN and report renames themselves.
ResourceChanges DiffResource(const json::Value& before,
                             const json::Value& after,
                             const DiffOptions& options = {});

/// The changes inside one property value (e.g. one input), appended to
/// `out` with paths below `path`.
void DiffPropertyValue(const json::Value* before, const json::Value* after,
                       Section section, const std::string& path,
                       const DiffOptions& options,
                       std::vector<PropertyChange>* out);

/// A 64-bit digest of a resource in canonical form: consistent with
/// DiffResource (resources it finds no change between, secrets aside, have
/// equal digests; equal digests mean no change, up to a 2^-64 collision).
/// Numbers count by value, keys unordered, field names as Go matches them,
/// empty fields as absent, dependency lists as sets, timestamps as
/// instants. Deterministic within a pstate version; never store it.
std::uint64_t ResourceDigest(const json::Value& resource);

/// A point in time from an RFC 3339 timestamp as Go's time.Time reads it
/// ("2024-01-02T03:04:05.5+01:00", base/rfc3339.h); nullopt for anything
/// else.
struct Instant {
  std::int64_t seconds = 0;  ///< since 1970-01-01T00:00:00Z
  std::int32_t nanos = 0;
  friend bool operator==(const Instant&, const Instant&) = default;
};
std::optional<Instant> ParseTimestamp(std::string_view text);

/// The API's value (pstate/pstate.h) of what diff, show and blame show.
using Value = ::pstate::Value;
using ValueKind = ::pstate::ValueKind;

/// `value` for display, the one producer of pstate::Value: strings,
/// numbers and keys as stored, every member of any object (a non-secret
/// signature object's too, duplicates kept), and every secret under either
/// rule (state::SecretRule::kAnySignature) hidden, or, when `show` and
/// `opener` can open it (or it is in the plaintext form), shown with its
/// value. report/value.h renders it.
Value DisplayValue(const json::Value& value,
                   const SecretOpener* opener = nullptr, bool show = false);

/// A hidden secret.
Value HiddenSecret();

}  // namespace pstate::diff

#endif  // PSTATE_DIFF_RESOURCE_DIFF_H_
