#include "types/check_walk.h"

namespace pstate::types {

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
