// consumer STATE: verifies STATE through the installed library and prints
// what it found, one fact a line, for tests/api/install_test.sh to compare.
// It includes the one installed header and nothing else of pstate.
#include <pstate/pstate.h>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: consumer STATE\n");
    return 2;
  }
  pstate::Result<pstate::State> state = pstate::State::Open(argv[1]);
  if (!state.ok()) {
    std::fprintf(stderr, "open: %s\n", state.status().message().c_str());
    return 2;
  }
  pstate::Result<pstate::Findings> findings = pstate::Verify(*state);
  if (!findings.ok()) {
    std::fprintf(stderr, "verify: %s\n", findings.status().message().c_str());
    return 2;
  }
  std::printf("version %s\n", pstate::Version());
  std::printf("findings %zu\n", findings->findings.size());
  std::printf("resources %llu\n",
              static_cast<unsigned long long>(findings->resources));
  for (const pstate::Finding& f : findings->findings) {
    const std::string_view code = pstate::CodeName(f.code);
    std::printf("%.*s %llu:%llu %s\n", static_cast<int>(code.size()),
                code.data(), static_cast<unsigned long long>(f.line),
                static_cast<unsigned long long>(f.column), f.pointer.c_str());
  }
  pstate::Result<pstate::StatsResult> stats = pstate::Stats(*state);
  if (!stats.ok()) return 2;
  std::printf("envelope %s\n", stats->envelope.c_str());
  return findings->errors == 0 ? 0 : 1;
}
