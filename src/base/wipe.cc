#include "base/wipe.h"

#include <string.h>  // explicit_bzero

namespace pstate {

void Wipe(void* data, std::size_t size) {
  if (data != nullptr && size > 0) ::explicit_bzero(data, size);
}

}  // namespace pstate
