#include "pstate/edit/edit.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <tuple>

#include "pstate/diag/codes.h"
#include "pstate/diag/report.h"
#include "pstate/edit/index.h"
#include "pstate/edit/source.h"
#include "pstate/io/output.h"
#include "pstate/state/reader.h"
#include "pstate/verify/verifier.h"

namespace pstate::edit {
namespace {

/// The reader's one fatal finding as "file:line:column: message".
Status Unreadable(const diag::Report& report, Errc code) {
  for (const diag::Finding& f : report.findings()) {
    if (!diag::IsFatal(f.code)) continue;
    std::string m = report.file();
    if (f.line > 0) {
      m += ":" + std::to_string(f.line) + ":" + std::to_string(f.column);
    }
    m += ": " + f.message;
    if (!f.pointer.empty()) m += " (at " + f.pointer + ")";
    return Status(code, m);
  }
  return Status(code, report.file() + ": cannot be read as a state");
}

using FindingKey = std::tuple<diag::Code, std::string, std::string>;

FindingKey KeyOf(const diag::Finding& f,
                 const std::unordered_map<std::string, std::string>* map) {
  std::string urn = f.urn;
  if (map != nullptr) {
    auto it = map->find(urn);
    if (it != map->end()) urn = it->second;
  }
  // Findings about a resource are told apart by code and resource; the
  // others by code and message (their places shift with any edit).
  return {f.code, urn, urn.empty() ? f.message : std::string()};
}

/// The input against the edited state, through `pstate diff`'s engine:
/// the result is written to an unlinked-on-return temporary file first.
Result<diff::DiffResult> DiffWithInput(const Source& source,
                                       std::string_view bytes,
                                       const std::vector<Segment>& segments) {
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
  if (ec) dir = "/tmp";
  std::string temp = (dir / "pstate-edit-dry-run-XXXXXX").string();
  std::vector<char> name(temp.begin(), temp.end());
  name.push_back('\0');
  int fd = ::mkstemp(name.data());
  if (fd < 0) return Status(Errc::kIo, temp + ": cannot create");
  ::close(fd);
  temp.assign(name.data());
  struct Remove {
    std::string path;
    ~Remove() { ::unlink(path.c_str()); }
  } remove{temp};
  auto out = io::OpenOutput(temp);
  if (!out.ok()) return out.status();
  WriteSegments(bytes, segments, **out);
  Status committed = (*out)->Commit();
  if (!committed.ok()) return committed;
  diff::DiffConfig config;
  config.before = source.replay_path();
  config.after = temp;
  return diff::Run(config);
}

}  // namespace

std::vector<diag::Finding> NewErrors(
    const diag::Report& before, const diag::Report& after,
    const std::unordered_map<std::string, std::string>& renamed) {
  std::map<FindingKey, std::size_t> had;
  for (const diag::Finding& f : before.findings()) {
    if (f.severity == diag::Severity::kError) ++had[KeyOf(f, &renamed)];
  }
  std::vector<diag::Finding> out;
  for (const diag::Finding& f : after.findings()) {
    if (f.severity != diag::Severity::kError) continue;
    auto it = had.find(KeyOf(f, nullptr));
    if (it != had.end() && it->second > 0) {
      --it->second;
      continue;
    }
    out.push_back(f);
  }
  return out;
}

Result<Outcome> Run(const Config& config) {
  if (config.in_place && config.input == "-") {
    return Status(Errc::kInvalidArgument,
                  "--in-place needs a file, not standard input");
  }
  auto source = Source::Open(config.input);
  if (!source.ok()) return source.status();
  std::string_view bytes = (*source)->bytes();

  // Pass 1: the index and the input's own findings.
  Index index;
  diag::Report before((*source)->name());
  {
    auto stream = (*source)->Reopen();
    if (!stream.ok()) return stream.status();
    verify::Verifier verifier;
    Indexer indexer(index);
    state::Tee tee(verifier, indexer);
    Status status = state::Read(**stream, tee, before);
    if (before.fatal()) return Unreadable(before, status.code());
    if (!status.ok()) return status;
  }
  if (!index.envelope.has_deployment) {
    return Status(Errc::kFormat, (*source)->name() +
                                     ": the state has no deployment: "
                                     "there is nothing to edit");
  }

  auto planned = MakePlan(index, config.request);
  if (!planned.ok()) return planned.status();
  Outcome outcome;
  if (planned->refused) {
    outcome.refused = true;
    outcome.refusal = planned->refusal;
    return outcome;
  }
  const Plan& plan = planned->plan;
  outcome.notes = plan.notes;

  const Source& input = **source;
  ReleaseFn release = [&input](std::uint64_t begin, std::uint64_t end) {
    input.Release(begin, end);
  };
  auto assembly = Assemble(bytes, index, plan, release);
  if (!assembly.ok()) return assembly.status();
  outcome.changes = assembly->changes;
  outcome.unchanged = assembly->unchanged;

  // Pass 2: the result must not be worse than the input.
  {
    diag::Report after((*source)->name() + " (edited)");
    auto stream =
        SegmentStream(bytes, assembly->segments, after.file(), release);
    verify::Verifier verifier;
    Status status = state::Read(*stream, verifier, after);
    if (after.fatal()) {
      Status why = Unreadable(after, Errc::kFormat);
      return Status(Errc::kFormat,
                    "internal error: the edited state does not read back: " +
                        why.message());
    }
    if (!status.ok()) return status;
    outcome.new_findings = NewErrors(before, after, plan.urn_map);
  }
  if (!outcome.new_findings.empty() && !config.request.force) {
    outcome.refused = true;
    outcome.refusal =
        "the edit would add integrity errors the input does not have "
        "(nothing written; --force writes it anyway)";
    return outcome;
  }
  if (config.dry_run) {
    auto diffed = DiffWithInput(**source, bytes, assembly->segments);
    if (!diffed.ok()) return diffed.status();
    outcome.diff = std::move(*diffed);
    return outcome;
  }
  if (config.in_place && assembly->unchanged) return outcome;

  std::string target = config.in_place ? config.input : config.output;
  auto opened = io::OpenOutput(target);
  if (!opened.ok()) return opened.status();
  auto out = CompressingOutput(std::move(*opened), (*source)->compression());
  if (!out.ok()) return out.status();
  WriteSegments(bytes, assembly->segments, **out, release);
  if (config.in_place) {
    outcome.backup = config.input + ".bak";
    std::error_code ec;
    std::filesystem::copy_file(
        config.input, outcome.backup,
        std::filesystem::copy_options::overwrite_existing, ec);
    if (ec) {
      (*out)->Abandon();
      return Status(Errc::kIo, outcome.backup + ": " + ec.message());
    }
  }
  Status committed = (*out)->Commit();
  if (!committed.ok()) return committed;
  outcome.written = true;
  return outcome;
}

}  // namespace pstate::edit
