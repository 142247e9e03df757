// `pstate typecheck`: the command's logic, kept out of the CLI so it can be
// tested and reused (docs/cli.md, "typecheck"; docs/types.md).
//
// Two forms, each a typed result (src/report/typecheck.h writes them):
//   single  one value (JSON text, a file, or a value inside a state) against
//           one type: a Verdict (CheckSingle);
//   cases   JSON Lines of {"system", "type", "value"[, "expect",
//           "converted"]}: one TypecheckCase per case, in order, handed to
//           a callback as the file is read (CheckCases).
#ifndef PSTATE_TYPES_TYPECHECK_H_
#define PSTATE_TYPES_TYPECHECK_H_

#include <functional>
#include <string>
#include <vector>

#include "json/value.h"
#include "types/type_system.h"

namespace pstate::types {

struct TypecheckConfig {
  enum class Source {
    kValue,         ///< `value` is JSON text
    kValueFile,     ///< `value` is a file name ("-" = stdin)
    kStatePointer,  ///< `state` + `pointer`
    kStateOutput,   ///< `state` + `output` (a root stack output)
    kCases,         ///< `cases` is a JSON Lines file ("-" = stdin)
  };
  Source source = Source::kValue;
  std::string system;  ///< single form: the language name
  std::string type;    ///< single form: the type as written on the command line
  std::string value;
  std::string state;
  std::string pointer;
  std::string output;
  std::string cases;
  std::vector<std::string> schemas;  ///< package schema files
  /// Puppet type aliases: definitions (`type Name = T`, or `Name = T`)
  /// and files of them (.pp style), for every puppet type.
  std::vector<std::string> puppet_aliases;
  std::vector<std::string> puppet_alias_files;
};

/// The single form's verdict, as data (the library API's typecheck): a
/// kConvert verdict's value has every secret masked (its plaintext is
/// "[secret]"), as it may be shown. Fails, with the message the command
/// reports, for an unknown system, a schema that cannot be loaded
/// ("schema: ..."), a type that does not parse ("at offset 6 of the type:
/// ...") or uses a feature pstate does not support (kUnsupported), a value
/// that is not JSON (kSyntax), an input that cannot be read, or a value the
/// state does not have. `source` must not be kCases.
Result<Verdict> CheckSingle(const TypecheckConfig& config);

/// The cases form (`source` kCases, `cases` the file): every case to
/// `on_case` as soon as it is checked, the file read as a stream (memory is
/// bounded by the longest line). Fails, with the message the command
/// prints, for a schema or alias that cannot be loaded (before any case) or
/// an input that cannot be read.
Result<TypecheckCasesResult> CheckCases(
    const TypecheckConfig& config,
    const std::function<void(const TypecheckCase&)>& on_case);

/// True when two values in state-JSON encoding are the same result
/// (type-systems.md §0): numbers by value, strings unescaped, objects
/// without regard to key order (the last duplicate wins), arrays in order,
/// secrets by their decoded plaintext, the unknown sentinel equal to
/// itself.
bool SameResult(const json::Value& a, const json::Value& b);

}  // namespace pstate::types

#endif  // PSTATE_TYPES_TYPECHECK_H_
