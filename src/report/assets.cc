#include "report/assets.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "json/writer.h"
#include "report/terminal.h"

namespace pstate::report {
namespace {

constexpr std::size_t kShortHash = 12;

std::string_view KindName(AssetKind kind) {
  return kind == AssetKind::kAsset ? "asset" : "archive";
}

std::string_view SourceName(AssetSource source) {
  switch (source) {
    case AssetSource::kText: return "text";
    case AssetSource::kPath: return "path";
    case AssetSource::kUri: return "uri";
    case AssetSource::kAssets: return "assets";
    case AssetSource::kNone: return "none";
  }
  return "none";
}

std::string ShortHash(const std::optional<std::string>& hash) {
  if (!hash) return "-";
  if (hash->empty()) return "\"\"";
  return TerminalSafe(hash->substr(0, kShortHash));
}

class TextPrinter : public AssetsRenderer {
 public:
  TextPrinter(std::string file, std::ostream& out)
      : file_(std::move(file)), out_(out) {}

  void Row(const AssetRow& r) override {
    TableRow row;
    row.cells = {TerminalSafe(r.pointer),
                 r.urn.empty() ? "-" : TerminalSafe(r.urn),
                 std::string(KindName(r.kind)),
                 std::string(SourceName(r.source)),
                 ShortHash(r.recorded),
                 ShortHash(r.actual),
                 std::string(AssetStatusName(r.status))};
    if (r.status != AssetStatus::kOk) {
      row.details.push_back("    " + std::string(AssetStatusName(r.status)) +
                            ": " + TerminalSafe(r.message));
    }
    for (const AssetWarning& n : r.warnings) {
      std::string line = "    warning[" + TerminalSafe(n.code) +
                         "]: " + TerminalSafe(n.message);
      if (n.pointer != r.pointer)
        line += " (at " + TerminalSafe(n.pointer) + ")";
      row.details.push_back(std::move(line));
    }
    if (flushed_) {
      Print(row);
    } else {
      pending_.push_back(std::move(row));
      if (pending_.size() >= kTableBatch) Flush();
    }
  }

  void End(const AssetTally& tally,
           const std::optional<ReadFailure>& failure) override {
    if (tally.total() > 0) Flush();
    if (failure) return;  // the reason is on stderr
    out_ << TerminalSafe(file_) << ": " << tally.total()
         << (tally.total() == 1 ? " item: " : " items: ");
    for (std::size_t i = 0; i < tally.by_status.size(); ++i) {
      if (i > 0) out_ << ", ";
      out_ << tally.by_status[i] << ' '
           << AssetStatusName(static_cast<AssetStatus>(i));
    }
    out_ << "; " << tally.warnings
         << (tally.warnings == 1 ? " warning" : " warnings") << '\n';
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
    header.cells = {"POINTER",  "URN",    "KIND",  "SOURCE",
                    "RECORDED", "ACTUAL", "STATUS"};
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
        line.append(widths_[i] > row.cells[i].size()
                        ? widths_[i] - row.cells[i].size()
                        : 0,
                    ' ');
        line += "  ";
      }
    }
    out_ << line << '\n';
    for (const std::string& d : row.details) out_ << d << '\n';
  }

  std::string file_;
  std::ostream& out_;
  std::vector<TableRow> pending_;
  std::vector<std::size_t> widths_;
  bool flushed_ = false;
};

void StringOrNull(json::Writer& w, const std::optional<std::string>& s) {
  if (s) {
    w.String(*s);
  } else {
    w.Null();
  }
}

class JsonPrinter : public AssetsRenderer {
 public:
  JsonPrinter(const std::string& file, std::ostream& out)
      : sink_(&out), w_(sink_, json::Layout::kCompact) {
    w_.BeginObject();
    w_.Name("file");
    w_.String(file);
    w_.Name("assets");
    w_.BeginArray();
  }

  void Row(const AssetRow& r) override {
    w_.BeginObject();
    w_.Name("pointer");
    w_.String(r.pointer);
    w_.Name("urn");
    if (r.urn.empty()) {
      w_.Null();
    } else {
      w_.String(r.urn);
    }
    w_.Name("kind");
    w_.String(KindName(r.kind));
    w_.Name("source");
    w_.String(SourceName(r.source));
    w_.Name("recorded");
    StringOrNull(w_, r.recorded);
    w_.Name("actual");
    StringOrNull(w_, r.actual);
    w_.Name("status");
    w_.String(AssetStatusName(r.status));
    w_.Name("message");
    w_.String(r.message);
    w_.Name("line");
    w_.Uint(r.line);
    w_.Name("column");
    w_.Uint(r.column);
    w_.Name("warnings");
    w_.BeginArray();
    for (const AssetWarning& n : r.warnings) {
      w_.BeginObject();
      w_.Name("code");
      w_.String(n.code);
      w_.Name("pointer");
      w_.String(n.pointer);
      w_.Name("message");
      w_.String(n.message);
      w_.EndObject();
    }
    w_.EndArray();
    w_.EndObject();
  }

  void End(const AssetTally& tally,
           const std::optional<ReadFailure>& failure) override {
    w_.EndArray();
    w_.Name("summary");
    w_.BeginObject();
    w_.Name("items");
    w_.Uint(tally.total());
    for (std::size_t i = 0; i < tally.by_status.size(); ++i) {
      w_.Name(AssetStatusName(static_cast<AssetStatus>(i)));
      w_.Uint(tally.by_status[i]);
    }
    w_.Name("warnings");
    w_.Uint(tally.warnings);
    w_.EndObject();
    if (failure) {
      w_.Name("error");
      w_.BeginObject();
      w_.Name("code");
      w_.String(CodeName(failure->code));
      w_.Name("message");
      w_.String(failure->reason);
      w_.Name("line");
      if (failure->line > 0) {
        w_.Uint(failure->line);
        w_.Name("column");
        w_.Uint(failure->column);
      } else {
        w_.Null();
        w_.Name("column");
        w_.Null();
      }
      w_.EndObject();
    }
    w_.EndObject();
    sink_.Put('\n');
    (void)sink_.Commit();
  }

 private:
  json::StringSink sink_;
  json::Writer w_;
};

}  // namespace

std::unique_ptr<AssetsRenderer> MakeAssetsRenderer(AssetsFormat format,
                                                   std::string file,
                                                   std::ostream& out) {
  if (format == AssetsFormat::kJson) {
    return std::make_unique<JsonPrinter>(file, out);
  }
  return std::make_unique<TextPrinter>(std::move(file), out);
}

}  // namespace pstate::report
