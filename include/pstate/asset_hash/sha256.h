// Streaming SHA-256 over OpenSSL EVP, the digest Pulumi uses for asset hashes.
#ifndef PSTATE_ASSET_HASH_SHA256_H_
#define PSTATE_ASSET_HASH_SHA256_H_

#include <cstddef>
#include <string>
#include <string_view>

// Forward declaration keeps <openssl/evp.h> out of every includer.
struct evp_md_ctx_st;

namespace pstate::asset_hash {

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

  /// One-shot convenience.
  static std::string HexOf(std::string_view data);

 private:
  void Init();

  evp_md_ctx_st* ctx_ = nullptr;
  bool ok_ = false;
};

/// SHA-256 of no bytes: the hash of an empty asset.
inline constexpr std::string_view kEmptyAssetHash =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
/// SHA-256 of 1024 zero bytes: the tar stream of an archive with no members.
inline constexpr std::string_view kEmptyArchiveHash =
    "5f70bf18a086007016e948b04aed3b82103a36bea41755b6cddfaf10ace3c6ef";

}  // namespace pstate::asset_hash

#endif  // PSTATE_ASSET_HASH_SHA256_H_
