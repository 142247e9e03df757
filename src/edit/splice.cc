#include "edit/splice.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "json/compact.h"
#include "json/parser.h"
#include "json/string_codec.h"
#include "json/writer.h"
#include "state/property.h"
#include "state/resource.h"
#include "state/schema.h"

namespace pstate::edit {
namespace {

/// How much input is read between two releases of its pages: what is
/// resident between two hand-backs counts toward an edit's peak, and one
/// madvise(2) per 4 MiB costs nothing measurable.
constexpr std::uint64_t kReleaseStep = std::uint64_t{4} << 20;

/// The rewritten resources (by position). Their text is never held: it is
/// rendered from the input each time a pass reads it (Segment::is_resource),
/// so memory follows the index, not the size of what the edit rewrites.
using Texts = std::unordered_set<std::size_t>;

/// A segment standing for resource `i`'s rewritten text.
Segment Rewritten(std::size_t i) {
  Segment s;
  s.begin = i;
  s.end = i + 1;
  s.is_resource = true;
  return s;
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// An Output into a string that can be emptied and reused.
class StringSink : public io::Output {
 public:
  std::string Take() {
    Flush();
    std::string out = std::move(data_);
    data_.clear();
    return out;
  }
  Status Commit() override {
    Flush();
    return Status::Ok();
  }
  void Abandon() override { DiscardBuffer(); }

 protected:
  void WriteOut(std::string_view bytes) override { data_.append(bytes); }

 private:
  std::string data_;
};

std::string DecodedKey(const json::Member& m) {
  return m.key.has_escapes ? m.key.Str() : std::string(m.key.raw());
}

/// Position of `field` in Go's ResourceV3 order (unknown fields: npos).
std::size_t FieldRank(std::string_view field) {
  for (std::size_t i = 0; i < state::kResourceFields.size(); ++i) {
    if (state::kResourceFields[i].name == field) return i;
  }
  return std::string::npos;
}

std::string_view FieldOf(const json::Member& m, std::string* scratch) {
  *scratch = DecodedKey(m);
  return state::MatchField(*scratch, state::kResourceFields);
}

/// Inserts `member` (a field of ResourceV3) where Go's order puts it.
void InsertInOrder(std::vector<json::Member>& members, json::Member member,
                   std::string_view field) {
  std::size_t rank = FieldRank(field);
  std::size_t at = members.size();
  std::string scratch;
  for (std::size_t i = 0; i < members.size(); ++i) {
    std::size_t r = FieldRank(FieldOf(members[i], &scratch));
    if (r != std::string::npos && r > rank) {
      at = i;
      break;
    }
  }
  members.insert(members.begin() + static_cast<std::ptrdiff_t>(at), member);
}

json::Member NewMember(std::string_view key, json::Value value,
                       json::Arena& arena) {
  json::Member m;
  m.key = arena.MakeString(key);
  m.value = value;
  return m;
}

class Rewriter {
 public:
  Rewriter(const Plan& plan, json::Arena& arena) : plan_(plan), arena_(arena) {}

  std::optional<std::string> Map(const std::string& urn) const {
    auto it = plan_.urn_map.find(urn);
    if (it == plan_.urn_map.end()) return std::nullopt;
    return it->second;
  }
  bool Dangling(const std::string& urn) const {
    return plan_.prune && !urn.empty() && !plan_.existing.Contains(urn);
  }

  /// A URN string, mapped.
  json::Value String(const json::Value& v, bool* changed) const {
    if (!v.is_string()) return v;
    auto m = Map(v.Str());
    if (!m) return v;
    *changed = true;
    return arena_.MakeString(*m, v.offset);
  }

  /// An array of URNs, mapped and (when pruning) without dangling ones.
  /// nullopt: drop the member (it became empty).
  std::optional<json::Value> List(const json::Value& v, bool prune,
                                  bool* changed) const {
    if (!v.is_array()) return v;
    std::vector<json::Value> out;
    bool any = false;
    for (const json::Value& e : v.array()) {
      json::Value mapped = String(e, &any);
      if (prune && mapped.is_string() && Dangling(mapped.Str())) {
        any = true;
        continue;
      }
      out.push_back(mapped);
    }
    if (!any) return v;
    *changed = true;
    if (out.empty() && v.size > 0) return std::nullopt;
    return arena_.MakeArray(out, v.offset);
  }

  json::Value PropertyDependencies(const json::Value& v, bool* changed) const {
    if (!v.is_object()) return v;
    std::vector<json::Member> out;
    bool any = false;
    for (const json::Member& m : v.object()) {
      json::Member copy = m;
      auto list = List(m.value, plan_.prune, &any);
      // Keys stay, even with an emptied list (Pulumi's rename dropped
      // them, rewriting the state's meaning).
      copy.value = list ? *list : arena_.MakeArray({}, m.value.offset);
      out.push_back(copy);
    }
    if (!any) return v;
    *changed = true;
    return arena_.MakeObject(out, v.offset);
  }

  json::Value Provider(const json::Value& v, bool* changed) const {
    if (!v.is_string()) return v;
    std::string text = v.Str();
    if (auto whole = plan_.provider_refs.find(text);
        whole != plan_.provider_refs.end()) {
      *changed = true;
      return arena_.MakeString(whole->second, v.offset);
    }
    std::size_t cut = text.rfind("::");
    if (cut == std::string::npos) return v;
    auto m = Map(text.substr(0, cut));
    if (!m) return v;
    *changed = true;
    return arena_.MakeString(*m + text.substr(cut), v.offset);
  }

  /// Resource references inside a property value, mapped
  /// (state::MapResourceReferences: secrets are not looked into).
  json::Value Properties(const json::Value& v, bool* changed) const {
    if (plan_.urn_map.empty()) return v;
    return state::MapResourceReferences(
        v, arena_,
        [&](const json::Value& urn) -> std::optional<json::Value> {
          bool hit = false;
          json::Value now = String(urn, &hit);
          if (!hit) return std::nullopt;
          return now;
        },
        changed);
  }

 private:
  const Plan& plan_;
  json::Arena& arena_;
};

std::string Compact(const json::Value& v) { return json::ToCompactJson(v); }

bool IsPropertyField(std::string_view field) {
  return field == "inputs" || field == "outputs" ||
         field == "replacementTrigger" || field.empty();
}

}  // namespace

json::Value RewriteResource(const json::Value& resource,
                            const ResourceEdit* edit, const Plan& plan,
                            json::Arena& arena, bool* changed) {
  *changed = false;
  if (!resource.is_object()) return resource;
  Rewriter rw(plan, arena);
  std::vector<json::Member> out;
  bool any = false;
  bool saw_parent = false, saw_protect = false, saw_taint = false,
       saw_id = false;
  std::string scratch;
  for (const json::Member& m : resource.object()) {
    std::string_view field = FieldOf(m, &scratch);
    json::Member copy = m;
    if (field == "urn" && edit != nullptr && edit->urn) {
      if (!m.value.StrEquals(*edit->urn)) {
        copy.value = arena.MakeString(*edit->urn, m.value.offset);
        any = true;
      }
    } else if (field == "id" && edit != nullptr && edit->id) {
      saw_id = true;
      if (!m.value.StrEquals(*edit->id)) {
        copy.value = arena.MakeString(*edit->id, m.value.offset);
        any = true;
      }
    } else if (field == "parent") {
      saw_parent = true;
      if (edit != nullptr && edit->parent) {
        if (edit->parent->empty()) {
          any = true;
          continue;
        }
        if (!m.value.StrEquals(*edit->parent)) {
          copy.value = arena.MakeString(*edit->parent, m.value.offset);
          any = true;
        }
      } else {
        copy.value = rw.String(m.value, &any);
      }
    } else if ((field == "protect" && edit != nullptr && edit->protect) ||
               (field == "taint" && edit != nullptr && edit->taint)) {
      bool want = field == "protect" ? *edit->protect : *edit->taint;
      (field == "protect" ? saw_protect : saw_taint) = true;
      if (!want) {
        any = true;
        continue;
      }
      if (m.value.type != json::Type::kTrue) {
        copy.value = json::MakeBool(true, m.value.offset);
        any = true;
      }
    } else if (field == "dependencies" || field == "replaceWith") {
      auto list = rw.List(m.value, plan.prune, &any);
      if (!list) continue;
      copy.value = *list;
    } else if (field == "aliases") {
      auto list = rw.List(m.value, false, &any);
      copy.value = list ? *list : m.value;
    } else if (field == "propertyDependencies") {
      copy.value = rw.PropertyDependencies(m.value, &any);
    } else if (field == "deletedWith") {
      copy.value = rw.String(m.value, &any);
      if (copy.value.is_string() && rw.Dangling(copy.value.Str())) {
        any = true;
        continue;
      }
    } else if (field == "viewOf") {
      copy.value = rw.String(m.value, &any);
    } else if (field == "provider") {
      copy.value = rw.Provider(m.value, &any);
    } else if (field == "inputs" || field == "outputs" ||
               field == "replacementTrigger") {
      copy.value = rw.Properties(m.value, &any);
    }
    out.push_back(copy);
  }
  if (edit != nullptr) {
    if (edit->id && !saw_id && !edit->id->empty()) {
      InsertInOrder(out, NewMember("id", arena.MakeString(*edit->id), arena),
                    "id");
      any = true;
    }
    if (edit->parent && !saw_parent && !edit->parent->empty()) {
      InsertInOrder(out,
                    NewMember("parent", arena.MakeString(*edit->parent), arena),
                    "parent");
      any = true;
    }
    if (edit->protect && *edit->protect && !saw_protect) {
      InsertInOrder(out, NewMember("protect", json::MakeBool(true), arena),
                    "protect");
      any = true;
    }
    if (edit->taint && *edit->taint && !saw_taint) {
      InsertInOrder(out, NewMember("taint", json::MakeBool(true), arena),
                    "taint");
      any = true;
    }
  }
  if (!any) return resource;
  *changed = true;
  return arena.MakeObject(out, resource.offset);
}

std::vector<FieldChange> DiffResource(const json::Value& before,
                                      const json::Value& after) {
  std::vector<FieldChange> out;
  auto collect = [](const json::Value& v) {
    std::vector<std::pair<std::string, const json::Value*>> fields;
    if (!v.is_object()) return fields;
    for (const json::Member& m : v.object()) {
      fields.emplace_back(DecodedKey(m), &m.value);
    }
    return fields;
  };
  auto a = collect(before), b = collect(after);
  auto find = [](const auto& list,
                 const std::string& key) -> const json::Value* {
    const json::Value* found = nullptr;
    for (const auto& [k, v] : list) {
      if (k == key) found = v;
    }
    return found;
  };
  std::set<std::string> done;
  auto field_of = [](const std::string& key) {
    return state::MatchField(key, state::kResourceFields);
  };
  for (const auto& [key, v] : a) {
    if (!done.insert(key).second) continue;
    const json::Value* w = find(b, key);
    std::string old_text = Compact(*v);
    bool secret_safe = !IsPropertyField(field_of(key));
    if (w == nullptr) {
      out.push_back({ChangeKind::kRemoved, key,
                     secret_safe ? old_text : "(not shown)", ""});
      continue;
    }
    std::string new_text = Compact(*w);
    if (old_text == new_text) continue;
    if (secret_safe) {
      out.push_back({ChangeKind::kChanged, key, old_text, new_text});
    } else {
      out.push_back(
          {ChangeKind::kChanged, key, "(resource references rewritten)", ""});
    }
  }
  for (const auto& [key, w] : b) {
    if (!done.insert(key).second) continue;
    out.push_back({ChangeKind::kAdded, key, "", Compact(*w)});
  }
  return out;
}

Layout DetectLayout(std::string_view bytes, ByteRange range,
                    json::EscapeStyle style) {
  Layout layout;
  layout.style = style;
  std::size_t start = static_cast<std::size_t>(range.begin);
  std::size_t p = start;
  while (p > 0 && (bytes[p - 1] == ' ' || bytes[p - 1] == '\t')) --p;
  layout.indented = p > 0 && bytes[p - 1] == '\n';
  if (!layout.indented) return layout;
  layout.prefix.assign(bytes.substr(p, start - p));
  std::string_view element =
      bytes.substr(start, static_cast<std::size_t>(range.end - range.begin));
  std::size_t nl = element.find('\n');
  if (nl == std::string_view::npos) {
    // A one-line element inside an indented array.
    layout.indented = false;
    return layout;
  }
  std::size_t q = nl + 1;
  while (q < element.size() && (element[q] == ' ' || element[q] == '\t')) ++q;
  std::size_t width = q - (nl + 1);
  if (width > layout.prefix.size()) {
    layout.unit.assign(element.substr(nl + 1 + layout.prefix.size(),
                                      width - layout.prefix.size()));
  }
  return layout;
}

std::string Serialize(const json::Value& value, const Layout& layout,
                      const LossyFn& on_lossy) {
  StringSink sink;
  json::Writer writer(
      sink, layout.indented ? json::Layout::kIndented : json::Layout::kCompact,
      layout.style);
  if (on_lossy) writer.OnLossyString(on_lossy);
  writer.Write(value);
  std::string text = sink.Take();
  if (!layout.indented) return text;
  if (layout.prefix.empty() && layout.unit == "    ") return text;
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (std::size_t i = 0; i < text.size(); ++i) {
    out.push_back(text[i]);
    if (text[i] != '\n') continue;
    std::size_t spaces = 0;
    while (i + 1 + spaces < text.size() && text[i + 1 + spaces] == ' ') {
      ++spaces;
    }
    out += layout.prefix;
    for (std::size_t k = 0; k < spaces / 4; ++k) out += layout.unit;
    i += spaces;
  }
  return out;
}

namespace {

json::EscapeStyle DetectStyle(std::string_view bytes, state::EnvelopeKind kind,
                              const ReleaseFn& release) {
  // Go's HTML-safe escaping never leaves a raw <, > or &; the export
  // layout never escapes them. One pass in steps, each step's pages
  // handed back (a scan of the whole input must not make it resident).
  bool escaped = false;
  constexpr std::size_t kOverlap = 5;  // an escape across two steps
  for (std::size_t at = 0; at < bytes.size();) {
    std::size_t to =
        std::min(bytes.size(), at + static_cast<std::size_t>(kReleaseStep));
    std::string_view step = bytes.substr(at, to - at);
    for (char c : {'<', '>', '&'}) {
      if (std::memchr(step.data(), c, step.size()) != nullptr) {
        return json::EscapeStyle::kExport;
      }
    }
    std::string_view window =
        bytes.substr(at >= kOverlap ? at - kOverlap : 0,
                     to - (at >= kOverlap ? at - kOverlap : 0));
    for (std::string_view e : {"\\u003c", "\\u003e", "\\u0026"}) {
      if (window.find(e) != std::string_view::npos) escaped = true;
    }
    if (release) release(at, to);
    at = to;
  }
  if (escaped) return json::EscapeStyle::kHtmlSafe;
  return kind == state::EnvelopeKind::kExport ? json::EscapeStyle::kExport
                                              : json::EscapeStyle::kHtmlSafe;
}

/// Parses the element at `range` again (a copy with the parser's padding).
Result<json::Value> ParseRange(std::string_view bytes, ByteRange range,
                               json::Arena& arena, std::string* buffer) {
  std::size_t n = static_cast<std::size_t>(range.end - range.begin);
  buffer->assign(bytes.substr(static_cast<std::size_t>(range.begin), n));
  buffer->append(json::kParserPadding, '\0');
  json::Parser parser;
  json::Value value;
  const char* stop = nullptr;
  auto status = parser.Parse(buffer->data(), buffer->data() + n, true,
                             range.begin, arena, &value, &stop);
  if (status != json::ParseStatus::kOk) {
    return Status(Errc::kSyntax, "cannot parse the element at offset " +
                                     std::to_string(range.begin) +
                                     " again: " + parser.error().message);
  }
  return value;
}

}  // namespace

Result<json::Value> ParseElement(std::string_view bytes, ByteRange range,
                                 json::Arena& arena, std::string* buffer) {
  return ParseRange(bytes, range, arena, buffer);
}

json::EscapeStyle InputStyle(std::string_view bytes, const Index& index,
                             const ReleaseFn& release) {
  return DetectStyle(bytes, index.envelope.kind, release);
}

namespace {

/// The deployment member a resources array is added after when the
/// deployment has none (DeploymentV3's order: manifest, secrets_providers,
/// resources); nullptr when it has neither.
const MemberPlace* ResourcesAnchor(const Index& index) {
  if (index.secrets_providers.present &&
      (!index.manifest.present ||
       index.secrets_providers.value.end > index.manifest.value.end)) {
    return &index.secrets_providers;
  }
  return index.manifest.present ? &index.manifest : nullptr;
}

}  // namespace

Layout ElementLayout(std::string_view bytes, const Index& index) {
  json::EscapeStyle style = DetectStyle(bytes, index.envelope.kind, {});
  const auto& list = index.resources_list;
  if (!list.empty()) {
    return DetectLayout(bytes, index.Range(list.size() - 1), style);
  }
  Layout layout;
  layout.style = style;
  // The array's member, or the one it will follow: its key's line.
  const MemberPlace* member =
      index.resources.present ? &index.resources : ResourcesAnchor(index);
  std::size_t k =
      member != nullptr ? static_cast<std::size_t>(member->key_offset) : 0;
  std::size_t p = k;
  while (p > 0 && (bytes[p - 1] == ' ' || bytes[p - 1] == '\t')) --p;
  layout.indented = member != nullptr && p > 0 && bytes[p - 1] == '\n';
  if (layout.indented) {
    std::string_view key_prefix = bytes.substr(p, k - p);
    if (key_prefix.find('\t') != std::string_view::npos) layout.unit = "\t";
    layout.prefix = std::string(key_prefix) + layout.unit;
  }
  return layout;
}

Result<std::string> RenderResource(std::string_view bytes, ByteRange range,
                                   const ResourceEdit* edit, const Plan& plan,
                                   const Layout& layout,
                                   const LossyFn& on_lossy) {
  json::Arena arena;
  std::string buffer;
  auto value = ParseRange(bytes, range, arena, &buffer);
  if (!value.ok()) return value.status();
  bool changed = false;
  json::Value edited = RewriteResource(*value, edit, plan, arena, &changed);
  return Serialize(edited, layout, on_lossy);
}

std::string LossyStringNote(std::string_view what, std::size_t count) {
  // Go's decoder reads a lone surrogate escape as U+FFFD (encoding/json's
  // unquote), so that is what Pulumi would write back.
  return std::string(what) + ": " +
         (count == 1 ? std::string("a string")
                     : std::to_string(count) + " strings") +
         " with a lone UTF-16 surrogate escape (such as \\ud800) " +
         (count == 1 ? "is" : "are") +
         " written with U+FFFD in its place, as Pulumi reads and would "
         "write it";
}

std::string RootStackText(std::string_view urn, std::string_view type,
                          const Layout& layout) {
  json::Arena arena;
  std::vector<json::Member> members = {
      NewMember("urn", arena.MakeString(urn), arena),
      NewMember("custom", json::MakeBool(false), arena),
      NewMember("type", arena.MakeString(type), arena)};
  return Serialize(arena.MakeObject(members), layout);
}

namespace {

/// An edit of the input: [begin, end) becomes `pieces`.
struct Splice {
  std::uint64_t begin = 0, end = 0;
  std::vector<Segment> pieces;
};

/// Appends `s`, joining it to the last segment when both are input ranges
/// that meet or both are text (the check document's stubs become one
/// text, not a segment each).
void Append(std::vector<Segment>& out, Segment s) {
  if (s.is_stubs || s.is_resource) {
    out.push_back(std::move(s));
    return;
  }
  if (!s.is_text && s.begin == s.end) return;
  if (s.is_text && s.text.empty()) return;
  if (!s.is_text && !out.empty() && !out.back().is_text &&
      !out.back().is_stubs && !out.back().is_resource &&
      out.back().end == s.begin) {
    out.back().end = s.end;
    return;
  }
  if (s.is_text && !out.empty() && out.back().is_text) {
    out.back().text.get() += s.text.view();
    return;
  }
  out.push_back(std::move(s));
}

Segment Source(std::uint64_t begin, std::uint64_t end) {
  Segment s;
  s.begin = begin;
  s.end = end;
  return s;
}

Segment Text(std::string text) {
  Segment s;
  s.text.get() = std::move(text);
  s.is_text = true;
  return s;
}

/// The offset of the first non-space byte at or after `p`.
std::size_t SkipForward(std::string_view bytes, std::size_t p) {
  while (p < bytes.size() && IsSpace(bytes[p])) ++p;
  return p;
}

/// Removing an envelope member (its key at `key_offset`, its value ending
/// at `value_end`, exclusive) with one of its separators.
Splice RemoveMember(std::string_view bytes, std::uint64_t key_offset,
                    std::uint64_t value_end) {
  std::size_t p = static_cast<std::size_t>(key_offset);
  while (p > 0 && IsSpace(bytes[p - 1])) --p;
  if (p > 0 && bytes[p - 1] == ',') return {p - 1, value_end, {}};
  // The first member: take the comma after it instead.
  std::size_t q = SkipForward(bytes, static_cast<std::size_t>(value_end));
  if (q < bytes.size() && bytes[q] == ',') {
    q = SkipForward(bytes, q + 1);
    return {key_offset, q, {}};
  }
  // The sole member: the whitespace around it goes too, so the object
  // reads "{}" as Go writes an empty one (no line of indentation left).
  return {p, q, {}};
}

std::uint64_t CloseOf(std::string_view bytes, std::uint64_t after) {
  std::size_t p = SkipForward(bytes, static_cast<std::size_t>(after));
  return p;
}

/// Rebuilds an array's elements: `order` lists kept elements (positions),
/// `text_of(i)` gives a rewritten element's segment or nullopt for its bytes.
/// The elements are separated as in the input, or by `separator` when
/// given (the check document, which is verified, never written: copying
/// each separator would touch a page of the input per element).
template <typename TextOf>
std::optional<Splice> RebuildArray(std::string_view bytes,
                                   const std::vector<ByteRange>& elements,
                                   const std::vector<std::size_t>& order,
                                   const MemberPlace& member, TextOf&& text_of,
                                   const char* separator = nullptr) {
  if (elements.empty()) return std::nullopt;
  if (order.empty()) {
    std::uint64_t close = CloseOf(bytes, elements.back().end);
    return RemoveMember(bytes, member.key_offset, close + 1);
  }
  Splice s;
  s.begin = elements.front().begin;
  s.end = elements.back().end;
  s.pieces.reserve(order.size() * (separator != nullptr ? 2 : 1));
  for (std::size_t k = 0; k < order.size(); ++k) {
    std::size_t i = order[k];
    if (k > 0 && separator != nullptr) {
      Append(s.pieces, Text(separator));
    } else if (k > 0) {
      std::size_t from = i > 0 ? i : 1;
      Append(s.pieces, Source(elements[from - 1].end, elements[from].begin));
    }
    std::optional<Segment> text = text_of(i);
    if (text) {
      Append(s.pieces, std::move(*text));
    } else {
      Append(s.pieces, Source(elements[i].begin, elements[i].end));
    }
  }
  return s;
}

/// Per string id of `index`: a URN the plan renames.
std::vector<bool> RenamedIds(const Index& index, const Plan& plan) {
  std::vector<bool> out(index.strings.size(), false);
  for (const auto& [old, now] : plan.urn_map) {
    StrId id = index.strings.Find(old);
    if (id != kNoStr) out[id] = true;
  }
  return out;
}

bool NeedsRewrite(std::size_t i, const Index& index, const Plan& plan,
                  const std::vector<bool>& renamed) {
  const ResourceEntry& r = index.resources_list[i];
  bool hit = false;
  ForEachReference(index, r, [&](RefKind kind, StrId urn) {
    // Any reference to a renamed URN, resource references in property
    // values included.
    if (renamed[urn]) hit = true;
    if (hit || !plan.prune) return;
    if (kind != RefKind::kParent && kind != RefKind::kProvider &&
        kind != RefKind::kAlias && kind != RefKind::kViewOf &&
        kind != RefKind::kProperty &&
        !plan.existing.Contains(index.Text(urn))) {
      hit = true;
    }
  });
  return hit;
}

/// Positions of the kept resources that pass 2 must read in full: those
/// rewritten, and those that name a URN the edit renames or removes,
/// through any reference field or a resource reference in a property
/// value (see Assembly::check_segments for why the others cannot change
/// findings). Index ids only: no resource's bytes are read.
std::vector<bool> Affected(const Index& index, const Plan& plan,
                           const Texts& texts,
                           const std::vector<bool>& renamed) {
  const auto& list = index.resources_list;
  std::vector<bool> changed = renamed;
  bool any = !plan.urn_map.empty();
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!plan.drop[i]) continue;
    changed[list[i].urn] = true;
    any = true;
  }
  std::vector<bool> out(list.size(), false);
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (plan.drop[i]) continue;
    bool hit = texts.count(i) > 0;
    if (!hit && any) {
      ForEachReference(index, list[i], [&](RefKind, StrId urn) {
        if (changed[urn]) hit = true;
      });
    }
    out[i] = hit;
  }
  return out;
}

/// What pass 2 needs of a resource it does not read again: its URN (for
/// references and duplicates), whether it is pending deletion, and for a
/// provider its type and id (provider references name URN and id).
void AppendStub(const Index& index, const ResourceEntry& r, std::string* out) {
  *out += "{\"urn\":\"";
  json::AppendEscaped(index.Text(r.urn), out);
  *out += "\",\"type\":\"";
  json::AppendEscaped(index.Text(r.type), out);
  *out += r.custom ? "\",\"custom\":true" : "\",\"custom\":false";
  if (r.id != kNoStr) {
    *out += ",\"id\":\"";
    json::AppendEscaped(index.Text(r.id), out);
    *out += "\"";
  }
  if (r.del) *out += ",\"delete\":true";
  *out += "}";
}

/// The check document's resources array: affected resources as the
/// output has them, every other one a stub, generated as pass 2 reads it
/// (runs of Segment::is_stubs over `stubbed`), never held.
std::optional<Splice> CheckArray(std::string_view bytes, const Index& index,
                                 const std::vector<std::size_t>& order,
                                 const std::vector<bool>& affected,
                                 const Texts& texts,
                                 std::vector<std::uint32_t>& stubbed) {
  const auto& list = index.resources_list;
  if (order.empty()) {
    return RebuildArray(bytes, index.Ranges(), order, index.resources,
                        [](std::size_t) { return std::optional<Segment>(); });
  }
  Splice s;
  s.begin = index.Range(0).begin;
  s.end = index.Range(list.size() - 1).end;
  for (std::size_t k = 0; k < order.size(); ++k) {
    std::size_t i = order[k];
    if (!affected[i]) {
      stubbed.push_back(static_cast<std::uint32_t>(i));
      auto at = static_cast<std::uint64_t>(stubbed.size());
      if (!s.pieces.empty() && s.pieces.back().is_stubs) {
        s.pieces.back().end = at;
        continue;
      }
      Segment run;
      run.is_stubs = true;
      run.lead = k > 0;
      run.begin = at - 1;
      run.end = at;
      Append(s.pieces, std::move(run));
      continue;
    }
    if (k > 0) Append(s.pieces, Text(",\n"));
    if (texts.count(i) > 0) {
      Append(s.pieces, Rewritten(i));
    } else {
      Append(s.pieces, Source(index.Range(i).begin, index.Range(i).end));
    }
  }
  return s;
}

/// Bit of `name` in state::ResourceFeatures.
std::uint32_t FeatureBit(std::string_view name) {
  for (std::size_t i = 0; i < state::kResourceFeatureNames.size(); ++i) {
    if (state::kResourceFeatureNames[i] == name) return std::uint32_t{1} << i;
  }
  return 0;
}

/// The features resource `r` uses once `edit` and the plan's pruning are
/// applied: its taint as edited, and replaceWith only while an entry is
/// left.
std::uint32_t FeaturesAfter(const Index& index, const Plan& plan,
                            const ResourceEntry& r, const ResourceEdit* edit) {
  std::uint32_t bits = r.features;
  static const std::uint32_t kTaint = FeatureBit("taint");
  static const std::uint32_t kReplaceWith = FeatureBit("replaceWith");
  if (edit != nullptr && edit->taint) {
    bits = *edit->taint ? bits | kTaint : bits & ~kTaint;
  }
  if (plan.prune && (bits & kReplaceWith) != 0) {
    bool left = false;
    for (StrId d : index.ReplaceWith(r)) {
      std::string urn(index.Text(d));
      auto m = plan.urn_map.find(urn);
      if (plan.existing.Contains(m == plan.urn_map.end() ? urn : m->second)) {
        left = true;
      }
    }
    if (!left) bits &= ~kReplaceWith;
  }
  return bits;
}

/// The splices laid between copies of the input.
Status Stitch(std::string_view bytes, std::vector<Splice> splices,
              std::vector<Segment>& out) {
  std::sort(splices.begin(), splices.end(),
            [](const Splice& a, const Splice& b) {
              return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
            });
  // Room for every piece at once (a reordered array has one a resource):
  // no doubling slack; each splice's pieces go as they are moved.
  std::size_t pieces = 1;
  for (const Splice& s : splices) pieces += s.pieces.size() + 1;
  out.reserve(out.size() + pieces);
  std::uint64_t at = 0;
  for (Splice& s : splices) {
    if (s.begin < at) {
      return Status(Errc::kFormat,
                    "internal error: overlapping edits at offset " +
                        std::to_string(s.begin));
    }
    Append(out, Source(at, s.begin));
    for (Segment& piece : s.pieces) Append(out, std::move(piece));
    std::vector<Segment>().swap(s.pieces);
    at = s.end;
  }
  Append(out, Source(at, bytes.size()));
  return Status::Ok();
}

/// Between two elements of the resources array: as the input separates
/// its first two, else as `layout` implies.
std::string ElementSeparator(std::string_view bytes, const Index& index,
                             const Layout& layout) {
  const auto& list = index.resources_list;
  if (list.size() >= 2) {
    ByteRange first = index.Range(0), second = index.Range(1);
    return std::string(
        bytes.substr(static_cast<std::size_t>(first.end),
                     static_cast<std::size_t>(second.begin - first.end)));
  }
  return layout.indented ? ",\n" + layout.prefix : ",";
}

/// Lays the plan's additions around the rebuilt elements of `s`.
void AddElements(std::string_view bytes, const Index& index, const Plan& plan,
                 Splice& s) {
  std::string sep = ElementSeparator(bytes, index, ElementLayout(bytes, index));
  std::vector<std::vector<Segment>> groups;
  for (const Addition& a : plan.prepend) groups.push_back({Text(a.text)});
  if (!s.pieces.empty()) groups.push_back(std::move(s.pieces));
  for (const Addition& a : plan.append) groups.push_back({Text(a.text)});
  std::vector<Segment> pieces;
  for (std::size_t k = 0; k < groups.size(); ++k) {
    if (k > 0) Append(pieces, Text(sep));
    for (Segment& piece : groups[k]) Append(pieces, std::move(piece));
  }
  s.pieces = std::move(pieces);
}

/// The whitespace that starts the line of the key at `key_offset` ("" when
/// the key does not start its line).
std::string_view KeyIndent(std::string_view bytes, std::uint64_t key_offset) {
  std::size_t k = static_cast<std::size_t>(key_offset);
  std::size_t p = k;
  while (p > 0 && (bytes[p - 1] == ' ' || bytes[p - 1] == '\t')) --p;
  if (p > 0 && bytes[p - 1] != '\n') return {};
  return bytes.substr(p, k - p);
}

/// A resources array holding the plan's additions, for a member whose key
/// is at `key_offset`.
std::string AdditionsArray(std::string_view bytes, std::uint64_t key_offset,
                           const Plan& plan, const Layout& layout) {
  std::string text = "[";
  std::string sep = layout.indented ? ",\n" + layout.prefix : ",";
  bool first = true;
  for (const auto* adds : {&plan.prepend, &plan.append}) {
    for (const Addition& a : *adds) {
      text += first ? (layout.indented ? "\n" + layout.prefix : "") : sep;
      text += a.text;
      first = false;
    }
  }
  if (layout.indented) {
    // The closing bracket goes where the member's key starts its line.
    text += "\n" + std::string(KeyIndent(bytes, key_offset));
  }
  text += "]";
  return text;
}

/// An empty resources array ("[]") filled with the plan's additions.
Splice FillEmptyArray(std::string_view bytes, const Index& index,
                      const Plan& plan, const Layout& layout) {
  return {
      index.resources.value.begin,
      index.resources.value.end,
      {Text(AdditionsArray(bytes, index.resources.key_offset, plan, layout))}};
}

/// A deployment without a resources member (a fresh `pulumi stack init`:
/// Go omits the empty array) gets one holding the plan's additions, after
/// `anchor`, indented as that member.
Splice AddResourcesMember(std::string_view bytes, const MemberPlace& anchor,
                          const Plan& plan, const Layout& layout) {
  std::string text = ",";
  if (layout.indented) {
    text += "\n" + std::string(KeyIndent(bytes, anchor.key_offset));
  }
  text += layout.indented ? "\"resources\": " : "\"resources\":";
  text += AdditionsArray(bytes, anchor.key_offset, plan, layout);
  return {anchor.value.end, anchor.value.end, {Text(std::move(text))}};
}

}  // namespace

Result<Assembly> Assemble(std::string_view bytes, const Index& index,
                          const Plan& plan, const ReleaseFn& release,
                          bool check_affected_only) {
  Assembly out;
  out.index = &index;
  out.plan = &plan;
  out.changes.resources.Bind(index, plan);
  std::vector<Splice> splices;
  const auto& list = index.resources_list;
  std::optional<json::EscapeStyle> style;
  auto style_of = [&] {
    if (!style) {
      style = plan.style ? *plan.style
                         : DetectStyle(bytes, index.envelope.kind, {});
    }
    return *style;
  };
  json::Arena arena;
  std::string buffer;

  // Resources: which are rewritten, then the array in its new order.
  Texts texts;
  std::vector<bool> renamed_ids = RenamedIds(index, plan);
  bool any_reference_changes = !plan.urn_map.empty() || plan.prune;
  std::uint64_t released = 0;
  std::uint32_t features_used = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const ResourceEntry& r = list[i];
    auto e = plan.edits.find(i);
    const ResourceEdit* edit = e == plan.edits.end() ? nullptr : &e->second;
    bool dropped = plan.drop[i];
    if (!dropped) features_used |= FeaturesAfter(index, plan, r, edit);
    if (dropped) {
      out.changes.resources.push_back(ChangeRecord{
          ChangeRecord::Kind::kRemoved, static_cast<std::uint32_t>(i), 0});
      continue;
    }
    ByteRange range = index.Range(i);
    if (release && range.end - released >= kReleaseStep) {
      release(released, range.begin);
      released = range.begin;
    }
    if (edit == nullptr && (!any_reference_changes ||
                            !NeedsRewrite(i, index, plan, renamed_ids))) {
      continue;
    }
    arena.Reset();
    auto value = ParseRange(bytes, range, arena, &buffer);
    if (!value.ok()) return value.status();
    bool changed = false;
    json::Value edited = RewriteResource(*value, edit, plan, arena, &changed);
    if (!changed) continue;
    style_of();  // rendered later in the input's escaping
    texts.insert(i);
    // Rendered later, through the writer: a lone surrogate escape in any
    // of its strings (rare: looked for in its bytes first) becomes U+FFFD.
    if (json::HasLoneSurrogate(
            bytes.substr(static_cast<std::size_t>(range.begin),
                         static_cast<std::size_t>(range.end - range.begin)))) {
      std::size_t lossy = 0;
      Serialize(edited, Layout{}, [&](const json::Value&) { ++lossy; });
      if (lossy > 0) {
        out.notes.push_back(LossyStringNote(index.Urn(i), lossy));
      }
    }
    out.changes.resources.push_back(
        ElementChange{ChangeKind::kChanged, std::string(index.Urn(i)),
                      DiffResource(*value, edited)});
  }
  std::vector<std::size_t> order = plan.order;
  if (order.empty()) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (!plan.drop[i]) order.push_back(i);
    }
  } else {
    // A resource moved up when one that came before it now comes after it
    // (repair pulls a dependency up; reparent moves a subtree down, which
    // moves the resources it passes up).
    std::vector<std::size_t> lowest_after(order.size() + 1, list.size());
    for (std::size_t k = order.size(); k-- > 0;) {
      lowest_after[k] = std::min(lowest_after[k + 1], order[k]);
    }
    for (std::size_t k = 0; k < order.size(); ++k) {
      std::size_t i = order[k];
      if (lowest_after[k + 1] < i) {
        out.changes.resources.push_back(ChangeRecord{
            ChangeRecord::Kind::kMoved, static_cast<std::uint32_t>(i),
            static_cast<std::uint32_t>(k)});
      }
    }
  }
  bool resources_touched = order.size() != list.size() || !plan.order.empty();
  if (!texts.empty()) resources_touched = true;
  const bool added = !plan.prepend.empty() || !plan.append.empty();
  for (const auto* adds : {&plan.prepend, &plan.append}) {
    for (const Addition& a : *adds) {
      features_used |= a.features;
      out.changes.resources.push_back(
          ElementChange{ChangeKind::kAdded, a.urn, {}});
    }
  }
  if (added && !index.resources.present) {
    const MemberPlace* anchor = ResourcesAnchor(index);
    if (anchor == nullptr) {
      return Status(Errc::kFormat,
                    "the state has no resources array to add resources to");
    }
    splices.push_back(
        AddResourcesMember(bytes, *anchor, plan, ElementLayout(bytes, index)));
  } else if (added && list.empty()) {
    splices.push_back(
        FillEmptyArray(bytes, index, plan, ElementLayout(bytes, index)));
  } else if (resources_touched || added) {
    auto s = RebuildArray(bytes, index.Ranges(), order, index.resources,
                          [&](std::size_t i) -> std::optional<Segment> {
                            if (texts.count(i) == 0) return std::nullopt;
                            return Rewritten(i);
                          });
    if (added && (!s || s->pieces.empty())) {
      // Every old resource dropped and some added: the elements' place
      // holds the additions alone.
      s = Splice{index.Range(0).begin, index.Range(list.size() - 1).end, {}};
    }
    if (s && added) AddElements(bytes, index, plan, *s);
    if (s) splices.push_back(std::move(*s));
    resources_touched = true;
  }
  // The check document's resources array (Assembly::check_segments).
  std::optional<Splice> check_array;
  std::size_t resources_splice = resources_touched ? splices.size() - 1 : 0;
  bool check = check_affected_only && plan.order.empty() && !list.empty() &&
               index.resources.present && !index.resources_pointer.empty();
  if (check) {
    std::vector<bool> affected = Affected(index, plan, texts, renamed_ids);
    out.stub.reserve(order.size());
    for (std::size_t i : order) out.stub.push_back(!affected[i]);
    check_array = CheckArray(bytes, index, order, affected, texts, out.stubbed);
    check = check_array.has_value();
  }

  // Pending operations.
  {
    std::vector<std::optional<std::string>> ptexts(index.pending.size());
    std::vector<std::size_t> porder;
    bool touched = false;
    for (std::size_t i = 0; i < index.pending.size(); ++i) {
      const PendingEntry& p = index.pending[i];
      const PendingEdit& pe = plan.pending[i];
      std::string what = "pending_operations[" + std::to_string(i) + "] (" +
                         p.type + " " + p.urn + ")";
      if (pe.drop) {
        out.changes.pending.push_back({ChangeKind::kRemoved, what, {}});
        touched = true;
        continue;
      }
      porder.push_back(i);
      if (!pe.id && !pe.type && plan.urn_map.empty()) continue;
      arena.Reset();
      auto value = ParseRange(bytes, p.range, arena, &buffer);
      if (!value.ok()) return value.status();
      if (!value->is_object()) continue;
      std::vector<json::Member> members(value->object().begin(),
                                        value->object().end());
      bool changed = false;
      std::vector<FieldChange> fields;
      for (json::Member& m : members) {
        std::string key = DecodedKey(m);
        if (state::MatchField(key, state::kOperationFields) == "resource") {
          ResourceEdit edit;
          edit.id = pe.id;
          auto renamed = plan.urn_map.find(p.urn);
          if (renamed != plan.urn_map.end()) edit.urn = renamed->second;
          bool c = false;
          json::Value r = RewriteResource(m.value, &edit, plan, arena, &c);
          if (c) {
            for (FieldChange& f : DiffResource(m.value, r)) {
              f.field = "resource." + f.field;
              fields.push_back(std::move(f));
            }
            m.value = r;
            changed = true;
          }
        } else if (state::MatchField(key, state::kOperationFields) == "type" &&
                   pe.type && !m.value.StrEquals(*pe.type)) {
          fields.push_back({ChangeKind::kChanged, "type", Compact(m.value),
                            "\"" + *pe.type + "\""});
          m.value = arena.MakeString(*pe.type, m.value.offset);
          changed = true;
        }
      }
      if (!changed) continue;
      json::Value edited = arena.MakeObject(members, value->offset);
      std::size_t lossy = 0;
      ptexts[i] = Serialize(edited, DetectLayout(bytes, p.range, style_of()),
                            [&](const json::Value&) { ++lossy; });
      if (lossy > 0) out.notes.push_back(LossyStringNote(what, lossy));
      out.changes.pending.push_back(
          {ChangeKind::kChanged, what, std::move(fields)});
      touched = true;
    }
    if (touched) {
      std::vector<ByteRange> ranges;
      for (const PendingEntry& p : index.pending) ranges.push_back(p.range);
      auto s = RebuildArray(bytes, ranges, porder, index.pending_operations,
                            [&](std::size_t i) -> std::optional<Segment> {
                              if (!ptexts[i]) return std::nullopt;
                              return Text(std::move(*ptexts[i]));
                            });
      if (s) splices.push_back(std::move(*s));
    }
  }

  // The envelope: recomputed from the result's content as Pulumi's writer
  // does after any edit (SerializeDeploymentWithMetadata): the sorted
  // features, version 4 when there are any, else 3. Features no resource
  // field shows (byteString, which needs the secrets' plaintext; the
  // deployment's snippets; names pstate does not know) are kept as the
  // input has them. Version 1 and 2 files keep their version.
  std::int64_t version = index.envelope.version.value_or(3);
  if (!splices.empty() && index.version.present &&
      index.envelope.kind != state::EnvelopeKind::kLegacyCheckpoint &&
      (version == 3 || version == 4)) {
    std::vector<std::string> features;
    for (std::size_t b = 0; b < state::kResourceFeatureNames.size(); ++b) {
      if (features_used & (std::uint32_t{1} << b)) {
        features.emplace_back(state::kResourceFeatureNames[b]);
      }
    }
    for (const std::string& f : index.envelope.features) {
      bool per_resource = std::find(state::kResourceFeatureNames.begin(),
                                    state::kResourceFeatureNames.end(),
                                    f) != state::kResourceFeatureNames.end();
      if (!per_resource || f == "snippets-prototype") features.push_back(f);
    }
    std::sort(features.begin(), features.end());
    features.erase(std::unique(features.begin(), features.end()),
                   features.end());
    std::int64_t new_version = features.empty() ? 3 : 4;
    if (features != index.envelope.features) {
      Layout layout = DetectLayout(bytes, index.version.value, style_of());
      // The version's own line gives the member indentation.
      std::size_t k = static_cast<std::size_t>(index.version.key_offset);
      std::size_t p = k;
      while (p > 0 && (bytes[p - 1] == ' ' || bytes[p - 1] == '\t')) --p;
      bool indented = p > 0 && bytes[p - 1] == '\n';
      layout.indented = indented;
      layout.prefix.assign(bytes.substr(p, k - p));
      std::string features_text;
      {
        std::vector<json::Value> items;
        items.reserve(features.size());
        for (const std::string& f : features) {
          items.push_back(arena.MakeString(f));
        }
        features_text = Serialize(arena.MakeArray(items), layout);
      }
      std::string before_text = "[";
      for (std::size_t i = 0; i < index.envelope.features.size(); ++i) {
        before_text += (i ? ",\"" : "\"") + index.envelope.features[i] + "\"";
      }
      before_text += "]";
      std::string after_text = "[";
      for (std::size_t i = 0; i < features.size(); ++i) {
        after_text += (i ? ",\"" : "\"") + features[i] + "\"";
      }
      after_text += "]";
      if (index.features.present && !features.empty()) {
        splices.push_back({index.features.value.begin,
                           index.features.value.end,
                           {Text(features_text)}});
        out.changes.envelope.push_back(
            {ChangeKind::kChanged, "features", before_text, after_text});
      } else if (index.features.present) {
        splices.push_back(RemoveMember(bytes, index.features.key_offset,
                                       index.features.value.end));
        out.changes.envelope.push_back(
            {ChangeKind::kRemoved, "features", before_text, ""});
      } else {
        std::string text = ",";
        text += indented ? "\n" + layout.prefix : std::string();
        text += "\"features\":";
        text += indented ? " " : "";
        text += features_text;
        splices.push_back(
            {index.version.value.end, index.version.value.end, {Text(text)}});
        out.changes.envelope.push_back(
            {ChangeKind::kAdded, "features", "", after_text});
      }
    }
    if (new_version != version) {
      splices.push_back({index.version.value.begin,
                         index.version.value.end,
                         {Text(std::to_string(new_version))}});
      out.changes.envelope.push_back({ChangeKind::kChanged, "version",
                                      std::to_string(version),
                                      std::to_string(new_version)});
    }
  }

  // Stitch the splices between copies of the input; the check document
  // is the same with the resources array's splice replaced.
  if (check) {
    std::vector<Splice> with_stubs = splices;
    if (resources_touched) {
      with_stubs[resources_splice] = std::move(*check_array);
    } else {
      with_stubs.push_back(std::move(*check_array));
    }
    Status stitched = Stitch(bytes, std::move(with_stubs), out.check_segments);
    if (!stitched.ok()) return stitched;
  } else {
    out.stub.clear();
    out.stubbed.clear();
  }
  Status stitched = Stitch(bytes, std::move(splices), out.segments);
  if (!stitched.ok()) return stitched;
  if (style) out.style = *style;
  out.unchanged =
      out.segments.size() <= 1 &&
      (out.segments.empty() ||
       (!out.segments[0].is_text && !out.segments[0].is_resource &&
        out.segments[0].begin == 0 && out.segments[0].end == bytes.size()));
  return out;
}

namespace {

/// The text of rewritten resource `i` of `assembly` (Segment::is_resource).
Result<std::string> RenderRewritten(std::string_view bytes,
                                    const Assembly& assembly, std::size_t i) {
  if (assembly.index == nullptr || assembly.plan == nullptr) {
    return Status(Errc::kFormat,
                  "internal error: a rewritten resource without its plan");
  }
  const Index& index = *assembly.index;
  ByteRange range = index.Range(i);
  auto e = assembly.plan->edits.find(i);
  const ResourceEdit* edit =
      e == assembly.plan->edits.end() ? nullptr : &e->second;
  return RenderResource(bytes, range, edit, *assembly.plan,
                        DetectLayout(bytes, range, assembly.style));
}

/// Hands back the pages of the input a pass has read, in whichever order
/// it reads them: once the span read since the last hand-back covers
/// kStep, it goes (a reordered array is read backwards as much as
/// forwards; a page read again comes back from the page cache).
class Releaser {
 public:
  static constexpr std::uint64_t kStep = kReleaseStep;
  explicit Releaser(const ReleaseFn& release) : release_(release) {}
  void Read(std::uint64_t begin, std::uint64_t end) {
    if (!release_ || begin >= end) return;
    if (lo_ == hi_) {
      lo_ = begin;
      hi_ = end;
    } else {
      lo_ = std::min(lo_, begin);
      hi_ = std::max(hi_, end);
    }
    if (hi_ - lo_ >= kStep) {
      release_(lo_, hi_);
      lo_ = hi_ = 0;
    }
  }

 private:
  const ReleaseFn& release_;
  std::uint64_t lo_ = 0, hi_ = 0;
};

class SegmentInput : public io::InputStream {
 public:
  SegmentInput(std::string_view bytes, const Assembly& assembly,
               const std::vector<Segment>& segments, std::string name,
               ReleaseFn release)
      : bytes_(bytes),
        assembly_(assembly),
        segments_(segments),
        release_(std::move(release)) {
    name_ = std::move(name);
  }
  Result<std::size_t> Read(char* buf, std::size_t n) override {
    std::size_t done = 0;
    while (done < n && segment_ < segments_.size()) {
      const Segment& s = segments_[segment_];
      std::string_view piece;
      if (s.is_stubs) {
        if (within_ == chunk_.size() && !RenderStubs(s)) {
          Next();
          continue;
        }
        piece = chunk_;
      } else if (s.is_resource) {
        if (!rendered_) {
          auto i = static_cast<std::size_t>(s.begin);
          auto text = RenderRewritten(bytes_, assembly_, i);
          if (!text.ok()) return text.status();
          chunk_ = std::move(*text);
          rendered_ = true;
          // The input it was rendered from is read: its pages can go.
          ByteRange r = assembly_.index->Range(i);
          releaser_.Read(r.begin, r.end);
        }
        piece = chunk_;
      } else if (s.is_text) {
        piece = s.text.view();
      } else {
        piece = bytes_.substr(static_cast<std::size_t>(s.begin),
                              static_cast<std::size_t>(s.end - s.begin));
      }
      std::size_t take = std::min(n - done, piece.size() - within_);
      std::memcpy(buf + done, piece.data() + within_, take);
      done += take;
      within_ += take;
      if (!s.is_text && !s.is_stubs && !s.is_resource) {
        releaser_.Read(s.begin + within_ - take, s.begin + within_);
      }
      if (within_ == piece.size() && !s.is_stubs) Next();
    }
    consumed_ += done;
    return done;
  }
  std::uint64_t source_consumed() const override { return consumed_; }

 private:
  void Next() {
    ++segment_;
    within_ = 0;
    chunk_.clear();
    rendered_ = false;
    next_stub_ = kNotStarted;
  }
  /// The next stubs of run `s` into chunk_ (about 64 KB); false when the
  /// run is done.
  bool RenderStubs(const Segment& s) {
    if (next_stub_ == kNotStarted) next_stub_ = s.begin;
    chunk_.clear();
    within_ = 0;
    if (assembly_.index == nullptr) return false;
    while (next_stub_ < s.end && chunk_.size() < (std::size_t{64} << 10)) {
      if (next_stub_ > s.begin || s.lead) chunk_ += ",\n";
      std::uint32_t i = assembly_.stubbed[static_cast<std::size_t>(next_stub_)];
      AppendStub(*assembly_.index, assembly_.index->resources_list[i], &chunk_);
      ++next_stub_;
    }
    return !chunk_.empty();
  }

  static constexpr std::uint64_t kNotStarted = ~std::uint64_t{0};
  std::string_view bytes_;
  const Assembly& assembly_;
  const std::vector<Segment>& segments_;
  std::size_t segment_ = 0;
  std::size_t within_ = 0;
  std::uint64_t consumed_ = 0;
  ReleaseFn release_;
  Releaser releaser_{release_};
  std::string chunk_;
  bool rendered_ = false;
  std::uint64_t next_stub_ = kNotStarted;
};

}  // namespace

std::unique_ptr<io::InputStream> SegmentStream(
    std::string_view bytes, const Assembly& assembly,
    const std::vector<Segment>& segments, std::string name, ReleaseFn release) {
  return std::make_unique<SegmentInput>(bytes, assembly, segments,
                                        std::move(name), std::move(release));
}

Status WriteSegments(std::string_view bytes, const Assembly& assembly,
                     io::Output& out, const ReleaseFn& release, int fd) {
  Releaser releaser(release);  // rendered resources' input, handed back
  for (const Segment& s : assembly.segments) {
    if (s.is_stubs) continue;  // check documents are never written
    if (s.is_text) {
      out.Write(s.text.view());
      continue;
    }
    if (s.is_resource) {
      auto text =
          RenderRewritten(bytes, assembly, static_cast<std::size_t>(s.begin));
      if (!text.ok()) return text.status();
      out.Write(*text);
      ByteRange r = assembly.index->Range(static_cast<std::size_t>(s.begin));
      releaser.Read(r.begin, r.end);
      continue;
    }
    if (fd >= 0) {
      if (Status c = out.CopyRange(fd, s.begin, s.end - s.begin); !c.ok()) {
        return c;
      }
      continue;
    }
    // In steps, so pages go back while a long range is copied.
    for (std::uint64_t at = s.begin; at < s.end;) {
      std::uint64_t to = std::min(s.end, at + kReleaseStep);
      out.Write(bytes.substr(static_cast<std::size_t>(at),
                             static_cast<std::size_t>(to - at)));
      if (release) release(at, to);
      at = to;
    }
  }
  return Status::Ok();
}

}  // namespace pstate::edit
