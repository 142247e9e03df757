#include "edit/edit.h"

#include <unistd.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <tuple>

#include "diag/codes.h"
#include "diag/failure.h"
#include "diag/report.h"
#include "edit/dry_run.h"
#include "edit/index.h"
#include "io/output.h"
#include "io/rewrite_guard.h"
#include "io/spool.h"
#include "state/reader.h"
#include "verify/verifier.h"

namespace pstate::edit {
namespace {

/// The table key of an error key: its text's fingerprint, told apart by
/// code and kind.
Fingerprint Combined(const ErrorKey& k) {
  std::uint64_t tag =
      static_cast<std::uint64_t>(k.code) * 2 + (k.about_resource ? 1 : 0) + 1;
  return Fingerprint{k.text.hi ^ Mix64(tag), k.text.lo};
}

/// Hands the heap's free pages back to the system: pass 1's verifier
/// frees most of what it held (a chain's pending references) in holes the
/// allocator keeps, which the plan and pass 2 would otherwise add to.
void TrimHeap() {
#ifdef __GLIBC__
  ::malloc_trim(0);
#endif
}

/// Keeps at most 2 MiB free at the heap's top. glibc's own threshold
/// grows with the largest block freed (up to 64 MiB): once a grown table's
/// old slots are freed, that much free memory stays resident while the
/// index and the verifier grow, which is what decides an edit's peak (the
/// reversed 200k chain: 100.6 -> 92 MB). Process-wide: edit's promise of
/// bounded memory is the process's.
void LimitHeapSlack() {
#ifdef __GLIBC__
  ::mallopt(M_TRIM_THRESHOLD, 2 << 20);
#endif
}

/// The order GateMatcher keeps its keys in.
bool Before(const Fingerprint& a, const Fingerprint& b) {
  return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo;
}

/// The verifier's findings, as it reports them, go to `sink` instead of
/// the report: a handler that passes every event to `inner` with a
/// context whose Report and ReportUnlocated are intercepted. Fatal
/// findings (an unreadable input) still reach the reader's report.
class FindingTap : public state::Handler {
 public:
  using Sink = std::function<void(diag::Finding)>;
  FindingTap(state::Handler& inner, Sink sink)
      : inner_(inner), sink_(std::move(sink)) {}

  void BeginObject() override { inner_.BeginObject(); }
  void Key(std::string_view raw_key) override { inner_.Key(raw_key); }
  void EndObject() override { inner_.EndObject(); }
  void BeginArray() override { inner_.BeginArray(); }
  void EndArray() override { inner_.EndArray(); }
  void OnEnvelopeMember(const state::EnvelopeMember& member,
                        state::Context& context) override {
    Tapped tapped(context, sink_);
    inner_.OnEnvelopeMember(member, tapped);
  }
  Result<state::Flow> OnLeaf(state::Leaf& leaf,
                             state::Context& context) override {
    Tapped tapped(context, sink_);
    return inner_.OnLeaf(leaf, tapped);
  }
  Status OnFinish(const state::Envelope& envelope,
                  state::Context& context) override {
    Tapped tapped(context, sink_);
    return inner_.OnFinish(envelope, tapped);
  }

 private:
  class Tapped final : public state::Context {
   public:
    Tapped(state::Context& inner, const Sink& sink)
        : inner_(inner), sink_(sink) {}
    void Report(diag::Finding finding, std::uint64_t offset) override {
      if (diag::IsFatal(finding.code)) {
        inner_.Report(std::move(finding), offset);
        return;
      }
      io::LineColumn at = inner_.Locate(offset);
      finding.line = at.line;
      finding.column = at.column;
      finding.char_column = at.char_column;
      sink_(std::move(finding));
    }
    void ReportUnlocated(diag::Finding finding) override {
      if (diag::IsFatal(finding.code)) {
        inner_.ReportUnlocated(std::move(finding));
        return;
      }
      sink_(std::move(finding));
    }
    io::LineColumn Locate(std::uint64_t offset) override {
      return inner_.Locate(offset);
    }
    const state::Envelope& envelope() const override {
      return inner_.envelope();
    }
    const io::InputStream* input_file() const override {
      return inner_.input_file();
    }

   private:
    state::Context& inner_;
    const Sink& sink_;
  };

  state::Handler& inner_;
  Sink sink_;
};

/// One pass's random access to the decoded input: a mapping of its own
/// whose pages are handed back as the pass moves forward
/// (io::InputStream::Release), so resident memory follows the pass, not
/// the file; or, where io does not map (a small plain file), the
/// Replayable's copy, with nothing to release.
struct View {
  std::unique_ptr<io::InputStream> stream;
  std::string_view bytes;
  ReleaseFn release;
};

Result<View> OpenView(io::Replayable& input) {
  View view;
  auto stream = input.Open();
  if (!stream.ok()) return stream.status();
  if (auto m = (*stream)->Map()) {
    view.stream = std::move(*stream);
    view.bytes = std::string_view(m->data, m->size);
    io::InputStream* s = view.stream.get();
    view.release = [s](std::uint64_t begin, std::uint64_t end) {
      s->ReleaseRange(begin, end);
    };
    return view;
  }
  auto copy = input.bytes();
  if (!copy.ok()) return copy.status();
  view.bytes = *copy;
  return view;
}

/// Whether a finding of pass 2 is at a stub (Assembly::stub): a stubbed
/// resource's findings are the input's (Assembly::check_segments says
/// why), so they are not compared.
bool AtStub(const diag::Finding& f, const std::string& prefix,
            const std::vector<bool>& stub) {
  if (f.pointer.compare(0, prefix.size(), prefix) != 0) return false;
  std::size_t k = 0;
  std::size_t p = prefix.size();
  bool digits = false;
  while (p < f.pointer.size() && f.pointer[p] >= '0' && f.pointer[p] <= '9') {
    k = k * 10 + static_cast<std::size_t>(f.pointer[p] - '0');
    digits = true;
    ++p;
  }
  bool whole = p == f.pointer.size() || f.pointer[p] == '/';
  return digits && whole && k < stub.size() && stub[k];
}

}  // namespace

namespace {

/// Writes `segments` of `bytes` to a new temporary file, removed when
/// `temp` goes.
Status WriteTemp(std::string_view bytes, const Assembly& assembly,
                 io::TempPath& temp) {
  Status made = temp.Create("edit-dry-run");
  if (!made.ok()) return made;
  auto out = io::OpenOutput(temp.path());
  if (!out.ok()) return out.status();
  if (Status w = WriteSegments(bytes, assembly, **out); !w.ok()) {
    (*out)->Abandon();
    return w;
  }
  return (*out)->Commit();
}

}  // namespace

/// The input against the edited state, through `pstate diff`'s engine,
/// which reads files: the edited state goes to a temporary file, and so
/// does the input when it came from standard input.
Result<diff::DiffResult> DiffWithInput(const std::string& input,
                                       std::string_view bytes,
                                       const Assembly& assembly) {
  io::TempPath before, after;
  diff::DiffConfig config;
  config.before = input;
  if (input == "-") {
    Assembly copy;
    copy.segments.resize(1);
    copy.segments[0].end = bytes.size();
    Status s = WriteTemp(bytes, copy, before);
    if (!s.ok()) return s;
    config.before = before.path();
  }
  Status s = WriteTemp(bytes, assembly, after);
  if (!s.ok()) return s;
  config.after = after.path();
  return diff::Run(config);
}

ErrorKey ErrorKey::Of(const diag::Finding& f) {
  // Findings about a resource are told apart by code and resource; the
  // others by code and message (their places shift with any edit).
  ErrorKey k;
  k.code = f.code;
  k.about_resource = !f.urn.empty();
  k.text = FingerprintOf(k.about_resource ? f.urn : f.message);
  return k;
}

void InputFindings::Add(const diag::Finding& f) {
  auto i = static_cast<std::size_t>(f.code);
  if (by_code.size() <= i) by_code.resize(i + 1, 0);
  ++by_code[i];
  if (f.code == diag::Code::kManifestMagic && !magic) magic = f;
  if (f.severity == diag::Severity::kError) errors.push_back(ErrorKey::Of(f));
}

GateMatcher::GateMatcher(
    const std::deque<ErrorKey>& before,
    const std::unordered_map<std::string, std::string>& renamed) {
  FingerprintTable<Fingerprint> now;  // old URN -> new URN
  for (const auto& [was, is] : renamed) {
    *now.Insert(FingerprintOf(was)).first = FingerprintOf(is);
  }
  std::vector<Fingerprint> all;
  all.reserve(before.size());
  for (ErrorKey k : before) {
    if (k.about_resource) {
      if (const Fingerprint* to = now.Find(k.text)) k.text = *to;
    }
    all.push_back(Combined(k));
  }
  std::sort(all.begin(), all.end(), Before);
  std::size_t distinct = 0;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j] == all[i]) ++j;
    all[distinct++] = all[i];
    left_.push_back(static_cast<std::uint32_t>(j - i));
    i = j;
  }
  all.resize(distinct);
  keys_ = std::move(all);
}

bool GateMatcher::IsNew(const diag::Finding& f) {
  if (f.severity != diag::Severity::kError) return false;
  Fingerprint key = Combined(ErrorKey::Of(f));
  auto at = std::lower_bound(keys_.begin(), keys_.end(), key, Before);
  if (at == keys_.end() || !(*at == key)) return true;
  std::uint32_t& left = left_[static_cast<std::size_t>(at - keys_.begin())];
  if (left == 0) return true;
  --left;
  return false;
}

std::vector<diag::Finding> NewErrors(
    const diag::Report& before, const diag::Report& after,
    const std::unordered_map<std::string, std::string>& renamed) {
  InputFindings had;
  for (const diag::Finding& f : before.findings()) had.Add(f);
  GateMatcher gate(had.errors, renamed);
  std::vector<diag::Finding> out;
  for (const diag::Finding& f : after.findings()) {
    if (gate.IsNew(f)) out.push_back(f);
  }
  return out;
}

Result<std::vector<diag::Finding>> AddedErrors(
    std::string_view bytes, const Index& index, const Plan& plan,
    const Assembly& assembly, InputFindings& before, const std::string& name,
    const ReleaseFn& release) {
  bool checked = !assembly.check_segments.empty();
  diag::Report after(name + " (edited)");
  auto stream = SegmentStream(
      bytes, assembly, checked ? assembly.check_segments : assembly.segments,
      after.file(), release);
  // Matched as the verifier makes them: only new errors are kept.
  GateMatcher gate(before.errors, plan.urn_map);
  std::deque<ErrorKey>().swap(before.errors);
  std::string prefix = index.resources_pointer + "/";
  std::vector<diag::Finding> added;
  verify::Verifier verifier;
  verifier.ExpectResources(index.resources_list.size());
  FindingTap tap(verifier, [&](diag::Finding f) {
    if (checked && AtStub(f, prefix, assembly.stub)) return;
    if (gate.IsNew(f)) added.push_back(std::move(f));
  });
  Status status = state::Read(*stream, tap, after);
  if (after.fatal()) {
    return Status(Errc::kFormat,
                  "internal error: the edited state does not read back: " +
                      diag::FailureOf(after, status).Located());
  }
  if (!status.ok()) return status;
  // What the reader itself reported (not the verifier's), compared too.
  for (const diag::Finding& f : after.findings()) {
    if (checked && AtStub(f, prefix, assembly.stub)) continue;
    if (gate.IsNew(f)) added.push_back(f);
  }
  return added;
}

Result<Loaded> Load(
    const std::string& path,
    const std::function<void(std::uint64_t, std::uint64_t)>& on_progress) {
  LimitHeapSlack();
  // Read twice (the index, then the spliced output): a plain file from
  // itself, anything else decoded once into an unlinked spool file.
  auto replay = io::OpenReplayable(path);
  if (!replay.ok()) return replay.status();
  std::string name = replay->name();
  Loaded loaded{std::move(*replay), Index{}, diag::Report(name), {}};
  {
    auto stream = loaded.input.Open();
    if (!stream.ok()) return stream.status();
    // The verifier's findings are kept as the gate's keys, never all
    // held (InputFindings).
    verify::Verifier verifier;
    FindingTap tap(verifier, [&](diag::Finding f) { loaded.before.Add(f); });
    Indexer indexer(loaded.index);
    state::Tee tee(tap, indexer);
    state::ReadOptions options;
    options.on_progress = on_progress;
    Status status = state::Read(**stream, tee, loaded.report, options);
    if (loaded.report.fatal()) {
      return diag::FailureOf(loaded.report, status).ToStatus();
    }
    if (!status.ok()) return status;
    for (const diag::Finding& f : loaded.report.findings()) {
      loaded.before.Add(f);
    }
  }
  if (!loaded.index.envelope.has_deployment) {
    return Status(Errc::kFormat, name +
                                     ": the state has no deployment: "
                                     "there is nothing to edit");
  }
  return loaded;
}

Result<Outcome> Run(const Config& config) {
  if (config.in_place && config.input == "-") {
    return Status(Errc::kInvalidArgument,
                  "--in-place needs a file, not standard input");
  }
  // In place: the file stays locked from the first read to the rename, and
  // the rename is refused if another writer changed it (io/rewrite_guard.h).
  io::RewriteGuard guard;
  if (config.in_place && !config.dry_run) {
    auto locked = io::RewriteGuard::Acquire({config.input});
    if (!locked.ok()) return locked.status();
    guard = std::move(*locked);
  }
  auto loaded = Load(config.input, config.on_progress);
  if (!loaded.ok()) return loaded.status();
  TrimHeap();
  io::Replayable& input = loaded->input;
  const std::string& name = input.name();
  // The index and the plan outlive Run in the outcome: its notes and
  // changes are typed records (records.h) rendered from them when printed.
  auto index_owner = std::make_shared<const Index>(std::move(loaded->index));
  const Index& index = *index_owner;
  InputFindings& before = loaded->before;

  // Pulumi's repair (pkg/cmd/pulumi/state/state_repair.go) keeps the
  // manifest, so a magic cookie that does not match survives Prune, the
  // second VerifyIntegrity fails and nothing is written: refuse the same.
  if (config.request.op == Operation::kRepair && before.magic) {
    Outcome refused;
    refused.refused = true;
    refused.refusal =
        "cannot repair " + name + ": " + before.magic->message +
        "; `pulumi state repair` keeps the manifest and refuses too. "
        "Restore the manifest from a backup (or set \"magic\" to the "
        "SHA-256 of \"version\") by hand: nothing written";
    return refused;
  }

  // `pulumi state repair` changes nothing on a state that passes its
  // integrity check (state_repair.go), not even a child URN whose type
  // does not extend its parent's (only a warning there).
  bool integrity_error = false;
  for (const ErrorKey& k : before.errors) {
    switch (k.code) {
      case diag::Code::kProviderMalformed:
      case diag::Code::kProviderUnknown:
      case diag::Code::kProviderResourceInvalid:
      case diag::Code::kDependencyMissing:
      case diag::Code::kDependencyOrder:
      case diag::Code::kUrnDuplicate: integrity_error = true; break;
      default: break;
    }
  }
  Result<Planned> planned = Planned{};
  if (config.request.op == Operation::kRepair && !integrity_error) {
    planned->plan.drop.assign(index.resources_list.size(), false);
    planned->plan.pending.resize(index.pending.size());
  } else {
    planned = MakePlan(index, config.request);
  }
  if (!planned.ok()) return planned.status();
  Outcome outcome;
  outcome.selected = planned->plan.selected;
  if (planned->refused) {
    outcome.refused = true;
    outcome.refusal = planned->refusal;
    return outcome;
  }
  {
    // The input's escaping, read through a mapping of its own whose pages
    // go back as the scan moves on.
    auto scan = OpenView(input);
    if (!scan.ok()) return scan.status();
    planned->plan.style = InputStyle(scan->bytes, index, scan->release);
  }
  // The notes are the outcome's (moved: a repair of a long chain has one
  // a resource).
  outcome.notes = std::move(planned->plan.notes);
  auto plan_owner = std::make_shared<const Plan>(std::move(planned->plan));
  const Plan& plan = *plan_owner;
  outcome.notes.Bind(index_owner, plan_owner);

  // The check document (only what the edit can affect) unless the input
  // already mixes stacks: that rule is reported once, for the first
  // resource that breaks it, so removing a resource can move it.
  bool mixed_stacks = before.Count(diag::Code::kUrnStackMismatch) > 0;
  auto view = OpenView(input);
  if (!view.ok()) return view.status();
  std::string_view bytes = view->bytes;
  auto assembly =
      Assemble(bytes, index, plan, view->release, /*check_affected_only=*/
               !mixed_stacks);
  if (!assembly.ok()) return assembly.status();
  outcome.changes = std::move(assembly->changes);
  outcome.changes.resources.Bind(index_owner, plan_owner);
  outcome.unchanged = assembly->unchanged;
  for (std::string& n : assembly->notes) outcome.notes.push_back(std::move(n));

  // Pass 2: the result must not be worse than the input.
  TrimHeap();  // what the splice freed (its pieces once stitched)
  {
    auto pass = OpenView(input);
    if (!pass.ok()) return pass.status();
    auto added = AddedErrors(pass->bytes, index, plan, *assembly, before, name,
                             pass->release);
    if (!added.ok()) return added.status();
    outcome.new_findings = std::move(*added);
  }
  if (!outcome.new_findings.empty() && !config.request.allow_new_errors) {
    outcome.refused = true;
    outcome.refusal =
        "the edit would add integrity errors the input does not have "
        "(nothing written; --allow-new-errors writes it anyway)";
    return outcome;
  }
  if (config.dry_run) {
    auto diffed = DiffWithInput(config.input, bytes, *assembly);
    if (!diffed.ok()) return diffed.status();
    outcome.diff = std::move(*diffed);
    return outcome;
  }
  if (config.in_place && assembly->unchanged) return outcome;

  // Compressed like the input; --in-place keeps the old file as .bak
  // (copied just before the rename, as the DIY backend does).
  io::OutputOptions options;
  options.compression = input.compression();
  options.keep_backup = config.in_place;
  if (config.in_place) options.guard = &guard;
  std::string target = config.in_place ? config.input : config.output;
  auto out = io::OpenOutput(target, options);
  if (!out.ok()) return out.status();
  auto copy = OpenView(input);
  if (!copy.ok()) return copy.status();
  // Untouched ranges of a plain file are copied by the kernel.
  int fd = copy->stream ? copy->stream->plain_file_fd() : -1;
  if (Status w =
          WriteSegments(copy->bytes, *assembly, **out, copy->release, fd);
      !w.ok()) {
    (*out)->Abandon();
    return Status(w.code(), config.input + ": " + w.message());
  }
  // A plain input that shrank while mapped reads as zeros: write nothing.
  for (const View* v : {&*view, &*copy}) {
    if (!v->stream) continue;
    if (Status still = v->stream->mapping_status(); !still.ok()) {
      (*out)->Abandon();
      return still;
    }
  }
  Status committed = (*out)->Commit();
  if (!committed.ok()) return committed;
  if (config.in_place) outcome.backup = config.input + ".bak";
  outcome.written = true;
  return outcome;
}

}  // namespace pstate::edit
