// pstate normalize IN [-o OUT | --in-place] [--layout L] [--check]: a state
// in the exact layout Pulumi writes, losing nothing Pulumi would not lose.
#include <iostream>
#include <memory>
#include <string>

#include "cli/command.h"
#include "cli/exit_code.h"
#include "cli/normalize_output.h"
#include "cli/terminal.h"
#include "pstate/normalize/normalize.h"

namespace pstate::cli {
namespace {

struct NormalizeFlags {
  std::string input;
  std::string output = "-";
  bool in_place = false;
  bool check = false;
  std::string layout;
  std::string compress;
  bool pulumi_numbers = false;
  bool drop_unknown = false;
  bool quiet = false;
};

int Fail(const std::string& message) {
  std::cerr << "pstate: error: " << message << "\n";
  return kExitUnreadable;
}

}  // namespace

/// Prints the notes of a normalize or convert run on stderr: duplicates as
/// warnings (data was dropped), the rest as notes; at most the kept ones,
/// then a count of the rest per kind.
void PrintNormalizeNotes(const std::string& file,
                         const std::vector<normalize::Note>& notes,
                         const std::uint64_t counts[4], bool quiet) {
  std::uint64_t shown[4] = {0, 0, 0, 0};
  for (const normalize::Note& n : notes) {
    auto k = static_cast<std::size_t>(n.kind);
    ++shown[k];
    bool warning = n.kind == normalize::NoteKind::kDuplicateKey ||
                   n.kind == normalize::NoteKind::kDropped;
    if (quiet && !warning) continue;
    std::cerr << "pstate: " << (warning ? "warning: " : "note: ") << file;
    if (n.line > 0) std::cerr << ":" << n.line << ":" << n.column;
    if (!n.pointer.empty()) std::cerr << ": " << n.pointer;
    std::cerr << ": " << n.message << "\n";
  }
  for (std::size_t k = 0; k < 4; ++k) {
    if (counts[k] > shown[k] && !quiet) {
      std::cerr << "pstate: note: " << file << ": " << counts[k] - shown[k]
                << " more like the last\n";
    }
  }
}

namespace {

int RunNormalize(const NormalizeFlags& flags) {
  normalize::Config config;
  config.input = flags.input;
  config.output = flags.output;
  config.in_place = flags.in_place;
  config.check = flags.check;
  config.options.pulumi_numbers = flags.pulumi_numbers;
  config.options.drop_unknown = flags.drop_unknown;
  if (!flags.layout.empty()) {
    config.options.layout = normalize::ParseLayout(flags.layout);
    if (!config.options.layout) {
      return Fail(
          "--layout: expected export, diy or diy-state-command, got \"" +
          flags.layout + "\"");
    }
  }
  if (flags.compress == "gzip") {
    config.compression = io::Compression::kGzip;
  } else if (flags.compress == "zstd") {
    config.compression = io::Compression::kZstd;
  } else if (flags.compress == "none") {
    config.compression = io::Compression::kNone;
  } else if (!flags.compress.empty()) {
    return Fail("--compress: expected gzip, zstd or none, got \"" +
                flags.compress + "\"");
  }
  if (!flags.check) config.on_progress = MakeProgress(flags.input, flags.quiet);
  Result<normalize::Outcome> outcome = normalize::Run(config);
  EndProgress();
  if (!outcome.ok()) return Fail(outcome.status().message());
  std::string file = flags.input == "-" ? "<stdin>" : flags.input;
  PrintNormalizeNotes(file, outcome->notes, outcome->counts,
                      flags.quiet || flags.check);
  if (flags.check && !outcome->normalized) {
    std::cerr << "pstate: " << file << ":" << outcome->line << ":"
              << outcome->column;
    if (!outcome->pointer.empty()) std::cerr << ": " << outcome->pointer;
    std::cerr << ": not in normalized form (layout "
              << normalize::LayoutName(outcome->layout)
              << "); this is the first place that differs\n";
    return kExitFindings;
  }
  return kExitOk;
}

}  // namespace

std::function<int()> SetupNormalize(CLI::App& app) {
  auto flags = std::make_shared<NormalizeFlags>();
  app.add_option("input", flags->input,
                 "State to normalize (export or checkpoint; plain, gzip or "
                 "zstd); - reads standard input")
      ->required();
  auto* out = app.add_option("-o,--output", flags->output,
                             "Where to write (default: standard output); a "
                             "name ending in .gz or .zst is compressed");
  app.add_flag("--in-place", flags->in_place,
               "Replace the input atomically, keeping the old file as "
               "IN.bak (as Pulumi's DIY backend does)")
      ->excludes(out);
  app.add_option("--layout", flags->layout,
                 "export (pulumi stack export: 4-space indent), diy (engine "
                 "save: compact) or diy-state-command (compact, HTML-escaped). "
                 "Default: export for exports, diy for checkpoints");
  app.add_flag("--check", flags->check,
               "Write nothing; exit 1 and name the first place that differs "
               "when the input is not in normalized form");
  app.add_option("--compress", flags->compress,
                 "Compress the output: gzip, zstd or none (default: from the "
                 "-o name; --in-place keeps the input's)");
  app.add_flag("--pulumi-numbers", flags->pulumi_numbers,
               "Round every number through float64 as Pulumi does (default: "
               "keep digits Pulumi would lose)");
  app.add_flag("--drop-unknown", flags->drop_unknown,
               "Drop members Pulumi does not define, as Pulumi does (default: "
               "keep them after the known ones)");
  app.add_flag("-q,--quiet", flags->quiet,
               "No progress line and no notes (warnings still print)");
  return [flags] { return RunNormalize(*flags); };
}

}  // namespace pstate::cli
