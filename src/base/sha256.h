// SHA-256 over OpenSSL EVP: asset hashes (the digest Pulumi uses), the
// manifest's magic and finding fingerprints. The one place outside crypto/
// that includes OpenSSL: pstate_base links OpenSSL::Crypto for it.
#ifndef PSTATE_BASE_SHA256_H_
#define PSTATE_BASE_SHA256_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

// Forward declaration keeps <openssl/evp.h> out of every includer.
struct evp_md_ctx_st;

namespace pstate {

/// Incremental SHA-256. Owns its EVP context (RAII); movable, not copyable.
/// OpenSSL failures (only possible on allocation failure) are sticky: ok()
/// turns false and FinishHex() returns an empty string.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(Sha256&& other) noexcept;
  Sha256& operator=(Sha256&& other) noexcept;
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void Update(std::string_view data);
  void Update(const void* data, std::size_t size);

  /// Lowercase hex of the digest (64 characters), or "" after a failure.
  /// The object is then reset and can hash a new message.
  std::string FinishHex();

  bool ok() const { return ok_; }

  using Digest = std::array<std::uint8_t, 32>;

  /// The digest, or nullopt after a failure. The object is then reset and
  /// can hash a new message.
  std::optional<Digest> Finish();

  /// One-shot convenience.
  static std::string HexOf(std::string_view data);
  /// The digest of `data`; nullopt after a failure.
  static std::optional<Digest> Of(std::string_view data);

 private:
  void Init();

  evp_md_ctx_st* ctx_ = nullptr;
  bool ok_ = false;
};

}  // namespace pstate

#endif  // PSTATE_BASE_SHA256_H_
