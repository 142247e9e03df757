// Loading and indexing package schemas. Checking lives in pulumi_schema.cc.
#include "types/schema_set.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <new>
#include <optional>
#include <string>
#include <utility>

#include "io/spool.h"
#include "json/parser.h"
#include "json/string_codec.h"

namespace pstate::types {
namespace {

// Mapped schema files at most: the reader's SIGBUS guard has a few slots
// for mappings, and the state being read needs one.
constexpr int kMaxMappedSchemas = 8;
int g_mapped_schemas = 0;
std::mutex g_mapped_mu;

// Writes what `input` reads to the file `path`.
Status Decompress(io::InputStream& input, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  char buf[1 << 16];
  for (;;) {
    Result<std::size_t> n = input.Read(buf, sizeof buf);
    if (!n.ok()) return n.status();
    if (*n == 0) break;
    out.write(buf, static_cast<std::streamsize>(*n));
    if (!out) break;
  }
  out.close();
  if (!out) {
    return Status(Errc::kIo, "cannot write the decompressed schema to " + path +
                                 " (is the disk full?)");
  }
  return Status::Ok();
}

bool ClaimMappingSlot() {
  std::lock_guard<std::mutex> lock(g_mapped_mu);
  if (g_mapped_schemas >= kMaxMappedSchemas) return false;
  ++g_mapped_schemas;
  return true;
}

io::LineColumn LocateIn(std::string_view text, std::uint64_t offset) {
  io::LineColumn at{1, 1};
  std::size_t end =
      static_cast<std::size_t>(std::min<std::uint64_t>(offset, text.size()));
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++at.line;
      line_start = i + 1;
    }
  }
  at.column = end - line_start + 1;
  return at;
}

// One forward pass over a schema's text: checks that it is one JSON value
// (the parser sees every byte) and records where the definitions are,
// parsing each into a scratch arena that is reset after it, so memory
// stays at the size of the largest single definition. A mapped text's
// pages are handed back behind the pass (`input`, may be null), so the
// resident memory of indexing does not grow with the schema either.
class Indexer {
 public:
  Indexer(std::string_view text, std::string_view source,
          io::InputStream* input)
      : text_(text), source_(source), input_(input) {}

  // Fills `types`, `resources` (unsorted), `provider`, `name`, `version`.
  Status Run(std::vector<PackageSchema::Entry>* types,
             std::vector<PackageSchema::Entry>* res,
             std::pair<std::uint64_t, std::uint64_t>* provider,
             bool* has_provider, std::string* name, std::string* version) {
    std::size_t pos = SkipWs(0);
    if (pos >= text_.size()) return Syntax(pos, "the file is empty");
    if (text_[pos] != '{') {
      // Say what it is if it is JSON at all.
      json::Value v;
      std::size_t stop = 0;
      if (Status s = ParseValue(pos, &v, &stop); !s.ok()) return s;
      return Format(pos, "not a package schema: the document is " +
                             std::string(json::TypeName(v.type)) +
                             ", not an object");
    }
    std::uint64_t name_at = pos;
    bool saw_name = false;
    Status s = Members(
        pos, &pos, [&](const std::string& key, std::size_t at) -> Status {
          bool is_types = key == "types";
          bool is_resources = key == "resources";
          bool is_functions = key == "functions";
          if (is_types || is_resources || is_functions) {
            std::size_t v = SkipWs(at);
            if (v < text_.size() && text_[v] == '{') {
              auto* index = is_types ? types : is_resources ? res : nullptr;
              if (index) index->clear();  // a repeated member: the last wins
              return Members(
                  v, &next_,
                  [&](const std::string& token, std::size_t vat) -> Status {
                    json::Value value;
                    if (Status e = ParseValue(vat, &value, &next_); !e.ok())
                      return e;
                    if (index) {
                      index->push_back({PackageSchema::HashToken(token),
                                        value.offset, next_});
                    }
                    return Status::Ok();
                  });
            }
            json::Value value;
            if (Status e = ParseValue(at, &value, &next_); !e.ok()) return e;
            if (!value.is_null() && !is_functions) {
              return Format(value.offset,
                            "not a package schema: \"" + key +
                                "\" must be an object, not " +
                                std::string(json::TypeName(value.type)));
            }
            return Status::Ok();
          }
          json::Value value;
          if (Status e = ParseValue(at, &value, &next_); !e.ok()) return e;
          if (key == "name") {
            saw_name = value.is_string() && value.size > 0;
            name_at = value.offset;
            if (saw_name) *name = value.Str();
          } else if (key == "version") {
            *version = value.is_string() ? value.Str() : std::string();
          } else if (key == "provider") {
            *has_provider = value.is_object();
            *provider = {value.offset, next_};
          }
          return Status::Ok();
        });
    if (!s.ok()) return s;
    pos = SkipWs(pos);
    if (pos < text_.size()) {
      return Syntax(
          pos, "unexpected " +
                   json::DescribeByte(static_cast<unsigned char>(text_[pos])) +
                   " after the JSON document");
    }
    if (!saw_name) {
      return Format(name_at,
                    "not a package schema: no non-empty string \"name\"");
    }
    return Status::Ok();
  }

 private:
  std::size_t SkipWs(std::size_t pos) const {
    while (pos < text_.size() && (text_[pos] == ' ' || text_[pos] == '\t' ||
                                  text_[pos] == '\n' || text_[pos] == '\r')) {
      ++pos;
    }
    return pos;
  }

  Status Located(Errc code, std::uint64_t offset, const std::string& what) {
    io::LineColumn at = LocateIn(text_, offset);
    return Status(code, std::string(source_) + ":" + std::to_string(at.line) +
                            ":" + std::to_string(at.column) + ": " + what);
  }
  Status Syntax(std::uint64_t offset, const std::string& what) {
    return Located(Errc::kSyntax, offset, "not valid JSON: " + what);
  }
  Status Format(std::uint64_t offset, const std::string& what) {
    return Located(Errc::kFormat, offset, what);
  }

  // Parses the value at `pos` into the scratch arena; `*stop` is the
  // offset just after it.
  Status ParseValue(std::size_t pos, json::Value* out, std::size_t* stop) {
    scratch_.Reset();
    const char* end_ptr = nullptr;
    json::ParseStatus st =
        parser_.Parse(text_.data() + pos, text_.data() + text_.size(), true,
                      pos, scratch_, out, &end_ptr);
    if (st != json::ParseStatus::kOk) {
      return Syntax(parser_.error().offset, parser_.error().message);
    }
    *stop = static_cast<std::size_t>(end_ptr - text_.data());
    if (input_ != nullptr && *stop >= released_ + kReleaseStep) {
      input_->Release(*stop);
      released_ = *stop;
    }
    return Status::Ok();
  }

  // Walks the object at `pos` (which holds '{'), calling `member(key,
  // value_pos)` for each member; the callback leaves the position after the
  // value in next_. `*after` receives the position after the '}'.
  template <typename F>
  Status Members(std::size_t pos, std::size_t* after, F&& member) {
    ++pos;  // '{'
    pos = SkipWs(pos);
    if (pos < text_.size() && text_[pos] == '}') {
      *after = pos + 1;
      return Status::Ok();
    }
    for (;;) {
      pos = SkipWs(pos);
      if (pos >= text_.size() || text_[pos] != '"') {
        return Syntax(pos, pos >= text_.size()
                               ? "the text ends inside an object"
                               : "expected a string key");
      }
      json::Value key;
      std::size_t stop = 0;
      if (Status s = ParseValue(pos, &key, &stop); !s.ok()) return s;
      std::string key_text = key.Str();
      pos = SkipWs(stop);
      if (pos >= text_.size() || text_[pos] != ':') {
        return Syntax(pos, "expected ':' after an object key");
      }
      if (Status s = member(key_text, pos + 1); !s.ok()) return s;
      pos = SkipWs(next_);
      if (pos < text_.size() && text_[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text_.size() && text_[pos] == '}') {
        *after = pos + 1;
        next_ = *after;
        return Status::Ok();
      }
      return Syntax(pos, pos >= text_.size() ? "the text ends inside an object"
                                             : "expected ',' or '}'");
    }
  }

  std::string_view text_;
  std::string_view source_;
  io::InputStream* input_;
  /// Pages are handed back in steps of this many bytes.
  static constexpr std::size_t kReleaseStep = std::size_t{4} << 20;
  std::size_t released_ = 0;
  json::Parser parser_;
  json::Arena scratch_;
  std::size_t next_ = 0;
};

// ----------------------------------------------------------------- semver

struct SemVer {
  bool ok = false;
  std::uint64_t core[3] = {0, 0, 0};
  std::vector<std::string_view> pre;
};

bool ParseNumber(std::string_view s, std::uint64_t* out) {
  if (s.empty() || (s.size() > 1 && s[0] == '0')) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

SemVer ParseSemVer(std::string_view v) {
  SemVer out;
  if (!v.empty() && v[0] == 'v') v.remove_prefix(1);
  if (std::size_t plus = v.find('+'); plus != std::string_view::npos) {
    v = v.substr(0, plus);
  }
  std::string_view pre;
  if (std::size_t dash = v.find('-'); dash != std::string_view::npos) {
    pre = v.substr(dash + 1);
    v = v.substr(0, dash);
    if (pre.empty()) return out;
  }
  for (int i = 0; i < 3; ++i) {
    std::size_t dot = v.find('.');
    if ((i < 2) != (dot != std::string_view::npos)) return out;
    if (!ParseNumber(v.substr(0, dot), &out.core[i])) return out;
    v = i < 2 ? v.substr(dot + 1) : std::string_view();
  }
  while (!pre.empty()) {
    std::size_t dot = pre.find('.');
    out.pre.push_back(pre.substr(0, dot));
    if (out.pre.back().empty()) return out;
    pre = dot == std::string_view::npos ? std::string_view()
                                        : pre.substr(dot + 1);
  }
  out.ok = true;
  return out;
}

}  // namespace

int CompareVersions(std::string_view a, std::string_view b) {
  SemVer x = ParseSemVer(a);
  SemVer y = ParseSemVer(b);
  if (x.ok != y.ok) return x.ok ? 1 : -1;
  if (!x.ok) return a.compare(b) < 0 ? -1 : a == b ? 0 : 1;
  for (int i = 0; i < 3; ++i) {
    if (x.core[i] != y.core[i]) return x.core[i] < y.core[i] ? -1 : 1;
  }
  if (x.pre.empty() != y.pre.empty()) return x.pre.empty() ? 1 : -1;
  for (std::size_t i = 0; i < x.pre.size() && i < y.pre.size(); ++i) {
    std::uint64_t m = 0, n = 0;
    bool xn = ParseNumber(x.pre[i], &m);
    bool yn = ParseNumber(y.pre[i], &n);
    if (xn && yn) {
      if (m != n) return m < n ? -1 : 1;
    } else if (xn != yn) {
      return xn ? -1 : 1;  // numeric identifiers sort first
    } else if (int c = x.pre[i].compare(y.pre[i]); c != 0) {
      return c < 0 ? -1 : 1;
    }
  }
  if (x.pre.size() != y.pre.size()) return x.pre.size() < y.pre.size() ? -1 : 1;
  return 0;
}

// ---------------------------------------------------------- PackageSchema

PackageSchema::PackageSchema() : arena_(std::make_unique<json::Arena>()) {}
PackageSchema::~PackageSchema() = default;

const json::Value* PackageSchema::ParseRange(const Range& range) const {
  if (range.tried) return range.parsed;
  range.tried = true;
  ++parsed_;
  auto* value = arena_->Allocate<json::Value>(1);
  new (value) json::Value();
  json::Parser parser;
  const char* stop = nullptr;
  const char* begin = text_.data() + range.begin;
  if (parser.Parse(begin, text_.data() + range.end, true, range.begin, *arena_,
                   value, &stop) == json::ParseStatus::kOk) {
    range.parsed = value;
  }
  return range.parsed;
}

std::uint64_t PackageSchema::HashToken(std::string_view token) {
  return std::hash<std::string_view>()(token);
}

std::optional<std::string> PackageSchema::KeyBefore(
    std::string_view text, std::uint64_t value_offset) {
  auto ws = [](char ch) {
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
  };
  auto i = static_cast<std::size_t>(value_offset);
  while (i > 0 && ws(text[i - 1])) --i;
  if (i == 0 || text[i - 1] != ':') return std::nullopt;
  --i;
  while (i > 0 && ws(text[i - 1])) --i;
  if (i == 0 || text[i - 1] != '"') return std::nullopt;
  const std::size_t close = i - 1;
  // The opening quote: the first one before that no backslash escapes (a
  // quote inside the key is always escaped).
  for (std::size_t j = close; j > 0;) {
    --j;
    if (text[j] != '"') continue;
    std::size_t slashes = 0;
    while (slashes < j && text[j - 1 - slashes] == '\\') ++slashes;
    if (slashes % 2 == 0) {
      std::string key;
      json::AppendUnescaped(text.substr(j + 1, close - j - 1), &key);
      return key;
    }
  }
  return std::nullopt;
}

void PackageSchema::SortIndex(Index* index) const {
  std::stable_sort(
      index->begin(), index->end(),
      [](const Entry& a, const Entry& b) { return a.hash < b.hash; });
  // Within a run of one hash (in text order), drop an entry whose token a
  // later entry repeats.
  Index kept;
  kept.reserve(index->size());
  for (std::size_t i = 0; i < index->size();) {
    std::size_t j = i;
    while (j < index->size() && (*index)[j].hash == (*index)[i].hash) ++j;
    for (std::size_t k = i; k < j; ++k) {
      bool repeated = false;
      if (j - i > 1) {
        std::optional<std::string> key = KeyBefore(text_, (*index)[k].begin);
        for (std::size_t l = k + 1; l < j && !repeated; ++l) {
          repeated = KeyBefore(text_, (*index)[l].begin) == key;
        }
      }
      if (!repeated) kept.push_back((*index)[k]);
    }
    i = j;
  }
  kept.shrink_to_fit();
  *index = std::move(kept);
}

const json::Value* PackageSchema::Lookup(const Index& index,
                                         std::string_view token) const {
  const std::uint64_t hash = HashToken(token);
  auto it = std::lower_bound(
      index.begin(), index.end(), hash,
      [](const Entry& e, std::uint64_t h) { return e.hash < h; });
  for (; it != index.end() && it->hash == hash; ++it) {
    if (KeyBefore(text_, it->begin) != token) continue;
    std::lock_guard<std::mutex> lock(mu_);
    Range& range = looked_up_.try_emplace(it->begin, Range{it->begin, it->end})
                       .first->second;
    return ParseRange(range);
  }
  return nullptr;
}

std::size_t PackageSchema::parsed_definitions() const {
  std::lock_guard<std::mutex> lock(mu_);
  return parsed_;
}

const json::Value* PackageSchema::Type(std::string_view token) const {
  return Lookup(types_, token);
}

const json::Value* PackageSchema::Resource(std::string_view token) const {
  return Lookup(resources_, token);
}

const json::Value* PackageSchema::Provider() const {
  if (!has_provider_) return nullptr;
  std::lock_guard<std::mutex> lock(mu_);
  return ParseRange(provider_);
}

void PackageSchema::BuildIndex(const json::Value* properties,
                               const json::Value* required, json::Arena& arena,
                               PropertyIndex* index) {
  if (!properties || !properties->is_object()) return;
  auto name_of = [&](const json::Value& key) -> std::string_view {
    return key.has_escapes ? arena.Copy(key.Str()) : key.raw();
  };
  index->entries.reserve(properties->size);
  for (const json::Member& m : properties->object()) {
    std::string_view name = name_of(m.key);
    auto [it, fresh] = index->by_name.emplace(
        name, static_cast<std::uint32_t>(index->entries.size()));
    if (!fresh) {
      // A repeated property: Go's decoder keeps the last one.
      index->entries[it->second].property = &m;
      continue;
    }
    index->entries.push_back({&m, false});
  }
  if (required && required->is_array()) {
    for (const json::Value& r : required->array()) {
      if (!r.is_string()) continue;
      std::string decoded = r.Str();
      auto it = index->by_name.find(decoded);
      if (it != index->by_name.end())
        index->entries[it->second].required = true;
    }
  }
}

const PackageSchema::PropertyIndex& PackageSchema::Properties(
    const json::Value* properties, const json::Value* required) const {
  static const PropertyIndex* empty = new PropertyIndex();
  if (!properties) return *empty;
  std::lock_guard<std::mutex> lock(mu_);
  std::unique_ptr<PropertyIndex>& slot = indexes_[properties];
  if (!slot) {
    slot = std::make_unique<PropertyIndex>();
    BuildIndex(properties, required, *arena_, slot.get());
  }
  return *slot;
}

io::LineColumn PackageSchema::Locate(std::uint64_t offset) const {
  return LocateIn(text_, offset);
}

// -------------------------------------------------------------- SchemaSet

Status SchemaSet::LoadFile(const std::string& path) {
  Result<std::unique_ptr<io::InputStream>> input = io::OpenInput(path);
  if (!input.ok()) return input.status();
  auto package = std::make_unique<PackageSchema>();
  package->source_ = path;
  std::optional<io::InputStream::Mapping> mapping;
  if (ClaimMappingSlot()) {
    mapping = (*input)->Map();
    if (!mapping && (*input)->compression() != io::Compression::kNone) {
      // A compressed schema is decompressed into a private temporary file
      // (unlinked once mapped) and mapped as a plain one is: its memory is
      // then the pages the state's definitions touch, not the whole text.
      io::TempPath temp;
      Status s = temp.Create("schema");
      if (s.ok()) s = Decompress(**input, temp.path());
      if (!s.ok()) return s;
      Result<std::unique_ptr<io::InputStream>> plain =
          io::OpenInput(temp.path());
      if (!plain.ok()) return plain.status();
      mapping = (*plain)->Map();
      input = std::move(plain);  // a small one is read from the copy
    }
    if (!mapping) {
      std::lock_guard<std::mutex> lock(g_mapped_mu);
      --g_mapped_schemas;
    }
  }
  if (mapping) {
    package->text_ = std::string_view(mapping->data, mapping->size);
  } else {
    std::string& text = package->owned_;
    char buf[1 << 16];
    for (;;) {
      Result<std::size_t> n = (*input)->Read(buf, sizeof buf);
      if (!n.ok()) return n.status();
      if (*n == 0) break;
      text.append(buf, *n);
    }
    std::size_t size = text.size();
    text.append(json::kParserPadding, '\0');
    package->text_ = std::string_view(text.data(), size);
  }
  if (mapping) package->input_ = std::move(*input);
  return Add(std::move(package));
}

Status SchemaSet::AddText(std::string_view text, std::string source) {
  auto package = std::make_unique<PackageSchema>();
  package->source_ = std::move(source);
  package->owned_.assign(text);
  package->owned_.append(json::kParserPadding, '\0');
  package->text_ = std::string_view(package->owned_.data(), text.size());
  return Add(std::move(package));
}

Status SchemaSet::Add(std::unique_ptr<PackageSchema> package) {
  std::pair<std::uint64_t, std::uint64_t> provider{0, 0};
  Indexer indexer(package->text_, package->source_, package->input_.get());
  Status s =
      indexer.Run(&package->types_, &package->resources_, &provider,
                  &package->has_provider_, &package->name_, &package->version_);
  if (!s.ok()) return s;
  package->SortIndex(&package->types_);
  package->SortIndex(&package->resources_);
  // With a mapping, hand the pages back: definitions are read again, from
  // the page cache, when a state uses them.
  if (package->input_) package->input_->Release(package->text_.size());
  package->provider_ = PackageSchema::Range{provider.first, provider.second};

  std::vector<const PackageSchema*>& versions = by_name_[package->name_];
  for (const PackageSchema* p : versions) {
    if (p->version_ == package->version_) {
      return Status(Errc::kInvalidArgument,
                    package->source_ + ": a package schema named '" +
                        package->name_ + "'" +
                        (p->version_.empty() ? std::string()
                                             : " version " + p->version_) +
                        " is already loaded (from " + p->source_ + ")");
    }
  }
  const PackageSchema* added = package.get();
  auto at = std::find_if(
      versions.begin(), versions.end(), [&](const PackageSchema* p) {
        return CompareVersions(p->version_, added->version_) < 0;
      });
  versions.insert(at, added);
  packages_.push_back(std::move(package));
  return Status::Ok();
}

const PackageSchema* SchemaSet::FindPackage(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() || it->second.empty() ? nullptr
                                                    : it->second.front();
}

const PackageSchema* SchemaSet::FindPackage(std::string_view name,
                                            std::string_view version,
                                            bool* exact) const {
  *exact = false;
  auto it = by_name_.find(std::string(name));
  if (it == by_name_.end() || it->second.empty()) return nullptr;
  for (const PackageSchema* p : it->second) {
    if (!version.empty() && CompareVersions(p->version_, version) == 0) {
      *exact = true;
      return p;
    }
  }
  return it->second.front();
}

std::vector<const PackageSchema*> SchemaSet::Versions(
    std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? std::vector<const PackageSchema*>()
                              : it->second;
}

const PackageSchema* SchemaSet::OnlyPackage() const {
  return packages_.size() == 1 ? packages_[0].get() : nullptr;
}

namespace {

std::string_view PackageOf(std::string_view token) {
  std::size_t colon = token.find(':');
  return colon == std::string_view::npos ? std::string_view()
                                         : token.substr(0, colon);
}

}  // namespace

const json::Value* SchemaSet::FindType(std::string_view token) const {
  const PackageSchema* p = FindPackage(PackageOf(token));
  return p ? p->Type(token) : nullptr;
}

const json::Value* SchemaSet::FindResource(std::string_view token) const {
  const PackageSchema* p = FindPackage(PackageOf(token));
  return p ? p->Resource(token) : nullptr;
}

const json::Value* SchemaSet::FindProvider(std::string_view package) const {
  const PackageSchema* p = FindPackage(package);
  return p ? p->Provider() : nullptr;
}

}  // namespace pstate::types
