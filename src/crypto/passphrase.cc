#include "crypto/passphrase.h"
#include "base/wipe.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "base/base64.h"
#include "crypto/ciphertext.h"

namespace pstate::crypto {
namespace {

struct CipherCtxDeleter {
  void operator()(EVP_CIPHER_CTX* ctx) const { EVP_CIPHER_CTX_free(ctx); }
};
using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, CipherCtxDeleter>;

// OpenSSL lengths are ints; feed large inputs in slices.
constexpr std::size_t kMaxSlice = 1u << 30;

constexpr std::string_view kCheckPlaintext = "pulumi";

unsigned char* Bytes(std::string& s) {
  return reinterpret_cast<unsigned char*>(s.data());
}
const unsigned char* Bytes(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

// Wipes a string that held plaintext before releasing its memory.
void Cleanse(std::string& s) {
  Wipe(s);
  s.clear();
}

[[noreturn]] void Fatal() { std::abort(); }

// Derives the key; false only if OpenSSL itself fails.
bool DeriveKey(std::string_view passphrase, std::string_view salt,
               std::array<std::uint8_t, kKeyBytes>& key) {
  // OpenSSL wants non-null pointers even for empty inputs.
  static const char kEmpty[1] = {0};
  const char* pass = passphrase.empty() ? kEmpty : passphrase.data();
  const unsigned char* salt_bytes =
      salt.empty() ? reinterpret_cast<const unsigned char*>(kEmpty)
                   : Bytes(salt);
  if (passphrase.size() > INT_MAX || salt.size() > INT_MAX) return false;
  return PKCS5_PBKDF2_HMAC(pass, static_cast<int>(passphrase.size()),
                           salt_bytes, static_cast<int>(salt.size()),
                           kPbkdf2Iterations, EVP_sha256(),
                           static_cast<int>(key.size()), key.data()) == 1;
}

// Derived keys of this process, so that one (passphrase, salt) pair costs
// one PBKDF2 run however often a state repeats its secrets provider (a
// state with 100 copies of `secrets_providers` took 100 derivations, about
// 45 s). Distinct pairs are capped per run: each costs ~0.3 s of CPU, and a
// real run needs one per stack it reads. Keyed by SHA-256 of the passphrase
// and the salt bytes; the keys are wiped at exit.
class DerivedKeys {
 public:
  ~DerivedKeys() {
    for (auto& [id, key] : keys_) Wipe(key);
  }

  Status Derive(std::string_view passphrase, std::string_view salt,
                std::array<std::uint8_t, kKeyBytes>& key) {
    std::string id(EVP_MAX_MD_SIZE, '\0');
    unsigned int id_size = 0;
    if (EVP_Digest(passphrase.data(), passphrase.size(),
                   reinterpret_cast<unsigned char*>(id.data()), &id_size,
                   EVP_sha256(), nullptr) != 1) {
      return Status(Errc::kCrypto, "SHA-256 failed (OpenSSL)");
    }
    id.resize(id_size);
    id.append(salt);
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = keys_.find(id); it != keys_.end()) {
      key = it->second;
      return Status::Ok();
    }
    if (keys_.size() >= limit_) {
      return Status(Errc::kLimit,
                    "more than " + std::to_string(limit_) +
                        " different passphrase salts in one run (each costs a "
                        "1,000,000-round key derivation; a state has one)");
    }
    if (!DeriveKey(passphrase, salt, key)) {
      return Status(Errc::kCrypto, "PBKDF2 key derivation failed");
    }
    keys_.emplace(std::move(id), key);
    return Status::Ok();
  }

  void Reset(std::size_t limit) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [id, key] : keys_) Wipe(key);
    keys_.clear();
    limit_ = limit;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::array<std::uint8_t, kKeyBytes>> keys_;
  std::size_t limit_ = kMaxKeyDerivationsPerRun;
};

DerivedKeys& Keys() {
  static DerivedKeys keys;
  return keys;
}

// Runs EVP_{En,De}cryptUpdate over `in` in int-sized slices, appending to out.
template <typename UpdateFn>
bool UpdateAll(EVP_CIPHER_CTX* ctx, UpdateFn update, std::string_view in,
               std::string& out, std::size_t out_offset) {
  std::size_t written = out_offset;
  for (std::size_t pos = 0; pos < in.size(); pos += kMaxSlice) {
    const std::size_t slice = std::min(kMaxSlice, in.size() - pos);
    int len = 0;
    if (update(ctx, Bytes(out) + written, &len, Bytes(in) + pos,
               static_cast<int>(slice)) != 1) {
      return false;
    }
    written += static_cast<std::size_t>(len);
  }
  return written == out_offset + in.size();  // GCM is a stream mode
}

}  // namespace

PassphraseCrypter::~PassphraseCrypter() { Wipe(key_); }

Result<PassphraseCrypter> PassphraseCrypter::FromKey(
    std::span<const std::uint8_t> key) {
  if (key.size() != kKeyBytes) {
    return Result<PassphraseCrypter>(Errc::kInvalidArgument,
                                     "AES-256-GCM needs a 32-byte key, got " +
                                         std::to_string(key.size()) + " bytes");
  }
  std::array<std::uint8_t, kKeyBytes> copy;
  std::copy(key.begin(), key.end(), copy.begin());
  PassphraseCrypter crypter(copy);
  Wipe(copy);
  return crypter;
}

Result<PassphraseCrypter> PassphraseCrypter::FromSalt(
    std::string_view salt_state, std::string_view passphrase) {
  // Pulumi: SplitN(state, ":", 3) -> "v1", base64 salt, check ciphertext.
  const std::size_t first = salt_state.find(':');
  const std::size_t second =
      first == std::string_view::npos ? first : salt_state.find(':', first + 1);
  if (second == std::string_view::npos) {
    return Result<PassphraseCrypter>(
        Errc::kFormat,
        "malformed passphrase salt state: expected "
        "v1:<salt>:v1:<nonce>:<ciphertext>");
  }
  if (salt_state.substr(0, first) != "v1") {
    return Result<PassphraseCrypter>(
        Errc::kFormat, "unknown passphrase salt state version (expected v1)");
  }
  Result<std::string> salt =
      Base64Decode(salt_state.substr(first + 1, second - first - 1));
  if (!salt.ok()) {
    return Result<PassphraseCrypter>(
        Errc::kSyntax,
        "passphrase salt is not base64: " + salt.status().message());
  }
  const std::string_view check = salt_state.substr(second + 1);
  if (auto problem = PassphraseCiphertextShapeProblem(check)) {
    return Result<PassphraseCrypter>(
        Errc::kFormat,
        "malformed passphrase salt state check value: " + *problem);
  }
  std::array<std::uint8_t, kKeyBytes> key;
  if (Status derived = Keys().Derive(passphrase, *salt, key); !derived.ok()) {
    return Result<PassphraseCrypter>(derived);
  }
  PassphraseCrypter crypter(key);
  Wipe(key);
  Result<std::string> decrypted = crypter.Decrypt(check);
  if (!decrypted.ok() || *decrypted != kCheckPlaintext) {
    return Result<PassphraseCrypter>(Errc::kCrypto, "incorrect passphrase");
  }
  return crypter;
}

Result<std::pair<PassphraseCrypter, std::string>> PassphraseCrypter::Create(
    std::string_view passphrase) {
  using R = Result<std::pair<PassphraseCrypter, std::string>>;
  std::string salt(kSaltBytes, '\0');
  if (RAND_bytes(Bytes(salt), static_cast<int>(salt.size())) != 1) {
    return R(Errc::kCrypto, "system random source failed");
  }
  std::array<std::uint8_t, kKeyBytes> key;
  if (!DeriveKey(passphrase, salt, key)) {
    return R(Errc::kCrypto, "PBKDF2 key derivation failed");
  }
  PassphraseCrypter crypter(key);
  Wipe(key);
  std::string state =
      "v1:" + Base64Encode(salt) + ":" + crypter.Encrypt(kCheckPlaintext);
  return std::make_pair(std::move(crypter), std::move(state));
}

Result<std::string> PassphraseCrypter::Decrypt(
    std::string_view ciphertext) const {
  // Pulumi: strings.Split(value, ":") must give exactly three parts.
  const std::size_t first = ciphertext.find(':');
  const std::size_t second =
      first == std::string_view::npos ? first : ciphertext.find(':', first + 1);
  if (second == std::string_view::npos ||
      ciphertext.find(':', second + 1) != std::string_view::npos) {
    return Result<std::string>(
        Errc::kFormat, "bad ciphertext: expected v1:<nonce>:<ciphertext>");
  }
  if (ciphertext.substr(0, first) != "v1") {
    return Result<std::string>(Errc::kFormat,
                               "bad ciphertext: unknown version (expected v1)");
  }
  Result<std::string> nonce =
      Base64Decode(ciphertext.substr(first + 1, second - first - 1));
  if (!nonce.ok()) {
    return Result<std::string>(
        Errc::kSyntax, "bad ciphertext: nonce: " + nonce.status().message());
  }
  Result<std::string> sealed = Base64Decode(ciphertext.substr(second + 1));
  if (!sealed.ok()) {
    return Result<std::string>(Errc::kSyntax,
                               "bad ciphertext: " + sealed.status().message());
  }
  if (nonce->size() != kNonceBytes) {
    return Result<std::string>(Errc::kFormat,
                               "bad ciphertext: nonce size is incorrect");
  }
  if (sealed->size() < kTagBytes) {
    return Result<std::string>(
        Errc::kFormat, "bad ciphertext: shorter than the authentication tag");
  }
  const std::string_view body(sealed->data(), sealed->size() - kTagBytes);
  std::string tag = sealed->substr(body.size());

  CipherCtx ctx(EVP_CIPHER_CTX_new());
  if (!ctx ||
      EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, key_.data(),
                         Bytes(std::string_view(*nonce))) != 1) {
    return Result<std::string>(Errc::kCrypto,
                               "AES-256-GCM initialisation failed");
  }
  std::string plaintext(body.size(), '\0');
  int final_len = 0;
  const bool ok =
      UpdateAll(ctx.get(), EVP_DecryptUpdate, body, plaintext, 0) &&
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG,
                          static_cast<int>(kTagBytes), Bytes(tag)) == 1 &&
      EVP_DecryptFinal_ex(ctx.get(), Bytes(plaintext) + plaintext.size(),
                          &final_len) == 1;
  if (!ok) {
    Cleanse(plaintext);
    return Result<std::string>(
        Errc::kCrypto,
        "message authentication failed (wrong key or tampered data)");
  }
  return plaintext;
}

std::string PassphraseCrypter::Encrypt(std::string_view plaintext) const {
  unsigned char nonce[kNonceBytes];
  if (RAND_bytes(nonce, sizeof nonce) != 1) Fatal();
  CipherCtx ctx(EVP_CIPHER_CTX_new());
  if (!ctx || EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr,
                                 key_.data(), nonce) != 1) {
    Fatal();
  }
  std::string sealed(plaintext.size() + kTagBytes, '\0');
  int final_len = 0;
  if (!UpdateAll(ctx.get(), EVP_EncryptUpdate, plaintext, sealed, 0) ||
      EVP_EncryptFinal_ex(ctx.get(), Bytes(sealed) + plaintext.size(),
                          &final_len) != 1 ||
      final_len != 0 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG,
                          static_cast<int>(kTagBytes),
                          Bytes(sealed) + plaintext.size()) != 1) {
    Fatal();
  }
  return "v1:" +
         Base64Encode(std::string_view(reinterpret_cast<const char*>(nonce),
                                       sizeof nonce)) +
         ":" + Base64Encode(sealed);
}

void ResetKeyDerivationsForTesting(std::size_t limit) { Keys().Reset(limit); }

}  // namespace pstate::crypto
