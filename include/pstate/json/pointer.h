// RFC 6901 JSON pointers, built incrementally as the reader descends.
#ifndef PSTATE_JSON_POINTER_H_
#define PSTATE_JSON_POINTER_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace pstate::json {

/// Appends "/" + `token` with ~ and / escaped as ~0 and ~1.
void AppendPointerToken(std::string* pointer, std::string_view token);
void AppendPointerIndex(std::string* pointer, std::size_t index);

/// A pointer under construction; Push/Pop keep it in step with recursion.
class PointerBuilder {
 public:
  explicit PointerBuilder(std::string base = {}) : path_(std::move(base)) {}
  /// Returns the previous length, to be passed to Pop.
  std::size_t PushKey(std::string_view key) {
    std::size_t n = path_.size();
    AppendPointerToken(&path_, key);
    return n;
  }
  std::size_t PushIndex(std::size_t index) {
    std::size_t n = path_.size();
    AppendPointerIndex(&path_, index);
    return n;
  }
  void Pop(std::size_t length) { path_.resize(length); }
  const std::string& str() const { return path_; }

 private:
  std::string path_;
};

}  // namespace pstate::json

#endif  // PSTATE_JSON_POINTER_H_
