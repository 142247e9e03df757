#include "base/sha256.h"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <utility>

#include "base/hex.h"

namespace pstate {

Sha256::Sha256() { Init(); }

Sha256::~Sha256() { EVP_MD_CTX_free(ctx_); }

Sha256::Sha256(Sha256&& other) noexcept
    : ctx_(std::exchange(other.ctx_, nullptr)),
      ok_(std::exchange(other.ok_, false)) {}

Sha256& Sha256::operator=(Sha256&& other) noexcept {
  if (this != &other) {
    EVP_MD_CTX_free(ctx_);
    ctx_ = std::exchange(other.ctx_, nullptr);
    ok_ = std::exchange(other.ok_, false);
  }
  return *this;
}

void Sha256::Init() {
  if (ctx_ == nullptr) ctx_ = EVP_MD_CTX_new();
  ok_ = ctx_ != nullptr && EVP_DigestInit_ex(ctx_, EVP_sha256(), nullptr) == 1;
}

void Sha256::Update(std::string_view data) { Update(data.data(), data.size()); }

void Sha256::Update(const void* data, std::size_t size) {
  if (!ok_ || size == 0) return;
  ok_ = EVP_DigestUpdate(ctx_, data, size) == 1;
}

std::optional<Sha256::Digest> Sha256::Finish() {
  std::array<std::uint8_t, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  std::optional<Digest> out;
  if (ok_ && EVP_DigestFinal_ex(ctx_, digest.data(), &length) == 1 &&
      length == Digest().size()) {
    out.emplace();
    std::copy_n(digest.begin(), out->size(), out->begin());
  }
  Init();
  return out;
}

std::string Sha256::FinishHex() {
  std::optional<Digest> digest = Finish();
  return digest ? HexEncode(*digest) : std::string();
}

std::string Sha256::HexOf(std::string_view data) {
  Sha256 sha;
  sha.Update(data);
  return sha.FinishHex();
}

std::optional<Sha256::Digest> Sha256::Of(std::string_view data) {
  Sha256 sha;
  sha.Update(data);
  return sha.Finish();
}

}  // namespace pstate
