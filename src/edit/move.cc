// `pstate edit move`: the two states' plans (plan.cc, PlanMove), spliced,
// verified and written together.
#include <cstdio>
#include <filesystem>

#include "edit/dry_run.h"
#include "edit/edit.h"
#include "io/output.h"
#include "io/rewrite_guard.h"
#include "json/equal.h"
#include "state/urn.h"

namespace pstate::edit {
namespace {

/// The bytes of a loaded state, for random access (a copy or a mapping
/// held by the Replayable).
Result<std::string_view> BytesOf(Loaded& loaded) {
  return loaded.input.bytes();
}

/// Whether the two resources' `inputs` are equal (JSON values, as
/// Pulumi's provider reuse compares them).
bool InputsEqual(std::string_view a, ByteRange ra, std::string_view b,
                 ByteRange rb) {
  json::Arena arena_a, arena_b;
  std::string buffer_a, buffer_b;
  auto va = ParseElement(a, ra, arena_a, &buffer_a);
  auto vb = ParseElement(b, rb, arena_b, &buffer_b);
  if (!va.ok() || !vb.ok()) return false;
  const json::Value* ia = va->Find("inputs");
  const json::Value* ib = vb->Find("inputs");
  if (ia == nullptr || ib == nullptr) return ia == ib;
  return json::Equal(*ia, *ib);
}

struct StackName {
  std::string stack, project;
};

/// A checkpoint's "stack": Pulumi's qualified "organization/<project>/
/// <stack>" (DIY backends with projects), "<organization>/<stack>", or a
/// bare "<stack>" (the legacy layout, which names no project).
StackName ParseStackName(std::string_view text) {
  StackName out;
  std::size_t last = text.rfind('/');
  out.stack =
      std::string(text.substr(last == std::string_view::npos ? 0 : last + 1));
  if (last != std::string_view::npos) {
    std::string_view head = text.substr(0, last);
    std::size_t slash = head.find('/');
    if (slash != std::string_view::npos) {
      out.project = std::string(head.substr(slash + 1));
    }
  }
  return out;
}

struct Side {
  Loaded* loaded;
  std::string_view bytes;
  Plan* plan;
  Assembly assembly;
  Outcome* outcome;
};

/// Splices `side` and verifies the result against its input.
Status Check(Side& side, bool affected_only) {
  auto assembly =
      Assemble(side.bytes, side.loaded->index, *side.plan, {}, affected_only);
  if (!assembly.ok()) return assembly.status();
  side.assembly = std::move(*assembly);
  side.outcome->changes = side.assembly.changes;
  // The plans and indexes are Move's: the changes are rendered now.
  side.outcome->changes.resources.Hold();
  side.outcome->unchanged = side.assembly.unchanged;
  auto added =
      AddedErrors(side.bytes, side.loaded->index, *side.plan, side.assembly,
                  side.loaded->before, side.loaded->input.name());
  if (!added.ok()) return added.status();
  side.outcome->new_findings = std::move(*added);
  return Status::Ok();
}

Result<std::unique_ptr<io::Output>> WriteSide(const Side& side,
                                              const std::string& path,
                                              const io::RewriteGuard& guard) {
  io::OutputOptions options;
  options.guard = &guard;
  options.compression = side.loaded->input.compression();
  options.keep_backup = true;
  auto out = io::OpenOutput(path, options);
  if (!out.ok()) return out.status();
  if (Status w = WriteSegments(side.bytes, side.assembly, **out); !w.ok()) {
    (*out)->Abandon();
    return Status(w.code(), path + ": " + w.message());
  }
  return out;
}

}  // namespace

Result<MoveOutcome> Move(const MoveConfig& config) {
  if (config.source == "-" || config.destination == "-") {
    return Status(Errc::kInvalidArgument,
                  "edit move writes both states in place: give two files, "
                  "not standard input");
  }
  std::error_code ec;
  if (std::filesystem::equivalent(config.source, config.destination, ec)) {
    return Status(Errc::kInvalidArgument,
                  "edit move: the source and the destination are the same "
                  "file");
  }
  // Both files stay locked from the first read to the renames, and a
  // rename is refused if another writer changed its file
  // (io/rewrite_guard.h; locked in one order, so two moves cannot deadlock).
  io::RewriteGuard guard;
  if (!config.dry_run) {
    auto locked =
        io::RewriteGuard::Acquire({config.source, config.destination});
    if (!locked.ok()) return locked.status();
    guard = std::move(*locked);
  }
  auto src = Load(config.source);
  if (!src.ok()) return src.status();
  auto dst = Load(config.destination);
  if (!dst.ok()) return dst.status();
  auto src_bytes = BytesOf(*src);
  if (!src_bytes.ok()) return src_bytes.status();
  auto dst_bytes = BytesOf(*dst);
  if (!dst_bytes.ok()) return dst_bytes.status();

  MoveOutcome outcome;
  const Index& si = src->index;
  const Index& di = dst->index;
  if (!di.resources.present && !di.manifest.present &&
      !di.secrets_providers.present) {
    outcome.refused = true;
    outcome.refusal = config.destination +
                      " has an empty deployment (no manifest): not a "
                      "state Pulumi wrote (nothing written)";
    return outcome;
  }
  Request request = config.request;
  if (di.resources_list.empty()) {
    // A stack without resources: its checkpoint may name it
    // ("organization/<project>/<stack>", or a bare "<stack>").
    StackName named = ParseStackName(di.checkpoint_stack);
    if (request.dest_stack.empty()) request.dest_stack = named.stack;
    if (request.dest_project.empty()) request.dest_project = named.project;
  }
  auto planned = PlanMove(si, di, request, [&](std::size_t s, std::size_t d) {
    return InputsEqual(*src_bytes, si.Range(s), *dst_bytes, di.Range(d));
  });
  if (!planned.ok()) return planned.status();
  outcome.selected = planned->plan.selected;
  if (planned->refused) {
    outcome.refused = true;
    outcome.refusal = planned->refusal;
    outcome.broken = std::move(planned->broken);
    return outcome;
  }
  MovePlan& mp = planned->plan;
  outcome.notes = mp.notes;
  outcome.moved = mp.moved;
  outcome.providers_copied = mp.providers_copied;
  outcome.providers_reused = mp.providers_reused;

  // The destination's additions, written in its layout.
  Layout layout = ElementLayout(*dst_bytes, di);
  if (!mp.new_root.empty()) {
    mp.destination.prepend.push_back(
        {mp.new_root, RootStackText(mp.new_root, state::kRootStackType, layout),
         0});
  }
  for (const auto& [i, edit] : mp.added) {
    const ResourceEntry& r = si.resources_list[i];
    std::size_t lossy = 0;
    auto text = RenderResource(*src_bytes, si.Range(i), &edit, mp.rewrite,
                               layout, [&](const json::Value&) { ++lossy; });
    if (!text.ok()) return text.status();
    if (lossy > 0) outcome.notes.push_back(LossyStringNote(*edit.urn, lossy));
    mp.destination.append.push_back({*edit.urn, std::move(*text), r.features});
  }

  Side source{&*src, *src_bytes, &mp.source, {}, &outcome.source};
  Side destination{
      &*dst, *dst_bytes, &mp.destination, {}, &outcome.destination};
  if (Status s = Check(source, /*affected_only=*/true); !s.ok()) return s;
  if (Status s = Check(destination, /*affected_only=*/false); !s.ok()) {
    return s;
  }
  for (const Side* side : {&source, &destination}) {
    for (const std::string& n : side->assembly.notes)
      outcome.notes.push_back(n);
  }
  bool worse = !outcome.source.new_findings.empty() ||
               !outcome.destination.new_findings.empty();
  if (worse && !config.request.allow_new_errors) {
    outcome.refused = true;
    outcome.refusal =
        "the move would add integrity errors the states do not have "
        "(nothing written; --allow-new-errors writes it anyway)";
    return outcome;
  }
  if (config.dry_run) {
    // What each file would become, as `pstate diff` reports it.
    for (auto [side, path] : {std::pair{&source, &config.source},
                              std::pair{&destination, &config.destination}}) {
      auto diffed = DiffWithInput(*path, side->bytes, side->assembly);
      if (!diffed.ok()) return diffed.status();
      side->outcome->diff = std::move(*diffed);
    }
    return outcome;
  }

  // Both to temporary files first; then the destination is renamed into
  // place, then the source; a source that cannot be replaced puts the
  // destination back.
  auto dst_out = WriteSide(destination, config.destination, guard);
  if (!dst_out.ok()) return dst_out.status();
  auto src_out = WriteSide(source, config.source, guard);
  if (!src_out.ok()) {
    (*dst_out)->Abandon();
    return src_out.status();
  }
  if (Status c = (*dst_out)->Commit(); !c.ok()) {
    (*src_out)->Abandon();
    return c;
  }
  if (Status c = (*src_out)->Commit(); !c.ok()) {
    std::string bak = config.destination + ".bak";
    if (std::rename(bak.c_str(), config.destination.c_str()) != 0) {
      return Status(c.code(), c.message() +
                                  "; the destination was written and could "
                                  "not be put back: restore it from " +
                                  bak);
    }
    return Status(c.code(), c.message() +
                                " (the destination was put back: nothing "
                                "written)");
  }
  for (Outcome* o : {&outcome.source, &outcome.destination}) o->written = true;
  outcome.source.backup = config.source + ".bak";
  outcome.destination.backup = config.destination + ".bak";
  return outcome;
}

}  // namespace pstate::edit
