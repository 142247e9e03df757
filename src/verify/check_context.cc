#include "verify/check_context.h"

namespace pstate::verify {

std::string Reporter::PointerString() const { return path_.str(); }

}  // namespace pstate::verify
