// Key-free shape checks for the passphrase (and cloud) secrets providers'
// strings, so a checker can tell "this ciphertext is damaged" from "this
// ciphertext needs a key" without a passphrase.
//
// Shapes (Pulumi sdk/go/common/resource/config/crypt.go and
// pkg/secrets/passphrase/manager.go):
//   ciphertext: "v1:" + base64(12-byte nonce) + ":" + base64(ct || 16-byte tag)
//   salt state: "v1:" + base64(8-byte salt) + ":" + <ciphertext of "pulumi">
// base64 is Go's StdEncoding (see base/base64.h).
#ifndef PSTATE_CRYPTO_CIPHERTEXT_H_
#define PSTATE_CRYPTO_CIPHERTEXT_H_

#include <optional>
#include <string>
#include <string_view>

namespace pstate::crypto {

inline constexpr std::size_t kNonceBytes = 12;
inline constexpr std::size_t kTagBytes = 16;
inline constexpr std::size_t kSaltBytes = 8;

/// Why `text` is not a passphrase ciphertext, or nullopt when it is one.
/// The reason describes the structure only (part counts, sizes, offsets) and
/// never quotes any part of `text`.
std::optional<std::string> PassphraseCiphertextShapeProblem(
    std::string_view text);

/// True when `text` has the passphrase ciphertext shape: exactly three
/// ':'-separated parts, "v1", a base64 12-byte nonce and base64 of at least
/// 16 bytes (the GCM tag; an empty plaintext is exactly the tag).
bool IsPassphraseCiphertextShape(std::string_view text);

/// Why `text` is not a passphrase salt state, or nullopt when it is one.
/// Never quotes any part of `text`.
std::optional<std::string> PassphraseSaltShapeProblem(std::string_view text);

/// True when `text` is "v1:<base64 8-byte salt>:" followed by a passphrase
/// ciphertext (five ':'-separated fields in all). Pulumi itself accepts any
/// decodable salt length when reading; 8 bytes is what it writes, so other
/// lengths are reported here as a shape problem (PassphraseCrypter::FromSalt
/// still accepts them).
bool IsPassphraseSaltShape(std::string_view text);

}  // namespace pstate::crypto

#endif  // PSTATE_CRYPTO_CIPHERTEXT_H_
