// Wiping secret bytes (plaintexts, passphrases, keys) before their memory
// is released or reused. One function for the whole code base: a plain
// std::fill or memset of memory that is never read again is a dead store
// the compiler may remove; explicit_bzero (glibc, the BSDs) never is.
#ifndef PSTATE_BASE_WIPE_H_
#define PSTATE_BASE_WIPE_H_

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace pstate {

/// Overwrites `size` bytes at `data` with zeros; never optimized away.
void Wipe(void* data, std::size_t size);

/// Overwrites the characters of `s` (its size is unchanged).
inline void Wipe(std::string& s) {
  if (!s.empty()) Wipe(s.data(), s.size());
}

template <typename T>
void Wipe(std::vector<T>& v) {
  if (!v.empty()) Wipe(v.data(), v.size() * sizeof(T));
}

template <typename T, std::size_t N>
void Wipe(std::array<T, N>& a) {
  Wipe(a.data(), N * sizeof(T));
}

}  // namespace pstate

#endif  // PSTATE_BASE_WIPE_H_
