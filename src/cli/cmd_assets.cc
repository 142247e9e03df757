// pstate assets FILE...: does every asset and archive in the state still
// hash to what the state recorded?
//
// Output is streamed: rows leave as soon as they and every row before them
// are hashed, so memory stays bounded whatever the number of assets. The
// text table aligns its columns on the first kTableBatch rows.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/exit_code.h"
#include "cli/terminal.h"
#include "pstate/asset_hash/hasher.h"
#include "pstate/asset_hash/run_budget.h"
#include "pstate/assets/auditor.h"
#include "pstate/diag/codes.h"
#include "pstate/diag/render.h"
#include "pstate/io/input.h"
#include "pstate/state/reader.h"

namespace pstate::cli {
namespace {

using assets::ItemResult;

constexpr std::size_t kTableBatch = 1000;
constexpr std::size_t kShortHash = 12;

struct AssetsFlags {
  std::vector<std::string> files;
  std::string root = ".";
  std::string format = "text";
  int jobs = DefaultJobs();
  bool quiet = false;
  bool allow_outside_root = false;
  std::uint64_t max_total_bytes = asset_hash::kDefaultMaxTotalBytes;
  std::uint64_t max_total_members = asset_hash::kDefaultMaxTotalMembers;
  std::uint64_t max_total_expanded_bytes = asset_hash::kDefaultMaxTotalExpandedBytes;
};

std::string_view KindName(asset_hash::Kind kind) {
  return kind == asset_hash::Kind::kAsset ? "asset" : "archive";
}

std::string_view SourceName(asset_hash::Source source) {
  switch (source) {
    case asset_hash::Source::kText: return "text";
    case asset_hash::Source::kPath: return "path";
    case asset_hash::Source::kUri: return "uri";
    case asset_hash::Source::kAssets: return "assets";
    case asset_hash::Source::kNone: return "none";
  }
  return "none";
}

/// Control characters in names or paths must not drive the terminal.
std::string Printable(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == '\x7f') c = '?';
  }
  return out;
}

std::string ShortHash(const std::optional<std::string>& hash) {
  if (!hash) return "-";
  if (hash->empty()) return "\"\"";
  return Printable(hash->substr(0, kShortHash));
}

/// Why a file could not be read: its fatal finding.
struct ReadFailure {
  std::string code;
  std::string message;
  std::uint64_t line = 0, column = 0;
};

/// Receives one file's results in state order and prints them.
class Printer {
 public:
  virtual ~Printer() = default;
  virtual void Row(ItemResult&& r) = 0;
  /// After the last row; `failure` when the file could not be read.
  virtual void End(const assets::Tally& tally,
                   const std::optional<ReadFailure>& failure) = 0;
};

class TextPrinter : public Printer {
 public:
  explicit TextPrinter(std::string file) : file_(std::move(file)) {}

  void Row(ItemResult&& r) override {
    TableRow row;
    row.cells = {Printable(r.item.pointer),
                 r.item.urn.empty() ? "-" : Printable(r.item.urn),
                 std::string(KindName(r.item.spec.kind)),
                 std::string(SourceName(r.outcome.source)),
                 ShortHash(r.item.spec.hash),
                 ShortHash(r.outcome.actual),
                 std::string(asset_hash::StatusName(r.outcome.status))};
    if (r.outcome.status != asset_hash::Status::kOk) {
      row.details.push_back("    " + std::string(asset_hash::StatusName(r.outcome.status)) +
                            ": " + Printable(r.outcome.message));
    }
    for (const assets::PlacedNote& n : r.item.notes) {
      std::string line = "    warning[" + n.note.code + "]: " + Printable(n.note.message);
      if (n.pointer != r.item.pointer) line += " (at " + Printable(n.pointer) + ")";
      row.details.push_back(std::move(line));
    }
    if (flushed_) {
      Print(row);
    } else {
      pending_.push_back(std::move(row));
      if (pending_.size() >= kTableBatch) Flush();
    }
  }

  void End(const assets::Tally& tally,
           const std::optional<ReadFailure>& failure) override {
    if (tally.total() > 0) Flush();
    if (failure) return;  // the reason is on stderr
    std::cout << file_ << ": " << tally.total()
              << (tally.total() == 1 ? " item: " : " items: ");
    for (std::size_t i = 0; i < tally.by_status.size(); ++i) {
      if (i > 0) std::cout << ", ";
      std::cout << tally.by_status[i] << ' '
                << asset_hash::StatusName(static_cast<asset_hash::Status>(i));
    }
    std::cout << "; " << tally.notes << (tally.notes == 1 ? " warning" : " warnings")
              << '\n';
  }

 private:
  struct TableRow {
    std::vector<std::string> cells;
    std::vector<std::string> details;
  };

  void Flush() {
    if (flushed_) return;
    flushed_ = true;
    TableRow header;
    header.cells = {"POINTER", "URN", "KIND", "SOURCE", "RECORDED", "ACTUAL", "STATUS"};
    widths_.assign(header.cells.size(), 0);
    Widen(header);
    for (const TableRow& row : pending_) Widen(row);
    Print(header);
    for (const TableRow& row : pending_) Print(row);
    pending_.clear();
  }

  void Widen(const TableRow& row) {
    for (std::size_t i = 0; i < row.cells.size(); ++i) {
      widths_[i] = std::max(widths_[i], row.cells[i].size());
    }
  }

  void Print(const TableRow& row) {
    std::string line;
    for (std::size_t i = 0; i < row.cells.size(); ++i) {
      line += row.cells[i];
      if (i + 1 < row.cells.size()) {
        line.append(widths_[i] > row.cells[i].size() ? widths_[i] - row.cells[i].size() : 0, ' ');
        line += "  ";
      }
    }
    std::cout << line << '\n';
    for (const std::string& d : row.details) std::cout << d << '\n';
  }

  std::string file_;
  std::vector<TableRow> pending_;
  std::vector<std::size_t> widths_;
  bool flushed_ = false;
};

std::string JsonOrNull(const std::optional<std::string>& s) {
  return s ? diag::JsonString(*s) : "null";
}

class JsonPrinter : public Printer {
 public:
  explicit JsonPrinter(const std::string& file) {
    std::cout << "{\"file\":" << diag::JsonString(file) << ",\"assets\":[";
  }

  void Row(ItemResult&& r) override {
    if (!first_) std::cout << ',';
    first_ = false;
    const assets::FoundItem& item = r.item;
    std::cout << "{\"pointer\":" << diag::JsonString(item.pointer)
              << ",\"urn\":"
              << (item.urn.empty() ? std::string("null") : diag::JsonString(item.urn))
              << ",\"kind\":\"" << KindName(item.spec.kind) << "\",\"source\":\""
              << SourceName(r.outcome.source) << "\",\"recorded\":"
              << JsonOrNull(item.spec.hash) << ",\"actual\":"
              << JsonOrNull(r.outcome.actual) << ",\"status\":\""
              << asset_hash::StatusName(r.outcome.status) << "\",\"message\":"
              << diag::JsonString(r.outcome.message) << ",\"line\":" << r.at.line
              << ",\"column\":" << r.at.column << ",\"warnings\":[";
    bool first_note = true;
    for (const assets::PlacedNote& n : item.notes) {
      if (!first_note) std::cout << ',';
      first_note = false;
      std::cout << "{\"code\":" << diag::JsonString(n.note.code)
                << ",\"pointer\":" << diag::JsonString(n.pointer)
                << ",\"message\":" << diag::JsonString(n.note.message) << '}';
    }
    std::cout << "]}";
  }

  void End(const assets::Tally& tally,
           const std::optional<ReadFailure>& failure) override {
    std::cout << "],\"summary\":{\"items\":" << tally.total();
    for (std::size_t i = 0; i < tally.by_status.size(); ++i) {
      std::cout << ",\"" << asset_hash::StatusName(static_cast<asset_hash::Status>(i))
                << "\":" << tally.by_status[i];
    }
    std::cout << ",\"warnings\":" << tally.notes << '}';
    if (failure) {
      std::cout << ",\"error\":{\"code\":" << diag::JsonString(failure->code)
                << ",\"message\":" << diag::JsonString(failure->message)
                << ",\"line\":";
      if (failure->line > 0) {
        std::cout << failure->line << ",\"column\":" << failure->column;
      } else {
        std::cout << "null,\"column\":null";
      }
      std::cout << '}';
    }
    std::cout << "}\n";
  }

 private:
  bool first_ = true;
};

/// The fatal finding of an unreadable input, or the status when the
/// finding was not kept.
ReadFailure FailureOf(const diag::Report& report, const Status& status) {
  for (const diag::Finding& f : report.findings()) {
    if (diag::IsFatal(f.code)) {
      return {std::string(f.code_name()), f.message, f.line, f.column};
    }
  }
  return {"io-error", status.message(), 0, 0};
}

void PrintFailure(const std::string& name, const ReadFailure& failure) {
  std::cerr << name << ':';
  if (failure.line > 0) std::cerr << failure.line << ':' << failure.column << ':';
  std::cerr << " error[" << failure.code << "]: " << Printable(failure.message) << '\n';
}

enum class FileResult { kClean, kFailed, kUnreadable };

FileResult AuditOne(const std::string& path, const AssetsFlags& flags,
                    const std::shared_ptr<asset_hash::RunBudget>& run) {
  const std::string name = path == "-" ? "<stdin>" : path;
  std::unique_ptr<Printer> printer;
  if (flags.format == "json") {
    printer = std::make_unique<JsonPrinter>(name);
  } else {
    printer = std::make_unique<TextPrinter>(name);
  }
  assets::Tally tally;
  auto input = io::OpenInput(path);
  if (!input.ok()) {
    ReadFailure failure{"io-error", input.status().message(), 0, 0};
    printer->End(tally, failure);
    PrintFailure(name, failure);
    return FileResult::kUnreadable;
  }
  asset_hash::Options options;
  options.root = flags.root;
  options.outside_root = flags.allow_outside_root
                             ? asset_hash::OutsideRoot::kReadHashHidden
                             : asset_hash::OutsideRoot::kRefuse;
  options.max_total_bytes = flags.max_total_bytes;
  options.max_total_members = flags.max_total_members;
  options.max_total_expanded_bytes = flags.max_total_expanded_bytes;
  // One run for all files: the totals bound the whole command.
  options.run = run;
  assets::Auditor auditor(options, flags.jobs, [&](ItemResult&& r) {
    tally.Add(r);
    printer->Row(std::move(r));
  });
  if (!auditor.status().ok()) {
    ReadFailure failure{"io-error", auditor.status().message(), 0, 0};
    printer->End(tally, failure);
    PrintFailure(name, failure);
    return FileResult::kUnreadable;
  }
  assets::AuditHandler handler(auditor);
  // The reader adds only the fatal finding of an unreadable input.
  diag::Report report(name);
  state::ReadOptions read_options;
  read_options.on_progress = MakeProgress(name, flags.quiet);
  Status status = state::Read(**input, handler, report, read_options);
  EndProgress();
  auditor.Finish();
  std::optional<ReadFailure> failure;
  if (!status.ok() || report.fatal()) failure = FailureOf(report, status);
  printer->End(tally, failure);
  std::cout.flush();
  if (failure) {
    PrintFailure(name, *failure);
    return FileResult::kUnreadable;
  }
  return tally.failed() ? FileResult::kFailed : FileResult::kClean;
}

int RunAssets(const AssetsFlags& flags) {
  bool unreadable = false, failed = false;
  asset_hash::Options limits;
  limits.root = flags.root;
  limits.max_total_bytes = flags.max_total_bytes;
  limits.max_total_members = flags.max_total_members;
  limits.max_total_expanded_bytes = flags.max_total_expanded_bytes;
  auto run = std::make_shared<asset_hash::RunBudget>(limits);
  for (const std::string& path : flags.files) {
    FileResult r = AuditOne(path, flags, run);
    unreadable |= r == FileResult::kUnreadable;
    failed |= r == FileResult::kFailed;
  }
  if (unreadable) return kExitUnreadable;
  return failed ? kExitFindings : kExitOk;
}

}  // namespace

std::function<int()> SetupAssets(CLI::App& app) {
  auto flags = std::make_shared<AssetsFlags>();
  app.add_option("files", flags->files,
                 "State files (export or checkpoint; plain, gzip or zstd); "
                 "- reads standard input")
      ->required();
  app.add_option("--root", flags->root,
                 "Directory relative asset paths resolve against (Pulumi: "
                 "the program's working directory)")
      ->check(CLI::ExistingDirectory)
      ->capture_default_str();
  app.add_option("--format", flags->format, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  app.add_option("-j,--jobs", flags->jobs,
                 "Hash on N threads (default: the number of processors)")
      ->check(CLI::Range(1, 1024));
  app.add_flag("--allow-outside-root", flags->allow_outside_root,
               "Also read files outside --root (absolute paths, file: URIs, "
               "../ paths, links leading out); their hashes are compared but "
               "never printed");
  app.add_option("--max-total-bytes", flags->max_total_bytes,
                 "Stop hashing after N content bytes in this run (each file "
                 "is hashed once per run)")
      ->check(CLI::Range(std::uint64_t{1}, UINT64_MAX))
      ->capture_default_str();
  app.add_option("--max-total-members", flags->max_total_members,
                 "Stop after N archive members in this run")
      ->check(CLI::Range(std::uint64_t{1}, UINT64_MAX))
      ->capture_default_str();
  app.add_option("--max-total-expanded-bytes", flags->max_total_expanded_bytes,
                 "Stop after N bytes read out of tar, tgz and zip files in "
                 "this run")
      ->check(CLI::Range(std::uint64_t{1}, UINT64_MAX))
      ->capture_default_str();
  app.add_flag("-q,--quiet", flags->quiet, "No progress line on stderr");
  return [flags] { return RunAssets(*flags); };
}

}  // namespace pstate::cli
