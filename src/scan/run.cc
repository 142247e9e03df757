#include "scan/run.h"

#include <optional>
#include <utility>

#include "diag/finding.h"
#include "engine/executor.h"
#include "io/input.h"
#include "scan/known_secrets.h"
#include "secrets/mask.h"
#include "state/reader.h"

namespace pstate::scan {

Outcome Run(const Config& config) {
  Outcome out;
  std::string name = io::InputName(config.input);
  out.report = std::make_unique<diag::Report>(name, config.max_findings);
  auto unreadable = [&](const Status& status) {
    out.report->Add(diag::MakeFinding(diag::Code::kIoError, status.message()));
  };
  auto impossible = [&](const Status& status) {
    out.status = Status(status.code(), name + ": " + status.message());
  };

  Result<io::Replayable> replay =
      io::OpenReplayable(config.input, config.spool);
  if (!replay.ok()) {
    unreadable(replay.status());
    return out;
  }
  state::ReadOptions options;
  options.on_progress = config.on_progress;

  // Pass 1: the state's own secrets. The reader reports only what makes
  // the input unreadable, so the report holds nothing from this pass
  // unless it failed.
  KnownSecrets known;
  SecretCollectHandler collect(&known, config.decrypt);
  Result<std::unique_ptr<io::InputStream>> first = replay->Open();
  if (!first.ok()) {
    unreadable(first.status());
    return out;
  }
  Status status = state::Read(**first, collect, *out.report, options);
  if (!status.ok() && out.report->fatal()) return out;
  if (!collect.error().ok()) {
    impossible(collect.error());
    return out;
  }
  out.undecryptable = collect.undecryptable();

  // Pass 2: the findings. A file read as it is (not spooled) without extra
  // checks goes through the engine, on config.jobs threads when it is a
  // plain file (engine::CanSplit).
  if (config.extra_checks == nullptr && !replay->spooled() &&
      config.input != "-") {
    LeakOptions leak_options;
    leak_options.fingerprinter = config.fingerprinter;
    leak_options.known_secrets = &known;
    leak_options.decryptor = collect.decryptor();
    std::function<std::unique_ptr<LeakScanPass>()> make = [&] {
      return std::make_unique<LeakScanPass>(leak_options);
    };
    engine::Options engine_options;
    engine_options.jobs = config.jobs;
    engine_options.on_progress = config.on_progress;
    engine::Run<LeakScanPass>(config.input, make, *out.report, engine_options);
    return out;
  }
  Result<std::unique_ptr<io::InputStream>> second = replay->Open();
  if (!second.ok()) {
    unreadable(second.status());
    return out;
  }
  LeakScanHandler scan(config.fingerprinter, &known, /*collect=*/false,
                       config.decrypt, collect.decryptor());
  std::optional<state::Tee> with_extra;
  state::Handler* handler = &scan;
  if (config.extra_checks) {
    handler = &with_extra.emplace(scan, *config.extra_checks);
  }
  status = state::Read(**second, *handler, *out.report, options);
  // The leak scanner masks its own findings as it makes them; the extra
  // checks' (scan --schema) name URNs and pointers too (review F5).
  if (config.extra_checks) secrets::MaskReport(known, out.report.get());
  if (!status.ok() && out.report->fatal()) return out;
  if (!scan.error().ok()) {
    impossible(scan.error());
    return out;
  }
  return out;
}

}  // namespace pstate::scan
