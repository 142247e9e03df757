#include "json/value.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <limits>
#include <new>

#include "json/number.h"
#include "json/string_codec.h"

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
  // From the end: with duplicate keys the last member wins, as in Go's
  // encoding/json decoder (each occurrence overwrites the map entry), which
  // is how Pulumi reads a state.
  for (std::uint32_t i = size; i > 0; --i) {
    const Member& m = members[i - 1];
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
  // An escape decodes to at least one byte from at most six ("\u00e9"
  // gives two bytes from six; a surrogate pair four from twelve), other
  // bytes stay as they are: the decoded text is between size / 6 and size
  // bytes long. Most calls compare a long escaped string (a secret's JSON
  // payload) with a short name, and end here without decoding it.
  if (size < s.size() || size > 6 * s.size()) return false;
  return Unescape(raw()) == s;
}

namespace {
constexpr std::size_t kMinBlock = std::size_t{64} * 1024;
}  // namespace

void* Arena::AllocateBytes(std::size_t bytes, std::size_t align) {
  // Padding needed to align `p`.
  auto padding = [&](const char* p) {
    auto v = reinterpret_cast<std::uintptr_t>(p);
    return static_cast<std::size_t>((align - (v & (align - 1))) & (align - 1));
  };
  // Sizes are compared, never pointers past the end of the block (forming
  // one is undefined behaviour).
  std::size_t available =
      cursor_ ? static_cast<std::size_t>(limit_ - cursor_) : 0;
  std::size_t pad = cursor_ ? padding(cursor_) : 0;
  if (!cursor_ || pad > available || bytes > available - pad) {
    std::size_t size = std::max(kMinBlock, bytes + align);
    if (!block_sizes_.empty()) size = std::max(size, block_sizes_.back() * 2);
    blocks_.emplace_back(new char[size]);
    block_sizes_.push_back(size);
    cursor_ = blocks_.back().get();
    limit_ = cursor_ + size;
    pad = padding(cursor_);
  }
  char* p = cursor_ + pad;
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

Value Arena::MakeNumber(std::string_view text, std::uint64_t offset) {
  assert(IsNumberText(text));
  Value v;
  v.type = Type::kNumber;
  std::string_view copy = Copy(text);
  v.text = copy.data();
  v.size = static_cast<std::uint32_t>(copy.size());
  v.offset = offset;
  return v;
}

Value Arena::MakeArray(std::span<const Value> elements, std::uint64_t offset) {
  assert(elements.size() <= std::numeric_limits<std::uint32_t>::max());
  Value* copy = Allocate<Value>(elements.size());
  if (!elements.empty()) {
    std::memcpy(copy, elements.data(), elements.size_bytes());
  }
  Value v;
  v.type = Type::kArray;
  v.elements = copy;
  v.size = static_cast<std::uint32_t>(elements.size());
  v.offset = offset;
  return v;
}

Value Arena::MakeObject(std::span<const Member> members, std::uint64_t offset) {
  assert(members.size() <= std::numeric_limits<std::uint32_t>::max());
  Member* copy = Allocate<Member>(members.size());
  if (!members.empty()) {
    std::memcpy(copy, members.data(), members.size_bytes());
  }
  Value v;
  v.type = Type::kObject;
  v.members = copy;
  v.size = static_cast<std::uint32_t>(members.size());
  v.offset = offset;
  return v;
}

Value Clone(const Value& value, Arena& arena) {
  Value out = value;
  switch (value.type) {
    case Type::kNull:
    case Type::kFalse:
    case Type::kTrue: return out;
    case Type::kNumber:
    case Type::kString: out.text = arena.Copy(value.raw()).data(); return out;
    case Type::kArray: {
      Value* elements = arena.Allocate<Value>(value.size);
      for (std::uint32_t i = 0; i < value.size; ++i) {
        new (&elements[i]) Value(Clone(value.elements[i], arena));
      }
      out.elements = elements;
      return out;
    }
    case Type::kObject: {
      Member* members = arena.Allocate<Member>(value.size);
      for (std::uint32_t i = 0; i < value.size; ++i) {
        const Member& m = value.members[i];
        new (&members[i]) Member{Clone(m.key, arena), Clone(m.value, arena)};
      }
      out.members = members;
      return out;
    }
  }
  return out;
}

Value MakeNull(std::uint64_t offset) {
  Value v;
  v.offset = offset;
  return v;
}

Value MakeBool(bool b, std::uint64_t offset) {
  Value v;
  v.type = b ? Type::kTrue : Type::kFalse;
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
