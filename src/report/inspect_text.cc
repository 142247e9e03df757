#include <algorithm>
#include <cstdio>
#include <sstream>
#include <utility>
#include <vector>

#include "diff/resource_diff.h"
#include "report/inspect.h"
#include "report/terminal.h"

namespace pstate::report {
namespace {

using inspect::Flag;
using inspect::Tally;
using inspect::TreeResult;

std::string Flags(const std::vector<Flag>& flags) {
  std::string out;
  for (Flag f : flags) {
    if (!out.empty()) out += ',';
    out += inspect::FlagName(f);
  }
  return out;
}

std::string Dash(const std::string& s) { return s.empty() ? "-" : s; }

bool IsLeafValue(const json::Value& v) {
  return !(v.is_object() || v.is_array()) || v.size == 0;
}

void TreeLines(const json::Value& v, const std::string& indent,
               std::string* out) {
  auto line = [&](const std::string& label, const json::Value& e) {
    if (IsLeafValue(e)) {
      *out += TerminalSafe(indent + label + ": " + diff::DisplayJson(e));
      *out += '\n';
    } else {
      *out += TerminalSafe(indent + label + ":") + "\n";
      TreeLines(e, indent + "    ", out);
    }
  };
  if (v.is_object()) {
    for (const json::Member& m : v.object()) line(m.key.Str(), m.value);
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size; ++i) {
      line("[" + std::to_string(i) + "]", v.array()[i]);
    }
  }
}

std::string NodeLabel(const TreeResult::Node& n) {
  std::string label(n.type);
  label += ' ';
  label += n.name;
  if (n.provider) label += " [provider]";
  if (n.deleted) label += " [delete]";
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

std::string Table(std::string_view title,
                  const std::map<std::string, Tally>& m) {
  std::vector<std::pair<std::string, Tally>> rows(m.begin(), m.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.second.bytes > b.second.bytes;
  });
  std::string out = std::string(title) + "\n";
  char buf[64];
  for (const auto& [name, t] : rows) {
    std::snprintf(buf, sizeof(buf), "  %8llu %12llu  ",
                  static_cast<unsigned long long>(t.count),
                  static_cast<unsigned long long>(t.bytes));
    out += buf + TerminalSafe(name) + "\n";
  }
  return out;
}

}  // namespace

// Fields are made terminal-safe one by one (a tab inside one is escaped);
// the separators are real tabs.
std::string RowText(const inspect::ResourceRow& row) {
  return TerminalSafe(row.urn) + "\t" + TerminalSafe(row.type) + "\t" +
         TerminalSafe(Dash(row.id)) + "\t" + Dash(Flags(row.flags));
}

std::string PendingText(const inspect::PendingRow& row) {
  return TerminalSafe(Dash(row.operation)) + "\t" +
         TerminalSafe(Dash(row.urn)) + "\t" + TerminalSafe(Dash(row.type)) +
         "\t" + TerminalSafe(Dash(row.id));
}

// ---- show -------------------------------------------------------------------

std::string ShowText(const inspect::ShowResult& r) {
  std::string out;
  auto field = [&](std::string_view label, const std::string& value) {
    if (value.empty()) return;
    out += TerminalSafe(std::string(label) + value) + "\n";
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
    out += std::string(title) + "\n";
    for (const std::string& s : v) out += TerminalSafe("    " + s) + "\n";
  };
  list("Dependencies:", r.dependencies);
  if (!r.property_dependencies.empty()) {
    out += "Property dependencies:\n";
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
    out += "Dependents:\n";
    for (const inspect::Dependent& d : r.dependents) {
      out += TerminalSafe("    " + d.urn + " (" + d.via + ")") + "\n";
    }
  }
  if (r.inputs) {
    out += "Inputs:\n";
    TreeLines(r.inputs->root(), "    ", &out);
  }
  if (r.outputs) {
    out += "Outputs:\n";
    TreeLines(r.outputs->root(), "    ", &out);
  }
  return out;
}

// ---- tree -------------------------------------------------------------------

/// How many levels of `tree` text get a guide ("│  ") each.
constexpr std::size_t kMaxGuideDepth = 64;

void WriteTreeText(const TreeResult& tree, std::ostream& stream,
                   std::size_t limit) {
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
      out.buffer() += TerminalSafe(
          (deep ? "[depth " + std::to_string(f.depth) + "] " : prefix) +
          (f.root ? "" : (f.last ? "└─ " : "├─ ")) +
          NodeLabel(tree.node(f.node)));
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

std::string StatsText(const inspect::StatsResult& s) {
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
  line("resources:   ", std::to_string(s.resources.count) + " (" +
                            std::to_string(s.resources.bytes) + " bytes)");
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
  std::uint64_t total = 0;
  for (const auto& [op, n] : s.pending) {
    pending += ", " + op + " " + std::to_string(n);
    total += n;
  }
  line("pending:     ", std::to_string(total) + pending);
  out += "\n" + Table("by package (count, bytes):", s.by_package);
  out += "\n" + Table("by type (count, bytes):", s.by_type);
  out += "\n" + Table("by provider (count, bytes):", s.by_provider);
  if (!s.largest.empty()) {
    out += "\nlargest resources (bytes):\n";
    char buf[32];
    for (const auto& [bytes, urn] : s.largest) {
      std::snprintf(buf, sizeof(buf), "  %12llu  ",
                    static_cast<unsigned long long>(bytes));
      out += buf + TerminalSafe(urn) + "\n";
    }
  }
  return out;
}

}  // namespace pstate::report
