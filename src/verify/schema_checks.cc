#include "verify/schema_checks.h"

#include <utility>
#include <vector>

#include "diag/finding.h"
#include "state/resource.h"

namespace pstate::verify {
namespace {

using diag::Code;
using types::ResourceSide;
using types::SchemaIssue;

constexpr std::string_view kProviders = "pulumi:providers:";

// Keys of a provider resource's inputs that the engine itself sets
// (pkg/resource/deploy/providers/registry.go: SetProviderVersion,
// SetProviderURL, SetProviderChecksums, SetProviderParameterization, and
// the newer "__internal" bag), never the schema's.
constexpr std::string_view kProviderEngineKeys[] = {
    "version", "pluginDownloadURL", "pluginChecksums", "parameterization",
    "__internal"};

std::string_view PackageOf(std::string_view token) {
  std::size_t colon = token.find(':');
  return colon == std::string_view::npos ? std::string_view()
                                         : token.substr(0, colon);
}

std::string VersionInput(const json::Value* inputs) {
  if (!inputs || !inputs->is_object()) return {};
  const json::Value* v = inputs->Find("version");
  return v && v->is_string() ? v->Str() : std::string();
}

}  // namespace

SchemaChecks::SchemaChecks(const types::SchemaSet& schemas,
                           SchemaCheckOptions options)
    : schemas_(schemas), options_(options), cache_(schemas) {
  for (types::CheckOptions* o :
       {&options_in_, &options_out_, &provider_options_}) {
    if (options_.secrets_only) {
      o->types = false;
      o->unknown_properties = false;
    }
  }
  // Outputs carry the resource's id (every custom resource has one, no
  // schema declares it).
  options_out_.exempt_top_level = {"id"};
  provider_options_.exempt_top_level.assign(std::begin(kProviderEngineKeys),
                                            std::end(kProviderEngineKeys));
}

Result<state::Flow> SchemaChecks::OnLeaf(state::Leaf& leaf,
                                         state::Context& context) {
  if (leaf.role == state::Role::kResource && leaf.value.is_object()) {
    CheckResource(leaf.value, leaf.pointer, context, /*pending=*/false);
  } else if (leaf.role == state::Role::kPendingOperation &&
             leaf.value.is_object()) {
    // The resource an interrupted operation was working on
    // (pkg/resource/deploy/snapshot.go PendingOperationPair): its inputs
    // and outputs are read back like any resource's on the next update.
    if (const json::Value* resource = state::ResourceOf(leaf)) {
      CheckResource(*resource, state::ResourcePointer(leaf), context,
                    /*pending=*/true);
    }
  }
  return state::Flow::kContinue;
}

const types::PackageSchema* SchemaChecks::ChooseSchema(
    const std::string& package, const std::string& version, bool version_known,
    std::uint64_t offset, std::string_view pointer, const std::string& urn,
    state::Context& context) {
  bool exact = false;
  const types::PackageSchema* schema =
      schemas_.FindPackage(package, version, &exact);
  if (!schema || exact || options_.secrets_only) return schema;
  bool several = schemas_.Versions(package).size() > 1;
  // One schema that does not say its version fits any provider version
  // (the fixture schemas of a repository rarely carry one).
  if (!several && (version.empty() || schema->version().empty())) {
    return schema;
  }
  std::string key = package + "@" + (version_known ? version : "?");
  if (!version_reported_.insert(key).second) return schema;
  std::string given = schema->version().empty()
                          ? "without a version"
                          : "version " + schema->version();
  std::string message =
      version.empty()
          ? "the provider of this resource does not record its version; "
            "checked against the schema of package \"" +
                package + "\" " + given + (several ? " (the newest given)" : "")
          : "no schema of package \"" + package + "\" version " + version +
                " was given; checked against the schema " + given +
                (several ? " (the newest given)" : "");
  context.Report(
      diag::MakeFinding(Code::kSchemaVersionMismatch, std::move(message),
                        std::string(pointer), urn),
      offset);
  return schema;
}

void SchemaChecks::Report(const SchemaIssue& issue, ResourceSide side,
                          std::string_view pointer, const std::string& urn,
                          state::Context& context) {
  std::string at(pointer);
  at.append(issue.pointer);
  Code code = Code::kSchemaType;
  std::string message = issue.message;
  switch (issue.kind) {
    case SchemaIssue::Kind::kType: code = Code::kSchemaType; break;
    case SchemaIssue::Kind::kRequired: code = Code::kSchemaRequired; break;
    case SchemaIssue::Kind::kUnknownProperty:
      code = Code::kSchemaPropertyUnknown;
      break;
    case SchemaIssue::Kind::kSecretPlaintext:
      code = Code::kSchemaSecretPlaintext;
      break;
    case SchemaIssue::Kind::kDanglingRef: {
      // Once per schema and ref: it is the schema's problem, not the
      // state's; the finding sits at the first value that met it.
      if (!refs_reported_.insert({issue.package, issue.ref}).second) return;
      code = Code::kSchemaRefInvalid;
      message.clear();
      if (issue.package) {
        io::LineColumn lc = issue.package->Locate(issue.schema_offset);
        message = issue.package->source() + ":" + std::to_string(lc.line) +
                  ":" + std::to_string(lc.column) + ": ";
      }
      message += "$ref \"" + issue.ref + "\" points nowhere (" + issue.message +
                 "); values of that type are not checked";
      break;
    }
  }
  if (!issue.schema_location.empty()) {
    message += " (schema: " + issue.schema_location + ")";
  }
  diag::Finding f =
      diag::MakeFinding(code, std::move(message), std::move(at), urn);
  if (code == Code::kSchemaRequired && side == ResourceSide::kOutputs) {
    f.severity = diag::Severity::kWarning;  // the provider's answer
  }
  context.Report(std::move(f), issue.offset);
}

void SchemaChecks::CheckResource(const json::Value& resource,
                                 std::string_view pointer,
                                 state::Context& context, bool pending) {
  state::ResourceView view = state::ResourceView::Of(resource);
  if (!view.type || !view.type->is_string()) return;  // verify reports it
  // What the resource's type says, worked out once per type and run.
  std::string decoded_type;
  std::string_view type = view.type->raw();
  if (view.type->has_escapes) type = decoded_type = view.type->Str();
  auto found = types_.find(type);
  if (found == types_.end()) {
    TypeInfo info;
    info.provider = type.starts_with(kProviders);
    info.package = info.provider ? std::string(type.substr(kProviders.size()))
                                 : std::string(PackageOf(type));
    // The engine's own types (Stack, StackReference) have no schema.
    info.skip =
        info.package.empty() || (!info.provider && info.package == "pulumi");
    info.has_schema = schemas_.FindPackage(info.package) != nullptr;
    found = types_.emplace(std::string(type), std::move(info)).first;
  }
  TypeInfo& info = found->second;
  if (info.skip) return;
  const bool provider = info.provider;
  const std::string& package = info.package;
  // The URN and pointers are spelled only for a finding.
  std::string urn_text;
  bool urn_done = false;
  auto urn = [&]() -> const std::string& {
    if (!urn_done) {
      urn_text = view.Urn();
      urn_done = true;
    }
    return urn_text;
  };
  if (provider && !pending) {
    // A pending operation's provider is not the one resources use.
    ProviderInfo& info_of = provider_versions_[urn()];
    info_of = ProviderInfo();
    info_of.version = VersionInput(view.inputs);
  }
  bool custom = state::ResourceView::Flag(view.custom);
  auto type_at = [&]() {
    std::string p(pointer);
    p.append("/type");
    return p;
  };
  if (!info.has_schema) {
    // A component's package is often the program's own, with no schema.
    if ((custom || provider) && !options_.secrets_only &&
        missing_reported_.insert(package).second) {
      context.Report(
          diag::MakeFinding(Code::kSchemaPackageMissing,
                            "no schema was given for package \"" + package +
                                "\" (pass it with --schema); its resources "
                                "are not checked",
                            type_at(), urn()),
          view.type->offset);
    }
    return;
  }
  // The schema version: the provider's, else the newest (with a note).
  const types::PackageSchema* schema = nullptr;
  if (provider) {
    schema = ChooseSchema(package, VersionInput(view.inputs), true,
                          view.type->offset, type_at(), urn(), context);
  } else {
    ProviderInfo* prov = nullptr;
    std::string decoded_ref;
    if (auto ref = view.ProviderRef(&decoded_ref)) {
      auto it = provider_versions_.find(ref->urn);
      if (it != provider_versions_.end()) prov = &it->second;
    }
    if (prov && prov->package == package) {
      schema = prov->schema;
    } else if (!prov && info.unversioned) {
      schema = info.unversioned;
    } else {
      schema = ChooseSchema(package, prov ? prov->version : std::string(),
                            prov != nullptr, view.type->offset, type_at(),
                            urn(), context);
      if (prov) {
        prov->package = package;
        prov->schema = schema;
      } else {
        info.unversioned = schema;
      }
    }
  }
  if (info.def_schema != schema) {
    info.def_schema = schema;
    info.def = provider ? schema->Provider() : schema->Resource(type);
  }
  const json::Value* def = info.def;
  if (!def) {
    if (!options_.secrets_only && !provider) {
      context.Report(
          diag::MakeFinding(Code::kSchemaResourceUnknown,
                            "the schema of package \"" + package + "\"" +
                                (schema->version().empty()
                                     ? std::string()
                                     : " version " + schema->version()) +
                                " has no resource \"" + std::string(type) +
                                "\" (removed or renamed?)",
                            type_at(), urn()),
          view.type->offset);
    }
    return;
  }
  if (!custom && !provider) {
    const json::Value* component = def->Find("isComponent");
    if (!component || component->type != json::Type::kTrue) return;
  }
  types::CheckOptions& options = provider ? provider_options_ : options_in_;
  auto check = [&](const json::Value* value, ResourceSide side,
                   const types::CheckOptions& with) {
    json::Value empty_object;
    empty_object.type = json::Type::kObject;
    empty_object.offset = resource.offset;
    // An absent inputs/outputs object reads as empty (Go's nil map).
    const json::Value& v = value && !value->is_null() ? *value : empty_object;
    issues_.clear();
    schemas_.CheckResourceAll(*schema, *def, type, side, v, with, cache_,
                              &issues_);
    if (issues_.empty()) return;
    // The object's pointer; the resource's when it lacks the object.
    std::string base(pointer);
    if (&v != &empty_object) {
      base.append(side == ResourceSide::kInputs ? "/inputs" : "/outputs");
    }
    for (const SchemaIssue& issue : issues_) {
      Report(issue, side, base, urn(), context);
    }
  };
  check(view.inputs, ResourceSide::kInputs, options);
  if (provider) return;
  // A pending create or update may have stopped before the provider
  // answered: no outputs then is not a missing-required problem.
  if (pending && (!view.outputs || view.outputs->is_null() ||
                  (view.outputs->is_object() && view.outputs->size == 0))) {
    return;
  }
  check(view.outputs, ResourceSide::kOutputs, options_out_);
}

}  // namespace pstate::verify
