// pstate typecheck: check a value against a type in one of six type
// languages (docs/cli.md, docs/types.md). Flags become a TypecheckConfig;
// the API checks (Typecheck, TypecheckCases, ...), report/typecheck.h
// writes the verdicts.
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/exit_code.h"
#include "cli/input_limits.h"
#include "report/typecheck.h"

namespace pstate::cli {
namespace {

struct TypecheckFlags {
  std::string system;
  std::string type;
  std::vector<std::string> schemas;
  std::vector<std::string> aliases;
  std::vector<std::string> alias_files;
  std::string value;
  std::string value_file;
  std::string state;
  std::string pointer;
  std::string output;
  std::string cases;
  std::string format = "text";
  bool no_convert = false;
  // Which options were given (an empty string is a valid value).
  CLI::Option* value_opt = nullptr;
  CLI::Option* value_file_opt = nullptr;
  CLI::Option* state_opt = nullptr;
  CLI::Option* pointer_opt = nullptr;
  CLI::Option* output_opt = nullptr;
  CLI::Option* cases_opt = nullptr;
  CLI::Option* system_opt = nullptr;
  CLI::Option* type_opt = nullptr;
};

// `--cases`: each case's line as it is checked; exit 2 when a line was no
// case, 1 when a case missed its expectation.
int RunCases(const TypecheckConfig& config, const std::string& path) {
  Result<TypecheckCasesResult> result =
      TypecheckCases(path, config, [](const TypecheckCase& one) {
        report::WriteTypecheckCase(one, std::cout);
      });
  std::cout.flush();
  if (!result.ok()) return Fail(result.status());
  if (result->invalid > 0) return kExitUnreadable;
  if (result->failed > 0) return kExitFindings;
  return kExitOk;
}

int RunTypecheck(const TypecheckFlags& flags) {
  TypecheckConfig config;
  config.schema_files = flags.schemas;
  config.puppet_aliases = flags.aliases;
  config.puppet_alias_files = flags.alias_files;
  config.limits = InputLimitFlags();
  int sources = (*flags.value_opt ? 1 : 0) + (*flags.value_file_opt ? 1 : 0) +
                (*flags.state_opt ? 1 : 0) + (*flags.cases_opt ? 1 : 0);
  if (sources != 1) {
    return Fail("give exactly one of VALUE, --value-file, --state or --cases");
  }
  if (*flags.cases_opt) {
    if (*flags.system_opt || *flags.type_opt || flags.no_convert) {
      return Fail(
          "--cases takes each case's system and type from its line; "
          "--system, --type and --no-convert apply to a single value");
    }
  } else {
    if (!*flags.system_opt || !*flags.type_opt) {
      return Fail("--system and --type are required (or use --cases)");
    }
    if (*flags.state_opt && *flags.pointer_opt == *flags.output_opt) {
      return Fail("--state needs exactly one of --pointer or --output");
    }
  }
  if (!*flags.state_opt && (*flags.pointer_opt || *flags.output_opt)) {
    return Fail("--pointer and --output need --state");
  }
  if (*flags.cases_opt) return RunCases(config, flags.cases);

  std::optional<TypeLanguage> language = TypecheckLanguageNamed(flags.system);
  if (!language) {
    return Fail("unknown --system '" + flags.system +
                "' (pulumi, pulumi-schema, pcl, cty, terraform, puppet)");
  }
  config.language = *language;
  config.type = flags.type;
  Result<TypeVerdict> verdict = Status(Errc::kInvalidArgument, "no value");
  if (*flags.state_opt) {
    Result<State> state = OpenState(flags.state);
    if (!state.ok()) return Fail(state.status());
    verdict = *flags.pointer_opt
                  ? TypecheckPointer(*state, flags.pointer, config)
                  : TypecheckOutput(*state, flags.output, config);
  } else if (*flags.value_file_opt) {
    verdict = TypecheckFile(flags.value_file, config);
  } else {
    verdict = Typecheck(flags.value, config);
  }
  if (!verdict.ok()) return Fail(verdict.status());
  report::WriteTypeVerdict(*verdict,
                           flags.format == "json"
                               ? report::TypecheckFormat::kJson
                               : report::TypecheckFormat::kText,
                           std::cout);
  std::cout.flush();
  if (verdict->outcome == TypeOutcome::kError ||
      (verdict->outcome == TypeOutcome::kConvert && flags.no_convert)) {
    return kExitFindings;
  }
  return kExitOk;
}

}  // namespace

std::function<int()> SetupTypecheck(CLI::App& app) {
  auto flags = std::make_shared<TypecheckFlags>();
  flags->value_opt = app.add_option(
      "VALUE", flags->value, "The value, as JSON text in state encoding");
  flags->system_opt = app.add_option(
      "--system", flags->system,
      "Type language: pulumi, pulumi-schema, pcl, cty, terraform, puppet");
  flags->type_opt = app.add_option(
      "--type", flags->type,
      "The type in that language's syntax (JSON for cty and pulumi-schema)");
  app.add_option("--schema", flags->schemas,
                 "A Pulumi package schema (.json or .json.gz) that "
                 "pulumi-schema $refs resolve against; repeatable")
      ->allow_extra_args(false);
  app.add_option("--type-alias", flags->aliases,
                 "A puppet type alias, 'Name = Type' (as Puppet's "
                 "`type Name = Type`); repeatable")
      ->allow_extra_args(false);
  app.add_option("--type-aliases", flags->alias_files,
                 "A file of puppet type aliases (`type Name = Type`, one "
                 "after another, # comments); repeatable")
      ->allow_extra_args(false);
  flags->value_file_opt =
      app.add_option("--value-file", flags->value_file,
                     "Read the value from a file ('-' for standard input)");
  flags->state_opt = app.add_option("--state", flags->state,
                                    "Take the value from this state file");
  flags->pointer_opt =
      app.add_option("--pointer", flags->pointer,
                     "With --state: the JSON pointer of the value, e.g. "
                     "/deployment/resources/3/outputs/tags");
  flags->output_opt = app.add_option(
      "--output", flags->output,
      "With --state: an output of the root pulumi:pulumi:Stack resource");
  flags->cases_opt = app.add_option(
      "--cases", flags->cases,
      "Check every case of a JSON Lines file ('-' for standard input): "
      "{\"system\", \"type\", \"value\"[, \"expect\", \"converted\"]}");
  app.add_option("--format", flags->format, "Output format: text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  app.add_flag("--no-convert", flags->no_convert,
               "Count a conversion as a failure (exit 1): exact conformance");
  return [flags] { return RunTypecheck(*flags); };
}

}  // namespace pstate::cli
