#include "verify/run.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>
#include <system_error>

#include "assets/auditor.h"
#include "engine/executor.h"
#include "io/input.h"
#include "secrets/known_secrets.h"
#include "secrets/mask.h"
#include "state/reader.h"
#include "verify/schema_checks.h"
#include "verify/verifier.h"

namespace pstate::verify {

namespace {

/// verify's own checks alone: the engine's pass, on --jobs threads over a
/// plain file (engine/executor.h).
void VerifyAsPass(const std::string& path, const Config& config,
                  diag::Report& report) {
  // The plaintexts the state reveals (a --show-secrets export) are never
  // printed, even where they are an identifier: a URN, a map key, a
  // property name (review F5). One pass: a secret may come after the
  // finding that names it, so the report is masked once the pass ended,
  // whichever way it ended. A read that falls back starts them anew.
  std::unique_ptr<secrets::KnownSecrets> known;
  std::unique_ptr<secrets::SecretCollector> collector;
  auto make = [&]() {
    known = std::make_unique<secrets::KnownSecrets>();
    collector =
        std::make_unique<secrets::SecretCollector>(known.get(), nullptr);
    auto verifier = std::make_unique<Verifier>();
    verifier->set_on_plaintext([c = collector.get()](std::string_view payload) {
      c->AddPayload(payload);
    });
    return verifier;
  };
  engine::Options options;
  options.jobs = config.check_jobs;
  options.on_progress = config.on_progress;
  engine::Run<Verifier>(path, make, report, options);
  if (known) secrets::MaskReport(*known, &report);
}

}  // namespace

void VerifyInput(const std::string& path, const Config& config,
                 diag::Report& report) {
  if (!config.assets && !config.schemas) {
    VerifyAsPass(path, config, report);
    return;
  }
  // --schema and --assets add handlers that are not passes (their rules
  // span resources: provider versions, the hashing pool): one sequential
  // read with verify's checks beside them.
  auto input = io::OpenInput(path);
  if (!input.ok()) {
    report.Add(
        diag::MakeFinding(diag::Code::kIoError, input.status().message()));
    return;
  }
  state::ReadOptions options;
  options.on_progress = config.on_progress;
  // Masked at the end as in VerifyAsPass.
  secrets::KnownSecrets known;
  secrets::SecretCollector collector(&known, nullptr);
  struct MaskAtEnd {
    const secrets::KnownSecrets& known;
    diag::Report& report;
    ~MaskAtEnd() { secrets::MaskReport(known, &report); }
  } mask_at_end{known, report};
  Verifier verifier;
  verifier.set_on_plaintext([&collector](std::string_view payload) {
    collector.AddPayload(payload);
  });
  std::optional<SchemaChecks> schema;
  if (config.schemas) schema.emplace(*config.schemas);
  // verify's checks, then the schema checks, in the same pass.
  std::optional<state::Tee> with_schema;
  state::Handler* handler = &verifier;
  if (schema) handler = &with_schema.emplace(verifier, *schema);
  if (!config.assets) {
    Status status = state::Read(**input, *handler, report, options);
    (void)status;  // the report holds the located reason
    return;
  }
  // --assets: the audit runs beside the checks; its results are hashed on
  // worker threads and delivered on this one. The report keeps findings by
  // their place in the file, so arrival order does not matter.
  assets::Auditor auditor(config.asset_options, config.jobs,
                          [&report](assets::ItemResult&& r) {
                            for (diag::Finding& f : assets::ToFindings(r)) {
                              report.Add(std::move(f));
                            }
                          });
  assets::AuditHandler audit(auditor);
  state::Tee all(*handler, audit);
  Status status = state::Read(**input, all, report, options);
  auditor.Finish();
  (void)status;  // the report holds the located reason
}

Status LoadSchemas(const std::vector<std::string>& files,
                   const std::vector<std::string>& dirs,
                   types::SchemaSet* set) {
  namespace fs = std::filesystem;
  std::vector<std::string> all = files;
  for (const std::string& dir : dirs) {
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec) {
      return Status(
          Errc::kNotFound,
          dir + ": cannot read the schema directory: " + ec.message());
    }
    std::vector<std::string> found;
    for (const fs::directory_entry& e : it) {
      std::string name = e.path().filename().string();
      bool schema = name.ends_with(".json") || name.ends_with(".json.gz");
      if (schema && e.is_regular_file(ec)) found.push_back(e.path().string());
    }
    std::sort(found.begin(), found.end());
    all.insert(all.end(), found.begin(), found.end());
  }
  for (const std::string& file : all) {
    if (Status s = set->LoadFile(file); !s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace pstate::verify
