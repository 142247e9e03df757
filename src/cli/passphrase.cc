#include "cli/passphrase.h"

#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string_view>
#include <utility>

#include "base/wipe.h"
#include "cli/terminal.h"

namespace pstate::cli {
namespace {

/// Echo off, then the prompt on standard error, then a line read from the
/// terminal on standard input (the terminal's settings are restored before
/// returning); kInvalidArgument at end of input before a newline.
Result<std::string> ReadWithoutEcho(std::string_view prompt) {
  termios saved{};
  const bool restore = ::tcgetattr(STDIN_FILENO, &saved) == 0;
  if (restore) {
    termios quiet = saved;
    quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
    quiet.c_lflag |= static_cast<tcflag_t>(ECHONL);
    ::tcsetattr(STDIN_FILENO, TCSANOW, &quiet);
  }
  std::cerr << prompt << std::flush;
  std::string line;
  bool ended = false;
  for (;;) {
    char c = 0;
    ssize_t n = ::read(STDIN_FILENO, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (c == '\n') {
      ended = true;
      break;
    }
    line.push_back(c);
  }
  if (restore) ::tcsetattr(STDIN_FILENO, TCSANOW, &saved);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (!ended) {
    Wipe(line);
    return Result<std::string>(Errc::kInvalidArgument,
                               "no passphrase was entered");
  }
  return line;
}

}  // namespace

Result<std::string> ResolvePassphrase(const std::string& passphrase_file) {
  PassphraseInputs inputs;
  if (!passphrase_file.empty()) inputs.file = passphrase_file;
  if (const char* phrase = std::getenv(kPassphraseEnv)) {
    inputs.passphrase = phrase;
  }
  if (const char* file = std::getenv(kPassphraseFileEnv);
      file != nullptr && *file != '\0') {
    inputs.env_file = file;
  }
  return PassphraseResolve(inputs);
}

PassphraseSource PassphraseFromFlags(std::string passphrase_file) {
  return [file = std::move(passphrase_file)]() -> Result<std::string> {
    Result<std::string> given = ResolvePassphrase(file);
    if (given.ok() || given.status().code() != Errc::kInvalidArgument ||
        !IsTerminal(STDIN_FILENO) || !IsTerminal(STDERR_FILENO)) {
      return given;
    }
    return ReadWithoutEcho(kPassphrasePrompt);
  };
}

}  // namespace pstate::cli
