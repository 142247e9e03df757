#include "walk.h"

namespace pstate::types {

std::string_view DescribeKind(NodeKind kind) {
  switch (kind) {
    case NodeKind::kNull: return "null";
    case NodeKind::kBool: return "a bool";
    case NodeKind::kNumber: return "a number";
    case NodeKind::kString: return "a string";
    case NodeKind::kUnknown: return "the unknown value";
    case NodeKind::kArray: return "an array";
    case NodeKind::kObject: return "an object";
    case NodeKind::kSecret: return "a secret";
    case NodeKind::kAsset: return "an asset";
    case NodeKind::kArchive: return "an archive";
    case NodeKind::kResourceRef: return "a resource reference";
    case NodeKind::kSpecialFloat: return "a special float";
    case NodeKind::kByteString: return "a byte string";
    case NodeKind::kMalformed: return "a malformed signature object";
  }
  return "a value";
}

}  // namespace pstate::types
