// A sequence that grows in large fixed chunks: no doubling slack, no copy
// while it grows, and (unlike std::deque's 512-byte blocks) chunks large
// enough that a long-lived record list does not interleave with other
// allocations, so freeing it hands whole pages back instead of leaving
// holes between the survivors.
#ifndef PSTATE_BASE_CHUNKED_VECTOR_H_
#define PSTATE_BASE_CHUNKED_VECTOR_H_

#include <cstddef>
#include <memory>
#include <vector>

namespace pstate {

/// Appends, indexing and clear (what a list of records needs). `T` must
/// be default-constructible; a chunk holds kChunk of them.
template <class T, std::size_t kChunk = 4096>
class ChunkedVector {
 public:
  void push_back(const T& value) {
    if (size_ == chunks_.size() * kChunk) {
      chunks_.push_back(std::make_unique<T[]>(kChunk));
    }
    chunks_[size_ / kChunk][size_ % kChunk] = value;
    ++size_;
  }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  /// Elements allocated (whole chunks).
  std::size_t capacity() const { return chunks_.size() * kChunk; }
  const T& back() const { return (*this)[size_ - 1]; }
  const T& operator[](std::size_t i) const {
    return chunks_[i / kChunk][i % kChunk];
  }
  T& operator[](std::size_t i) { return chunks_[i / kChunk][i % kChunk]; }
  /// Frees every chunk.
  void clear() {
    chunks_.clear();
    chunks_.shrink_to_fit();
    size_ = 0;
  }

 private:
  std::vector<std::unique_ptr<T[]>> chunks_;
  std::size_t size_ = 0;
};

}  // namespace pstate

#endif  // PSTATE_BASE_CHUNKED_VECTOR_H_
