#include "pstate/assets/render.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pstate/asset_hash/hasher.h"
#include "pstate/diag/codes.h"
#include "pstate/diag/render.h"

namespace pstate::assets {
namespace {

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
  return Printable(hash->substr(0, kShortHash));
}

class TextPrinter : public RowSink {
 public:
  TextPrinter(std::string file, std::ostream& out)
      : file_(std::move(file)), out_(out) {}

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
      row.details.push_back(
          "    " + std::string(asset_hash::StatusName(r.outcome.status)) +
          ": " + Printable(r.outcome.message));
    }
    for (const assets::PlacedNote& n : r.item.notes) {
      std::string line = "    warning[" +
                         std::string(asset_hash::NoteCodeName(n.note.code)) +
                         "]: " + Printable(n.note.message);
      if (n.pointer != r.item.pointer)
        line += " (at " + Printable(n.pointer) + ")";
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
    out_ << file_ << ": " << tally.total()
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

std::string JsonOrNull(const std::optional<std::string>& s) {
  return s ? diag::JsonString(*s) : "null";
}

class JsonPrinter : public RowSink {
 public:
  JsonPrinter(const std::string& file, std::ostream& out) : out_(out) {
    out_ << "{\"file\":" << diag::JsonString(file) << ",\"assets\":[";
  }

  void Row(ItemResult&& r) override {
    if (!first_) out_ << ',';
    first_ = false;
    const assets::FoundItem& item = r.item;
    out_ << "{\"pointer\":" << diag::JsonString(item.pointer) << ",\"urn\":"
         << (item.urn.empty() ? std::string("null")
                              : diag::JsonString(item.urn))
         << ",\"kind\":\"" << KindName(item.spec.kind) << "\",\"source\":\""
         << SourceName(r.outcome.source)
         << "\",\"recorded\":" << JsonOrNull(item.spec.hash)
         << ",\"actual\":" << JsonOrNull(r.outcome.actual) << ",\"status\":\""
         << asset_hash::StatusName(r.outcome.status)
         << "\",\"message\":" << diag::JsonString(r.outcome.message)
         << ",\"line\":" << r.at.line << ",\"column\":" << r.at.column
         << ",\"warnings\":[";
    bool first_note = true;
    for (const assets::PlacedNote& n : item.notes) {
      if (!first_note) out_ << ',';
      first_note = false;
      out_ << "{\"code\":\"" << asset_hash::NoteCodeName(n.note.code) << '"'
           << ",\"pointer\":" << diag::JsonString(n.pointer)
           << ",\"message\":" << diag::JsonString(n.note.message) << '}';
    }
    out_ << "]}";
  }

  void End(const assets::Tally& tally,
           const std::optional<diag::Failure>& failure) override {
    out_ << "],\"summary\":{\"items\":" << tally.total();
    for (std::size_t i = 0; i < tally.by_status.size(); ++i) {
      out_ << ",\""
           << asset_hash::StatusName(static_cast<asset_hash::Status>(i))
           << "\":" << tally.by_status[i];
    }
    out_ << ",\"warnings\":" << tally.notes << '}';
    if (failure) {
      out_ << ",\"error\":{\"code\":\"" << diag::Info(failure->code).name
           << "\",\"message\":" << diag::JsonString(failure->reason)
           << ",\"line\":";
      if (failure->line > 0) {
        out_ << failure->line << ",\"column\":" << failure->column;
      } else {
        out_ << "null,\"column\":null";
      }
      out_ << '}';
    }
    out_ << "}\n";
  }

 private:
  std::ostream& out_;
  bool first_ = true;
};

}  // namespace

std::string Printable(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == '\x7f') c = '?';
  }
  return out;
}

std::unique_ptr<RowSink> MakeRenderer(diag::OutputFormat format,
                                      std::string file, std::ostream& out) {
  if (format == diag::OutputFormat::kJson) {
    return std::make_unique<JsonPrinter>(file, out);
  }
  return std::make_unique<TextPrinter>(std::move(file), out);
}

}  // namespace pstate::assets
