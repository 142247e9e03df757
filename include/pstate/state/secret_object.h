// What counts as a secret object when pstate must not let one through, and
// the other small predicates the secure passes share.
//
// Pulumi decodes a state with Go's encoding/json, which keeps the LAST of
// duplicate object keys (sdk/go/common/resource/sig/sig.go reads the
// signature from the decoded map). A reader that takes the first occurrence
// can be fooled into treating a secret as an asset. The passes that must
// leave no plaintext behind (redact, encrypt) therefore use the conservative
// rule below: an object is a secret when ANY of its signature members says
// so. Treating a few extra objects as secrets only rewrites members Pulumi
// ignores.
#ifndef PSTATE_STATE_SECRET_OBJECT_H_
#define PSTATE_STATE_SECRET_OBJECT_H_

#include <string_view>

#include "pstate/json/value.h"

namespace pstate::state {

/// True when `value` is an object with at least one signature member
/// ("4dabf18193072939515e22adb298388d", any spelling) whose value is the
/// secret signature string.
bool IsSecretObject(const json::Value& value);

/// The LAST member of `object` whose decoded key is exactly `key` (Go's
/// choice among duplicates); nullptr when there is none or `object` is not
/// an object.
const json::Value* FindLast(const json::Value& object, std::string_view key);

/// True when `value` is an object with at least one signature member,
/// whatever its value (assets, archives, references, secrets, ...).
bool HasSignatureMember(const json::Value& value);

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
