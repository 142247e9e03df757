#include "diag/finding.h"

namespace pstate::diag {

Finding MakeFinding(Code code, std::string message, std::string pointer,
                    std::string urn) {
  Finding f;
  f.code = code;
  f.severity = Info(code).severity;
  f.message = std::move(message);
  f.pointer = std::move(pointer);
  f.urn = std::move(urn);
  return f;
}

}  // namespace pstate::diag
