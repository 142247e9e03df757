#include "cli/findings_output.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/count_option.h"
#include "cli/exit_code.h"
#include "cli/suggest.h"
#include "cli/terminal.h"

#ifndef PSTATE_VERSION
#define PSTATE_VERSION "0.0.0"
#endif

namespace pstate::cli {
namespace {

namespace fs = std::filesystem;

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.substr(s.size() - suffix.size()) == suffix;
}

bool IsStateName(std::string_view name, bool include_backups) {
  if (include_backups && EndsWith(name, ".bak")) {
    name.remove_suffix(4);
  }
  return EndsWith(name, ".json") || EndsWith(name, ".json.gz") ||
         EndsWith(name, ".json.zst");
}

/// The codes named by --only or --skip; a usage error names an unknown one
/// with the closest known name.
std::set<FindingCode> ParseCodes(const std::vector<std::string>& names,
                                 const char* flag) {
  std::vector<std::string> known;
  for (std::size_t i = 0; i < FindingCodeCount(); ++i) {
    known.emplace_back(CodeName(static_cast<FindingCode>(i)));
  }
  std::set<FindingCode> codes;
  for (const std::string& name : names) {
    std::optional<FindingCode> code = FindingCodeNamed(name);
    if (!code) {
      throw CLI::ValidationError(
          std::string(flag) + ": unknown finding code '" + name + "'" +
          DidYouMean(name, known) + "; `pstate rules` lists them");
    }
    codes.insert(*code);
  }
  return codes;
}

std::string ReadText(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw CLI::ValidationError(std::string(what) + ": " + path +
                               ": cannot open: " + std::strerror(errno));
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void AddIgnoreFile(const std::string& path, FindingFilter& filter) {
  auto fingerprints = ParseIgnoreFile(ReadText(path, "ignore file"), path);
  if (!fingerprints.ok()) {
    throw CLI::ValidationError(fingerprints.status().message());
  }
  filter.fingerprints.insert(fingerprints->begin(), fingerprints->end());
}

/// --fail-on's value as the lowest failing severity; nullopt for "never".
/// The value was checked by CLI::IsMember when it was parsed.
std::optional<Severity> FailThreshold(std::string_view fail_on) {
  if (fail_on == "never") return std::nullopt;
  for (Severity s : {Severity::kWarning, Severity::kNote}) {
    if (fail_on == SeverityName(s)) return s;
  }
  return Severity::kError;
}

/// Resolves inputs and builds the filters: runs once the line is parsed.
void Resolve(FindingsFlags& flags) {
  std::vector<std::string> files;
  for (const std::string& arg : flags.files) {
    if (arg.empty()) {
      // Not an io-error on a file named "": say what is wrong.
      throw CLI::ValidationError("an empty string is not a file name");
    }
    std::error_code ec;
    if (arg != "-" && fs::is_directory(arg, ec)) {
      std::vector<std::string> found =
          FindStateFiles(arg, flags.include_backups);
      if (found.empty()) {
        throw CLI::ValidationError(
            arg +
            ": no state files in this directory (looked for "
            ".pulumi/stacks/**/*.json, .json.gz, .json.zst" +
            std::string(flags.include_backups ? " and their .bak" : "") + ")");
      }
      files.insert(files.end(), found.begin(), found.end());
    } else {
      files.push_back(arg);
    }
  }
  if (files.empty()) {
    if (IsTerminal(STDIN_FILENO)) {
      throw CLI::ValidationError(
          "no input: give state files or directories, or pipe a state on "
          "standard input (pstate " +
          flags.command + " -)");
    }
    files.push_back("-");
  }
  flags.files = std::move(files);
  // The flag values were checked by CLI::IsMember; from here on only the
  // enums are compared.
  flags.output = report::ParseOutputFormat(flags.format)
                     .value_or(report::OutputFormat::kText);
  flags.fail_threshold = FailThreshold(flags.fail_on);

  auto shared = std::make_shared<FindingFilter>();
  shared->only = ParseCodes(flags.only, "--only");
  shared->skip = ParseCodes(flags.skip, "--skip");
  if (!flags.baseline.empty()) {
    auto fingerprints =
        ParseBaseline(ReadText(flags.baseline, "--baseline"), flags.baseline);
    if (!fingerprints.ok()) {
      throw CLI::ValidationError("--baseline: " +
                                 fingerprints.status().message());
    }
    shared->fingerprints.insert(fingerprints->begin(), fingerprints->end());
  }
  for (const std::string& path : flags.ignore_files) {
    AddIgnoreFile(path, *shared);
  }
  // .pstateignore in the current directory applies to every input; one
  // next to an input applies to the inputs in that directory.
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  if (flags.ignore_files.empty() && fs::exists(".pstateignore", ec)) {
    AddIgnoreFile(".pstateignore", *shared);
  }
  flags.filter = shared;
  for (const std::string& file : flags.files) {
    if (file == "-") continue;
    fs::path dir = fs::path(file).parent_path();
    if (dir.empty()) dir = ".";
    std::string key = dir.string();
    if (flags.filters.count(key) != 0) continue;
    fs::path ignore = dir / ".pstateignore";
    bool same_as_cwd = fs::equivalent(dir, cwd.empty() ? "." : cwd, ec);
    if (flags.ignore_files.empty() && !same_as_cwd && fs::exists(ignore, ec)) {
      auto own = std::make_shared<FindingFilter>(*shared);
      AddIgnoreFile(ignore.string(), *own);
      flags.filters[key] = own;
    } else {
      flags.filters[key] = shared;
    }
  }
  flags.filtering = !shared->empty();
  for (const auto& [dir, f] : flags.filters) flags.filtering |= !f->empty();
  if (flags.filtering) {
    flags.display_max = flags.max_findings;
    flags.max_findings = 0;
  }
}

}  // namespace

std::vector<std::string> FindStateFiles(const std::string& dir,
                                        bool include_backups) {
  std::error_code ec;
  if (IsBackendDirectory(dir)) {
    // Each stack's current checkpoint, as Pulumi picks it (not the copies
    // in history/ and backups/, nor a second compression of the same
    // stack).
    std::vector<std::string> found;
    auto stacks = BackendStacks(dir);
    if (!stacks.ok()) return found;
    for (const BackendStack& stack : *stacks) {
      found.push_back(stack.checkpoint);
      if (include_backups &&
          fs::is_regular_file(stack.checkpoint + ".bak", ec)) {
        found.push_back(stack.checkpoint + ".bak");
      }
    }
    return found;
  }
  fs::path root = fs::path(dir) / ".pulumi" / "stacks";
  if (!fs::is_directory(root, ec)) root = dir;
  std::vector<std::string> found;
  fs::recursive_directory_iterator it(
      root, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    if (IsStateName(it->path().filename().string(), include_backups)) {
      found.push_back(it->path().string());
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::shared_ptr<const FindingFilter> FindingsFlags::FilterFor(
    const std::string& file) const {
  if (file == InputName("-")) return filter;
  std::string dir = fs::path(file).parent_path().string();
  auto it = filters.find(dir.empty() ? "." : dir);
  return it != filters.end() ? it->second : filter;
}

void AddFindingsOptions(CLI::App& app, FindingsFlags& flags) {
  flags.command = app.get_name();
  app.add_option("files", flags.files,
                 "State files (export or checkpoint; plain, gzip or zstd) "
                 "or directories (their .pulumi/stacks/**/*.json{,.gz,.zst}); "
                 "- or nothing, when standard input is not a terminal, "
                 "reads standard input")
      ->type_name("FILE|DIR");
  app.add_option("--format", flags.format,
                 "Output format: text, json (JSON Lines), sarif (GitHub code "
                 "scanning), github (Actions annotations), junit (JUnit XML "
                 "test report) or gitlab (GitLab Code Quality)")
      ->check(
          CLI::IsMember({"text", "json", "sarif", "github", "junit", "gitlab"}))
      ->type_name("FORMAT")
      ->capture_default_str();
  app.add_option("--max-findings", flags.max_findings,
                 "Print at most N findings per file (all are counted); 0 "
                 "prints all")
      ->check(NonNegativeCount())
      ->type_name("N")
      ->capture_default_str();
  AddColorOption(app, &flags.color);
  AddQuietOption(app, &flags.quiet);
  app.add_option("--fail-on", flags.fail_on,
                 "Exit 1 when a counted finding has this severity or a "
                 "higher one: error, warning, note, or never")
      ->check(CLI::IsMember({"error", "warning", "note", "never"}))
      ->type_name("SEVERITY")
      ->capture_default_str();
  app.add_option("--only", flags.only,
                 "Count only findings with this code (repeatable; see "
                 "pstate rules)")
      ->type_name("CODE")
      ->allow_extra_args(false);
  app.add_option("--skip", flags.skip,
                 "Never count findings with this code (repeatable)")
      ->type_name("CODE")
      ->allow_extra_args(false);
  app.add_option("--baseline", flags.baseline,
                 "A previous --format json or sarif report: its findings "
                 "(by fingerprint) are not counted, only new ones are")
      ->type_name("REPORT");
  app.add_option("--ignore-file", flags.ignore_files,
                 "Fingerprints not to count, one per line with # comments "
                 "(repeatable; default: .pstateignore in the current "
                 "directory and next to each state)")
      ->type_name("FILE")
      ->allow_extra_args(false);
  app.add_flag("--include-backups", flags.include_backups,
               "With a directory: also read .bak backups");
  app.parse_complete_callback([&flags] { Resolve(flags); });
}

FindingsPrinter::FindingsPrinter(const FindingsFlags& flags) : flags_(flags) {
  text_.color = UseColor(flags.color, STDOUT_FILENO);
}

void FindingsPrinter::Print(Findings findings) {
  if (flags_.filtering) {
    findings = FilterFindings(findings, *flags_.FilterFor(findings.file),
                              flags_.display_max);
  }
  unreadable_ |= findings.unreadable;
  const FindingCounts& s = findings;
  if (flags_.fail_threshold) {
    Severity t = *flags_.fail_threshold;
    failed_ |= s.errors > 0;
    failed_ |= t != Severity::kError && s.warnings > 0;
    failed_ |= t == Severity::kNote && s.notes > 0;
  }
  ++reports_;
  total_.errors += s.errors;
  total_.warnings += s.warnings;
  total_.notes += s.notes;
  total_.resources += s.resources;
  total_.suppressed += s.suppressed;
  if (total_.by_code.size() < s.by_code.size()) {
    total_.by_code.resize(s.by_code.size());
  }
  for (std::size_t i = 0; i < s.by_code.size(); ++i) {
    total_.by_code[i] += s.by_code[i];
  }
  switch (flags_.output) {
    case report::OutputFormat::kSarif:
    case report::OutputFormat::kJunit:
    case report::OutputFormat::kGitlab:
      documents_.push_back(std::move(findings));
      return;
    case report::OutputFormat::kJson:
      report::RenderJsonLine(findings, std::cout);
      break;
    case report::OutputFormat::kGithub:
      report::RenderGithub(findings, std::cout);
      break;
    case report::OutputFormat::kText:
      report::RenderText(findings, std::cout, text_);
      break;
  }
  std::cout.flush();
}

int FindingsPrinter::Finish() {
  std::vector<const Findings*> views;
  for (const Findings& f : documents_) views.push_back(&f);
  switch (flags_.output) {
    case report::OutputFormat::kSarif: {
      report::SarifOptions options;
      options.tool_version = PSTATE_VERSION;
      options.command = flags_.command;
      report::RenderSarif(views, std::cout, options);
      break;
    }
    case report::OutputFormat::kJunit: {
      report::JunitOptions options;
      options.command = flags_.command;
      options.fail_threshold = flags_.fail_threshold;
      report::RenderJunit(views, std::cout, options);
      break;
    }
    case report::OutputFormat::kGitlab:
      report::RenderGitlab(views, std::cout);
      break;
    case report::OutputFormat::kText:
      if (reports_ > 1) report::RenderTextTotal(reports_, total_, std::cout);
      break;
    case report::OutputFormat::kJson:
    case report::OutputFormat::kGithub: break;
  }
  std::cout.flush();
  if (unreadable_) return kExitUnreadable;
  return failed_ ? kExitFindings : kExitOk;
}

}  // namespace pstate::cli
