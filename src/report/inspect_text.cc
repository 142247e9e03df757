#include <algorithm>
#include <cstdio>
#include <sstream>
#include <utility>
#include <vector>

#include "json/string_codec.h"
#include "report/color.h"
#include "report/inspect.h"
#include "report/terminal.h"
#include "report/value.h"

namespace pstate::report {
namespace {

std::string Flags(const std::vector<ResourceFlag>& flags) {
  std::string out;
  for (ResourceFlag f : flags) {
    if (!out.empty()) out += ',';
    out += inspect::FlagName(f);
  }
  return out;
}

std::string Dash(const std::string& s) { return s.empty() ? "-" : s; }

/// A shown secret is displayed as its value.
const diff::Value& Unwrapped(const diff::Value& v) {
  const diff::Value* at = &v;
  while (at->kind == diff::ValueKind::kSecret && !at->hidden()) {
    at = &at->elements.front();
  }
  return *at;
}

bool IsLeafValue(const diff::Value& v) {
  return v.kind == diff::ValueKind::kArray    ? v.elements.empty()
         : v.kind == diff::ValueKind::kObject ? v.members.empty()
                                              : true;
}

/// Show's inputs and outputs, one line per leaf, nested values indented.
struct TreeLineStyle {
  bool color = false;
  std::size_t max_value_width = 0;
};

void TreeLines(const diff::Value& value, const std::string& indent,
               const TreeLineStyle& style, std::string* out) {
  auto line = [&](const std::string& label, const diff::Value& shown) {
    const diff::Value& e = Unwrapped(shown);
    if (IsLeafValue(e)) {
      *out += TerminalSafe(indent + label + ": ");
      *out += sgr::Paint(
          TerminalSafe(Shorten(CompactJson(e), style.max_value_width)),
          sgr::kYellow, style.color && e.hidden());
      *out += '\n';
    } else {
      *out += TerminalSafe(indent + label + ":") + "\n";
      TreeLines(e, indent + "    ", style, out);
    }
  };
  const diff::Value& v = Unwrapped(value);
  if (v.kind == diff::ValueKind::kObject) {
    for (const ValueMember& m : v.members) line(json::Unescape(m.key), m.value);
  } else if (v.kind == diff::ValueKind::kArray) {
    for (std::size_t i = 0; i < v.elements.size(); ++i) {
      line("[" + std::to_string(i) + "]", v.elements[i]);
    }
  }
}

std::string NodeLabel(const TreeNode& n, bool color) {
  std::string label = TerminalSafe(n.type);
  label += ' ';
  label += TerminalSafe(n.name);
  if (n.provider) label += " " + sgr::Paint("[provider]", sgr::kCyan, color);
  if (n.deleted) label += " " + sgr::Paint("[delete]", sgr::kRed, color);
  return label;
}

/// Collects output and hands it to `out` in 64 KiB pieces.
class Chunked {
 public:
  explicit Chunked(std::ostream& out) : out_(out) {}
  ~Chunked() { Flush(); }
  std::string& buffer() { return buffer_; }
  void MaybeFlush() {
    if (buffer_.size() >= (std::size_t{1} << 16)) Flush();
  }
  void Flush() {
    out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    buffer_.clear();
  }

 private:
  std::ostream& out_;
  std::string buffer_;
};

std::string Size(std::uint64_t bytes, bool exact) {
  return exact ? std::to_string(bytes) : HumanBytes(bytes);
}

/// "12.5%" of `total` (one decimal; "-" for an empty total).
std::string Percent(std::uint64_t part, std::uint64_t total) {
  if (total == 0) return "-";
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%.1f%%",
                static_cast<double>(part) * 100.0 / static_cast<double>(total));
  return buf;
}

/// "inputs 1.2 KiB (40.0%), outputs ..." adding up to `s.total()`.
std::string SectionsLine(const StatsSections& s, bool exact) {
  const std::uint64_t total = s.total();
  auto part = [&](std::string_view name, std::uint64_t n) {
    return std::string(name) + " " + Size(n, exact) + " (" + Percent(n, total) +
           ")";
  };
  return part("inputs", s.inputs) + ", " + part("outputs", s.outputs) + ", " +
         part("dependencies", s.dependencies) + ", " +
         part("propertyDependencies", s.property_dependencies) + ", " +
         part("other", s.other);
}

/// Rows by bytes, largest first: count, size, share of `total`, name; with
/// `sizes`, each type's sections and largest properties under it.
std::string Table(std::string_view title, const std::map<std::string, Tally>& m,
                  std::uint64_t total, const StatsOptions& options,
                  bool types = false) {
  std::vector<std::pair<std::string, Tally>> rows(m.begin(), m.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.second.bytes > b.second.bytes;
  });
  std::string out = std::string(title) + "\n";
  char buf[96];
  for (const auto& [name, t] : rows) {
    std::snprintf(buf, sizeof(buf), "  %8llu %12s %7s  ",
                  static_cast<unsigned long long>(t.count),
                  Size(t.bytes, options.exact_bytes).c_str(),
                  Percent(t.bytes, total).c_str());
    out += buf + TerminalSafe(name) + "\n";
    if (!types || options.sizes == nullptr) continue;
    auto sec = options.sizes->by_type.find(name);
    if (sec != options.sizes->by_type.end()) {
      out +=
          "      sections: " + SectionsLine(sec->second, options.exact_bytes) +
          "\n";
    }
    auto top = options.sizes->top_properties.find(name);
    if (top != options.sizes->top_properties.end() && !top->second.empty()) {
      std::string line;
      for (const auto& [bytes, property] : top->second) {
        line += (line.empty() ? "" : ", ") + TerminalSafe(property) + " " +
                Size(bytes, options.exact_bytes);
      }
      out += "      largest properties: " + line + "\n";
    }
  }
  return out;
}

}  // namespace

// Fields are made terminal-safe one by one (a tab inside one is escaped);
// the separators are real tabs.
std::string FlagsText(const std::vector<ResourceFlag>& flags) {
  return Flags(flags);
}

std::string RowText(const ResourceRow& row, bool color) {
  auto column = [&](const std::string& s, std::string_view code) {
    return s.empty()
               ? sgr::Paint("-", sgr::kDim, color)
               : sgr::Paint(TerminalSafe(s), code, color && !code.empty());
  };
  return TerminalSafe(row.urn) + "\t" + TerminalSafe(row.type) + "\t" +
         column(row.id, {}) + "\t" + column(Flags(row.flags), sgr::kYellow);
}

std::string PendingText(const PendingRow& row) {
  return TerminalSafe(Dash(row.operation)) + "\t" +
         TerminalSafe(Dash(row.urn)) + "\t" + TerminalSafe(Dash(row.type)) +
         "\t" + TerminalSafe(Dash(row.id));
}

// ---- show -------------------------------------------------------------------

std::string ShowText(const ShowResult& r, const ShowTextOptions& options) {
  std::string out;
  // A label and its padding: "URN:       " (the padding is not bold).
  auto label = [&](std::string_view text) {
    std::size_t colon = text.find(':') + 1;
    return sgr::Paint(text.substr(0, colon), sgr::kBold, options.color) +
           std::string(text.substr(colon));
  };
  auto field = [&](std::string_view name, const std::string& value) {
    if (value.empty()) return;
    out += label(name) + TerminalSafe(value) + "\n";
  };
  field("URN:       ", r.row.urn);
  field("Type:      ", r.row.type);
  field("ID:        ", r.row.id);
  field("Index:     ", std::to_string(r.row.index));
  field("Custom:    ", r.row.custom ? "true" : "false");
  field("Parent:    ", r.row.parent);
  field("Provider:  ", r.row.provider);
  field("Flags:     ", Flags(r.row.flags));
  if (r.copies > 1) {
    field("Copies:    ",
          std::to_string(r.copies) + " resources share this URN");
  }
  field("Bytes:     ", std::to_string(r.row.bytes));
  auto list = [&](std::string_view title, const std::vector<std::string>& v) {
    if (v.empty()) return;
    out += label(title) + "\n";
    for (const std::string& s : v) out += TerminalSafe("    " + s) + "\n";
  };
  list("Dependencies:", r.dependencies);
  if (!r.property_dependencies.empty()) {
    out += label("Property dependencies:") + "\n";
    for (const auto& [key, urns] : r.property_dependencies) {
      out += TerminalSafe("    " + key + ":") + "\n";
      for (const std::string& s : urns) {
        out += TerminalSafe("        " + s) + "\n";
      }
    }
  }
  field("Deleted with: ", r.deleted_with);
  list("Replace with:", r.replace_with);
  if (!r.dependents.empty()) {
    out += label("Dependents:") + "\n";
    for (const Dependent& d : r.dependents) {
      out += TerminalSafe("    " + d.urn + " (" + d.via + ")") + "\n";
    }
  }
  const TreeLineStyle style{options.color, options.max_value_width};
  if (r.inputs) {
    out += label("Inputs:") + "\n";
    TreeLines(*r.inputs, "    ", style, &out);
  }
  if (r.outputs) {
    out += label("Outputs:") + "\n";
    TreeLines(*r.outputs, "    ", style, &out);
  }
  return out;
}

// ---- tree -------------------------------------------------------------------

/// How many levels of `tree` text get a guide ("│  ") each.
constexpr std::size_t kMaxGuideDepth = 64;

void WriteTreeText(const TreeResult& tree, std::ostream& stream,
                   std::size_t limit, bool color) {
  Chunked out(stream);
  std::vector<bool> printed(tree.size(), false);
  std::size_t shown = 0;
  // Depth first with an explicit stack. `prefix` holds the guide of the
  // current path; a frame remembers how much of it is its own. The guide
  // stops growing past kMaxGuideDepth levels: a deeper line starts with
  // "[depth N]" instead, so every line is bounded and the output stays
  // linear in the number of resources however deep the parent chain is.
  struct Frame {
    std::uint32_t node;
    std::size_t prefix_size;
    std::size_t depth;
    bool last, root;
  };
  std::string prefix;
  std::vector<Frame> stack;
  for (std::uint32_t r : tree.roots()) {
    if (limit > 0 && shown == limit) break;
    stack.push_back({r, 0, 0, true, true});
    while (!stack.empty()) {
      Frame f = stack.back();
      stack.pop_back();
      if (printed[f.node]) continue;
      if (limit > 0 && shown == limit) break;
      printed[f.node] = true;
      ++shown;
      prefix.resize(f.prefix_size);
      const bool deep = f.depth > kMaxGuideDepth;
      out.buffer() += sgr::Paint(
          (deep ? "[depth " + std::to_string(f.depth) + "] " : prefix) +
              (f.root ? "" : (f.last ? "└─ " : "├─ ")),
          sgr::kDim, color);
      out.buffer() += NodeLabel(tree.node(f.node), color);
      out.buffer() += '\n';
      out.MaybeFlush();
      if (!f.root && f.depth < kMaxGuideDepth) {
        prefix += f.last ? "   " : "│  ";
      }
      auto children = tree.children(f.node);
      for (std::size_t i = children.size(); i-- > 0;) {
        stack.push_back({children[i], prefix.size(), f.depth + 1,
                         i + 1 == children.size(), false});
      }
    }
  }
  // Every resource is printed once when none is left out (one member of
  // each parent cycle is a root).
  if (shown < tree.size()) {
    std::size_t omitted = tree.size() - shown;
    out.buffer() += "... " + std::to_string(omitted) + " more resource" +
                    (omitted == 1 ? "" : "s") + " not shown (--limit " +
                    std::to_string(limit) + ")\n";
  }
}

std::string TreeText(const TreeResult& tree) {
  std::ostringstream out;
  WriteTreeText(tree, out);
  return out.str();
}

// ---- stats ------------------------------------------------------------------

std::string HumanBytes(std::uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " B";
  const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes) / 1024.0;
  std::size_t u = 0;
  while (v >= 1024.0 && u + 1 < std::size(units)) {
    v /= 1024.0;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f %s", v, units[u]);
  return buf;
}

std::string StatsText(const StatsResult& s, const StatsOptions& options) {
  const bool exact = options.exact_bytes;
  std::string out;
  auto line = [&](std::string_view label, const std::string& value) {
    out += std::string(label) + TerminalSafe(value) + "\n";
  };
  line("envelope:    ", s.envelope);
  line("version:     ", s.version ? std::to_string(*s.version) : "-");
  std::string features;
  for (const std::string& f : s.features) {
    features += (features.empty() ? "" : ", ") + f;
  }
  line("features:    ", features.empty() ? "-" : features);
  line("resources:   ",
       std::to_string(s.resources.count) + " (" +
           (exact ? std::to_string(s.resources.bytes) + " bytes"
                  : HumanBytes(s.resources.bytes)) +
           ")");
  if (const StatsSizes* z = options.sizes) {
    line("sections:    ", SectionsLine(z->sections, exact));
    // Shares of the resources' bytes held inside inputs and outputs.
    const std::uint64_t total = s.resources.bytes;
    line("inside:      ",
         "secrets " + Size(z->secret_bytes, exact) + " (" +
             Percent(z->secret_bytes, total) + "), assets and archives " +
             Size(z->asset_bytes, exact) + " (" +
             Percent(z->asset_bytes, total) + "), __ properties " +
             Size(z->internal_bytes, exact) + " (" +
             Percent(z->internal_bytes, total) + ")");
  }
  line("stacks:      ", std::to_string(s.stacks));
  line("projects:    ", std::to_string(s.projects));
  std::string flags;
  for (const auto& [name, n] : s.flags) {
    flags += (flags.empty() ? "" : ", ") + name + " " + std::to_string(n);
  }
  line("flags:       ", flags);
  line("secrets:     ",
       std::to_string(s.secrets) + " (provider " + s.secrets_provider + ")");
  line("assets:      ",
       std::to_string(s.assets) + ", archives " + std::to_string(s.archives));
  std::string pending;
  std::uint64_t pending_total = 0;
  for (const auto& [op, n] : s.pending) {
    pending += ", " + op + " " + std::to_string(n);
    pending_total += n;
  }
  line("pending:     ", std::to_string(pending_total) + pending);
  const std::uint64_t total = s.resources.bytes;
  const char* unit = exact ? "bytes" : "size";
  out += "\n" + Table(std::string("by package (count, ") + unit + ", share):",
                      s.by_package, total, options);
  out += "\n" +
         Table(std::string("by type (count, ") + unit + ", share):", s.by_type,
               total, options, true);
  out += "\n" + Table(std::string("by provider (count, ") + unit + ", share):",
                      s.by_provider, total, options);
  if (!s.largest.empty()) {
    out += std::string("\nlargest resources (") + unit + ", share):\n";
    char buf[64];
    for (const auto& [bytes, urn] : s.largest) {
      std::snprintf(buf, sizeof(buf), "  %12s %7s  ",
                    Size(bytes, exact).c_str(), Percent(bytes, total).c_str());
      out += buf + TerminalSafe(urn) + "\n";
    }
  }
  return out;
}

std::string StatsGrowthText(const StatsSide& before, const StatsSide& after,
                            bool exact) {
  auto signed_size = [&](std::uint64_t a, std::uint64_t b) {
    return (b >= a ? "+" : "-") + Size(b >= a ? b - a : a - b, exact);
  };
  auto change = [&](std::uint64_t a, std::uint64_t b) {
    std::string s =
        Size(a, exact) + " -> " + Size(b, exact) + " (" + signed_size(a, b);
    if (a > 0) {
      char buf[24];
      std::snprintf(buf, sizeof(buf), ", %+.1f%%",
                    (static_cast<double>(b) - static_cast<double>(a)) * 100.0 /
                        static_cast<double>(a));
      s += buf;
    }
    return s + ")";
  };
  const StatsResult& a = *before.stats;
  const StatsResult& b = *after.stats;
  std::string out = "resources:   " + std::to_string(a.resources.count) +
                    " -> " + std::to_string(b.resources.count) + ", " +
                    change(a.resources.bytes, b.resources.bytes) + "\n";
  if (before.sizes != nullptr && after.sizes != nullptr) {
    const StatsSections& x = before.sizes->sections;
    const StatsSections& y = after.sizes->sections;
    out += "sections:\n";
    out += "  inputs                " + change(x.inputs, y.inputs) + "\n";
    out += "  outputs               " + change(x.outputs, y.outputs) + "\n";
    out += "  dependencies          " + change(x.dependencies, y.dependencies) +
           "\n";
    out += "  propertyDependencies  " +
           change(x.property_dependencies, y.property_dependencies) + "\n";
    out += "  other                 " + change(x.other, y.other) + "\n";
  }
  // Every type of either side, by how much it grew (largest growth first,
  // shrinking last); unchanged types are left out.
  struct Row {
    std::string type;
    Tally a, b;
    std::int64_t delta() const {
      return static_cast<std::int64_t>(b.bytes) -
             static_cast<std::int64_t>(a.bytes);
    }
  };
  std::vector<Row> rows;
  for (const auto& [type, t] : a.by_type) {
    auto it = b.by_type.find(type);
    rows.push_back({type, t, it != b.by_type.end() ? it->second : Tally{}});
  }
  for (const auto& [type, t] : b.by_type) {
    if (!a.by_type.count(type)) rows.push_back({type, Tally{}, t});
  }
  std::erase_if(rows, [](const Row& r) {
    return r.a.bytes == r.b.bytes && r.a.count == r.b.count;
  });
  std::stable_sort(rows.begin(), rows.end(), [](const Row& l, const Row& r) {
    return l.delta() > r.delta();
  });
  out += "\nby type (count, size):\n";
  if (rows.empty()) out += "  (no type changed)\n";
  for (const Row& r : rows) {
    out += "  " + std::to_string(r.a.count) + " -> " +
           std::to_string(r.b.count) + "  " + change(r.a.bytes, r.b.bytes) +
           "  " + TerminalSafe(r.type) + "\n";
  }
  return out;
}

}  // namespace pstate::report
