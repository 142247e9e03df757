// The library API (pstate/pstate.h) over the command modules' entry points.
//
// Each call maps its config to the module's, runs it, and maps the result
// back where the module's type is not already the API's own (docs/api.md
// lists each mapping as a step to remove). Calls are serialized
// (api::Call): the input limits are process-wide in io
// (io::DefaultInputLimits), so a call sets its state's limits for its
// duration.
#include "pstate/pstate.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <span>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "api/internal.h"
#include "asset_hash/run_budget.h"
#include "assets/run.h"
#include "backend/backend.h"
#include "convert/convert.h"
#include "crypt/run.h"
#include "crypto/fingerprint.h"
#include "diag/codes.h"
#include "diag/failure.h"
#include "diag/ignore_file.h"
#include "diag/report.h"
#include "diff/differ.h"
#include "diff/filter.h"
#include "edit/edit.h"
#include "graph/graph.h"
#include "history/history.h"
#include "htmlreport/htmlreport.h"
#include "inspect/inspect.h"
#include "io/input.h"
#include "io/output.h"
#include "io/spool.h"
#include "normalize/normalize.h"
#include "redact/anonymizer.h"
#include "redact/run.h"
#include "scan/run.h"
#include "state/selector.h"
#include "types/schema_set.h"
#include "types/typecheck.h"
#include "verify/run.h"
#include "verify/schema_checks.h"

namespace pstate {

struct Schemas::Impl {
  types::SchemaSet set;
};

struct FingerprintKey::Impl {
  crypto::Fingerprinter fingerprinter;
};

namespace {

// One API call on `state`: exclusive, with its input limits.
class Call : public api::Call {
 public:
  explicit Call(const State& state) : api::Call(state.impl().limits) {}
};

// The path the modules open, or why there is none.
Result<std::string> PathOf(const State& state) {
  const State::Impl& impl = state.impl();
  if (impl.path == "-" && impl.stdin_taken.exchange(true)) {
    return Status(Errc::kInvalidArgument,
                  "<stdin>: standard input was already read by an earlier "
                  "call; open the state again from a file or bytes");
  }
  return impl.path;
}

// A module's message names the file it opened; a state in memory is named
// by its own name instead of its private copy's.
std::string Named(const State& state, std::string message) {
  const State::Impl& impl = state.impl();
  if (!impl.copy) return message;
  const std::string& from = impl.path;
  for (std::size_t at = message.find(from); at != std::string::npos;
       at = message.find(from, at + impl.name.size())) {
    message.replace(at, from.size(), impl.name);
  }
  return message;
}

Status Named(const State& state, const Status& status) {
  if (status.ok()) return status;
  return Status(status.code(), Named(state, status.message()));
}

// A finding of `state` as the API returns it: the core's findings are the
// API's (diag::Finding is Finding); only a message naming the private copy
// of a state held in memory is made to name the state instead.
Finding Named(const State& state, Finding finding) {
  if (state.impl().copy) finding.message = Named(state, finding.message);
  return finding;
}

// The report's findings, in file order, taken out of it; with a filter,
// those it admits (the report kept every finding), the first max_findings.
Findings ToFindings(const State& state, diag::Report&& report,
                    const FindingFilter& filter, std::size_t max_findings) {
  Findings out = api::TakeFindings(std::move(report), filter, max_findings);
  out.file = state.name();
  if (state.impl().copy) {
    for (Finding& f : out.findings) f = Named(state, std::move(f));
  }
  return out;
}

// The passphrase callback of the modules that ask for one: none given is
// kInvalidArgument, which they take as "secrets stay closed".
PassphraseSource PassphraseOf(const PassphraseSource& passphrase) {
  if (passphrase) return passphrase;
  return []() -> Result<std::string> {
    return Status(Errc::kInvalidArgument, "no passphrase was given");
  };
}

}  // namespace

namespace api {

Findings TakeFindings(diag::Report&& report, const FindingFilter& filter,
                      std::size_t max_findings) {
  return filter.empty()
             ? std::move(report).Take()
             : FilterFindings(std::move(report).Take(), filter, max_findings);
}

verify::Config ToVerifyConfig(const VerifyConfig& config) {
  verify::Config c;
  c.assets = config.assets;
  c.asset_options.root = config.asset_root;
  c.asset_options.outside_root = config.allow_outside_root
                                     ? asset_hash::OutsideRoot::kReadHashHidden
                                     : asset_hash::OutsideRoot::kRefuse;
  c.jobs = config.asset_jobs > 0 ? config.asset_jobs : config.jobs;
  c.check_jobs = config.jobs;
  if (config.schemas) c.schemas = &config.schemas->impl().set;
  c.on_progress = config.on_progress;
  return c;
}

}  // namespace api

const char* Version() { return PSTATE_VERSION; }

PassphraseSource FixedPassphrase(std::string passphrase) {
  return [passphrase = std::move(passphrase)]() -> Result<std::string> {
    return passphrase;
  };
}

Result<FingerprintKey> FingerprintKey::FromFile(const std::string& path) {
  auto fingerprinter = crypto::Fingerprinter::FromKeyFile(path);
  if (!fingerprinter.ok()) return fingerprinter.status();
  return FingerprintKey(
      std::make_shared<const Impl>(Impl{std::move(*fingerprinter)}));
}

FingerprintKey FingerprintKey::Random() {
  return FingerprintKey(std::make_shared<const Impl>(
      Impl{crypto::Fingerprinter::WithRandomKey()}));
}

std::string_view ResourceFlagName(ResourceFlag flag) {
  return state::FlagName(flag);
}

std::optional<ResourceFlag> ResourceFlagNamed(std::string_view name) {
  return state::ParseFlag(name);
}

std::optional<Layout> LayoutNamed(const std::string& name) {
  return normalize::ParseLayout(name);
}

// ---- State, Schemas ---------------------------------------------------------

// PATH@VERSION names a file of a DIY backend wherever io opens an input:
// a state, or a path a call takes (VerifyMany, TypecheckCases, ...). io
// knows nothing of backends, so the library installs the resolver as it
// is loaded (before main; a function pointer, set once, read after).
const bool kPathResolverInstalled = [] {
  io::SetPathResolver(&backend::ResolveInputPath);
  return true;
}();

std::string InputName(const std::string& path) { return io::InputName(path); }

Result<State> State::Open(const std::string& path, const OpenOptions& options) {
  auto impl = std::make_shared<Impl>();
  impl->path = path;
  impl->limits = options.limits;
  impl->name = !options.name.empty() ? options.name : io::InputName(path);
  if (path != "-") {
    io::InputOptions input;
    input.max_decoded_bytes = options.limits.max_decoded_bytes;
    input.max_piece_bytes = options.limits.max_piece_bytes;
    auto opened = io::OpenInput(path, input);
    if (!opened.ok()) return opened.status();
  }
  return State(std::move(impl));
}

Result<State> State::FromBytes(std::string bytes, const OpenOptions& options) {
  auto impl = std::make_shared<Impl>();
  impl->limits = options.limits;
  impl->name = options.name.empty() ? std::string("<memory>") : options.name;
  impl->copy = std::make_unique<io::TempPath>();
  if (Status s = impl->copy->Create("state"); !s.ok()) return s;
  impl->path = impl->copy->path();
  std::FILE* file = std::fopen(impl->path.c_str(), "wb");
  bool written = file != nullptr && std::fwrite(bytes.data(), 1, bytes.size(),
                                                file) == bytes.size();
  if (file != nullptr && std::fclose(file) != 0) written = false;
  if (!written) {
    return Status(Errc::kIo, impl->name + ": cannot write its temporary copy");
  }
  return State(std::move(impl));
}

const std::string& State::name() const { return impl_->name; }

Result<Schemas> Schemas::Load(const std::vector<std::string>& files,
                              const std::vector<std::string>& dirs) {
  auto impl = std::make_shared<Impl>();
  if (Status s = verify::LoadSchemas(files, dirs, &impl->set); !s.ok()) {
    return s;
  }
  return Schemas(std::move(impl));
}

// ---- verify, scan -----------------------------------------------------------

Result<Findings> Verify(const State& state, const VerifyConfig& config) {
  if (config.jobs < 1) {
    return Status(Errc::kInvalidArgument, "jobs must be at least 1");
  }
  Call call(state);
  Result<std::string> path = PathOf(state);
  if (!path.ok()) return path.status();
  verify::Config c = api::ToVerifyConfig(config);
  // With a filter every finding is kept until it is applied: the kept ones
  // are the first max_findings of those it admits.
  diag::Report report(state.name(),
                      config.filter.empty() ? config.max_findings : 0);
  verify::VerifyInput(*path, c, report);
  return ToFindings(state, std::move(report), config.filter,
                    config.max_findings);
}

Result<ScanResult> Scan(const State& state, const ScanConfig& config) {
  Call call(state);
  Result<std::string> path = PathOf(state);
  if (!path.ok()) return path.status();
  if (config.jobs < 1) {
    return Status(Errc::kInvalidArgument, "jobs must be at least 1");
  }
  std::optional<FingerprintKey> key = config.key;
  if (!key && !config.fingerprint_key_file.empty()) {
    Result<FingerprintKey> from_file =
        FingerprintKey::FromFile(config.fingerprint_key_file);
    if (!from_file.ok()) return from_file.status();
    key = std::move(*from_file);
  }
  if (!key) key = FingerprintKey::Random();
  scan::Config c;
  c.input = *path;
  c.max_findings = config.filter.empty() ? config.max_findings : 0;
  c.fingerprinter = &key->impl().fingerprinter;
  c.jobs = config.jobs;
  c.decrypt.enabled = config.decrypt;
  c.decrypt.passphrase = config.passphrase;
  c.on_progress = config.on_progress;
  std::optional<verify::SchemaChecks> schema_checks;
  if (config.schemas) {
    c.extra_checks = &schema_checks.emplace(
        config.schemas->impl().set,
        verify::SchemaCheckOptions{.secrets_only = true});
  }
  scan::Outcome outcome = scan::Run(c);
  if (!outcome.status.ok()) return Named(state, outcome.status);
  ScanResult out;
  out.findings = ToFindings(state, std::move(*outcome.report), config.filter,
                            config.max_findings);
  out.undecryptable = outcome.undecryptable;
  return out;
}

// ---- diff -------------------------------------------------------------------

namespace {

// diff's result is the API's, and how it was read.
DiffResult ToDiffResult(diff::DiffResult&& result) {
  return std::move(static_cast<DiffResult&>(result));
}

}  // namespace

Result<DiffResult> Diff(const State& before, const State& after,
                        const DiffConfig& config) {
  Call call(before);  // both states are read with `before`'s limits
  diff::DiffFilter filter;
  filter.types = config.types;
  filter.urns = config.urns;
  for (const std::string& kind : config.ignore) {
    if (Status s = diff::AddIgnoreKind(kind, &filter); !s.ok()) return s;
  }
  Result<std::string> before_path = PathOf(before);
  if (!before_path.ok()) return before_path.status();
  Result<std::string> after_path = PathOf(after);
  if (!after_path.ok()) return after_path.status();
  diff::DiffConfig c;
  c.before = *before_path;
  c.after = *after_path;
  c.passphrase = PassphraseOf(config.passphrase);
  c.show_secrets = config.show_secrets;
  c.jobs = config.jobs;
  c.on_progress = config.on_progress;
  Result<diff::DiffResult> result = diff::Run(c);
  if (!result.ok()) return Named(after, Named(before, result.status()));
  diff::ApplyFilter(filter, &*result);
  return ToDiffResult(std::move(*result));
}

// ---- ls, stats --------------------------------------------------------------

namespace {

inspect::ListConfig ToListConfig(const std::string& path,
                                 const ListConfig& config, bool pending) {
  inspect::ListConfig c;
  static_cast<ResourceFilter&>(c) = config;
  c.path = path;
  c.pending = pending;
  c.jobs = config.jobs;
  c.on_progress = config.on_progress;
  return c;
}

}  // namespace

Status List(const State& state, const ListConfig& config,
            const std::function<bool(const ResourceRow&)>& on_row) {
  Call call(state);
  Result<std::string> path = PathOf(state);
  if (!path.ok()) return path.status();
  std::size_t rows = 0;
  Status s = inspect::List(
      ToListConfig(*path, config, false),
      [&](const ResourceRow& row) {
        ++rows;
        return on_row(row) && (config.limit == 0 || rows < config.limit);
      },
      [](const PendingRow&) { return true; });
  return Named(state, s);
}

Result<std::vector<ResourceRow>> List(const State& state,
                                      const ListConfig& config) {
  std::vector<ResourceRow> rows;
  Status s = List(state, config, [&rows](const ResourceRow& row) {
    rows.push_back(row);
    return true;
  });
  if (!s.ok()) return s;
  return rows;
}

Status ListPending(const State& state, const ListConfig& config,
                   const std::function<bool(const PendingRow&)>& on_row) {
  Call call(state);
  Result<std::string> path = PathOf(state);
  if (!path.ok()) return path.status();
  std::size_t rows = 0;
  Status s = inspect::List(
      ToListConfig(*path, config, true),
      [](const ResourceRow&) { return true; },
      [&](const PendingRow& row) {
        ++rows;
        return on_row(row) && (config.limit == 0 || rows < config.limit);
      });
  return Named(state, s);
}

Result<std::vector<PendingRow>> ListPending(const State& state,
                                            const ListConfig& config) {
  std::vector<PendingRow> rows;
  Status s = ListPending(state, config, [&rows](const PendingRow& row) {
    rows.push_back(row);
    return true;
  });
  if (!s.ok()) return s;
  return rows;
}

Result<StatsResult> Stats(const State& state, const StatsConfig& config) {
  Call call(state);
  Result<std::string> path = PathOf(state);
  if (!path.ok()) return path.status();
  inspect::StatsConfig stats_config;
  stats_config.path = *path;
  stats_config.top = config.top;
  stats_config.top_properties = config.top_properties;
  stats_config.jobs = config.jobs;
  stats_config.on_progress = config.on_progress;
  StatsSizes sizes;
  Result<StatsResult> stats =
      inspect::Stats(stats_config, config.sizes ? &sizes : nullptr);
  if (!stats.ok()) return Named(state, stats.status());
  if (config.sizes) stats->sizes = std::move(sizes);
  return stats;
}

Result<ShowResult> Show(const State& state, const ShowConfig& config) {
  Call call(state);
  Result<std::string> path = PathOf(state);
  if (!path.ok()) return path.status();
  inspect::ShowConfig show;
  show.path = *path;
  show.urn = config.urn;
  show.index = config.urn.empty() ? config.index : std::nullopt;
  show.show_secrets = config.show_secrets;
  show.passphrase = config.passphrase;
  Result<ShowResult> shown = inspect::Show(show);
  if (!shown.ok()) return Named(state, shown.status());
  return shown;
}

Result<TreeResult> Tree(const State& state, const TreeConfig& config) {
  Call call(state);
  Result<std::string> path = PathOf(state);
  if (!path.ok()) return path.status();
  Result<TreeResult> tree = inspect::Tree(*path, config.on_progress);
  if (!tree.ok()) return Named(state, tree.status());
  return tree;
}

// ---- normalize --------------------------------------------------------------

Result<NormalizeResult> Normalize(const State& state,
                                  const NormalizeConfig& config) {
  // Standard input is refused by normalize itself.
  if (config.in_place && state.impl().copy) {
    return Status(
        Errc::kInvalidArgument,
        state.name() + ": in place needs a state opened from a file path");
  }
  Call call(state);
  Result<std::string> path = PathOf(state);
  if (!path.ok()) return path.status();
  normalize::Config c;
  c.input = *path;
  c.output = config.output;
  c.in_place = config.in_place;
  c.check = config.check;
  c.options.layout = config.layout;
  c.options.pulumi_numbers = config.pulumi_numbers;
  c.options.drop_unknown = config.drop_unknown;
  c.compression = config.compression;
  c.on_progress = config.on_progress;
  Result<normalize::Outcome> outcome = normalize::Run(c);
  if (!outcome.ok()) return Named(state, outcome.status());
  NormalizeResult out = std::move(*outcome);
  for (Note& note : out.notes) note.message = Named(state, note.message);
  return out;
}

// ---- convert, redact
// ---------------------------------------------------------

Result<ConvertResult> Convert(const State& state, const ConvertConfig& config) {
  Call call(state);
  Result<std::string> path = PathOf(state);
  if (!path.ok()) return path.status();
  convert::Config c;
  c.input = *path;
  c.output = config.output;
  c.to = config.to;
  c.version = config.version;
  c.stack = config.stack;
  c.force = config.force;
  c.layout = config.layout;
  c.pulumi_numbers = config.pulumi_numbers;
  c.drop_unknown = config.drop_unknown;
  c.compression = config.compression;
  c.on_progress = config.on_progress;
  Result<ConvertResult> result = convert::Run(c);
  if (!result.ok()) return Named(state, result.status());
  for (Note& note : result->notes) note.message = Named(state, note.message);
  return result;
}

Result<RedactResult> Redact(const State& state, const RedactConfig& config) {
  Call call(state);
  Result<std::string> path = PathOf(state);
  if (!path.ok()) return path.status();
  redact::Config c;
  // The given key, else a random one (not a std::optional: GCC's -O3
  // -Wmaybe-uninitialized misreads the destructor of an optional holding
  // a shared_ptr).
  const FingerprintKey key =
      config.key.has_value() ? *config.key : FingerprintKey::Random();
  if (config.fingerprint) c.options.fingerprinter = key.impl().fingerprinter;
  std::optional<redact::Anonymizer> anonymizer;
  if (config.anonymize) {
    c.options.anonymizer = &anonymizer.emplace(key.impl().fingerprinter);
  }
  c.options.also = config.also;
  c.options.leaks = config.leaks;
  c.options.count_kept_leaks = !config.leaks;
  c.input = *path;
  c.output = config.output;
  c.layout = config.compact ? json::Layout::kCompact : json::Layout::kIndented;
  c.on_progress = config.on_progress;
  Result<RedactResult> stats = redact::Run(std::move(c));
  if (!stats.ok()) return Named(state, stats.status());
  if (anonymizer) {
    for (std::size_t k = 0; k < redact::kIdentityKinds; ++k) {
      stats->anonymized.emplace_back(
          redact::IdentityKindName(static_cast<redact::IdentityKind>(k)),
          anonymizer->stats().distinct[k]);
    }
  }
  return stats;
}

// ---- decrypt, encrypt -------------------------------------------------------

namespace {

Result<CryptResult> RunCrypt(const State& state, const CryptConfig& config,
                             crypt::CryptMode mode) {
  Call call(state);
  Result<std::string> path = PathOf(state);
  if (!path.ok()) return path.status();
  crypt::Config c;
  c.input = *path;
  c.output = config.output;
  c.layout = config.compact ? json::Layout::kCompact : json::Layout::kIndented;
  c.options.mode = mode;
  c.options.passphrase = PassphraseOf(config.passphrase);
  c.options.jobs = config.jobs;
  c.on_progress = config.on_progress;
  Result<crypt::CryptStats> stats = crypt::Run(std::move(c));
  if (!stats.ok()) return Named(state, stats.status());
  CryptResult out;
  out.secrets = stats->secrets;
  out.distinct = stats->distinct;
  out.provider = std::move(stats->provider);
  out.inexact_strings = stats->inexact_strings;
  return out;
}

}  // namespace

Result<CryptResult> Decrypt(const State& state, const CryptConfig& config) {
  return RunCrypt(state, config, crypt::CryptMode::kDecrypt);
}

Result<CryptResult> Encrypt(const State& state, const CryptConfig& config) {
  return RunCrypt(state, config, crypt::CryptMode::kEncrypt);
}

// ---- edit -------------------------------------------------------------------

namespace {

// Mapping: the module's outcome holds its notes and resource changes as
// typed records bound to the index (edit/records.h); the result's lists
// keep them so and render each entry when it is read (unless
// `list_changes` is false: empty). Messages naming a state in
// memory's private copy name the state (`named`).
EditResult ToEditResult(const State& named, edit::Outcome&& outcome,
                        bool list_changes) {
  EditResult out;
  out.refused = outcome.refused;
  out.refusal = Named(named, std::move(outcome.refusal));
  out.selected = std::move(outcome.selected);
  if (list_changes) {
    // The records stay bound to the edit's index and plan (shared), and
    // each entry is rendered as the caller reads it.
    auto notes = std::make_shared<const edit::Notes>(std::move(outcome.notes));
    out.notes = EditList<std::string>(
        notes->size(), [notes](std::size_t i) { return (*notes)[i]; });
    auto resources = std::make_shared<const edit::ElementChanges>(
        std::move(outcome.changes.resources));
    out.resources = EditList<EditElementChange>(
        resources->size(),
        [resources](std::size_t i) { return (*resources)[i]; });
    out.envelope = std::move(outcome.changes.envelope);
    out.pending = std::move(outcome.changes.pending);
  }
  for (diag::Finding& f : outcome.new_findings) {
    out.new_errors.push_back(Named(named, std::move(f)));
  }
  out.written = outcome.written;
  out.unchanged = outcome.unchanged;
  out.backup = std::move(outcome.backup);
  if (outcome.diff) out.diff = ToDiffResult(std::move(*outcome.diff));
  return out;
}

}  // namespace

bool EditTakesSelection(EditOperation operation) {
  return edit::TakesSelection(operation);
}

Result<EditResult> Edit(const State& state, const EditConfig& config) {
  Call call(state);
  if (config.in_place && state.impl().copy) {
    return Status(Errc::kInvalidArgument,
                  state.name() +
                      ": a state in memory cannot be edited in "
                      "place; give an output");
  }
  Result<std::string> path = PathOf(state);
  if (!path.ok()) return path.status();
  edit::Config c;
  edit::Request& r = c.request;
  r.op = config.operation;
  r.urns = config.urns;
  static_cast<ResourceFilter&>(r.select) = config.select;
  r.all = config.all;
  r.id = config.id;
  r.new_name = config.new_name;
  r.new_project = config.new_project;
  r.new_parent = config.new_parent;
  r.target_dependents = config.target_dependents;
  r.with_dependencies = config.with_dependencies;
  r.force = config.force;
  r.allow_new_errors = config.allow_new_errors;
  r.pending_type = config.pending_type;
  r.pending_urn = config.pending_urn;
  c.input = *path;
  c.output = config.output;
  c.in_place = config.in_place;
  c.dry_run = config.dry_run;
  c.on_progress = config.on_progress;
  Result<edit::Outcome> outcome = edit::Run(c);
  if (!outcome.ok()) return Named(state, outcome.status());
  return ToEditResult(state, std::move(*outcome), config.list_changes);
}

Result<EditMoveResult> EditMove(const State& source, const State& destination,
                                const EditMoveConfig& config) {
  Call call(source);  // both states are read with the source's limits
  for (const State* state : {&source, &destination}) {
    if (state->impl().copy && !config.dry_run) {
      return Status(Errc::kInvalidArgument,
                    state->name() +
                        ": edit move writes both states in place, and a "
                        "state in memory has no place (use dry_run)");
    }
  }
  // Both names at once: the module refuses standard input itself.
  const std::string& source_path = source.impl().path;
  const std::string& destination_path = destination.impl().path;
  auto named = [&](std::string message) {
    return Named(destination, Named(source, std::move(message)));
  };
  edit::MoveConfig c;
  c.source = source_path;
  c.destination = destination_path;
  c.request.urns = config.urns;
  static_cast<ResourceFilter&>(c.request.select) = config.select;
  c.request.include_parents = config.include_parents;
  c.request.allow_new_errors = config.allow_new_errors;
  c.request.dest_stack = config.destination_stack;
  c.request.dest_project = config.destination_project;
  c.dry_run = config.dry_run;
  Result<edit::MoveOutcome> outcome = edit::Move(c);
  if (!outcome.ok()) {
    return Status(outcome.status().code(), named(outcome.status().message()));
  }
  EditMoveResult out;
  static_cast<MoveSummary&>(out) =
      std::move(static_cast<MoveSummary&>(*outcome));
  out.refusal = named(std::move(out.refusal));
  for (std::string& note : out.notes) note = named(std::move(note));
  out.source =
      ToEditResult(source, std::move(outcome->source), config.list_changes);
  out.destination = ToEditResult(destination, std::move(outcome->destination),
                                 config.list_changes);
  return out;
}

// ---- history ----------------------------------------------------------------

Result<std::vector<StackSummary>> HistoryBackend(const std::string& dir) {
  std::lock_guard<std::mutex> lock(api::CallMutex());
  return history::SummarizeBackend(dir);
}

Result<HistoryTarget> HistoryOpen(const std::string& path) {
  std::lock_guard<std::mutex> lock(api::CallMutex());
  return history::OpenTarget(path);
}

std::vector<UpdateRow> HistoryList(const HistoryTarget& target, bool verify) {
  std::lock_guard<std::mutex> lock(api::CallMutex());
  return history::ListUpdates(target, verify);
}

Result<HistoryRestoreResult> HistoryRestore(
    const HistoryRestoreConfig& config) {
  api::Call call(config.limits);
  return history::Restore(config);
}

std::optional<std::int64_t> DurationSeconds(std::string_view text) {
  return history::ParseDuration(text);
}

Result<HistoryPruneResult> HistoryPrune(const HistoryPruneConfig& config) {
  std::lock_guard<std::mutex> lock(api::CallMutex());
  return history::Prune(config);
}

Result<HistoryBlameResult> HistoryBlame(const HistoryBlameConfig& config) {
  api::Call call(config.limits);
  return history::Blame(config);
}

// ---- typecheck --------------------------------------------------------------

namespace {

// The module's config of `config` (the language, type, schemas and
// aliases; the source is the caller's).
types::TypecheckConfig ModuleConfig(types::TypecheckConfig c,
                                    const TypecheckConfig& config) {
  c.system = std::string(types::SystemName(config.language));
  c.type = config.type;
  c.schemas = config.schema_files;
  c.puppet_aliases = config.puppet_aliases;
  c.puppet_alias_files = config.puppet_alias_files;
  return c;
}

Result<TypeVerdict> Check(types::TypecheckConfig c,
                          const TypecheckConfig& config) {
  return types::CheckSingle(ModuleConfig(std::move(c), config));
}

// A value given as text (kValue) or as a file's path (kValueFile).
Result<TypeVerdict> CheckValue(types::TypecheckConfig::Source source,
                               const std::string& value,
                               const TypecheckConfig& config) {
  api::Call call(config.limits);
  types::TypecheckConfig c;
  c.source = source;
  c.value = value;
  return Check(std::move(c), config);
}

Result<TypeVerdict> CheckInState(const State& state,
                                 types::TypecheckConfig::Source source,
                                 const std::string& where,
                                 const TypecheckConfig& config) {
  Call call(state);
  Result<std::string> path = PathOf(state);
  if (!path.ok()) return path.status();
  types::TypecheckConfig c;
  c.source = source;
  c.state = *path;
  (source == types::TypecheckConfig::Source::kStatePointer ? c.pointer
                                                           : c.output) = where;
  Result<TypeVerdict> verdict = Check(std::move(c), config);
  if (!verdict.ok()) return Named(state, verdict.status());
  return verdict;
}

}  // namespace

Result<TypeVerdict> Typecheck(const std::string& value_json,
                              const TypecheckConfig& config) {
  return CheckValue(types::TypecheckConfig::Source::kValue, value_json, config);
}

Result<TypeVerdict> TypecheckPointer(const State& state,
                                     const std::string& pointer,
                                     const TypecheckConfig& config) {
  return CheckInState(state, types::TypecheckConfig::Source::kStatePointer,
                      pointer, config);
}

Result<TypeVerdict> TypecheckOutput(const State& state,
                                    const std::string& output,
                                    const TypecheckConfig& config) {
  return CheckInState(state, types::TypecheckConfig::Source::kStateOutput,
                      output, config);
}

Result<TypeVerdict> TypecheckFile(const std::string& path,
                                  const TypecheckConfig& config) {
  return CheckValue(types::TypecheckConfig::Source::kValueFile, path, config);
}

Result<TypecheckCasesResult> TypecheckCases(
    const std::string& path, const TypecheckConfig& config,
    const std::function<void(const TypecheckCase&)>& on_case) {
  api::Call call(config.limits);
  types::TypecheckConfig c;
  c.source = types::TypecheckConfig::Source::kCases;
  c.cases = path;
  c = ModuleConfig(std::move(c), config);
  c.system.clear();  // each case names its own
  c.type.clear();
  return types::CheckCases(c, on_case);
}

// ---- assets -----------------------------------------------------------------

class AssetRun {
 public:
  explicit AssetRun(std::shared_ptr<asset_hash::RunBudget> budget)
      : budget_(std::move(budget)) {}
  const std::shared_ptr<asset_hash::RunBudget>& budget() const {
    return budget_;
  }

 private:
  std::shared_ptr<asset_hash::RunBudget> budget_;
};

namespace {

asset_hash::Options ToHashOptions(const AssetsConfig& config) {
  asset_hash::Options options;
  options.root = config.root;
  options.outside_root = config.allow_outside_root
                             ? asset_hash::OutsideRoot::kReadHashHidden
                             : asset_hash::OutsideRoot::kRefuse;
  options.max_total_bytes = config.totals.max_bytes;
  options.max_total_members = config.totals.max_members;
  options.max_total_expanded_bytes = config.totals.max_expanded_bytes;
  return options;
}

// Mapping: diag::Failure -> ReadFailure (the same code; the place and the
// located message).
ReadFailure ToReadFailure(const diag::Failure& failure) {
  ReadFailure out;
  out.code = failure.code;
  out.reason = failure.reason;
  out.line = failure.line;
  out.column = failure.column;
  out.pointer = failure.pointer;
  out.status = failure.ToStatus();
  return out;
}

}  // namespace

std::shared_ptr<AssetRun> NewAssetRun(const AssetsConfig& config) {
  return std::make_shared<AssetRun>(
      std::make_shared<asset_hash::RunBudget>(ToHashOptions(config)));
}

ReadFailure ReadFailureOf(const std::string& name, const Status& status) {
  return ToReadFailure(diag::FailureOf(diag::Report(name), status));
}

Result<AssetsResult> Assets(const State& state, const AssetsConfig& config) {
  Call call(state);
  Result<std::string> path = PathOf(state);
  if (!path.ok()) return path.status();
  assets::Config c;
  c.input = *path;
  c.options = ToHashOptions(config);
  c.options.run = config.run
                      ? config.run->budget()
                      : std::make_shared<asset_hash::RunBudget>(c.options);
  c.jobs = config.jobs;
  c.on_progress = config.on_progress;
  c.on_row = config.on_row;
  assets::Outcome outcome = assets::Run(c);
  AssetsResult result;
  result.tally = outcome.tally;
  if (outcome.failure) {
    result.failure = ToReadFailure(*outcome.failure);
    result.failure->reason = Named(state, result.failure->reason);
    result.failure->status = Named(state, result.failure->status);
  }
  return result;
}

// ---- finding codes, ignore files
// ---------------------------------------------

Result<IgnoreAddResult> IgnoreAdd(const IgnoreAddConfig& config) {
  std::string text;
  {
    std::ifstream in(config.file, std::ios::binary);
    if (in) {
      std::ostringstream buffer;
      buffer << in.rdbuf();
      text = buffer.str();
    } else if (errno != ENOENT) {
      return Status(Errc::kIo,
                    config.file + ": cannot open: " + std::strerror(errno));
    }
  }
  Result<diag::IgnoreAddition> added = diag::AddToIgnoreFile(
      text, config.file, config.fingerprint, config.reason);
  if (!added.ok()) return added.status();
  IgnoreAddResult result;
  if (added->already_listed) {
    result.already_listed = true;
    return result;
  }
  auto out = io::OpenOutput(config.file);
  if (!out.ok()) return out.status();
  (*out)->Write(added->text);
  if (Status st = (*out)->Commit(); !st.ok()) return st;
  return result;
}

// ---- graph ------------------------------------------------------------------

std::string_view GraphEdgeKindName(GraphEdgeKind kind) {
  return graph::EdgeKindName(kind);
}

std::optional<GraphEdgeKind> GraphEdgeKindNamed(std::string_view name) {
  return graph::ParseEdgeKind(name);
}

Result<ResourceGraph> Graph(const State& state, const GraphConfig& config) {
  Call call(state);
  Result<std::string> path = PathOf(state);
  if (!path.ok()) return path.status();
  graph::Config c;
  c.path = *path;
  c.edges = config.edges;
  static_cast<ResourceFilter&>(c.focus) = config.focus;
  c.depth = config.depth;
  c.direction = config.direction;
  c.group_by_type = config.group_by_type;
  Result<ResourceGraph> built = graph::Build(c);
  if (!built.ok()) return Named(state, built.status());
  return built;
}

// ---- report (HTML) ----------------------------------------------------------

Result<HtmlReportModel> HtmlReport(const State& state,
                                   const HtmlReportConfig& config) {
  Call call(state);
  Result<std::string> path = PathOf(state);
  if (!path.ok()) return path.status();
  htmlreport::Config c;
  c.path = *path;
  if (config.after) {
    Result<std::string> after = PathOf(*config.after);
    if (!after.ok()) return after.status();
    c.after = *after;
  }
  c.passphrase = PassphraseOf(config.passphrase);
  c.max_findings = config.max_findings;
  c.top = config.top;
  Result<HtmlReportModel> model = htmlreport::Collect(c);
  if (!model.ok()) {
    Status named = Named(state, model.status());
    return config.after ? Named(*config.after, named) : named;
  }
  model->file = state.name();
  if (config.after) model->after_file = config.after->name();
  return model;
}

}  // namespace pstate
