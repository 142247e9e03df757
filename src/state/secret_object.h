// Small predicates the secure passes share. Which objects are secrets is
// the signature recognizer's answer (state/signature.h, RecognizeSignature
// with SecretRule::kAnySignature where no plaintext may be left behind).
#ifndef PSTATE_STATE_SECRET_OBJECT_H_
#define PSTATE_STATE_SECRET_OBJECT_H_

#include <string_view>

#include "json/value.h"

namespace pstate::state {

/// The LAST member of `object` whose decoded key is exactly `key` (Go's
/// choice among duplicates); nullptr when there is none or `object` is not
/// an object.
const json::Value* FindLast(const json::Value& object, std::string_view key);

/// The member key equals `name` ignoring ASCII case, as Go's encoding/json
/// matches struct field names (encoding/json/decode.go, foldName). Exact
/// matches are the common case and cost one comparison.
bool KeyMatches(const json::Value& key, std::string_view name);

/// True for the values `pstate redact` writes in place of a value: the
/// placeholder text "[redacted by pstate]" (with or without its JSON
/// quotes), a fingerprint "hmac-sha256:<64 hex>", and the fixed ciphertext
/// and salt placeholders. scan treats them as empty, so a redacted state
/// scans clean.
bool IsPstatePlaceholder(std::string_view text);

}  // namespace pstate::state

#endif  // PSTATE_STATE_SECRET_OBJECT_H_
