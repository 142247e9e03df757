// Helpers shared by the end-to-end tests that run the built pstate binary
// on generated inputs (jsontestsuite_test.cc, bad_input_test.cc).
#ifndef PSTATE_TESTS_E2E_E2E_UTIL_H_
#define PSTATE_TESTS_E2E_E2E_UTIL_H_

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace pstate_e2e {

namespace fs = std::filesystem;

inline std::string ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void WriteFile(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out.push_back(c);
    }
  }
  return out + "'";
}

/// A fresh directory under the system temp dir, removed on destruction.
class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
    path_ = fs::temp_directory_path() /
            ("pstate-e2e-" + tag + "-" + std::to_string(::getpid()));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

struct RunResult {
  bool exited = false;  ///< exited normally (not killed by a signal)
  int exit_code = -1;   ///< 124 means `timeout` killed it
  std::string out;
  std::string err;
  /// A sanitizer report on stderr (ASan/UBSan/LSan): a crash in disguise.
  bool sanitizer_report() const {
    return err.find("Sanitizer") != std::string::npos ||
           err.find("runtime error:") != std::string::npos;
  }
};

/// Runs `pstate <args>` (args already shell-quoted as needed) under
/// `timeout`, with NO_COLOR set, stdin from `stdin_path` (or /dev/null).
/// A sanitizer failure exits 86 so it cannot pass for exit 1. A process
/// that ignores the TERM (seen once: stopped by LeakSanitizer's tracer at
/// exit) is killed 5 seconds later, so a test fails rather than hangs.
inline RunResult RunPstate(const std::string& args, const fs::path& work,
                           const std::string& stdin_path = "/dev/null",
                           int timeout_seconds = 20) {
  fs::path out = work / ".run.stdout", err = work / ".run.stderr";
  std::string command =
      "NO_COLOR=1 ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86\" "
      "UBSAN_OPTIONS=\"${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:"
      "exitcode=86\" timeout -k 5 " +
      std::to_string(timeout_seconds) + " " + ShellQuote(PSTATE_BINARY) + " " +
      args + " < " + ShellQuote(stdin_path) + " > " + ShellQuote(out.string()) +
      " 2> " + ShellQuote(err.string());
  RunResult r;
  int status = std::system(command.c_str());
  r.exited = status != -1 && WIFEXITED(status);
  if (r.exited) r.exit_code = WEXITSTATUS(status);
  r.out = ReadFile(out);
  r.err = ReadFile(err);
  return r;
}

namespace detail {

/// Runs `sh -c command` with standard output (and standard input and
/// error, as asked) on a fresh pseudo-terminal in a session of its own;
/// RunResult::out is what the terminal showed. Once it has shown `prompt`
/// (when not empty), `typed` is typed.
inline RunResult RunOnPty(const std::string& command, bool stdin_too,
                          bool stderr_too, const std::string& prompt = "",
                          const std::string& typed = "") {
  RunResult r;
  int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || ::grantpt(master) != 0 || ::unlockpt(master) != 0) {
    return r;
  }
  std::string slave_name = ::ptsname(master);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::setsid();
    int slave = ::open(slave_name.c_str(), O_RDWR);
    if (slave < 0) ::_exit(127);
    if (stdin_too) ::dup2(slave, STDIN_FILENO);
    ::dup2(slave, STDOUT_FILENO);
    if (stderr_too) ::dup2(slave, STDERR_FILENO);
    ::close(slave);
    ::close(master);
    ::execl("/bin/sh", "sh", "-c", command.c_str(),
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  // Read until the child's side closes (EIO on Linux once it is gone).
  bool typed_yet = prompt.empty();
  char buffer[4096];
  for (;;) {
    ssize_t n = ::read(master, buffer, sizeof buffer);
    if (n <= 0) break;
    r.out.append(buffer, static_cast<std::size_t>(n));
    if (!typed_yet && r.out.find(prompt) != std::string::npos) {
      typed_yet = true;
      if (::write(master, typed.data(), typed.size()) < 0) break;
    }
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(master);
  r.exited = WIFEXITED(status);
  if (r.exited) r.exit_code = WEXITSTATUS(status);
  return r;
}

}  // namespace detail

/// What the terminal showed and the exit code of `pstate <args>` run with
/// standard output (and, with `stderr_too`, standard error) on a fresh
/// pseudo-terminal, as a user at a shell runs it. Standard input is
/// /dev/null; a standard error not on the terminal goes to `RunResult::err`.
/// `env` is prepended to the command ("NO_COLOR=1 " and the like).
inline RunResult RunPstateOnTerminal(const std::string& args,
                                     const fs::path& work,
                                     bool stderr_too = false,
                                     const std::string& env = "") {
  fs::path err = work / ".run.stderr";
  std::string command =
      env +
      " ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86\" "
      "timeout 20 " +
      ShellQuote(PSTATE_BINARY) + " " + args + " < /dev/null" +
      (stderr_too ? std::string() : " 2> " + ShellQuote(err.string()));
  RunResult r = detail::RunOnPty(command, false, stderr_too);
  if (!stderr_too) r.err = ReadFile(err);
  return r;
}

/// `pstate <args>` with standard input, output and error all on a fresh
/// pseudo-terminal, as a user at a shell runs it: once the terminal shows
/// `prompt`, `typed` is typed (a newline ends a line). `out` is everything
/// the terminal showed, echo included. (`timeout --foreground` keeps pstate
/// in the terminal's foreground process group, so it may read it.)
inline RunResult RunPstateTyping(const std::string& args,
                                 const std::string& prompt,
                                 const std::string& typed,
                                 const std::string& env = "") {
  std::string command =
      env +
      " ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86\" "
      "timeout --foreground 20 " +
      ShellQuote(PSTATE_BINARY) + " " + args;
  return detail::RunOnPty(command, true, true, prompt, typed);
}

/// One finding of a `--format json` line.
struct Finding {
  std::string code;
  std::int64_t line = 0;  ///< 0 when null
  std::int64_t column = 0;
};

/// One `--format json` line.
struct FileResult {
  std::string file;
  std::vector<Finding> findings;
  std::int64_t errors = -1;
  std::int64_t warnings = -1;
  std::int64_t notes = -1;
};

namespace detail {

inline std::int64_t NumberAfter(const std::string& s, const std::string& key,
                                std::size_t from, std::size_t* end) {
  std::size_t at = s.find(key, from);
  if (at == std::string::npos) return -1;
  at += key.size();
  if (s.compare(at, 4, "null") == 0) {
    if (end) *end = at + 4;
    return 0;
  }
  std::int64_t v = 0;
  std::size_t i = at;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9')
    v = v * 10 + (s[i++] - '0');
  if (end) *end = i;
  return v;
}

}  // namespace detail

/// Parses pstate's JSON Lines output. Inside a JSON string every '"' is
/// escaped, so the unescaped markers searched for here only match the
/// structure (file names must not contain '"' or '\').
inline std::vector<FileResult> ParseJsonLines(const std::string& out) {
  std::vector<FileResult> results;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    FileResult r;
    const std::string file_key = "{\"file\":\"";
    if (line.compare(0, file_key.size(), file_key) != 0) continue;
    std::size_t end = line.find("\",\"findings\":[", file_key.size());
    if (end == std::string::npos) continue;
    r.file = line.substr(file_key.size(), end - file_key.size());
    std::size_t summary = line.rfind("],\"summary\":{");
    if (summary == std::string::npos) continue;
    for (std::size_t at = line.find("{\"code\":\"", end);
         at != std::string::npos && at < summary;
         at = line.find("{\"code\":\"", at + 1)) {
      Finding f;
      std::size_t start = at + 9;
      f.code = line.substr(start, line.find('"', start) - start);
      std::size_t next = 0;
      f.line = detail::NumberAfter(line, ",\"line\":", start, &next);
      f.column = detail::NumberAfter(line, ",\"column\":", next, nullptr);
      r.findings.push_back(f);
    }
    r.errors = detail::NumberAfter(line, "\"errors\":", summary, nullptr);
    r.warnings = detail::NumberAfter(line, "\"warnings\":", summary, nullptr);
    r.notes = detail::NumberAfter(line, "\"notes\":", summary, nullptr);
    results.push_back(std::move(r));
  }
  return results;
}

/// The codes that make an input unreadable (exit 2), as diag::IsFatal.
inline bool IsFatalCode(const std::string& code) {
  return code == "io-error" || code == "json-syntax" ||
         code == "json-invalid-utf8" || code == "json-too-deep" ||
         code == "not-a-state" || code == "version-unsupported";
}

/// Byte offset of a 1-based line:column in `bytes` (columns count bytes),
/// or -1 when that place does not exist (end of input is a place).
inline std::int64_t OffsetOf(const std::string& bytes, std::int64_t line,
                             std::int64_t column) {
  if (line < 1 || column < 1) return -1;
  std::size_t start = 0;
  for (std::int64_t l = 1; l < line; ++l) {
    std::size_t nl = bytes.find('\n', start);
    if (nl == std::string::npos) return -1;
    start = nl + 1;
  }
  std::size_t line_end = bytes.find('\n', start);
  if (line_end == std::string::npos) line_end = bytes.size();
  auto offset = static_cast<std::int64_t>(start) + column - 1;
  if (offset > static_cast<std::int64_t>(line_end)) return -1;
  return offset;
}

}  // namespace pstate_e2e

#endif  // PSTATE_TESTS_E2E_E2E_UTIL_H_
