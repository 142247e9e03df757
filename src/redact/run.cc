#include "redact/run.h"

#include <memory>
#include <utility>

#include "diag/failure.h"
#include "diag/report.h"
#include "scan/leak_scan_handler.h"
#include "state/reader.h"
#include "state/rewrite.h"

namespace pstate::redact {

Result<RedactStats> Run(Config config) {
  if (Status same = state::CheckOutputIsNotInput(config.input, config.output);
      !same.ok()) {
    return same;
  }
  scan::KnownSecrets known;
  std::unique_ptr<io::InputStream> input;
  if (config.options.leaks || config.options.count_kept_leaks ||
      config.options.anonymizer != nullptr) {
    // Two passes: the plaintexts (and the identifiers only their context
    // shows, for --anonymize) first, then the redaction.
    Result<io::Replayable> replay =
        io::OpenReplayable(config.input, config.spool);
    if (!replay.ok()) return replay.status();
    Result<std::unique_ptr<io::InputStream>> first = replay->Open();
    if (!first.ok()) return first.status();
    scan::SecretCollectHandler collect(&known, scan::DecryptOptions{});
    // --anonymize learns from every leaf as it goes by.
    class Learning : public state::Handler {
     public:
      explicit Learning(Anonymizer* anonymizer) : anonymizer_(anonymizer) {}
      Result<state::Flow> OnLeaf(state::Leaf& leaf, state::Context&) override {
        if (anonymizer_ != nullptr) anonymizer_->Learn(leaf.value);
        return state::Flow::kContinue;
      }

     private:
      Anonymizer* anonymizer_;
    } learning(config.options.anonymizer);
    state::Tee both(collect, learning);
    diag::Report report(replay->name());
    state::ReadOptions read_options;
    read_options.on_progress = config.on_progress;
    Status status = state::Read(**first, both, report, read_options);
    if (!status.ok()) return diag::FailureOf(report, status).ToStatus();
    config.options.known_secrets = &known;
    Result<std::unique_ptr<io::InputStream>> second = replay->Open();
    if (!second.ok()) return second.status();
    input = std::move(second).value();
    // `replay` may go: the second stream keeps what it reads alive.
  } else {
    Result<std::unique_ptr<io::InputStream>> once = io::OpenInput(config.input);
    if (!once.ok()) return once.status();
    input = std::move(once).value();
  }

  Redactor redactor(std::move(config.options));
  state::RewriteOptions rewrite;
  rewrite.input = config.input;
  rewrite.output = config.output;
  rewrite.layout = config.layout;
  rewrite.on_progress = config.on_progress;
  std::uint64_t inexact_strings = 0;
  rewrite.on_lossy_string = [&](const json::Value&) { ++inexact_strings; };
  Status status = state::RewriteState(
      rewrite, *input,
      [&](state::Leaf& leaf,
          state::Context& context) -> Result<state::LeafAction> {
        redactor.Process(leaf, context);
        return state::LeafAction::kWrite;
      });
  if (!status.ok()) return status;
  RedactStats stats = redactor.stats();
  stats.inexact_strings = inexact_strings;
  return stats;
}

}  // namespace pstate::redact
