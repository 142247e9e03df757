#include "verify/verifier.h"

#include <algorithm>
#include <array>

#include "json/pointer.h"
#include "state/resource.h"
#include "verify/fields.h"
#include "verify/section_checks.h"

namespace pstate::verify {
namespace {

using diag::Code;
using state::Role;

using state::kOperationFields;

/// Appends to `pointer` the path from `value` to the object that holds the
/// member whose key starts at `key_offset`; false if there is none.
bool PathToKey(const json::Value& value, std::uint64_t key_offset,
               std::string* pointer) {
  if (value.is_object()) {
    for (const json::Member& m : value.object()) {
      if (m.key.offset == key_offset) return true;
    }
    for (const json::Member& m : value.object()) {
      if (!m.value.is_object() && !m.value.is_array()) continue;
      std::size_t mark = pointer->size();
      json::AppendPointerToken(pointer, m.key.Str());
      if (PathToKey(m.value, key_offset, pointer)) return true;
      pointer->resize(mark);
    }
  } else if (value.is_array()) {
    std::size_t i = 0;
    for (const json::Value& e : value.array()) {
      std::size_t mark = pointer->size();
      json::AppendPointerIndex(pointer, i++);
      if (PathToKey(e, key_offset, pointer)) return true;
      pointer->resize(mark);
    }
  }
  return false;
}

/// The URN of the resource a leaf is about ("" for other leaves).
std::string LeafUrn(const state::Leaf& leaf) {
  const json::Value* resource = state::ResourceOf(leaf);
  return resource ? state::ResourceView::Of(*resource).Urn() : std::string();
}

/// Duplicate keys inside a leaf, as the parser listed them.
void CheckDuplicateKeys(const state::Leaf& leaf, state::Context& context) {
  if (leaf.duplicates.empty()) return;
  std::string urn = LeafUrn(leaf);
  for (const json::DuplicateKey& d : leaf.duplicates) {
    std::string pointer(leaf.pointer);
    if (!PathToKey(leaf.value, d.offset, &pointer)) pointer = leaf.pointer;
    context.Report(diag::MakeFinding(Code::kJsonDuplicateKey,
                                     "duplicate key \"" + d.key +
                                         "\" in object; Pulumi keeps the "
                                         "last one",
                                     std::move(pointer), urn),
                   d.offset);
  }
}

/// A worker's context: findings become journal steps, in order.
class JournalContext final : public state::Context {
 public:
  JournalContext(state::Context& inner, IntegrityJournal& journal)
      : inner_(inner), journal_(journal) {}
  void Report(diag::Finding finding, std::uint64_t offset) override {
    io::LineColumn lc = inner_.Locate(offset);
    finding.line = lc.line;
    finding.column = lc.column;
    finding.char_column = lc.char_column;
    ReportUnlocated(std::move(finding));
  }
  void ReportUnlocated(diag::Finding finding) override {
    journal_.AddFinding(std::move(finding));
  }
  io::LineColumn Locate(std::uint64_t offset) override {
    return inner_.Locate(offset);
  }
  const state::Envelope& envelope() const override { return inner_.envelope(); }
  const io::InputStream* input_file() const override {
    return inner_.input_file();
  }

 private:
  state::Context& inner_;
  IntegrityJournal& journal_;
};

}  // namespace

/// The per-resource checks on a worker thread: a ResourceChecker of its
/// own whose tracker records into the resource's journal.
class Verifier::ResourceWorker final : public engine::Worker<ResourceJournal> {
 public:
  explicit ResourceWorker(state::ProviderKind provider) {
    checker_.set_secrets_provider(provider);
    checker_.set_on_plaintext([this](std::string_view payload) {
      IntegrityEvent e;
      e.kind = IntegrityEvent::Kind::kPlaintext;
      e.text = out_->steps.Add(payload);
      out_->steps.events.push_back(e);
    });
  }

  void PerResource(state::Leaf& leaf, state::Context& context,
                   ResourceJournal& out) override {
    out_ = &out;
    // Room for a typical resource's steps: a few allocations per resource
    // rather than one per step.
    out.steps.events.reserve(16);
    out.steps.texts.reserve(512);
    checker_.tracker().set_journal(&out.steps);
    JournalContext journal(context, out.steps);
    CheckDuplicateKeys(leaf, journal);
    Reporter reporter(journal, leaf.pointer);
    std::uint64_t before = checker_.properties().ciphertexts();
    checker_.Check(leaf.value, reporter, /*integrity=*/true,
                   context.envelope().version.value_or(1));
    out.ciphertexts = checker_.properties().ciphertexts() - before;
    checker_.tracker().set_journal(nullptr);
    out_ = nullptr;
  }

 private:
  ResourceChecker checker_;
  ResourceJournal* out_ = nullptr;
};

std::unique_ptr<engine::Worker<ResourceJournal>> Verifier::NewWorker() {
  return std::make_unique<ResourceWorker>(provider_.kind);
}

state::Flow Verifier::Fold(ResourceJournal&& journal, state::Context& context) {
  resources_.tracker().Replay(journal.steps, context, on_plaintext_);
  folded_ciphertexts_ += journal.ciphertexts;
  return state::Flow::kContinue;
}

void Verifier::OnEnvelopeMember(const state::EnvelopeMember& member,
                                state::Context& context) {
  std::string pointer(member.parent);
  auto report = [&](Code code, std::string message) {
    context.Report(diag::MakeFinding(code, std::move(message), pointer),
                   member.key_offset);
  };
  std::string key(member.key);
  if (member.duplicate) {
    report(
        Code::kJsonDuplicateKey,
        "duplicate key \"" + key + "\" in object; Pulumi keeps the last one");
    // The integrity rules see only the resources Pulumi keeps.
    if (member.field == "resources") resources_.tracker().Reset();
  }
  json::AppendPointerToken(&pointer, member.key);
  if (member.field.empty()) {
    if (member.key == "target" && member.parent.empty()) {
      report(Code::kFieldUnknown,
             "\"target\" is the pre-2018 name of \"stack\"; Pulumi ignores "
             "it, so the checkpoint has no stack name");
    } else {
      report(Code::kFieldUnknown,
             "unknown field \"" + key + "\"; Pulumi ignores it");
    }
  } else if (member.field != member.key) {
    report(Code::kFieldCase,
           "field \"" + key + "\" is read as \"" + std::string(member.field) +
               "\" (Go matches field names case-insensitively); Pulumi "
               "writes \"" +
               std::string(member.field) + "\"");
  }
}

void Verifier::CheckFeatures(const json::Value& features, Reporter& reporter) {
  if (features.is_null()) return;
  if (!features.is_array()) {
    reporter.Add(Code::kFieldType, "\"features\" must be an array of strings",
                 features);
    return;
  }
  features_at_ = reporter.context().Locate(features.offset);
  for (const json::Value& e : features.array()) {
    if (!e.is_string()) {
      reporter.Add(Code::kFieldType, "\"features\" must be an array of strings",
                   e);
    }
  }
}

void Verifier::FinishFeatures(const state::Envelope& envelope,
                              state::Context& context) {
  const std::vector<std::string>& features = envelope.features;
  if (features.empty() || !features_at_) return;
  auto finding = [&](Code code, std::string message) {
    diag::Finding f = diag::MakeFinding(code, std::move(message), "/features");
    f.line = features_at_->line;
    f.column = features_at_->column;
    f.char_column = features_at_->char_column;
    context.ReportUnlocated(std::move(f));
  };
  std::int64_t version = envelope.version.value_or(0);
  if (version < 4) {
    finding(Code::kFeaturesIgnored,
            "\"features\" is only read from version 4 states; Pulumi "
            "ignores it in version " +
                std::to_string(version));
  } else {
    std::string list;
    for (const std::string& f : features) {
      if (state::IsKnownFeature(f)) continue;
      list += (list.empty() ? "" : ", ") + ("\"" + f + "\"");
    }
    if (!list.empty()) {
      finding(Code::kFeaturesUnsupported,
              "this state needs features Pulumi does not define: " + list);
    }
  }
  std::vector<std::string> sorted = features;
  std::sort(sorted.begin(), sorted.end());
  bool unique =
      std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
  if (sorted != features || !unique) {
    finding(Code::kFeaturesUnsorted,
            "Pulumi writes \"features\" sorted and without duplicates");
  }
}

Result<state::Flow> Verifier::OnLeaf(state::Leaf& leaf,
                                     state::Context& context) {
  CheckDuplicateKeys(leaf, context);
  Reporter reporter(context, leaf.pointer);
  std::int64_t version = context.envelope().version.value_or(1);
  const json::Value& v = leaf.value;
  switch (leaf.role) {
    case Role::kManifest:
      saw_manifest_ = true;
      CheckManifest(v, reporter);
      break;
    case Role::kSecretsProviders:
      saw_provider_ = !v.is_null();
      provider_ = CheckSecretsProvider(v, reporter);
      resources_.set_secrets_provider(provider_.kind);
      break;
    case Role::kResource:
      resources_.Check(v, reporter, /*integrity=*/true, version);
      break;
    case Role::kPendingOperation:
      CheckPendingOperation(v, reporter, version);
      break;
    case Role::kMetadata: CheckMetadata(v, reporter); break;
    case Role::kSnippet: CheckSnippet(v, snippet_uuids_, reporter); break;
    case Role::kExtension: CheckExtension(v, reporter); break;
    case Role::kConfig:
      CheckConfig(v, provider_.kind, reporter, &unshaped_config_);
      break;
    case Role::kStack:
      if (!v.is_string() && !v.is_null()) {
        reporter.Add(Code::kFieldType, "\"stack\" must be a string", v);
      }
      break;
    case Role::kFeatures: CheckFeatures(v, reporter); break;
    case Role::kMisshapenContainer:
      // null is what Go reads as "absent" for slices, maps and pointers.
      if (!v.is_null()) {
        bool array = leaf.key == "resources" ||
                     leaf.key == "pending_operations" || leaf.key == "snippets";
        reporter.Add(Code::kFieldType,
                     "\"" + std::string(leaf.key) + "\" must be " +
                         (array ? "an array" : "an object"),
                     v);
      }
      break;
    case Role::kVersion:
    case Role::kUnknown:
      break;  // the reader judged the version; members were announced
  }
  return state::Flow::kContinue;
}

void Verifier::CheckPendingOperation(const json::Value& op, Reporter& reporter,
                                     std::int64_t version) {
  if (!op.is_object()) {
    reporter.Add(Code::kFieldType, "a pending operation must be an object", op);
    return;
  }
  CheckFields(op, kOperationFields, reporter, "pending operation");
  const json::Value* type = op.Find("type");
  const json::Value* resource = op.Find("resource");
  std::string type_text = type && type->is_string() ? type->Str() : "";
  if (!type) {
    reporter.Add(Code::kFieldMissing, "pending operation has no \"type\"", op);
  } else if (type->is_string() && type_text != "creating" &&
             type_text != "updating" && type_text != "deleting" &&
             type_text != "reading" && type_text != "importing") {
    PointerScope scope(reporter, "type");
    reporter.Add(Code::kPendingOperationType,
                 "pending operation type \"" + type_text +
                     "\" is not creating, updating, deleting, reading or "
                     "importing",
                 *type);
  }
  if (!resource) {
    reporter.Add(Code::kFieldMissing, "pending operation has no \"resource\"",
                 op);
    return;
  }
  if (!resource->is_object()) return;
  {
    PointerScope scope(reporter, "resource");
    resources_.Check(*resource, reporter, /*integrity=*/false, version);
  }
  // Located at the operation, so point at it (the resource's URN stays).
  if (!type_text.empty()) {
    reporter.Add(Code::kPendingOperation,
                 "an interrupted \"" + type_text +
                     "\" operation is pending; the next `pulumi up` or "
                     "`pulumi refresh` asks how to resolve it",
                 op);
  }
}

Status Verifier::OnFinish(const state::Envelope& envelope,
                          state::Context& context) {
  FinishFeatures(envelope, context);
  Status finished = resources_.tracker().Finish(
      [&](diag::Finding f) { context.ReportUnlocated(std::move(f)); });
  if (!finished.ok()) return finished;
  if (envelope.has_deployment && !saw_manifest_ &&
      envelope.version.value_or(0) >= 3) {
    context.ReportUnlocated(diag::MakeFinding(
        Code::kManifestMissing,
        "the deployment has no \"manifest\"; Pulumi reads an empty one",
        envelope.kind == state::EnvelopeKind::kExport ? "/deployment"
                                                      : "/checkpoint/latest"));
  }
  if (provider_.writes_v1_ciphertexts()) {
    for (diag::Finding& f : unshaped_config_) {
      f.message = "secure config value is not shaped as the " +
                  std::string(state::ProviderKindName(provider_.kind)) +
                  " provider writes ciphertexts";
      context.ReportUnlocated(std::move(f));
    }
  }
  unshaped_config_.clear();
  std::uint64_t ciphertexts =
      resources_.properties().ciphertexts() + folded_ciphertexts_;
  if (!saw_provider_ && ciphertexts > 0) {
    context.ReportUnlocated(diag::MakeFinding(
        Code::kSecretsProviderMissing,
        std::to_string(ciphertexts) +
            " secret(s) hold ciphertext but the deployment names no "
            "secrets provider to decrypt them"));
  }
  return Status::Ok();
}

}  // namespace pstate::verify
