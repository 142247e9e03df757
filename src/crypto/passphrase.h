// The `passphrase` secrets provider's crypto, byte-compatible with Pulumi
// (sdk/go/common/resource/config/crypt.go, pkg/secrets/passphrase/manager.go):
//   key        = PBKDF2-HMAC-SHA256(passphrase, salt, 1,000,000 rounds, 32
//   bytes) ciphertext = "v1:" + base64(12-byte nonce) + ":" +
//   base64(AES-256-GCM(ct || tag)) salt state = "v1:" + base64(8-byte salt) +
//   ":" + Encrypt("pulumi")
// The same ciphertext format is used by the `cloud` provider with a 32-byte
// data key, hence FromKey.
#ifndef PSTATE_CRYPTO_PASSPHRASE_H_
#define PSTATE_CRYPTO_PASSPHRASE_H_

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "base/result.h"

namespace pstate::crypto {

inline constexpr int kPbkdf2Iterations = 1'000'000;
inline constexpr std::size_t kKeyBytes = 32;

/// An AES-256-GCM crypter holding one derived key. Decrypt and Encrypt are
/// const and safe to call concurrently from many threads (each call uses its
/// own OpenSSL context). The key is wiped when the object is destroyed.
/// Distinct (passphrase, salt) key derivations allowed per run (process).
/// FromSalt derives each pair once and reuses the key after; past this many
/// pairs it fails with kLimit instead of spending ~0.3 s on each.
inline constexpr std::size_t kMaxKeyDerivationsPerRun = 64;

/// Test hook: forgets the derived keys and sets the per-run limit.
void ResetKeyDerivationsForTesting(
    std::size_t limit = kMaxKeyDerivationsPerRun);

class PassphraseCrypter {
 public:
  /// Unlocks a stack: parses `salt_state` (the `salt` of the passphrase
  /// provider's state, or `encryptionsalt` in Pulumi.<stack>.yaml), derives
  /// the key (about 0.3 s: PBKDF2 with 1e6 rounds) and checks that the tail
  /// decrypts to "pulumi".
  /// Errors: kFormat when the salt state is malformed (checked before the
  /// expensive derivation; Pulumi reports a malformed check value as an
  /// incorrect passphrase, pstate says what is wrong), kSyntax when the salt
  /// is not base64, kCrypto "incorrect passphrase" when the check value does
  /// not authenticate or is not "pulumi", kLimit past
  /// kMaxKeyDerivationsPerRun distinct pairs. Any decodable salt length is
  /// accepted, as Pulumi does. A pair seen before costs no derivation.
  static Result<PassphraseCrypter> FromSalt(std::string_view salt_state,
                                            std::string_view passphrase);

  /// A new stack's crypter, as `pulumi stack init` makes one: a fresh random
  /// 8-byte salt. Returns the crypter and the salt state to store.
  /// Fails (kCrypto) only if the system random source fails.
  static Result<std::pair<PassphraseCrypter, std::string>> Create(
      std::string_view passphrase);

  /// A crypter for an already derived or unwrapped 32-byte key (e.g. the
  /// `cloud` provider's data key). kInvalidArgument for any other size.
  static Result<PassphraseCrypter> FromKey(std::span<const std::uint8_t> key);

  PassphraseCrypter(const PassphraseCrypter& other) = default;
  PassphraseCrypter& operator=(const PassphraseCrypter& other) = default;
  ~PassphraseCrypter();

  /// Decrypts a "v1:<nonce>:<ciphertext>" value. Never crashes on malformed
  /// input. Errors: kFormat (not three ':'-separated parts, version not "v1",
  /// nonce not 12 bytes, ciphertext shorter than the tag), kSyntax (a part is
  /// not base64), kCrypto (authentication failed: wrong key or tampered data).
  /// No plaintext is released unless the tag verifies.
  Result<std::string> Decrypt(std::string_view ciphertext) const;

  /// Encrypts with a fresh random nonce, so equal plaintexts give different
  /// ciphertexts. OpenSSL failures here (a broken random source or
  /// library) cannot be handled meaningfully and abort the process.
  std::string Encrypt(std::string_view plaintext) const;

 private:
  explicit PassphraseCrypter(const std::array<std::uint8_t, kKeyBytes>& key)
      : key_(key) {}

  std::array<std::uint8_t, kKeyBytes> key_;
};

}  // namespace pstate::crypto

#endif  // PSTATE_CRYPTO_PASSPHRASE_H_
