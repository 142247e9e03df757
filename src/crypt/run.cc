#include "crypt/run.h"

#include <atomic>
#include <memory>
#include <utility>

#include "diag/failure.h"
#include "diag/report.h"
#include "state/reader.h"
#include "state/rewrite.h"

namespace pstate::crypt {
namespace {

std::atomic<std::uint64_t> g_probe_bytes{0};

/// Feeds the probe; counts how far the read got.
class ProbeHandler : public state::Handler {
 public:
  explicit ProbeHandler(CryptPass& pass) : pass_(pass) {}
  Result<state::Flow> OnLeaf(state::Leaf& leaf,
                             state::Context& context) override {
    end_ = leaf.end_offset;
    return pass_.Probe(leaf, context);
  }
  std::uint64_t end() const { return end_; }

 private:
  CryptPass& pass_;
  std::uint64_t end_ = 0;
};

}  // namespace

std::uint64_t LastProbeBytesForTesting() { return g_probe_bytes.load(); }

Result<CryptStats> Run(Config config) {
  if (Status same = state::CheckOutputIsNotInput(config.input, config.output);
      !same.ok()) {
    return same;
  }
  Result<io::Replayable> replay =
      io::OpenReplayable(config.input, config.spool);
  if (!replay.ok()) return replay.status();
  config.options.input_name = replay->name();
  CryptPass pass(config.options);

  {
    Result<std::unique_ptr<io::InputStream>> probe_input = replay->Open();
    if (!probe_input.ok()) return probe_input.status();
    ProbeHandler probe(pass);
    diag::Report report(replay->name());
    Status status = state::Read(**probe_input, probe, report);
    g_probe_bytes.store(probe.end());
    if (!status.ok()) return diag::FailureOf(report, status).ToStatus();
  }

  Result<std::unique_ptr<io::InputStream>> input = replay->Open();
  if (!input.ok()) return input.status();
  state::RewriteOptions rewrite;
  rewrite.input = config.input;
  rewrite.output = config.output;
  // Decrypted output holds every secret in plaintext: a private file.
  rewrite.output_options.holds_secrets =
      config.options.mode == CryptMode::kDecrypt;
  rewrite.layout = config.layout;
  rewrite.all_or_nothing = true;
  rewrite.temp_directory = config.spool.directory;
  rewrite.on_progress = config.on_progress;
  std::uint64_t inexact_strings = 0;
  rewrite.on_lossy_string = [&](const json::Value&) { ++inexact_strings; };
  Status status = state::RewriteState(
      rewrite, **input, [&](state::Leaf& leaf, state::Context& context) {
        return pass.Process(leaf, context);
      });
  if (!status.ok()) return status;
  CryptStats stats = pass.stats();
  stats.inexact_strings = inexact_strings;
  return stats;
}

}  // namespace pstate::crypt
