// pstate edit OPERATION STATE [ARGS...]: offline state surgery (docs/edit.md).
// Maps flags to pstate::EditConfig (EditMoveConfig) and the result to output
// and an exit code.
#include <unistd.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <pstate/pstate.h>

#include "cli/command.h"
#include "cli/exit_code.h"
#include "cli/input_limits.h"
#include "cli/select_options.h"
#include "cli/terminal.h"
#include "report/diff.h"
#include "report/edit.h"
#include "report/terminal.h"

namespace pstate::cli {
namespace {

/// Each operation's usage, what it does and examples: its own --help
/// (`pstate edit delete --help`), the operation list and completions.
struct OperationHelp {
  const char* name;
  const char* usage;
  const char* what;
  const char* examples;
};

constexpr OperationHelp kOperations[] = {
    {"delete",
     "pstate edit delete STATE URN...|--all [--target-dependents] "
     "[--force] [--id ID]",
     "Removes resources, as `pulumi state delete`. A resource later in the\n"
     "list that depends on one of them refuses the delete, unless\n"
     "--target-dependents deletes it too. --force deletes protected\n"
     "resources; --id picks one copy of a duplicated URN; --all deletes\n"
     "every resource.\n",
     "  pstate edit delete stack.json URN --target-dependents --dry-run\n"
     "  pstate edit delete stack.json URN --id OLD_ID -o fixed.json\n"
     "  pstate edit delete stack.json --all --force -o empty.json\n"},
    {"rename", "pstate edit rename STATE URN NEW_NAME",
     "Gives a resource a new name (same stack, project and type) and\n"
     "rewrites every reference to it, as `pulumi state rename`.\n",
     "  pstate edit rename stack.json URN logs-archive --in-place\n"},
    {"rename-stack", "pstate edit rename-stack STATE NEW_STACK [--project P]",
     "What `pulumi stack rename` does to a DIY backend's state: every URN\n"
     "of the state's stack (and project) gets NEW_STACK (and P) wherever\n"
     "it is written, and the root stack resource is named\n"
     "<project>-<stack>. Move the file itself to its new place.\n",
     "  pstate edit rename-stack dev.json staging -o staging.json\n"
     "  pstate edit rename-stack dev.json dev --project newproj -o new.json\n"},
    {"move",
     "pstate edit move SOURCE DEST URN...|FILTERS [--include-parents] "
     "[--stack S --project P] [--dry-run] [--format json]",
     "Moves resources from one state file to another, as `pulumi state\n"
     "move`: their descendants move too (--include-parents: their\n"
     "ancestors), the providers they use are copied, URNs get DEST's stack\n"
     "and project, and a resource whose parent stays is re-parented to\n"
     "DEST's root stack. A dependency that would cross the two files, a\n"
     "URN DEST already has, or a pending operation is refused. Both files\n"
     "are written in place with a .bak, or neither. A DEST without\n"
     "resources (a fresh `pulumi stack init`) takes its stack and project\n"
     "from --stack/--project, else from its checkpoint's \"stack\".\n",
     "  pstate edit move dev.json prod.json URN --dry-run\n"
     "  pstate edit move big.json part.json --type 'aws:rds/*'\n"
     "  pstate edit move dev.json new.json URN --stack prod --project app\n"},
    {"reparent", "pstate edit reparent STATE URN NEW_PARENT_URN",
     "Moves a resource and its descendants under another parent; their\n"
     "URNs get the new parent's type chain.\n",
     "  pstate edit reparent stack.json URN PARENT_URN -o moved.json\n"},
    {"protect", "pstate edit protect STATE URN...|--all",
     "Sets `protect` on the live copies, as `pulumi state protect`.\n",
     "  pstate edit protect stack.json --all --in-place\n"},
    {"unprotect", "pstate edit unprotect STATE URN...|--all",
     "Clears `protect` on the live copies, as `pulumi state unprotect`.\n",
     "  pstate edit unprotect stack.json URN --in-place\n"},
    {"taint", "pstate edit taint STATE URN...|--all",
     "Sets `taint`: the next `pulumi up` replaces the resource. The state\n"
     "becomes version 4 with the taint feature.\n",
     "  pstate edit taint stack.json URN --in-place\n"},
    {"untaint", "pstate edit untaint STATE URN...|--all",
     "Clears `taint`; with no feature left the state is version 3 again.\n",
     "  pstate edit untaint stack.json --all --in-place\n"},
    {"clear-pending", "pstate edit clear-pending STATE [--type T] [--urn URN]",
     "Removes pending operations: all, those of one type (creating,\n"
     "updating, deleting, reading, importing) and/or of one resource.\n",
     "  pstate edit clear-pending stack.json --type creating -o fixed.json\n"},
    {"import-pending", "pstate edit import-pending STATE URN ID",
     "Turns the pending `creating` operation of URN into an `importing`\n"
     "one with that ID, so the next `pulumi refresh` adopts the resource.\n",
     "  pstate edit import-pending stack.json URN CLOUD_ID -o fixed.json\n"},
    {"repair", "pstate edit repair STATE",
     "What `pulumi state repair` does: sorts the resources so every\n"
     "reference points backwards, fixes child URNs and dangling parents,\n"
     "removes dangling dependencies. Nothing on a state without integrity\n"
     "errors.\n",
     "  pstate edit repair stack.json --dry-run\n"
     "  pstate edit repair stack.json --in-place\n"},
};

const OperationHelp* FindOperation(const std::string& name) {
  for (const OperationHelp& op : kOperations) {
    if (name == op.name) return &op;
  }
  return nullptr;
}

/// "delete, rename, ..." (with `sep` between names).
std::string OperationNames(const char* sep) {
  std::string out;
  for (const OperationHelp& op : kOperations) {
    if (!out.empty()) out += sep;
    out += op.name;
  }
  return out;
}

struct EditFlags {
  std::string operation;
  std::string input;
  std::vector<std::string> args;
  std::string output = "-";
  const CLI::Option* output_option = nullptr;
  bool in_place = false;
  bool dry_run = false;
  bool target_dependents = false;
  bool force = false;
  bool allow_new_errors = false;
  bool all = false;
  bool include_parents = false;
  std::string id;
  /// clear-pending: the operation type and resource URN; any other
  /// operation that takes resources: the `ls` filters (globs).
  std::string type;
  std::string urn;
  SelectFlags select;  ///< the filters but --type and --urn
  std::string project;
  std::string stack;  ///< move: DEST's stack when it has no resources
  std::string format = "text";
  std::string color = "auto";
  bool quiet = false;
};

/// `pstate edit move SOURCE DEST URN...`: both states in place.
int RunMove(const EditFlags& flags, const ResourceFilter& select) {
  if (flags.args.empty()) return Fail("edit move takes DEST and URNs");
  if (flags.in_place || flags.output != "-") {
    return Fail(
        "edit move writes both states in place (each keeps a .bak): -o and "
        "--in-place do not apply");
  }
  if (flags.all || flags.force || flags.target_dependents ||
      !flags.id.empty()) {
    return Fail(
        "edit move takes filters, --include-parents, --stack, --project, "
        "--dry-run, --format and --allow-new-errors");
  }
  if (flags.format != "text" && flags.format != "json") {
    return Fail("--format must be text or json");
  }
  const bool json = flags.format == "json";
  const std::string& destination = flags.args[0];
  EditMoveConfig config;
  config.urns.assign(flags.args.begin() + 1, flags.args.end());
  config.select = select;
  config.include_parents = flags.include_parents;
  config.allow_new_errors = flags.allow_new_errors;
  config.destination_stack = flags.stack;
  config.destination_project = flags.project;
  config.dry_run = flags.dry_run;
  // -q prints no change list (a move of most of a large state's resources
  // has an entry per resource).
  config.list_changes = json || flags.dry_run || !flags.quiet;
  if (config.urns.empty() && select.empty()) {
    return Fail("edit move needs URNs, resource names or filters");
  }
  Result<State> source = OpenState(flags.input);
  if (!source.ok()) return Fail(source.status().message());
  Result<State> dest = OpenState(destination);
  if (!dest.ok()) return Fail(dest.status().message());
  Result<EditMoveResult> outcome = EditMove(*source, *dest, config);
  if (!outcome.ok()) return Fail(outcome.status().message());
  const EditMoveResult& o = *outcome;
  // JSON: one object on stdout (both files are written in place).
  if (json) {
    report::RenderMoveJson({flags.input, destination, flags.dry_run}, o,
                           std::cout);
  }
  if (!flags.quiet && !json) PrintSelection(std::cerr, "edit move", o.selected);
  if (o.refused) {
    report::PrintError(std::cerr, o.refusal);
    report::RenderNewErrors(o.source.new_errors, std::cerr);
    report::RenderNewErrors(o.destination.new_errors, std::cerr);
    return kExitFindings;
  }
  // --dry-run: what each file would become, exactly as `pstate diff` prints
  // it, on stdout; else the changes on stderr.
  std::ostream& os = flags.dry_run ? std::cout : std::cerr;
  if (!json && (flags.dry_run || !flags.quiet)) {
    const std::pair<const std::string*, const EditResult*> sides[] = {
        {&flags.input, &o.source}, {&destination, &o.destination}};
    report::DiffTextOptions text;
    text.color = flags.dry_run && UseColor(flags.color, STDOUT_FILENO);
    for (auto [path, side] : sides) {
      os << report::TerminalSafe(*path) << ":\n";
      if (flags.dry_run && side->diff) {
        os << report::RenderDiffText(*side->diff, text);
      } else {
        report::RenderEditText(*side, os);
      }
    }
    for (const std::string& n : o.notes) {
      os << "note: " << report::TerminalSafe(n) << "\n";
    }
  }
  if (!o.source.new_errors.empty() || !o.destination.new_errors.empty()) {
    std::cerr << "pstate: warning: written with --allow-new-errors despite new "
                 "integrity errors:\n";
    report::RenderNewErrors(o.source.new_errors, std::cerr);
    report::RenderNewErrors(o.destination.new_errors, std::cerr);
  }
  return kExitOk;
}

int RunEdit(const EditFlags& flags) {
  EditConfig req;
  const std::string& op = flags.operation;
  const std::vector<std::string>& args = flags.args;
  auto want_args = [&](std::size_t n, const char* what) -> bool {
    if (args.size() == n) return true;
    Fail("edit " + op + " takes " + what);
    return false;
  };
  // The `ls` filters (clear-pending's --type and --urn are its own).
  ResourceFilter& select = req.select;
  select = ToSelector(flags.select);
  if (op != "clear-pending") {
    if (!flags.type.empty()) select.type = flags.type;
    if (!flags.urn.empty()) select.urn = flags.urn;
  }
  const bool filtered = !select.empty();
  if (op == "move") return RunMove(flags, select);
  if (flags.include_parents) {
    return Fail("--include-parents applies to edit move only");
  }
  // With filters, the resource argument of a one-resource operation is
  // optional: the filters name it.
  auto one = [&](const char* rest, const char* with_urn) -> bool {
    if (filtered && args.size() == 1) return true;
    return want_args(2, filtered ? rest : with_urn);
  };
  if (op == "delete") {
    req.operation = EditOperation::kDelete;
    if (flags.all && (!args.empty() || filtered)) {
      return Fail("edit delete: give URNs (or filters) or --all, not both");
    }
    if (!flags.all && args.empty() && !filtered) {
      return Fail("edit delete needs at least one URN, filters, or --all");
    }
    if (flags.all && !flags.id.empty()) {
      return Fail("edit delete: --id picks a copy of a URN, not of --all");
    }
    req.urns = args;
    req.all = flags.all;
  } else if (op == "rename") {
    req.operation = EditOperation::kRename;
    if (!one("NEW_NAME (the filters select the resource)", "URN NEW_NAME")) {
      return kExitUnreadable;
    }
    if (args.size() == 2) req.urns = {args[0]};
    req.new_name = args.back();
  } else if (op == "rename-stack") {
    req.operation = EditOperation::kRenameStack;
    if (!want_args(1, "NEW_STACK")) return kExitUnreadable;
    req.new_name = args[0];
    req.new_project = flags.project;
  } else if (op == "reparent") {
    req.operation = EditOperation::kReparent;
    if (!one("NEW_PARENT (the filters select the resource)",
             "URN NEW_PARENT")) {
      return kExitUnreadable;
    }
    if (args.size() == 2) req.urns = {args[0]};
    req.new_parent = args.back();
  } else if (op == "protect" || op == "unprotect" || op == "taint" ||
             op == "untaint") {
    req.operation = op == "protect"     ? EditOperation::kProtect
                    : op == "unprotect" ? EditOperation::kUnprotect
                    : op == "taint"     ? EditOperation::kTaint
                                        : EditOperation::kUntaint;
    if (flags.all && (!args.empty() || filtered)) {
      return Fail("edit " + op + ": give URNs (or filters) or --all, not both");
    }
    if (!flags.all && args.empty() && !filtered) {
      return Fail("edit " + op + " needs URNs, filters or --all");
    }
    req.urns = args;
    req.all = flags.all;
  } else if (op == "clear-pending") {
    req.operation = EditOperation::kClearPending;
    if (!want_args(0, "no arguments (use --type and --urn)")) {
      return kExitUnreadable;
    }
    req.pending_type = flags.type;
    req.pending_urn = flags.urn;
  } else if (op == "import-pending") {
    req.operation = EditOperation::kImportPending;
    if (!one("ID (the filters select the resource)", "URN ID")) {
      return kExitUnreadable;
    }
    if (args.size() == 2) req.urns = {args[0]};
    req.id = args.back();
  } else if (op == "repair") {
    req.operation = EditOperation::kRepair;
    if (!want_args(0, "no arguments")) return kExitUnreadable;
  } else {
    return Fail("unknown edit operation \"" + op + "\" (" +
                OperationNames(", ") + ")");
  }
  if (req.operation != EditOperation::kImportPending) req.id = flags.id;
  if (!flags.id.empty() && req.operation != EditOperation::kDelete) {
    return Fail("--id applies to edit delete only");
  }
  if (!flags.project.empty() && req.operation != EditOperation::kRenameStack) {
    return Fail("--project applies to edit rename-stack and move only");
  }
  if (!flags.stack.empty()) return Fail("--stack applies to edit move only");
  if (filtered && !EditTakesSelection(req.operation)) {
    return Fail("edit " + op +
                " takes no resource filters (--type and --urn of clear-pending "
                "are the operation's type and resource URN)");
  }
  if (flags.all && req.operation != EditOperation::kDelete &&
      req.operation != EditOperation::kProtect &&
      req.operation != EditOperation::kUnprotect &&
      req.operation != EditOperation::kTaint &&
      req.operation != EditOperation::kUntaint) {
    return Fail(
        "--all applies to delete, protect, unprotect, taint and untaint");
  }
  if (flags.force && req.operation != EditOperation::kDelete) {
    return Fail(
        "--force applies to edit delete only (protected resources); "
        "--allow-new-errors writes a result that verifies worse");
  }
  if (flags.target_dependents && req.operation != EditOperation::kDelete) {
    return Fail("--target-dependents applies to edit delete only");
  }
  if (flags.format != "text" && flags.format != "json") {
    return Fail("--format must be text or json");
  }
  if (flags.in_place && flags.output != "-") {
    return Fail("--in-place and -o are exclusive");
  }
  req.target_dependents = flags.target_dependents;
  req.force = flags.force;
  req.allow_new_errors = flags.allow_new_errors;
  req.output = flags.output;
  req.in_place = flags.in_place;
  req.dry_run = flags.dry_run;
  // -q prints no change list (a repair of a long chain has an entry per
  // resource).
  req.list_changes = flags.format == "json" || flags.dry_run || !flags.quiet;

  if (!flags.dry_run &&
      RefuseStateOnTerminal(*flags.output_option, &flags.in_place)) {
    return kExitUnreadable;
  }
  Result<State> state = OpenState(flags.input);
  if (!state.ok()) return Fail(state.status().message());
  req.on_progress = MakeProgress(InputName(flags.input), flags.quiet);
  Result<EditResult> outcome = Edit(*state, req);
  EndProgress();
  if (!outcome.ok()) return Fail(outcome.status().message());
  const EditResult& o = *outcome;
  bool json = flags.format == "json";
  // What names and filters selected, before anything else is said.
  if (!flags.quiet && !json) {
    PrintSelection(std::cerr, "edit " + op, o.selected);
  }
  if (o.refused) {
    if (json) report::RenderEditJson(flags.input, req.operation, o, std::cout);
    report::PrintError(std::cerr, o.refusal);
    report::RenderNewErrors(o.new_errors, std::cerr);
    return kExitFindings;
  }
  if (flags.dry_run) {
    // What would change, exactly as `pstate diff STATE RESULT` prints it.
    if (o.diff) {
      report::DiffTextOptions text;
      text.color = UseColor(flags.color, STDOUT_FILENO);
      std::cout << (json ? report::RenderDiffJson(*o.diff)
                         : report::RenderDiffText(*o.diff, text));
    }
    if (!json) {
      for (const std::string& n : o.notes) {
        std::cout << "note: " << report::TerminalSafe(n) << "\n";
      }
    }
  } else if (json) {
    report::RenderEditJson(flags.input, req.operation, o, std::cerr);
  } else if (!flags.quiet) {
    report::RenderEditText(o, std::cerr);
    if (o.unchanged) std::cerr << "pstate edit: no change\n";
  }
  if (!o.new_errors.empty()) {
    std::cerr << "pstate: warning: written with --allow-new-errors despite new "
                 "integrity errors:\n";
    report::RenderNewErrors(o.new_errors, std::cerr);
  }
  return kExitOk;
}

}  // namespace

std::function<int()> SetupEdit(CLI::App& app) {
  auto flags = std::make_shared<EditFlags>();
  app.add_option("operation", flags->operation,
                 "The operation: " + OperationNames(", ") +
                     " (pstate edit OPERATION --help)")
      ->type_name("OPERATION:{" + OperationNames(",") + "}")
      ->required();
  // `pstate edit OPERATION --help`: that operation's usage and examples
  // before the command's footer.
  app.footer([flags]() -> std::string {
    const OperationHelp* op = FindOperation(flags->operation);
    if (op == nullptr) return {};
    return std::string("\nOperation ") + op->name + ":\n  " + op->usage +
           "\n\n" + op->what + "\nExamples:\n" + op->examples;
  });
  app.add_option("state", flags->input,
                 "State to edit (export or checkpoint; plain, gzip or zstd); "
                 "- reads standard input")
      ->required();
  app.add_option("args", flags->args,
                 "URNs and other arguments of the operation (docs/edit.md)");
  flags->output_option = app.add_option(
      "-o,--output", flags->output,
      "Where to write the edited state (default: standard output, never a "
      "terminal); written atomically, compressed like the input");
  app.add_flag("--in-place", flags->in_place,
               "Write back into STATE, keeping the old file as STATE.bak");
  app.add_flag("--dry-run", flags->dry_run,
               "Write nothing; print what would change");
  app.add_flag("--target-dependents", flags->target_dependents,
               "delete: also delete every resource that depends on the "
               "targets");
  app.add_flag("--force", flags->force,
               "delete: also delete protected resources (as Pulumi's "
               "--force)");
  app.add_flag("--allow-new-errors", flags->allow_new_errors,
               "Write the result even when it has integrity errors the "
               "input does not have (they are printed)");
  app.add_flag("--include-parents", flags->include_parents,
               "move: also move the selection's ancestors (the root stack "
               "and providers excepted)");
  app.add_flag("--all", flags->all,
               "delete: every resource; protect, unprotect, taint, untaint: "
               "every live resource");
  app.add_option("--id", flags->id,
                 "delete: which copy of a duplicated URN (by its ID)");
  app.add_option("--type", flags->type,
                 "Only resources whose type matches GLOB (as `pstate ls`); "
                 "clear-pending: only operations of this type (creating, "
                 "updating, deleting, reading, importing)");
  app.add_option("--urn", flags->urn,
                 "Only resources whose URN matches GLOB; clear-pending: only "
                 "operations on this resource (exact URN)");
  AddSelectOptions(app, flags->select, /*with_type_and_urn=*/false);
  app.add_option("--project", flags->project,
                 "rename-stack: the new project (default: the state's); "
                 "move: DEST's project when it has no resources");
  app.add_option("--stack", flags->stack,
                 "move: DEST's stack when it has no resources (default: "
                 "its checkpoint's)");
  app.add_option("--format", flags->format,
                 "text or json: how changes are printed");
  AddColorOption(app, &flags->color);
  app.add_flag("-q,--quiet", flags->quiet,
               "Do not list the changes or draw a progress line on stderr");
  return [flags] { return RunEdit(*flags); };
}

}  // namespace pstate::cli
