#include "report/assets.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "asset_hash/hasher.h"
#include "diag/codes.h"
#include "json/writer.h"
#include "report/terminal.h"

namespace pstate::report {
namespace {

using assets::ItemResult;
using assets::RowSink;

constexpr std::size_t kShortHash = 12;

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

std::string ShortHash(const std::optional<std::string>& hash) {
  if (!hash) return "-";
  if (hash->empty()) return "\"\"";
  return TerminalSafe(hash->substr(0, kShortHash));
}

class TextPrinter : public RowSink {
 public:
  TextPrinter(std::string file, std::ostream& out)
      : file_(std::move(file)), out_(out) {}

  void Row(ItemResult&& r) override {
    TableRow row;
    row.cells = {TerminalSafe(r.item.pointer),
                 r.item.urn.empty() ? "-" : TerminalSafe(r.item.urn),
                 std::string(KindName(r.item.spec.kind)),
                 std::string(SourceName(r.outcome.source)),
                 ShortHash(r.item.spec.hash),
                 ShortHash(r.outcome.actual),
                 std::string(asset_hash::StatusName(r.outcome.status))};
    if (r.outcome.status != asset_hash::Status::kOk) {
      row.details.push_back(
          "    " + std::string(asset_hash::StatusName(r.outcome.status)) +
          ": " + TerminalSafe(r.outcome.message));
    }
    for (const assets::PlacedNote& n : r.item.notes) {
      std::string line = "    warning[" +
                         std::string(asset_hash::NoteCodeName(n.note.code)) +
                         "]: " + TerminalSafe(n.note.message);
      if (n.pointer != r.item.pointer)
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

  void End(const assets::Tally& tally,
           const std::optional<diag::Failure>& failure) override {
    if (tally.total() > 0) Flush();
    if (failure) return;  // the reason is on stderr
    out_ << TerminalSafe(file_) << ": " << tally.total()
         << (tally.total() == 1 ? " item: " : " items: ");
    for (std::size_t i = 0; i < tally.by_status.size(); ++i) {
      if (i > 0) out_ << ", ";
      out_ << tally.by_status[i] << ' '
           << asset_hash::StatusName(static_cast<asset_hash::Status>(i));
    }
    out_ << "; " << tally.notes << (tally.notes == 1 ? " warning" : " warnings")
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

class JsonPrinter : public RowSink {
 public:
  JsonPrinter(const std::string& file, std::ostream& out)
      : sink_(&out), w_(sink_, json::Layout::kCompact) {
    w_.BeginObject();
    w_.Name("file");
    w_.String(file);
    w_.Name("assets");
    w_.BeginArray();
  }

  void Row(ItemResult&& r) override {
    const assets::FoundItem& item = r.item;
    w_.BeginObject();
    w_.Name("pointer");
    w_.String(item.pointer);
    w_.Name("urn");
    if (item.urn.empty()) {
      w_.Null();
    } else {
      w_.String(item.urn);
    }
    w_.Name("kind");
    w_.String(KindName(item.spec.kind));
    w_.Name("source");
    w_.String(SourceName(r.outcome.source));
    w_.Name("recorded");
    StringOrNull(w_, item.spec.hash);
    w_.Name("actual");
    StringOrNull(w_, r.outcome.actual);
    w_.Name("status");
    w_.String(asset_hash::StatusName(r.outcome.status));
    w_.Name("message");
    w_.String(r.outcome.message);
    w_.Name("line");
    w_.Uint(r.at.line);
    w_.Name("column");
    w_.Uint(r.at.column);
    w_.Name("warnings");
    w_.BeginArray();
    for (const assets::PlacedNote& n : item.notes) {
      w_.BeginObject();
      w_.Name("code");
      w_.String(asset_hash::NoteCodeName(n.note.code));
      w_.Name("pointer");
      w_.String(n.pointer);
      w_.Name("message");
      w_.String(n.note.message);
      w_.EndObject();
    }
    w_.EndArray();
    w_.EndObject();
  }

  void End(const assets::Tally& tally,
           const std::optional<diag::Failure>& failure) override {
    w_.EndArray();
    w_.Name("summary");
    w_.BeginObject();
    w_.Name("items");
    w_.Uint(tally.total());
    for (std::size_t i = 0; i < tally.by_status.size(); ++i) {
      w_.Name(asset_hash::StatusName(static_cast<asset_hash::Status>(i)));
      w_.Uint(tally.by_status[i]);
    }
    w_.Name("warnings");
    w_.Uint(tally.notes);
    w_.EndObject();
    if (failure) {
      w_.Name("error");
      w_.BeginObject();
      w_.Name("code");
      w_.String(diag::Info(failure->code).name);
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

std::unique_ptr<RowSink> MakeAssetsRenderer(report::OutputFormat format,
                                            std::string file,
                                            std::ostream& out) {
  if (format == report::OutputFormat::kJson) {
    return std::make_unique<JsonPrinter>(file, out);
  }
  return std::make_unique<TextPrinter>(std::move(file), out);
}

}  // namespace pstate::report
