// verify read by the engine's parallel executor must report exactly what
// the sequential read reports: every fixture, both ways.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "diag/report.h"
#include "engine/executor.h"
#include "verify/run.h"
#include "verify/verifier.h"

namespace pstate::verify {
namespace {

namespace fs = std::filesystem;

/// A finding spelled out whole, for comparing reports.
std::string FindingLine(const diag::Finding& f) {
  return std::string(f.code_name()) + " " + f.pointer + " " +
         std::to_string(f.line) + ":" + std::to_string(f.column) + ":" +
         std::to_string(f.char_column) + " " + f.urn + " " + f.message + " " +
         f.fingerprint;
}

/// The fixture states (every .json file of fixtures/ but the schemas).
std::vector<std::string> FixtureStates() {
  std::vector<std::string> states;
  for (const auto& entry :
       fs::recursive_directory_iterator(PSTATE_FIXTURES_DIR)) {
    const fs::path& p = entry.path();
    std::error_code ec;
    if (entry.is_symlink(ec) || !entry.is_regular_file(ec) ||
        p.extension() != ".json" ||
        p.string().find("schema") != std::string::npos) {
      continue;
    }
    states.push_back(p.string());
  }
  return states;
}

std::vector<std::string> Lines(const std::string& path, int jobs,
                               std::size_t max_kept) {
  diag::Report report(path, max_kept);
  Config config;
  config.jobs = jobs;
  VerifyInput(path, config, report);
  report.SortByLocation();
  std::vector<std::string> lines;
  for (const diag::Finding& f : report.findings()) {
    lines.push_back(FindingLine(f));
  }
  lines.push_back("omitted " + std::to_string(report.omitted()) + " errors " +
                  std::to_string(report.summary().errors) + " warnings " +
                  std::to_string(report.summary().warnings) + " resources " +
                  std::to_string(report.summary().resources));
  return lines;
}

TEST(ParallelVerify, EveryFixtureReportsTheSameBothWays) {
  std::vector<std::string> states = FixtureStates();
  for (const std::string& path : states) {
    for (std::size_t max_kept : {std::size_t{0}, std::size_t{3}}) {
      std::vector<std::string> one = Lines(path, 1, max_kept);
      EXPECT_EQ(Lines(path, 3, max_kept), one)
          << path << " --max-findings " << max_kept;
      EXPECT_EQ(Lines(path, 2, max_kept), one)
          << path << " --max-findings " << max_kept;
    }
  }
  EXPECT_GT(states.size(), 100u);
}

/// Every finding of the Verifier read by the engine with `jobs` threads
/// and ranges of about `batch_bytes`, then who read the resources.
std::vector<std::string> EngineLines(const std::string& path, int jobs,
                                     std::size_t batch_bytes) {
  diag::Report report(path);
  engine::Options options;
  options.jobs = jobs;
  options.batch_bytes = batch_bytes;
  std::function<std::unique_ptr<Verifier>()> make = [] {
    return std::make_unique<Verifier>();
  };
  engine::Ran<Verifier> ran =
      engine::Run<Verifier>(path, make, report, options);
  report.SortByLocation();
  std::vector<std::string> lines;
  for (const diag::Finding& f : report.findings()) {
    lines.push_back(FindingLine(f));
  }
  lines.push_back(ran.executor == engine::Executor::kParallel ? "parallel"
                                                              : "sequential");
  return lines;
}

// The same with ranges of a few hundred bytes: most resources are then in
// a range of their own, handed to either worker, so a worker's journal
// meets references to resources in earlier ranges it did not read, in
// ranges it read before, and in its own range (and partials and item
// vectors are reused from range to range).
TEST(ParallelVerify, SmallRangesReportTheSameAsTheSequentialRead) {
  std::size_t split = 0;
  for (const std::string& path : FixtureStates()) {
    std::vector<std::string> one = EngineLines(path, 1, 1 << 20);
    for (int jobs : {2, 3}) {
      for (std::size_t batch : {std::size_t{200}, std::size_t{1500}}) {
        std::vector<std::string> many = EngineLines(path, jobs, batch);
        bool parallel = many.back() == "parallel";
        if (parallel && jobs == 2 && batch == 200) ++split;
        many.back() = one.back();
        EXPECT_EQ(many, one) << path << " jobs " << jobs << " batch " << batch;
      }
    }
  }
  EXPECT_GT(split, 50u);  // the parallel executor read most of them
}

}  // namespace
}  // namespace pstate::verify
