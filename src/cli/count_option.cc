#include "cli/count_option.h"

#include <string>

namespace pstate::cli {

CLI::Validator NonNegativeCount() {
  return CLI::Validator(
      [](std::string& value) {
        return !value.empty() && value[0] == '-'
                   ? std::string("must be 0 or more, not ") + value
                   : std::string();
      },
      "N >= 0");
}

}  // namespace pstate::cli
