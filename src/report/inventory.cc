#include "report/inventory.h"

#include <cstdint>
#include <vector>

#include "inventory/inventory.h"
#include "json/writer.h"
#include "report/inspect.h"
#include "report/terminal.h"

namespace pstate::report {
namespace {

using Figures = InventoryFigures;

/// The one list of stats' per-stack figures: CSV and JSON name, text
/// heading, member, and whether it counts bytes (HumanBytes in text).
struct FigureColumn {
  std::string_view name;
  std::string_view heading;
  std::uint64_t Figures::*member;
  bool bytes;
};

constexpr FigureColumn kFigureColumns[] = {
    {"resources", "RESOURCES", &Figures::resources, false},
    {"types", "TYPES", &Figures::types, false},
    {"bytes", "SIZE", &Figures::bytes, true},
    {"file_bytes", "FILE", &Figures::checkpoint_bytes, true},
    {"secrets", "SECRETS", &Figures::secrets, false},
    {"assets", "ASSETS", &Figures::assets, false},
    {"pending", "PENDING", &Figures::pending, false},
    {"protected", "PROTECTED", &Figures::protect, false},
};

void FiguresJson(const Figures& f, json::Writer& w) {
  for (const FigureColumn& c : kFigureColumns) {
    w.Name(c.name);
    w.Uint(f.*c.member);
  }
}

void StatsCsvHeader(CsvWriter& csv) {
  csv.Field("stack").Field("file");
  for (const FigureColumn& c : kFigureColumns) csv.Field(c.name);
  csv.EndRecord();
}

void StatsCsvRecord(CsvWriter& csv, std::string_view stack,
                    std::string_view file, const Figures& f) {
  csv.Field(stack).Field(file);
  for (const FigureColumn& c : kFigureColumns) csv.Field(f.*c.member);
  csv.EndRecord();
}

}  // namespace

void LsCsvHeader(CsvWriter& csv, bool pending, bool stack_column) {
  if (stack_column) csv.Field("stack");
  if (pending) {
    csv.Field("index")
        .Field("operation")
        .Field("urn")
        .Field("type")
        .Field("id");
  } else {
    csv.Field("index")
        .Field("urn")
        .Field("type")
        .Field("name")
        .Field("id")
        .Field("parent")
        .Field("provider")
        .Field("custom")
        .Field("flags")
        .Field("bytes");
  }
  csv.EndRecord();
}

void RowCsv(CsvWriter& csv, const ResourceRow& row, const std::string* stack) {
  if (stack != nullptr) csv.Field(*stack);
  csv.Field(row.index)
      .Field(row.urn)
      .Field(row.type)
      .Field(row.name)
      .Field(row.id)
      .Field(row.parent)
      .Field(row.provider)
      .Field(row.custom ? "true" : "false")
      .Field(FlagsText(row.flags))
      .Field(row.bytes);
  csv.EndRecord();
}

void PendingCsv(CsvWriter& csv, const PendingRow& row,
                const std::string* stack) {
  if (stack != nullptr) csv.Field(*stack);
  csv.Field(row.index)
      .Field(row.operation)
      .Field(row.urn)
      .Field(row.type)
      .Field(row.id);
  csv.EndRecord();
}

void RenderBackendStatsText(const InventoryStatsResult& stats, bool exact_bytes,
                            std::ostream& out) {
  auto cells = [&](std::string label, const Figures& f) {
    std::vector<std::string> row{std::move(label)};
    for (const FigureColumn& c : kFigureColumns) {
      std::uint64_t n = f.*c.member;
      row.push_back(c.bytes && !exact_bytes ? HumanBytes(n)
                                            : std::to_string(n));
    }
    return row;
  };
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> heading{"STACK"};
  for (const FigureColumn& c : kFigureColumns) {
    heading.emplace_back(c.heading);
  }
  rows.push_back(std::move(heading));
  for (const InventoryStackStats& s : stats.stacks) {
    rows.push_back(cells(inventory::StackLabel(s.stack), s.figures));
  }
  rows.push_back(cells("total", stats.total));
  Table(rows, out);
  out << stats.stacks.size()
      << (stats.stacks.size() == 1 ? " stack" : " stacks") << ", "
      << stats.total.resources << " resources of " << stats.total.types
      << " types\n";
}

void RenderBackendStatsJson(const InventoryStatsResult& stats,
                            std::ostream& out) {
  json::StringSink sink(&out);
  json::Writer w(sink, json::Layout::kCompact);
  w.BeginObject();
  w.Name("stacks");
  w.BeginArray();
  for (const InventoryStackStats& s : stats.stacks) {
    w.BeginObject();
    w.Name("stack");
    w.String(inventory::StackLabel(s.stack));
    w.Name("file");
    w.String(s.stack.checkpoint);
    FiguresJson(s.figures, w);
    w.EndObject();
  }
  w.EndArray();
  w.Name("total");
  w.BeginObject();
  w.Name("stacks");
  w.Uint(stats.stacks.size());
  FiguresJson(stats.total, w);
  w.Name("by_type");
  TallyMapJson(stats.by_type, w);
  w.EndObject();
  w.EndObject();
  sink.Put('\n');
  (void)sink.Commit();
}

void RenderBackendStatsCsv(const InventoryStatsResult& stats,
                           std::ostream& out) {
  CsvWriter csv(out);
  StatsCsvHeader(csv);
  for (const InventoryStackStats& s : stats.stacks) {
    StatsCsvRecord(csv, inventory::StackLabel(s.stack), s.stack.checkpoint,
                   s.figures);
  }
  StatsCsvRecord(csv, "(total)", "", stats.total);
}

void RenderStatsCsv(const InventoryFigures& figures, std::string_view path,
                    std::ostream& out) {
  CsvWriter csv(out);
  StatsCsvHeader(csv);
  StatsCsvRecord(csv, "", path, figures);
}

}  // namespace pstate::report
