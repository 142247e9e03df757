// Checks property values (inputs, outputs, replacementTrigger, and values
// found inside a secret's plaintext): every signature object is decoded and
// checked against Pulumi's reader (pulumi-state-format.md §3).
#ifndef PSTATE_VERIFY_PROPERTY_CHECKER_H_
#define PSTATE_VERIFY_PROPERTY_CHECKER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "json/value.h"
#include "state/property.h"
#include "state/provider.h"
#include "verify/check_context.h"

namespace pstate::verify {

/// Facts the property checker needs from the rest of the state.
struct PropertyEnvironment {
  /// The secrets provider's kind (kNone while none is known). Decides the
  /// ciphertext shape to expect.
  state::ProviderKind secrets_provider = state::ProviderKind::kNone;
  /// Called for each resource reference's URN, to check it names a resource.
  std::function<void(std::string_view urn, std::uint64_t offset,
                     Reporter& reporter)>
      on_resource_reference;
  /// Called with the decoded text of each `plaintext` of a secret that is
  /// not inside another secret (nested ones are in that text), valid JSON
  /// or not. verify learns the plaintexts it must not print from it
  /// (secrets/mask.h).
  std::function<void(std::string_view payload)> on_plaintext;
};

class PropertyChecker {
 public:
  explicit PropertyChecker(const PropertyEnvironment& env) : env_(env) {}

  /// Checks `value` and everything inside it. The reporter's pointer must
  /// name `value`.
  void Check(const json::Value& value, Reporter& reporter);

  /// Ciphertexts seen so far (a state with ciphertexts needs a provider).
  std::uint64_t ciphertexts() const { return ciphertexts_; }

 private:
  // A visitor of the property walker (state/property.h); the checks below
  // look at one decoded node each.
  struct Visitor;
  void CheckAsset(const state::PropertyNode& node, state::PropertyCursor& at,
                  Reporter& reporter);
  void CheckArchive(const state::PropertyNode& node, state::PropertyCursor& at,
                    Reporter& reporter);
  /// Returns whether the walk descends into the secret's payload.
  bool CheckSecret(const state::PropertyNode& node, state::PropertyCursor& at,
                   Reporter& reporter);
  void CheckResourceReference(const state::PropertyNode& node,
                              state::PropertyCursor& at, Reporter& reporter);

  const PropertyEnvironment& env_;
  std::uint64_t ciphertexts_ = 0;
};

}  // namespace pstate::verify

#endif  // PSTATE_VERIFY_PROPERTY_CHECKER_H_
