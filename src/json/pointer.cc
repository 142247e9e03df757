#include "pstate/json/pointer.h"

namespace pstate::json {

void AppendPointerToken(std::string* pointer, std::string_view token) {
  pointer->push_back('/');
  for (char c : token) {
    if (c == '~') {
      pointer->append("~0");
    } else if (c == '/') {
      pointer->append("~1");
    } else {
      pointer->push_back(c);
    }
  }
}

void AppendPointerIndex(std::string* pointer, std::size_t index) {
  pointer->push_back('/');
  pointer->append(std::to_string(index));
}

}  // namespace pstate::json
