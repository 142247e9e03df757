#include <sstream>
#include <utility>
#include <vector>

#include "json/writer.h"
#include "report/inspect.h"
#include "report/value.h"

namespace pstate::report {
namespace {

/// One JSON value written to a string: the row and result renderers return
/// strings.
class JsonText {
 public:
  JsonText() : sink_(&text_), w_(sink_, json::Layout::kCompact) {}
  json::Writer& w() { return w_; }
  /// The text, with a newline when `newline`.
  std::string Take(bool newline) {
    if (newline) sink_.Put('\n');
    (void)sink_.Commit();
    return std::move(text_);
  }

 private:
  std::string text_;
  json::StringSink sink_;
  json::Writer w_;
};

void FlagsJson(const std::vector<ResourceFlag>& flags, json::Writer& w) {
  w.BeginArray();
  for (ResourceFlag f : flags) w.String(inspect::FlagName(f));
  w.EndArray();
}

void StringsJson(const std::vector<std::string>& v, json::Writer& w) {
  w.BeginArray();
  for (const std::string& s : v) w.String(s);
  w.EndArray();
}

void OptionalString(json::Writer& w, std::string_view name,
                    const std::string& value) {
  if (value.empty()) return;
  w.Name(name);
  w.String(value);
}

void CountMapJson(const std::map<std::string, std::uint64_t>& m,
                  json::Writer& w) {
  w.BeginObject();
  for (const auto& [name, n] : m) {
    w.Name(name);
    w.Uint(n);
  }
  w.EndObject();
}

}  // namespace

void TallyMapJson(const std::map<std::string, Tally>& m, json::Writer& w) {
  w.BeginObject();
  for (const auto& [name, t] : m) {
    w.Name(name);
    w.BeginObject();
    w.Name("count");
    w.Uint(t.count);
    w.Name("bytes");
    w.Uint(t.bytes);
    w.EndObject();
  }
  w.EndObject();
}

std::string RowJson(const ResourceRow& row, std::string_view stack) {
  JsonText out;
  json::Writer& w = out.w();
  w.BeginObject();
  if (!stack.empty()) {
    w.Name("stack");
    w.String(stack);
  }
  w.Name("index");
  w.Uint(row.index);
  w.Name("urn");
  w.String(row.urn);
  w.Name("type");
  w.String(row.type);
  w.Name("name");
  w.String(row.name);
  OptionalString(w, "id", row.id);
  OptionalString(w, "parent", row.parent);
  OptionalString(w, "provider", row.provider);
  w.Name("custom");
  w.Bool(row.custom);
  w.Name("flags");
  FlagsJson(row.flags, w);
  w.Name("bytes");
  w.Uint(row.bytes);
  w.EndObject();
  return out.Take(false);
}

std::string PendingJson(const PendingRow& row, std::string_view stack) {
  JsonText out;
  json::Writer& w = out.w();
  w.BeginObject();
  if (!stack.empty()) {
    w.Name("stack");
    w.String(stack);
  }
  w.Name("index");
  w.Uint(row.index);
  w.Name("operation");
  w.String(row.operation);
  w.Name("urn");
  w.String(row.urn);
  w.Name("type");
  w.String(row.type);
  OptionalString(w, "id", row.id);
  w.EndObject();
  return out.Take(false);
}

std::string ShowJson(const ShowResult& r) {
  JsonText out;
  json::Writer& w = out.w();
  w.BeginObject();
  w.Name("urn");
  w.String(r.row.urn);
  w.Name("type");
  w.String(r.row.type);
  OptionalString(w, "id", r.row.id);
  w.Name("index");
  w.Uint(r.row.index);
  w.Name("custom");
  w.Bool(r.row.custom);
  OptionalString(w, "parent", r.row.parent);
  OptionalString(w, "provider", r.row.provider);
  w.Name("flags");
  FlagsJson(r.row.flags, w);
  w.Name("copies");
  w.Uint(r.copies);
  w.Name("bytes");
  w.Uint(r.row.bytes);
  w.Name("dependencies");
  StringsJson(r.dependencies, w);
  w.Name("propertyDependencies");
  w.BeginObject();
  for (const auto& [key, urns] : r.property_dependencies) {
    w.Name(key);
    StringsJson(urns, w);
  }
  w.EndObject();
  OptionalString(w, "deletedWith", r.deleted_with);
  if (!r.replace_with.empty()) {
    w.Name("replaceWith");
    StringsJson(r.replace_with, w);
  }
  w.Name("dependents");
  w.BeginArray();
  for (const Dependent& d : r.dependents) {
    w.BeginObject();
    w.Name("urn");
    w.String(d.urn);
    w.Name("via");
    w.String(d.via);
    w.EndObject();
  }
  w.EndArray();
  w.Name("inputs");
  if (r.inputs) {
    WriteValue(*r.inputs, w);
  } else {
    w.BeginObject();
    w.EndObject();
  }
  w.Name("outputs");
  if (r.outputs) {
    WriteValue(*r.outputs, w);
  } else {
    w.BeginObject();
    w.EndObject();
  }
  w.EndObject();
  return out.Take(true);
}

void WriteTreeJson(const TreeResult& tree, std::ostream& stream,
                   std::size_t limit) {
  // The sink hands the output to `stream` in 64 KiB pieces.
  json::StringSink sink(&stream);
  json::Writer w(sink, json::Layout::kCompact);
  std::vector<bool> printed(tree.size(), false);
  std::size_t shown = 0;
  struct Frame {
    std::uint32_t node;
    std::uint32_t next_child = 0;
  };
  auto open = [&](std::uint32_t n) {
    printed[n] = true;
    ++shown;
    TreeNode node = tree.node(n);
    w.BeginObject();
    w.Name("urn");
    w.String(node.urn());
    w.Name("type");
    w.String(node.type);
    w.Name("name");
    w.String(node.name);
    if (node.provider) {
      w.Name("provider");
      w.Bool(true);
    }
    if (node.deleted) {
      w.Name("delete");
      w.Bool(true);
    }
    w.Name("children");
    w.BeginArray();
  };
  w.BeginObject();
  w.Name("resources");
  w.BeginArray();
  std::vector<Frame> stack;
  for (std::uint32_t r : tree.roots()) {
    if (printed[r]) continue;
    if (limit > 0 && shown == limit) break;
    open(r);
    stack.push_back({r});
    while (!stack.empty()) {
      Frame& f = stack.back();
      auto children = tree.children(f.node);
      while (f.next_child < children.size() &&
             printed[children[f.next_child]]) {
        ++f.next_child;
      }
      if (f.next_child == children.size() || (limit > 0 && shown == limit)) {
        w.EndArray();
        w.EndObject();
        stack.pop_back();
        continue;
      }
      std::uint32_t c = children[f.next_child++];
      open(c);
      stack.push_back({c});  // (f is not used after this)
    }
  }
  w.EndArray();
  if (shown < tree.size()) {
    w.Name("truncated");
    w.Bool(true);
    w.Name("omitted");
    w.Uint(tree.size() - shown);
  }
  w.EndObject();
  sink.Put('\n');
}

std::string TreeJson(const TreeResult& tree) {
  std::ostringstream out;
  WriteTreeJson(tree, out);
  return out.str();
}

namespace {

void SectionsJson(const StatsSections& s, json::Writer& w) {
  w.BeginObject();
  w.Name("inputs");
  w.Uint(s.inputs);
  w.Name("outputs");
  w.Uint(s.outputs);
  w.Name("dependencies");
  w.Uint(s.dependencies);
  w.Name("propertyDependencies");
  w.Uint(s.property_dependencies);
  w.Name("other");
  w.Uint(s.other);
  w.EndObject();
}

void SizesJson(const StatsSizes& z, json::Writer& w) {
  w.Name("sections");
  SectionsJson(z.sections, w);
  w.Name("secret_bytes");
  w.Uint(z.secret_bytes);
  w.Name("asset_bytes");
  w.Uint(z.asset_bytes);
  w.Name("internal_bytes");
  w.Uint(z.internal_bytes);
  w.Name("sections_by_type");
  w.BeginObject();
  for (const auto& [type, sec] : z.by_type) {
    w.Name(type);
    SectionsJson(sec, w);
  }
  w.EndObject();
  w.Name("top_properties");
  w.BeginObject();
  for (const auto& [type, rows] : z.top_properties) {
    w.Name(type);
    w.BeginArray();
    for (const auto& [bytes, name] : rows) {
      w.BeginObject();
      w.Name("property");
      w.String(name);
      w.Name("bytes");
      w.Uint(bytes);
      w.EndObject();
    }
    w.EndArray();
  }
  w.EndObject();
}

void StatsJsonTo(const StatsResult& s, const StatsSizes* z, json::Writer& w) {
  w.BeginObject();
  w.Name("envelope");
  w.String(s.envelope);
  w.Name("version");
  if (s.version) {
    w.Int(*s.version);
  } else {
    w.Null();
  }
  w.Name("features");
  StringsJson(s.features, w);
  w.Name("resources");
  w.BeginObject();
  w.Name("count");
  w.Uint(s.resources.count);
  w.Name("bytes");
  w.Uint(s.resources.bytes);
  w.EndObject();
  w.Name("stacks");
  w.Uint(s.stacks);
  w.Name("projects");
  w.Uint(s.projects);
  w.Name("flags");
  CountMapJson(s.flags, w);
  w.Name("secrets");
  w.BeginObject();
  w.Name("provider");
  w.String(s.secrets_provider);
  w.Name("count");
  w.Uint(s.secrets);
  w.EndObject();
  w.Name("assets");
  w.Uint(s.assets);
  w.Name("archives");
  w.Uint(s.archives);
  w.Name("pending_operations");
  CountMapJson(s.pending, w);
  w.Name("by_package");
  TallyMapJson(s.by_package, w);
  w.Name("by_type");
  TallyMapJson(s.by_type, w);
  w.Name("by_provider");
  TallyMapJson(s.by_provider, w);
  w.Name("largest");
  w.BeginArray();
  for (const auto& [bytes, urn] : s.largest) {
    w.BeginObject();
    w.Name("urn");
    w.String(urn);
    w.Name("bytes");
    w.Uint(bytes);
    w.EndObject();
  }
  w.EndArray();
  if (z != nullptr) SizesJson(*z, w);
  w.EndObject();
}

}  // namespace

std::string StatsJson(const StatsResult& s, const StatsSizes* sizes) {
  JsonText out;
  StatsJsonTo(s, sizes, out.w());
  return out.Take(true);
}

std::string StatsGrowthJson(const StatsSide& before, const StatsSide& after) {
  JsonText out;
  json::Writer& w = out.w();
  w.BeginObject();
  w.Name("before");
  StatsJsonTo(*before.stats, before.sizes, w);
  w.Name("after");
  StatsJsonTo(*after.stats, after.sizes, w);
  w.EndObject();
  return out.Take(true);
}

}  // namespace pstate::report
