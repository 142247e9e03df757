// Which type language implements which System, and a cache of parsed types.
//
// MakeSystem is the one place that knows every language; each language's
// engineer adds the line that creates theirs. TypeCache keeps one system
// per language and each parsed type keyed by (system, type text), so a type
// shared by many values (the common case in `typecheck --cases`) is parsed
// once (up to kMaxCached distinct types). A type that fails to parse is
// cached too, with its Status.
#ifndef PSTATE_TYPES_REGISTRY_H_
#define PSTATE_TYPES_REGISTRY_H_

#include <array>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>

#include "base/result.h"
#include "json/value.h"
#include "types/type_system.h"

namespace pstate::types {

class SchemaSet;
namespace puppet {
struct Aliases;
}  // namespace puppet

/// A new instance of `system`'s language. `schemas` (may be null: no
/// package schemas loaded) must outlive the system; only pulumi-schema
/// uses it. Errc::kUnsupported, naming the language, for a language that
/// is not built yet.
Result<std::unique_ptr<TypeSystem>> MakeSystem(System system,
                                               const SchemaSet* schemas);

class TypeCache {
 public:
  explicit TypeCache(const SchemaSet* schemas) : schemas_(schemas) {}

  /// The type aliases the puppet language resolves names against (none by
  /// default). Set before the language is first used.
  void SetPuppetAliases(std::shared_ptr<const puppet::Aliases> aliases) {
    puppet_aliases_ = std::move(aliases);
  }

  /// The language for `system`, created on first use.
  Result<const TypeSystem*> GetSystem(System system);

  /// `spec` parsed by `system`'s language, from the cache when the same
  /// (system, spec text) was parsed before. Not thread-safe.
  Result<std::shared_ptr<const Type>> Parse(System system,
                                            const json::Value& spec);

  /// Distinct (system, type) pairs cached (for tests and benchmarks).
  std::size_t parsed() const { return types_.size(); }
  /// The most types kept: past it the cache starts again, so memory stays
  /// bounded whatever the number of distinct types.
  static constexpr std::size_t kMaxCached = 4096;

 private:
  static constexpr std::size_t kSystems = 6;
  const SchemaSet* schemas_;
  std::shared_ptr<const puppet::Aliases> puppet_aliases_;
  std::array<std::unique_ptr<TypeSystem>, kSystems> systems_;
  std::array<bool, kSystems> tried_{};
  std::array<Status, kSystems> system_status_;
  std::unordered_map<std::string, Result<std::shared_ptr<const Type>>> types_;
  std::string key_;
};

}  // namespace pstate::types

#endif  // PSTATE_TYPES_REGISTRY_H_
