#include "assets/run.h"

#include <memory>
#include <utility>

#include "diag/report.h"
#include "io/input.h"
#include "state/reader.h"

namespace pstate::assets {

Outcome Run(const Config& config) {
  Outcome out;
  const std::string name = io::InputName(config.input);
  diag::Report report(name);  // the reader adds only a fatal finding
  auto fail = [&](const Status& status) {
    out.failure = diag::FailureOf(report, status);
  };
  auto input = io::OpenInput(config.input);
  if (!input.ok()) {
    fail(input.status());
    return out;
  }
  Auditor auditor(config.options, config.jobs, [&](ItemResult&& r) {
    Count(out.tally, r);
    if (config.on_row) config.on_row(ToRow(std::move(r)));
  });
  if (!auditor.status().ok()) {
    fail(auditor.status());
    return out;
  }
  AuditHandler handler(auditor);
  state::ReadOptions read_options;
  read_options.on_progress = config.on_progress;
  Status status = state::Read(**input, handler, report, read_options);
  auditor.Finish();
  if (!status.ok() || report.fatal()) {
    fail(status);
    return out;
  }
  return out;
}

}  // namespace pstate::assets
