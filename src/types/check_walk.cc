#include "types/check_walk.h"

#include <type_traits>

namespace pstate::types {

Outcome CheckWalk::Readable(const json::Value& v) {
  // Only objects can be signatures: scalars need no decoding.
  if (!v.is_array() && !v.is_object()) return Outcome::kOk;
  if (!Enter()) return Outcome::kError;
  Outcome o = Outcome::kOk;
  json::Value unused;
  auto child = [&](std::size_t, const auto& c, json::Value*) {
    if constexpr (std::is_same_v<std::decay_t<decltype(c)>, json::Member>) {
      return Readable(c.value);
    } else {
      return Readable(c);
    }
  };
  if (v.is_array()) {
    o = Elements(v, &unused, child);
  } else {
    Node node = Decode(v, arena_);
    switch (node.kind) {
      case PropertyKind::kUnrecognized: o = Fail(node.reason); break;
      case PropertyKind::kSecret:
        o = Secret(node, &unused, [&](const json::Value& inner, json::Value*) {
          return Readable(inner);
        });
        break;
      case PropertyKind::kObject:
      case PropertyKind::kResourceReference:
        o = Members(v, &unused, child);
        break;
      default: break;
    }
  }
  Leave();
  return o;
}

std::string_view DescribeKind(PropertyKind kind) {
  switch (kind) {
    case PropertyKind::kNull: return "null";
    case PropertyKind::kBool: return "a bool";
    case PropertyKind::kNumber: return "a number";
    case PropertyKind::kString: return "a string";
    case PropertyKind::kUnknown: return "the unknown value";
    case PropertyKind::kArray: return "an array";
    case PropertyKind::kObject: return "an object";
    case PropertyKind::kSecret: return "a secret";
    case PropertyKind::kAsset: return "an asset";
    case PropertyKind::kArchive: return "an archive";
    case PropertyKind::kResourceReference: return "a resource reference";
    case PropertyKind::kSpecialFloat: return "a special float";
    case PropertyKind::kByteString: return "a byte string";
    case PropertyKind::kOutputValue:
    case PropertyKind::kUnrecognized: return "a malformed signature object";
  }
  return "a value";
}

}  // namespace pstate::types
