#include "pstate/check/verifier.h"

#include <array>

#include "pstate/check/fields.h"
#include "pstate/check/section_checks.h"

namespace pstate::check {
namespace {

using diag::Code;
using state::Role;

constexpr std::array<FieldSpec, 2> kOperationFields = {{
    {"resource", FieldType::kObject}, {"type", FieldType::kString}}};

}  // namespace

void Verifier::OnLeaf(state::Leaf& leaf, state::Context& context) {
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
      provider_type_ = CheckSecretsProvider(v, reporter);
      resources_.set_secrets_provider(provider_type_);
      break;
    case Role::kResource:
      resources_.Check(v, reporter, /*integrity=*/true, version);
      if (hook_) hook_(leaf, context);
      break;
    case Role::kPendingOperation:
      CheckPendingOperation(v, reporter, version);
      if (pending_hook_) pending_hook_(leaf, context);
      break;
    case Role::kMetadata:
      CheckMetadata(v, reporter);
      break;
    case Role::kSnippet:
      CheckSnippet(v, snippet_uuids_, reporter);
      break;
    case Role::kExtension:
      CheckExtension(v, reporter);
      break;
    case Role::kConfig:
      CheckConfig(v, provider_type_, reporter, &unshaped_config_);
      break;
    case Role::kStack:
      if (!v.is_string() && !v.is_null()) {
        reporter.Add(Code::kFieldType, "\"stack\" must be a string", v);
      }
      break;
    case Role::kVersion:
    case Role::kFeatures:
    case Role::kMisshapenContainer:
    case Role::kUnknown:
      break;  // the reader reports on these
  }
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

void Verifier::OnFinish(const state::Envelope& envelope,
                        state::Context& context) {
  for (diag::Finding& f : resources_.tracker().Finish()) {
    context.ReportUnlocated(std::move(f));
  }
  if (envelope.has_deployment && !saw_manifest_ &&
      envelope.version.value_or(0) >= 3) {
    context.ReportUnlocated(diag::MakeFinding(
        Code::kFieldMissing, "the deployment has no \"manifest\"",
        envelope.kind == state::EnvelopeKind::kExport ? "/deployment"
                                                      : "/checkpoint/latest"));
  }
  if (provider_type_ == "passphrase" || provider_type_ == "cloud") {
    for (diag::Finding& f : unshaped_config_) {
      f.message = "secure config value is not shaped as the " +
                  provider_type_ + " provider writes ciphertexts";
      context.ReportUnlocated(std::move(f));
    }
  }
  unshaped_config_.clear();
  if (!saw_provider_ && resources_.properties().ciphertexts() > 0) {
    context.ReportUnlocated(diag::MakeFinding(
        Code::kSecretsProviderMissing,
        std::to_string(resources_.properties().ciphertexts()) +
            " secret(s) hold ciphertext but the deployment names no "
            "secrets provider to decrypt them"));
  }
}

}  // namespace pstate::check
