#include "types/registry.h"

#include <string>

#include "json/compact.h"
#include "types/cty.h"
#include "types/pcl.h"
#include "types/pulumi.h"
#include "types/pulumi_schema.h"
#include "types/puppet.h"
#include "types/terraform.h"

namespace pstate::types {

Result<std::unique_ptr<TypeSystem>> MakeSystem(System system,
                                               const SchemaSet* schemas) {
  switch (system) {
    case System::kPulumi: return MakePulumiSystem();
    case System::kPulumiSchema: return MakePulumiSchemaSystem(schemas);
    case System::kPcl: return MakePclSystem();
    case System::kPuppet: return MakePuppetSystem();
    case System::kCty: return MakeCtySystem();
    case System::kTerraform: return MakeTerraformSystem();
    default: break;
  }
  return Status(Errc::kUnsupported, "the " + std::string(SystemName(system)) +
                                        " type language is not available yet");
}

Result<const TypeSystem*> TypeCache::GetSystem(System system) {
  std::size_t i = static_cast<std::size_t>(system);
  if (!tried_[i]) {
    tried_[i] = true;
    Result<std::unique_ptr<TypeSystem>> made =
        system == System::kPuppet && puppet_aliases_
            ? Result<std::unique_ptr<TypeSystem>>(
                  puppet::MakePuppetSystemWith(puppet_aliases_))
            : MakeSystem(system, schemas_);
    if (made.ok()) {
      systems_[i] = std::move(*made);
    } else {
      system_status_[i] = made.status();
    }
  }
  if (!systems_[i]) return system_status_[i];
  return static_cast<const TypeSystem*>(systems_[i].get());
}

Result<std::shared_ptr<const Type>> TypeCache::Parse(System system,
                                                     const json::Value& spec) {
  Result<const TypeSystem*> language = GetSystem(system);
  if (!language.ok()) return language.status();
  // The key is the system and the spec's text as written: a string's
  // escaped text, or compact JSON for specs written as JSON. Two spellings
  // of one type are parsed twice, which is harmless.
  key_.clear();
  key_.push_back(static_cast<char>('0' + static_cast<int>(system)));
  if (spec.is_string()) {
    key_.push_back('"');
    key_.append(spec.raw());
  } else {
    json::AppendCompactJson(spec, &key_);
  }
  auto it = types_.find(key_);
  if (it != types_.end()) return it->second;
  Result<std::shared_ptr<const Type>> parsed = (*language)->Parse(spec);
  // Bounded: a stream of cases with ever new types (typecheck --cases)
  // keeps at most kMaxCached of them (the callers hold what they use).
  if (types_.size() >= kMaxCached) types_.clear();
  types_.emplace(key_, parsed);
  return parsed;
}

}  // namespace pstate::types
