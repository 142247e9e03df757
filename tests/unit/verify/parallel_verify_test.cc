// verify read by the engine's parallel executor must report exactly what
// the sequential read reports: every fixture, both ways.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "diag/report.h"
#include "verify/run.h"

namespace pstate::verify {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> Lines(const std::string& path, int jobs,
                               std::size_t max_kept) {
  diag::Report report(path, max_kept);
  Config config;
  config.jobs = jobs;
  VerifyInput(path, config, report);
  report.SortByLocation();
  std::vector<std::string> lines;
  for (const diag::Finding& f : report.findings()) {
    lines.push_back(std::string(f.code_name()) + " " + f.pointer + " " +
                    std::to_string(f.line) + ":" + std::to_string(f.column) +
                    ":" + std::to_string(f.char_column) + " " + f.urn + " " +
                    f.message + " " + f.fingerprint);
  }
  lines.push_back("omitted " + std::to_string(report.omitted()) + " errors " +
                  std::to_string(report.summary().errors) + " warnings " +
                  std::to_string(report.summary().warnings) + " resources " +
                  std::to_string(report.summary().resources));
  return lines;
}

TEST(ParallelVerify, EveryFixtureReportsTheSameBothWays) {
  std::size_t states = 0;
  for (const auto& entry :
       fs::recursive_directory_iterator(PSTATE_FIXTURES_DIR)) {
    const fs::path& p = entry.path();
    std::error_code ec;
    if (entry.is_symlink(ec) || !entry.is_regular_file(ec) ||
        p.extension() != ".json") {
      continue;
    }
    if (p.string().find("schema") != std::string::npos) continue;
    ++states;
    for (std::size_t max_kept : {std::size_t{0}, std::size_t{3}}) {
      std::vector<std::string> one = Lines(p.string(), 1, max_kept);
      EXPECT_EQ(Lines(p.string(), 3, max_kept), one)
          << p << " --max-findings " << max_kept;
      EXPECT_EQ(Lines(p.string(), 2, max_kept), one)
          << p << " --max-findings " << max_kept;
    }
  }
  EXPECT_GT(states, 100u);
}

}  // namespace
}  // namespace pstate::verify
