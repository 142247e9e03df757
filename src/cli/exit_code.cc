#include "cli/exit_code.h"

#include <iostream>

#include "report/terminal.h"

namespace pstate::cli {

int Fail(std::string_view message, int code) {
  report::PrintError(std::cerr, message);
  return code;
}

int Fail(const Status& status, int code) {
  return Fail(status.message(), code);
}

}  // namespace pstate::cli
