#include "pstate/json/value.h"

#include <algorithm>
#include <cstring>

#include "pstate/json/string_codec.h"

namespace pstate::json {

std::string_view TypeName(Type type) {
  switch (type) {
    case Type::kNull: return "null";
    case Type::kFalse:
    case Type::kTrue: return "boolean";
    case Type::kNumber: return "number";
    case Type::kString: return "string";
    case Type::kArray: return "array";
    case Type::kObject: return "object";
  }
  return "unknown";
}

const Value* Value::Find(std::string_view key) const {
  if (type != Type::kObject) return nullptr;
  for (const Member& m : object()) {
    if (!m.key.has_escapes) {
      if (m.key.raw() == key) return &m.value;
    } else if (m.key.StrEquals(key)) {
      return &m.value;
    }
  }
  return nullptr;
}

std::string Value::Str() const {
  if (!has_escapes) return std::string(raw());
  return Unescape(raw());
}

bool Value::StrEquals(std::string_view s) const {
  if (type != Type::kString) return false;
  if (!has_escapes) return raw() == s;
  return Unescape(raw()) == s;
}

namespace {
constexpr std::size_t kMinBlock = 64 * 1024;
}  // namespace

void* Arena::AllocateBytes(std::size_t bytes, std::size_t align) {
  auto aligned = [&](char* p) {
    auto v = reinterpret_cast<std::uintptr_t>(p);
    return reinterpret_cast<char*>((v + align - 1) & ~(align - 1));
  };
  char* p = cursor_ ? aligned(cursor_) : nullptr;
  if (!p || p + bytes > limit_) {
    std::size_t size = std::max(kMinBlock, bytes + align);
    if (!block_sizes_.empty()) size = std::max(size, block_sizes_.back() * 2);
    blocks_.emplace_back(new char[size]);
    block_sizes_.push_back(size);
    cursor_ = blocks_.back().get();
    limit_ = cursor_ + size;
    p = aligned(cursor_);
  }
  cursor_ = p + bytes;
  used_ += bytes;
  return p;
}

std::string_view Arena::Copy(std::string_view text) {
  char* p = Allocate<char>(text.size() + 1);
  if (!text.empty()) std::memcpy(p, text.data(), text.size());
  p[text.size()] = '\0';
  return {p, text.size()};
}

Value Arena::MakeString(std::string_view decoded, std::uint64_t offset) {
  std::string escaped;
  escaped.reserve(decoded.size() + 2);
  AppendEscaped(decoded, &escaped);
  Value v;
  v.type = Type::kString;
  v.has_escapes = escaped.find('\\') != std::string::npos;
  std::string_view copy = Copy(escaped);
  v.text = copy.data();
  v.size = static_cast<std::uint32_t>(copy.size());
  v.offset = offset;
  return v;
}

void Arena::Reset() {
  if (blocks_.empty()) return;
  // Keep only the largest (last) block so steady-state resets allocate nothing.
  std::unique_ptr<char[]> keep = std::move(blocks_.back());
  std::size_t keep_size = block_sizes_.back();
  blocks_.clear();
  block_sizes_.clear();
  blocks_.push_back(std::move(keep));
  block_sizes_.push_back(keep_size);
  cursor_ = blocks_.back().get();
  limit_ = cursor_ + keep_size;
  used_ = 0;
}

}  // namespace pstate::json
