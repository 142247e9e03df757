// Puppet type expressions: the parser (lib/puppet/pops/types/type_parser.rb
// and the parameter rules of type_factory.rb) and `assignable?` (types.rb).
#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json/number.h"
#include "json/parser.h"
#include "types/puppet.h"
#include "types/puppet_regex.h"

namespace pstate::types::puppet {
namespace {

constexpr int kMaxDepth = 64;

// One parameter between the brackets.
struct Param {
  enum class K {
    kType,
    kInteger,
    kFloat,
    kDefault,
    kString,
    kRegex,
    kHash,
    kBool,
    kUndef,
    kArray
  };
  K k = K::kType;
  std::size_t offset = 0;
  TypePtr type;
  std::string text;  // number text, string content, regexp source
  bool boolean = false;
  std::vector<Param> keys;    // kHash
  std::vector<Param> values;  // kHash
  std::vector<Param> items;   // kArray
};

std::size_t CodePoints(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

class Parser {
 public:
  /// `aliases`: the names a type may refer to (may be null).
  Parser(std::string_view text, const Aliases* aliases)
      : text_(text), aliases_(aliases) {}

  Result<TypePtr> Run() {
    TypePtr t = ParseType(0);
    if (t) {
      SkipSpace();
      if (pos_ < text_.size()) FailAt(pos_, "unexpected text after the type");
    }
    if (!error_.empty()) return Status(Errc::kSyntax, error_);
    return t;
  }

  /// Where parsing stopped (ParseAliases reads several definitions).
  std::size_t pos() const { return pos_; }
  /// Parses one type at the current position, leaving what follows.
  TypePtr ParseOne() {
    TypePtr t = ParseType(0);
    return error_.empty() ? t : nullptr;
  }
  const std::string& error() const { return error_; }

 private:
  void FailAt(std::size_t offset, std::string_view what) {
    if (!error_.empty()) return;
    error_ = "at offset " + std::to_string(offset) + " of the type: ";
    error_ += what;
  }
  bool failed() const { return !error_.empty(); }

  void SkipSpace() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' ||
            text_[pos_] == '\r')) {
      ++pos_;
    }
  }
  char Peek() {
    SkipSpace();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  static bool IsAlnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
  }

  std::string_view Word() {
    std::size_t start = pos_;
    while (pos_ < text_.size() &&
           (IsAlnum(text_[pos_]) ||
            (text_[pos_] == ':' && pos_ + 2 < text_.size() &&
             text_[pos_ + 1] == ':' && text_[pos_ + 2] >= 'A' &&
             text_[pos_ + 2] <= 'Z'))) {
      pos_ += text_[pos_] == ':' ? 2u : 1u;
    }
    return text_.substr(start, pos_ - start);
  }

  bool QuotedString(std::string* out) {
    char quote = text_[pos_];
    std::size_t start = pos_++;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      char c = text_[pos_++];
      if (c == '\\' && pos_ < text_.size()) {
        char e = text_[pos_++];
        if (quote == '\'') {
          // Single quotes: only \\ and \' are escapes.
          if (e != '\\' && e != '\'') out->push_back('\\');
          out->push_back(e);
        } else {
          switch (e) {
            case 'n': out->push_back('\n'); break;
            case 't': out->push_back('\t'); break;
            case 'r': out->push_back('\r'); break;
            case 's': out->push_back(' '); break;
            case '"':
            case '\\':
            case '\'':
            case '$': out->push_back(e); break;
            default: out->push_back('\\'); out->push_back(e);
          }
        }
      } else {
        out->push_back(c);
      }
    }
    if (pos_ >= text_.size()) {
      FailAt(start, "unterminated string");
      return false;
    }
    ++pos_;
    return true;
  }

  // Items read by `one`, separated by commas (a trailing one allowed), up
  // to and including `close`.
  template <typename F>
  bool Items(char close, F&& one) {
    while (Peek() != close) {
      if (!one()) return false;
      if (Peek() != ',') break;
      ++pos_;
    }
    if (Peek() != close) {
      FailAt(pos_, std::string("expected '") + close + "'");
      return false;
    }
    ++pos_;
    return true;
  }

  bool ParseParam(Param* p, int depth) {
    SkipSpace();
    p->offset = pos_;
    if (pos_ >= text_.size()) {
      FailAt(pos_, "expected a type parameter before the end of the type");
      return false;
    }
    char c = text_[pos_];
    if (c >= 'A' && c <= 'Z') {
      p->k = Param::K::kType;
      p->type = ParseType(depth + 1);
      return p->type != nullptr;
    }
    if (c == '\'' || c == '"') {
      p->k = Param::K::kString;
      return QuotedString(&p->text);
    }
    if (c == '/') {
      p->k = Param::K::kRegex;
      std::size_t start = pos_++;
      while (pos_ < text_.size() && text_[pos_] != '/') {
        if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) {
          if (text_[pos_ + 1] != '/') p->text.push_back('\\');
          p->text.push_back(text_[pos_ + 1]);
          pos_ += 2;
          continue;
        }
        p->text.push_back(text_[pos_++]);
      }
      if (pos_ >= text_.size()) {
        FailAt(start, "unterminated regular expression");
        return false;
      }
      ++pos_;
      return true;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      std::size_t start = pos_;
      if (c == '-') ++pos_;
      bool is_float = false;
      while (pos_ < text_.size() &&
             ((text_[pos_] >= '0' && text_[pos_] <= '9') ||
              text_[pos_] == '.' || text_[pos_] == 'e' || text_[pos_] == 'E' ||
              ((text_[pos_] == '-' || text_[pos_] == '+') &&
               (text_[pos_ - 1] == 'e' || text_[pos_ - 1] == 'E')))) {
        if (text_[pos_] == '.' || text_[pos_] == 'e' || text_[pos_] == 'E') {
          is_float = true;
        }
        ++pos_;
      }
      p->text = std::string(text_.substr(start, pos_ - start));
      if (!json::IsNumberText(p->text)) {
        FailAt(start, "not a number");
        return false;
      }
      p->k = is_float ? Param::K::kFloat : Param::K::kInteger;
      return true;
    }
    if (c == '[') {
      // An array literal (Object and Callable parameters).
      p->k = Param::K::kArray;
      ++pos_;
      return Items(']', [&] {
        Param item;
        if (!ParseParam(&item, depth + 1)) return false;
        p->items.push_back(std::move(item));
        return true;
      });
    }
    if (c == '{') {
      p->k = Param::K::kHash;
      ++pos_;
      return Items('}', [&] {
        Param key;
        Param value;
        if (!ParseParam(&key, depth + 1)) return false;
        SkipSpace();
        if (text_.substr(pos_, 2) != "=>") {
          FailAt(pos_, "expected '=>'");
          return false;
        }
        pos_ += 2;
        if (!ParseParam(&value, depth + 1)) return false;
        p->keys.push_back(std::move(key));
        p->values.push_back(std::move(value));
        return true;
      });
    }
    std::string_view word = Word();
    if (word == "default") {
      p->k = Param::K::kDefault;
    } else if (word == "true" || word == "false") {
      p->k = Param::K::kBool;
      p->boolean = word == "true";
    } else if (word == "undef") {
      p->k = Param::K::kUndef;
    } else if (!word.empty() && word[0] >= 'a' && word[0] <= 'z') {
      p->k = Param::K::kString;  // a bare word is a string (hash keys)
      p->text = std::string(word);
    } else {
      FailAt(p->offset, "expected a type parameter");
      return false;
    }
    return true;
  }

  TypePtr ParseType(int depth) {
    if (depth > kMaxDepth) {
      FailAt(pos_, "the type is nested too deeply");
      return nullptr;
    }
    SkipSpace();
    std::size_t start = pos_;
    if (pos_ >= text_.size() || text_[pos_] < 'A' || text_[pos_] > 'Z') {
      FailAt(pos_, pos_ >= text_.size()
                       ? "expected a type before the end"
                       : "expected a type name (which starts with a capital)");
      return nullptr;
    }
    std::string_view name = Word();
    std::vector<Param> params;
    bool bracket = false;
    if (Peek() == '[') {
      bracket = true;
      ++pos_;
      while (Peek() != ']') {
        Param p;
        if (!ParseParam(&p, depth)) return nullptr;
        params.push_back(std::move(p));
        if (Peek() != ',') break;
        ++pos_;
      }
      if (Peek() != ']') {
        FailAt(pos_, pos_ >= text_.size() ? "expected ']' before the end"
                                          : "expected ',' or ']'");
        return nullptr;
      }
      ++pos_;
    }
    auto t = std::make_shared<PuppetType>();
    t->text = std::string(text_.substr(start, pos_ - start));
    if (!Build(name, start, bracket, params, t.get())) return nullptr;
    Canonical(params, t.get());
    return t;
  }

  // --- printing (type_formatter.rb) ---------------------------------------

  static std::string Quote(std::string_view s) {
    std::string out = "'";
    for (char c : s) {
      if (c == '\\' || c == '\'') out += '\\';
      out += c;
    }
    return out + "'";
  }
  static std::string Slashed(std::string_view source) {
    std::string out = "/";
    for (char c : source) {
      if (c == '/') out += '\\';
      out += c;
    }
    return out + "/";
  }
  static std::string ParamText(const Param& p) {
    switch (p.k) {
      case Param::K::kType: return p.type->text;
      case Param::K::kInteger:
      case Param::K::kFloat: return p.text;
      case Param::K::kDefault: return "default";
      case Param::K::kString: return Quote(p.text);
      case Param::K::kRegex: return Slashed(p.text);
      case Param::K::kBool: return p.boolean ? "true" : "false";
      case Param::K::kUndef: return "undef";
      case Param::K::kArray: {
        std::string out = "[";
        for (std::size_t i = 0; i < p.items.size(); ++i) {
          if (i > 0) out += ", ";
          out += ParamText(p.items[i]);
        }
        return out + "]";
      }
      case Param::K::kHash: {
        std::string out = "{";
        for (std::size_t i = 0; i < p.keys.size(); ++i) {
          if (i > 0) out += ", ";
          out += ParamText(p.keys[i]) + " => " + ParamText(p.values[i]);
        }
        return out + "}";
      }
    }
    return "";
  }
  // range_array_part: [from or default, to], without an open end.
  static void Range(std::vector<std::string>* parts,
                    const std::optional<std::string>& from,
                    const std::optional<std::string>& to) {
    if (!from && !to) return;
    parts->push_back(from ? *from : "default");
    if (to) parts->push_back(*to);
  }
  static void SizeRange(std::vector<std::string>* parts, std::int64_t min,
                        const std::optional<std::int64_t>& max) {
    Range(
        parts,
        min > 0 || max ? std::optional<std::string>(std::to_string(min))
                       : std::nullopt,
        max ? std::optional<std::string>(std::to_string(*max)) : std::nullopt);
  }
  static std::string Joined(std::string_view name,
                            const std::vector<std::string>& parts) {
    if (parts.empty()) return std::string(name);
    std::string out(name);
    out += '[';
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (i > 0) out += ", ";
      out += parts[i];
    }
    return out + "]";
  }
  static std::string ElementOrAny(const std::vector<TypePtr>& e,
                                  std::size_t i) {
    return i < e.size() ? e[i]->text : std::string("Any");
  }
  // A contained type; a String with one value prints as that string.
  static std::string Contained(const PuppetType& t) {
    if (t.kind == Kind::kString && t.value) return Quote(*t.value);
    return t.text;
  }
  static std::string FloatBound(const std::string& n) {
    return n.find_first_of(".eE") == std::string::npos ? n + ".0" : n;
  }

  // Puppet's canonical spelling of a parsed type (TypeFormatter#string),
  // which messages use; types whose parameters are Ruby data (Callable,
  // Object, SemVer, ...) keep their parameters as written.
  void Canonical(const std::vector<Param>& params, PuppetType* t) const {
    std::vector<std::string> parts;
    switch (t->kind) {
      case Kind::kAny: t->text = "Any"; return;
      case Kind::kUnit: t->text = "Unit"; return;
      case Kind::kUndef: t->text = "Undef"; return;
      case Kind::kDefault: t->text = "Default"; return;
      case Kind::kScalar: t->text = "Scalar"; return;
      case Kind::kScalarData: t->text = "ScalarData"; return;
      case Kind::kData: t->text = "Data"; return;
      case Kind::kRichData: t->text = "RichData"; return;
      case Kind::kNumeric:
      case Kind::kInteger:
      case Kind::kFloat: {
        const bool is_float = t->kind == Kind::kFloat;
        Range(
            &parts,
            t->from && is_float ? std::optional(FloatBound(*t->from)) : t->from,
            t->to && is_float ? std::optional(FloatBound(*t->to)) : t->to);
        t->text = Joined(t->kind == Kind::kNumeric   ? "Numeric"
                         : t->kind == Kind::kInteger ? "Integer"
                                                     : "Float",
                         parts);
        return;
      }
      case Kind::kString:
        SizeRange(&parts, t->min_size, t->max_size);
        t->text = Joined("String", parts);
        return;
      case Kind::kEnum:
        for (const std::string& v : t->enum_values) parts.push_back(Quote(v));
        if (t->case_insensitive) parts.push_back("true");
        t->text = Joined("Enum", parts);
        return;
      case Kind::kPattern:
      case Kind::kRegexp:
        for (const Pattern& p : t->patterns) parts.push_back(Slashed(p.source));
        t->text =
            Joined(t->kind == Kind::kPattern ? "Pattern" : "Regexp", parts);
        return;
      case Kind::kBoolean:
        if (t->boolean) parts.push_back(*t->boolean ? "true" : "false");
        t->text = Joined("Boolean", parts);
        return;
      case Kind::kArray:
      case Kind::kHash: {
        const bool array = t->kind == Kind::kArray;
        const char* name = array ? "Array" : "Hash";
        if (t->max_size && *t->max_size == 0) {
          t->text = std::string(name) + "[0, 0]";
          return;
        }
        if (t->elements.empty() && t->min_size == 0 && !t->max_size) {
          t->text = name;
          return;
        }
        parts.push_back(ElementOrAny(t->elements, 0));
        if (!array) parts.push_back(ElementOrAny(t->elements, 1));
        SizeRange(&parts, t->min_size, t->max_size);
        t->text = Joined(name, parts);
        return;
      }
      case Kind::kCollection:
        SizeRange(&parts, t->min_size, t->max_size);
        t->text = Joined("Collection", parts);
        return;
      case Kind::kTuple:
        for (const TypePtr& e : t->elements) parts.push_back(e->text);
        if (t->has_size) {
          // A size is printed as given: [min] or [min, max].
          parts.push_back(std::to_string(t->min_size));
          if (t->max_size) parts.push_back(std::to_string(*t->max_size));
        }
        t->text = Joined("Tuple", parts);
        return;
      case Kind::kStruct: {
        if (t->members.empty()) {
          t->text = "Struct";
          return;
        }
        std::string hash = "{";
        for (std::size_t i = 0; i < t->members.size(); ++i) {
          const StructMember& m = t->members[i];
          if (i > 0) hash += ", ";
          switch (m.key_kind) {
            case StructMember::KeyKind::kPlain: hash += Quote(m.key); break;
            case StructMember::KeyKind::kOptional:
              hash += "Optional[" + Quote(m.key) + "]";
              break;
            case StructMember::KeyKind::kNotUndef:
              hash += "NotUndef[" + Quote(m.key) + "]";
              break;
          }
          hash += " => " + m.type->text;
        }
        t->text = "Struct[" + hash + "}]";
        return;
      }
      case Kind::kOptional:
      case Kind::kNotUndef:
      case Kind::kSensitive:
      case Kind::kType:
      case Kind::kIterable:
      case Kind::kIterator: {
        static constexpr std::pair<Kind, std::string_view> kNames[] = {
            {Kind::kOptional, "Optional"},   {Kind::kNotUndef, "NotUndef"},
            {Kind::kSensitive, "Sensitive"}, {Kind::kType, "Type"},
            {Kind::kIterable, "Iterable"},   {Kind::kIterator, "Iterator"}};
        std::string_view name;
        for (const auto& [k, n] : kNames) {
          if (k == t->kind) name = n;
        }
        if (!t->elements.empty()) parts.push_back(Contained(*t->elements[0]));
        t->text = Joined(name, parts);
        return;
      }
      case Kind::kVariant:
        for (const TypePtr& e : t->elements) parts.push_back(e->text);
        t->text = Joined("Variant", parts);
        return;
      case Kind::kInit:
        for (const Param& p : params) parts.push_back(ParamText(p));
        t->text = Joined("Init", parts);
        return;
      case Kind::kAlias: {
        auto it = aliases_->spelled.find(t->alias);
        if (it != aliases_->spelled.end()) t->text = it->second;
        return;
      }
      default: return;  // as written
    }
  }

  // --- turning a name and its parameters into a type -----------------------

  bool NoParams(std::size_t at, bool bracket,
                const std::vector<Param>& params) {
    if (bracket && !params.empty()) {
      FailAt(params[0].offset, "this type takes no parameters");
      return false;
    }
    (void)at;
    return true;
  }

  // A size bound: a non-negative integer, or default (open).
  bool Size(const Param& p, std::optional<std::int64_t>* out) {
    if (p.k == Param::K::kDefault) {
      out->reset();
      return true;
    }
    if (p.k != Param::K::kInteger || p.text[0] == '-' || p.text.size() > 15) {
      FailAt(p.offset, "a size must be a non-negative integer or default");
      return false;
    }
    *out = std::stoll(p.text);
    return true;
  }

  bool SizeRange(const std::vector<Param>& params, std::size_t first,
                 PuppetType* t) {
    std::optional<std::int64_t> lo;
    std::optional<std::int64_t> hi;
    if (params.size() > first + 2) {
      FailAt(params[first + 2].offset, "too many parameters");
      return false;
    }
    if (params.size() > first && !Size(params[first], &lo)) return false;
    if (params.size() > first + 1 && !Size(params[first + 1], &hi)) {
      return false;
    }
    t->min_size = lo.value_or(0);
    t->max_size = hi;
    if (hi && *hi < t->min_size) {
      FailAt(params[first + 1].offset,
             "the maximum size is below the minimum size");
      return false;
    }
    t->has_size = params.size() > first;
    return true;
  }

  bool IsSizeParam(const Param& p) {
    return p.k == Param::K::kInteger || p.k == Param::K::kDefault;
  }

  bool NumberRange(const std::vector<Param>& params, Kind kind, PuppetType* t) {
    if (params.size() > 2) {
      FailAt(params[2].offset, "too many parameters");
      return false;
    }
    for (std::size_t i = 0; i < params.size(); ++i) {
      const Param& p = params[i];
      if (p.k == Param::K::kDefault) continue;
      bool ok = p.k == Param::K::kInteger ||
                (p.k == Param::K::kFloat && kind != Kind::kInteger);
      if (!ok) {
        FailAt(p.offset, kind == Kind::kInteger
                             ? "an Integer bound must be an integer or default"
                             : "a bound must be a number or default");
        return false;
      }
      (i == 0 ? t->from : t->to) = p.text;
    }
    if (t->from && t->to && json::CompareNumbers(*t->from, *t->to) > 0) {
      FailAt(params[0].offset,
             "the lower bound is above the upper bound (ArgumentError)");
      return false;
    }
    return true;
  }

  bool AddPattern(const Param& p, PuppetType* t) {
    std::string source;
    if (p.k == Param::K::kString || p.k == Param::K::kRegex) {
      source = p.text;
    } else if (p.k == Param::K::kType && p.type->kind == Kind::kRegexp) {
      for (const Pattern& q : p.type->patterns) t->patterns.push_back(q);
      return true;
    } else if (p.k == Param::K::kType && p.type->kind == Kind::kPattern) {
      for (const Pattern& q : p.type->patterns) t->patterns.push_back(q);
      return true;
    } else {
      FailAt(p.offset, "a Pattern takes regular expressions or strings");
      return false;
    }
    std::string error;
    std::size_t at = 0;
    std::shared_ptr<const Regex> re = Regex::Compile(source, &error, &at);
    if (!re) {
      // The offset of a regexp literal's content is after its '/'.
      FailAt(p.offset + 1 + at, "bad regular expression: " + error);
      return false;
    }
    t->patterns.push_back({std::move(source), std::move(re)});
    return true;
  }

  // Optional['name'] / NotUndef['name']: a String type with one value.
  TypePtr StringValue(const Param& p) {
    auto s = std::make_shared<PuppetType>();
    s->kind = Kind::kString;
    s->value = p.text;
    s->text = "String";
    return s;
  }

  bool Build(std::string_view name, std::size_t at, bool bracket,
             const std::vector<Param>& params, PuppetType* t) {
    // Puppet looks a type name up lower-cased (type_parser.rb type_map),
    // so `Semver` and `SemVer` are one type.
    static constexpr std::pair<std::string_view, Kind> kNames[] = {
        {"any", Kind::kAny},
        {"unit", Kind::kUnit},
        {"undef", Kind::kUndef},
        {"default", Kind::kDefault},
        {"scalar", Kind::kScalar},
        {"scalardata", Kind::kScalarData},
        {"data", Kind::kData},
        {"richdata", Kind::kRichData},
        {"puppet::lookupvalue", Kind::kRichData},
        {"numeric", Kind::kNumeric},
        {"integer", Kind::kInteger},
        {"float", Kind::kFloat},
        {"string", Kind::kString},
        {"enum", Kind::kEnum},
        {"pattern", Kind::kPattern},
        {"boolean", Kind::kBoolean},
        {"array", Kind::kArray},
        {"hash", Kind::kHash},
        {"tuple", Kind::kTuple},
        {"struct", Kind::kStruct},
        {"collection", Kind::kCollection},
        {"optional", Kind::kOptional},
        {"notundef", Kind::kNotUndef},
        {"variant", Kind::kVariant},
        {"callable", Kind::kCallable},
        {"sensitive", Kind::kSensitive},
        {"regexp", Kind::kRegexp},
        {"iterable", Kind::kIterable},
        {"init", Kind::kInit},
        {"type", Kind::kType},
        {"runtime", Kind::kRuntime},
        {"class", Kind::kClass},
        {"resource", Kind::kResource},
        {"catalogentry", Kind::kCatalogEntry},
        {"iterator", Kind::kIterator},
        {"semver", Kind::kSemVer},
        {"semverrange", Kind::kSemVerRange},
        {"timespan", Kind::kTimespan},
        {"timestamp", Kind::kTimestamp},
        {"binary", Kind::kBinary},
        {"uri", Kind::kUri},
        {"object", Kind::kObject},
        {"typeset", Kind::kTypeSet},
        // Pcore's object types (lib/puppet/pops/pcore.rb).
        {"error", Kind::kObject},
        {"deferred", Kind::kObject},
        {"task", Kind::kObject},
    };
    const std::string lower = Lower(name);
    if (lower == "richdatakey" || lower == "puppet::lookupkey") {
      // static_loader.rb BUILTIN_ALIASES.
      if (!NoParams(at, bracket, params)) return false;
      return Alias(Parser("Variant[String, Numeric]", nullptr).Run(), t);
    }
    bool known = false;
    for (const auto& [n, k] : kNames) {
      if (lower == n) {
        t->kind = k;
        known = true;
      }
    }
    if (!known) {
      if (aliases_ != nullptr && aliases_->by_name.count(lower) != 0) {
        if (!NoParams(at, bracket, params)) return false;
        t->kind = Kind::kAlias;
        t->alias = lower;
        t->alias_table = aliases_;
        return true;
      }
      // An unresolved type reference (type_parser.rb: TypeReference).
      t->kind = Kind::kTypeReference;
      return true;
    }
    switch (t->kind) {
      case Kind::kAny:
      case Kind::kUnit:
      case Kind::kUndef:
      case Kind::kDefault:
      case Kind::kScalar:
      case Kind::kScalarData:
      case Kind::kData: return NoParams(at, bracket, params);
      case Kind::kNumeric:
      case Kind::kInteger:
      case Kind::kFloat: return NumberRange(params, t->kind, t);
      case Kind::kString:
        if (!params.empty() && params[0].k == Param::K::kType &&
            params[0].type->kind == Kind::kInteger) {
          // String[Integer[a, b]]: the length range.
          const PuppetType& r = *params[0].type;
          if ((r.from && r.from->front() == '-') || params.size() > 1) {
            FailAt(params[0].offset, "bad String size");
            return false;
          }
          t->min_size = r.from ? std::stoll(*r.from) : 0;
          if (r.to) t->max_size = std::stoll(*r.to);
          return true;
        }
        return SizeRange(params, 0, t);
      case Kind::kEnum:
        for (std::size_t i = 0; i < params.size(); ++i) {
          const Param& p = params[i];
          if (p.k == Param::K::kString) {
            t->enum_values.push_back(p.text);
          } else if (p.k == Param::K::kBool && i + 1 == params.size() &&
                     i > 0) {
            t->case_insensitive = p.boolean;
          } else {
            FailAt(p.offset,
                   "an Enum takes strings (and a final true for "
                   "case-insensitive matching)");
            return false;
          }
        }
        return true;
      case Kind::kPattern:
        for (const Param& p : params) {
          if (!AddPattern(p, t)) return false;
        }
        return true;
      case Kind::kRegexp:
        if (params.size() > 1) {
          FailAt(params[1].offset, "too many parameters");
          return false;
        }
        return params.empty() || AddPattern(params[0], t);
      case Kind::kBoolean:
        if (params.size() > 1 ||
            (params.size() == 1 && params[0].k != Param::K::kBool)) {
          FailAt(params.empty() ? at : params.back().offset,
                 "a Boolean takes true or false");
          return false;
        }
        if (params.size() == 1) t->boolean = params[0].boolean;
        return true;
      case Kind::kArray:
      case Kind::kCollection: {
        std::size_t first = 0;
        if (t->kind == Kind::kArray && !params.empty() &&
            params[0].k == Param::K::kType) {
          t->elements.push_back(params[0].type);
          first = 1;
        }
        for (std::size_t i = first; i < params.size(); ++i) {
          if (!IsSizeParam(params[i])) {
            FailAt(params[i].offset, "expected a size (an integer or default)");
            return false;
          }
        }
        return SizeRange(params, first, t);
      }
      case Kind::kHash: {
        std::size_t first = 0;
        if (!params.empty() && params[0].k == Param::K::kType) {
          if (params.size() < 2 || params[1].k != Param::K::kType) {
            FailAt(params.size() < 2 ? params[0].offset : params[1].offset,
                   "a Hash takes a key type and a value type");
            return false;
          }
          t->elements = {params[0].type, params[1].type};
          first = 2;
        }
        for (std::size_t i = first; i < params.size(); ++i) {
          if (!IsSizeParam(params[i])) {
            FailAt(params[i].offset, "expected a size (an integer or default)");
            return false;
          }
        }
        return SizeRange(params, first, t);
      }
      case Kind::kTuple: {
        std::size_t i = 0;
        for (; i < params.size() && params[i].k == Param::K::kType; ++i) {
          t->elements.push_back(params[i].type);
        }
        for (std::size_t k = i; k < params.size(); ++k) {
          if (!IsSizeParam(params[k])) {
            FailAt(params[k].offset, "expected a type or a size");
            return false;
          }
        }
        if (!SizeRange(params, i, t)) return false;
        return true;
      }
      case Kind::kStruct: {
        if (params.size() > 1 ||
            (params.size() == 1 && params[0].k != Param::K::kHash)) {
          FailAt(params.empty() ? at : params[0].offset,
                 "a Struct takes one hash of key => type");
          return false;
        }
        if (params.empty()) return true;
        const Param& h = params[0];
        for (std::size_t i = 0; i < h.keys.size(); ++i) {
          StructMember m;
          const Param& k = h.keys[i];
          if (k.k == Param::K::kString) {
            m.key = k.text;
          } else if (k.k == Param::K::kType &&
                     (k.type->kind == Kind::kOptional ||
                      k.type->kind == Kind::kNotUndef) &&
                     k.type->elements.size() == 1 &&
                     k.type->elements[0]->kind == Kind::kString &&
                     k.type->elements[0]->value) {
            m.key = *k.type->elements[0]->value;
            m.key_kind = k.type->kind == Kind::kOptional
                             ? StructMember::KeyKind::kOptional
                             : StructMember::KeyKind::kNotUndef;
          } else {
            FailAt(k.offset,
                   "a Struct key is a string, Optional['key'] or "
                   "NotUndef['key']");
            return false;
          }
          if (h.values[i].k != Param::K::kType) {
            FailAt(h.values[i].offset, "a Struct value must be a type");
            return false;
          }
          if (t->member_index.Insert(m.key, t->members.size())) {
            FailAt(k.offset, "duplicate Struct key");
            return false;
          }
          m.type = h.values[i].type;
          t->members.push_back(std::move(m));
        }
        return true;
      }
      case Kind::kOptional:
      case Kind::kNotUndef:
      case Kind::kSensitive:
        if (params.size() > 1) {
          FailAt(params[1].offset, "too many parameters");
          return false;
        }
        if (params.size() == 1) {
          if (params[0].k == Param::K::kType) {
            t->elements.push_back(params[0].type);
          } else if (params[0].k == Param::K::kString &&
                     t->kind != Kind::kSensitive) {
            t->elements.push_back(StringValue(params[0]));
          } else {
            FailAt(params[0].offset, "expected a type");
            return false;
          }
        }
        return true;
      case Kind::kVariant:
        for (const Param& p : params) {
          if (p.k != Param::K::kType) {
            FailAt(p.offset, "a Variant takes types");
            return false;
          }
          t->elements.push_back(p.type);
        }
        return true;
      case Kind::kCallable:
        for (const Param& p : params) {
          if (p.k == Param::K::kType) t->elements.push_back(p.type);
        }
        return true;
      case Kind::kRichData:
      case Kind::kCatalogEntry:
      case Kind::kSemVerRange:
      case Kind::kBinary: return NoParams(at, bracket, params);
      case Kind::kType:
      case Kind::kIterable:
      case Kind::kIterator:
        if (params.size() > 1) {
          FailAt(params[1].offset, "too many parameters");
          return false;
        }
        if (params.size() == 1) {
          if (params[0].k != Param::K::kType) {
            FailAt(params[0].offset, "expected a type");
            return false;
          }
          t->elements.push_back(params[0].type);
        }
        return true;
      case Kind::kInit: return BuildInit(params, t);
      case Kind::kRuntime:
        if (bracket && params.size() != 2) {
          FailAt(at, "a Runtime takes two parameters (runtime, name)");
          return false;
        }
        return true;
      case Kind::kClass:
      case Kind::kUri:
        if (bracket && params.size() != 1) {
          FailAt(at, "this type takes one parameter");
          return false;
        }
        return true;
      case Kind::kResource:
        if (bracket && (params.empty() || params.size() > 2)) {
          FailAt(at, "a Resource takes a type name and an optional title");
          return false;
        }
        return true;
      case Kind::kTimespan:
      case Kind::kTimestamp:
        if (params.size() > 2) {
          FailAt(params[2].offset, "too many parameters");
          return false;
        }
        return true;
      case Kind::kSemVer:
        for (const Param& p : params) {
          if (p.k != Param::K::kString) {
            FailAt(p.offset, "a SemVer takes version ranges (strings)");
            return false;
          }
        }
        return true;
      case Kind::kObject:
      case Kind::kTypeSet:
        if (params.size() > 1 ||
            (params.size() == 1 && params[0].k != Param::K::kHash)) {
          FailAt(params.empty() ? at : params[0].offset,
                 "this type takes one hash of its attributes");
          return false;
        }
        return true;
      case Kind::kAlias:
      case Kind::kTypeReference: return true;
    }
    return true;
  }

  // Becomes the (already parsed) type `r`, keeping what was written.
  static bool Alias(Result<TypePtr> r, PuppetType* t) {
    std::string text = std::move(t->text);
    *t = **r;
    t->text = std::move(text);
    return true;
  }

  // --- Init[T, args...] (p_init_type.rb) ----------------------------------

  // The signatures of T.new (the dispatches of each type's new_function in
  // types.rb and p_*_type.rb, without the argument_mismatch handlers), as
  // Tuple types with their arity; nullptr when T has no `new`.
  static const std::vector<TypePtr>* NewSignatures(Kind kind) {
    // Integer/Float patterns: types.rb INTEGER_PATTERN_LENIENT,
    // FLOAT_PATTERN.
#define PSTATE_SIGN "[+-]?\\s*"
#define PSTATE_HEX_OCT_BIN "(?:0[xX][0-9A-Fa-f]+)|(?:0[0-7]+)|(?:0[bB][01]+)"
    static const std::string kIntegerPattern =
        "/\\A" PSTATE_SIGN
        "(?:(?:\\d+)|(?:0[xX][0-9A-Fa-f]+)|(?:0[bB][01]+))\\z/";
    static const std::string kFloatPattern =
        "/\\A" PSTATE_SIGN
        "(?:(?:(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE]-?\\d+)?)|" PSTATE_HEX_OCT_BIN
        ")\\z/";
#undef PSTATE_SIGN
#undef PSTATE_HEX_OCT_BIN
    static const std::string kIntConv = "Variant[Numeric, Boolean, Pattern[" +
                                        kIntegerPattern +
                                        "], Timespan, Timestamp]";
    static const std::string kFloatConv = "Variant[Numeric, Boolean, Pattern[" +
                                          kFloatPattern +
                                          "], Timespan, Timestamp]";
    static const std::string kNumConv =
        "Variant[Integer, Float, Boolean, Pattern[" + kFloatPattern +
        "], Timespan, Timestamp]";
    static const std::string kRadix =
        "Variant[Default, Integer[2,2], Integer[8,8], Integer[10,10], "
        "Integer[16,16]]";
    // semantic_puppet's Version::REGEX_FULL.
    static const std::string kSemVerPattern =
        "Pattern[/\\A(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)"
        "(?:-([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?"
        "(?:\\+([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?\\Z/]";
    static const std::string kQualifier =
        "Pattern[/\\A(?<part>[0-9A-Za-z-]+)(?:\\.\\g<part>)*\\Z/]";
    static const std::string kTimeFormats =
        "Variant[String[2], Array[String[2], 1]]";
    auto parse = [](std::vector<std::string> texts) {
      std::vector<TypePtr> out;
      for (const std::string& text : texts) {
        Result<TypePtr> r = Parser(text, nullptr).Run();
        if (r.ok()) out.push_back(*r);
      }
      return out;
    };
    static const std::vector<TypePtr> kInteger = parse({
        "Tuple[" + kIntConv + ", " + kRadix + ", Boolean, 1, 3]",
        "Tuple[Struct[{from => " + kIntConv + ", Optional[radix] => " + kRadix +
            ", Optional[abs] => Boolean}]]",
    });
    static const std::vector<TypePtr> kFloat = parse({
        "Tuple[" + kFloatConv + ", Boolean, 1, 2]",
        "Tuple[Struct[{from => " + kFloatConv + ", Optional[abs] => Boolean}]]",
    });
    static const std::vector<TypePtr> kNumeric = parse({
        "Tuple[" + kNumConv + ", Boolean, 1, 2]",
        "Tuple[Struct[{from => " + kNumConv + ", Optional[abs] => Boolean}]]",
    });
    static const std::vector<TypePtr> kString = parse({
        // Formats = Variant[Default, String[1], TypeMap], and a TypeMap's
        // keys are types: no JSON value is one.
        "Tuple[Any, Variant[Default, String[1]], 1, 2]",
    });
    static const std::vector<TypePtr> kBoolean = parse({
        "Tuple[Variant[Integer, Float, Boolean, "
        "Enum['false','true','yes','no','y','n',true]]]",
    });
    static const std::vector<TypePtr> kArray = parse({
        "Tuple[Variant[Array, Hash, Binary, Iterable], Boolean[false], 1, 2]",
        "Tuple[Any, Boolean[true]]",
    });
    static const std::vector<TypePtr> kHash = parse({
        "Tuple[Array[Tuple[Array, Any], 1], Enum[tree, hash_tree], 1, 2]",
        "Tuple[Array[Tuple[Any, Any], 1]]",
        "Tuple[Any]",
    });
    static const std::vector<TypePtr> kRegexp = parse({
        "Tuple[String, Boolean, 1, 2]",
    });
    static const std::vector<TypePtr> kSemVer = parse({
        "Tuple[" + kSemVerPattern + "]",
        "Tuple[Integer[0, default], Integer[0, default], Integer[0, "
        "default], " +
            kQualifier + ", " + kQualifier + ", 3, 5]",
        "Tuple[Struct[{major => Integer[0, default], minor => Integer[0, "
        "default], patch => Integer[0, default], Optional[prerelease] => " +
            kQualifier + ", Optional[build] => " + kQualifier + "}]]",
    });
    static const std::vector<TypePtr> kSemVerRange = parse({
        "Tuple[String[1]]",
        "Tuple[Variant[Default, SemVer], Variant[Default, SemVer], Boolean, 2, "
        "3]",
        "Tuple[Struct[{min => Variant[Default, SemVer], Optional[max] => "
        "Variant[Default, SemVer], Optional[exclude_max] => Boolean}]]",
    });
    static const std::vector<TypePtr> kTimespan = parse({
        "Tuple[Variant[Integer, Float]]",
        "Tuple[String[1], " + kTimeFormats + ", 1, 2]",
        "Tuple[Integer, Integer, Integer, Integer, Integer, Integer, Integer, "
        "4, 7]",
        "Tuple[Struct[{string => String[1], Optional[format] => " +
            kTimeFormats + "}]]",
        "Tuple[Struct[{Optional[negative] => Boolean, Optional[days] => "
        "Integer, Optional[hours] => Integer, Optional[minutes] => Integer, "
        "Optional[seconds] => Integer, Optional[milliseconds] => Integer, "
        "Optional[microseconds] => Integer, Optional[nanoseconds] => "
        "Integer}]]",
    });
    static const std::vector<TypePtr> kTimestamp = parse({
        "Tuple[0, 0]",
        "Tuple[Variant[Integer, Float]]",
        "Tuple[String[1], " + kTimeFormats + ", String[1], 1, 3]",
        "Tuple[Struct[{string => String[1], Optional[format] => " +
            kTimeFormats + ", Optional[timezone] => String[1]}]]",
        "Tuple[Struct[{Optional[year] => Integer, Optional[month] => "
        "Integer, Optional[week] => Integer, Optional[day] => Integer, "
        "Optional[hour] => Integer, Optional[minute] => Integer, "
        "Optional[second] => Integer, Optional[millisecond] => Integer, "
        "Optional[microsecond] => Integer, Optional[nanosecond] => "
        "Integer}]]",
    });
    static const std::vector<TypePtr> kBinary = parse({
        "Tuple[String, Enum['%b', '%u', '%B', '%s', '%r'], 1, 2]",
        "Tuple[Array[Integer[0, 255]]]",
        "Tuple[Variant[Struct[{value => String, 'format' => "
        "Optional[Enum['%b', '%u', '%B', '%s', '%r']]}], Struct[{value => "
        "Array[Integer[0, 255]]}]]]",
    });
    static const std::vector<TypePtr> kUri = parse({
        "Tuple[String[1]]",
        "Tuple[Struct[{Optional[scheme] => String, Optional[userinfo] => "
        "String, Optional[host] => String, Optional[port] => "
        "Integer[0, default], Optional[path] => String, Optional[query] => "
        "String, Optional[fragment] => String, Optional[opaque] => "
        "String}]]",
    });
    static const std::vector<TypePtr> kSensitive = parse({
        "Tuple[Sensitive]",
        "Tuple[Any]",
    });
    static const std::vector<TypePtr> kType = parse({"Tuple[String[1]]"});
    static const std::vector<TypePtr> kUnit = parse({"Tuple[Any]"});
    switch (kind) {
      case Kind::kInteger: return &kInteger;
      case Kind::kFloat: return &kFloat;
      case Kind::kNumeric: return &kNumeric;
      case Kind::kString: return &kString;
      case Kind::kBoolean: return &kBoolean;
      case Kind::kArray:
      case Kind::kTuple: return &kArray;  // Tuple's new is Array's
      case Kind::kHash:
      case Kind::kStruct: return &kHash;  // Struct's new is Hash's
      case Kind::kRegexp: return &kRegexp;
      case Kind::kSemVer: return &kSemVer;
      case Kind::kSemVerRange: return &kSemVerRange;
      case Kind::kTimespan: return &kTimespan;
      case Kind::kTimestamp: return &kTimestamp;
      case Kind::kBinary: return &kBinary;
      case Kind::kUri: return &kUri;
      case Kind::kSensitive: return &kSensitive;
      case Kind::kType: return &kType;
      case Kind::kUnit: return &kUnit;
      default: return nullptr;
    }
  }

  // A literal argument of Init[T, args] as the JSON value it stands for
  // (nullopt for `default` and for a type).
  static std::optional<std::string> ArgJson(const Param& p) {
    switch (p.k) {
      case Param::K::kInteger:
      case Param::K::kFloat: return p.text;
      case Param::K::kBool: return p.boolean ? "true" : "false";
      case Param::K::kUndef: return "null";
      case Param::K::kString: {
        std::string out = "\"";
        for (char c : p.text) {
          if (c == '"' || c == '\\') out += '\\';
          out += c;
        }
        return out + "\"";
      }
      default: return std::nullopt;
    }
  }

  // Would `type` accept the argument `p` (literal arguments only)?
  static bool AcceptsArg(const PuppetType& type, const Param& p) {
    if (p.k == Param::K::kDefault) {
      switch (type.kind) {
        case Kind::kAny:
        case Kind::kDefault: return true;
        case Kind::kOptional:
        case Kind::kNotUndef:
          return type.elements.empty() || AcceptsArg(*type.elements[0], p);
        case Kind::kVariant:
          for (const TypePtr& m : type.elements) {
            if (AcceptsArg(*m, p)) return true;
          }
          return false;
        default: return false;
      }
    }
    std::optional<std::string> text = ArgJson(p);
    if (!text) return false;
    json::Arena arena;
    json::Parser parser;
    json::Value v;
    if (parser.ParseDocument(*text, 0, arena, &v) != json::ParseStatus::kOk) {
      return false;
    }
    RegexBudget budget;
    return Check(type, v, budget).outcome == Outcome::kOk;
  }

  bool BuildInit(const std::vector<Param>& params, PuppetType* t) {
    if (params.empty()) return true;  // Init: RichData
    if (params[0].k != Param::K::kType) {
      FailAt(params[0].offset, "an Init takes a type first");
      return false;
    }
    const TypePtr& target = params[0].type;
    t->elements.push_back(target);
    const PuppetType* resolved = target.get();
    // A type alias's `new` is its type's (types.rb PTypeAliasType).
    for (int i = 0; resolved->kind == Kind::kAlias && i < kMaxDepth; ++i) {
      auto it = resolved->alias_table->by_name.find(resolved->alias);
      if (it == resolved->alias_table->by_name.end() || !it->second) break;
      resolved = it->second.get();
    }
    const std::vector<TypePtr>* signatures = NewSignatures(resolved->kind);
    if (signatures == nullptr) {
      FailAt(params[0].offset, "Creation of new instance of type '" +
                                   target->text + "' is not supported");
      return false;
    }
    const std::size_t args = params.size() - 1;
    for (const TypePtr& sig : *signatures) {
      const std::int64_t lo = sig->min_size;
      const std::optional<std::int64_t> hi =
          sig->has_size ? sig->max_size
                        : std::optional<std::int64_t>(
                              static_cast<std::int64_t>(sig->elements.size()));
      const std::int64_t min = sig->has_size ? lo : *hi;
      if (sig->elements.empty()) continue;  // now(): no argument
      if (args == 0) {
        // Signatures of exactly one argument add their parameter type;
        // the others are tried with the value as their argument list.
        if (min == 1 && hi && *hi == 1) {
          t->init_single.push_back(sig->elements[0]);
        } else {
          t->init_other.push_back(sig);
          if (min <= 1) t->init_optional_single = true;
        }
        continue;
      }
      // Init[T, args]: the signatures that take the value and the args.
      const auto count = static_cast<std::int64_t>(args + 1);
      if (count < min || (hi && count > *hi)) continue;
      bool fits = true;
      for (std::size_t i = 0; i < args && fits; ++i) {
        const PuppetType& at_i =
            *sig->elements[std::min(i + 1, sig->elements.size() - 1)];
        fits = AcceptsArg(at_i, params[i + 1]);
      }
      if (fits) t->init_single.push_back(sig->elements[0]);
    }
    if (args > 0 && t->init_single.empty()) {
      FailAt(params[1].offset, "The type '" + t->text +
                                   "' does not represent a valid set of "
                                   "parameters for " +
                                   target->text + ".new()");
      return false;
    }
    return true;
  }

  std::string_view text_;
  const Aliases* aliases_ = nullptr;
  std::size_t pos_ = 0;
  std::string error_;
};

// --- assignable? ---------------------------------------------------------

bool RangeWithin(const PuppetType& outer, const PuppetType& inner) {
  // [inner.from, inner.to] ⊆ [outer.from, outer.to]; open bounds are ∓∞.
  if (outer.from &&
      (!inner.from || json::CompareNumbers(*inner.from, *outer.from) < 0)) {
    return false;
  }
  if (outer.to &&
      (!inner.to || json::CompareNumbers(*inner.to, *outer.to) > 0)) {
    return false;
  }
  return true;
}

bool SizeWithin(std::int64_t outer_min, std::optional<std::int64_t> outer_max,
                std::int64_t inner_min, std::optional<std::int64_t> inner_max) {
  if (inner_min < outer_min) return false;
  if (outer_max && (!inner_max || *inner_max > *outer_max)) return false;
  return true;
}

// The size range of a Tuple: explicit, or exactly its element count.
void TupleSize(const PuppetType& t, std::int64_t* lo,
               std::optional<std::int64_t>* hi) {
  if (t.has_size) {
    *lo = t.min_size;
    *hi = t.max_size;
  } else {
    *lo = static_cast<std::int64_t>(t.elements.size());
    *hi = *lo;
  }
}

bool Sub(const PuppetType& t, const PuppetType& o);

bool SubOrAny(const std::vector<TypePtr>& e, const PuppetType& o) {
  return e.empty() || Sub(*e[0], o);
}

const PuppetType& AnyType() {
  static const PuppetType any;
  return any;
}
const PuppetType& UndefType() {
  static const PuppetType undef = [] {
    PuppetType t;
    t.kind = Kind::kUndef;
    return t;
  }();
  return undef;
}
const PuppetType& StringType() {
  static const PuppetType s = [] {
    PuppetType t;
    t.kind = Kind::kString;
    return t;
  }();
  return s;
}

bool StringMatches(const PuppetType& t, std::string_view s) {
  // An instance check of the String-like type `t` on the string `s`.
  switch (t.kind) {
    case Kind::kString: {
      if (t.value) return *t.value == s;
      auto n = static_cast<std::int64_t>(CodePoints(s));
      return n >= t.min_size && (!t.max_size || n <= *t.max_size);
    }
    case Kind::kEnum:
      for (const std::string& v : t.enum_values) {
        if (v == s) return true;
        if (t.case_insensitive && v.size() == s.size()) {
          bool eq = true;
          for (std::size_t i = 0; i < v.size() && eq; ++i) {
            char a = v[i];
            char b = s[i];
            if (a >= 'A' && a <= 'Z') a = static_cast<char>(a - 'A' + 'a');
            if (b >= 'A' && b <= 'Z') b = static_cast<char>(b - 'A' + 'a');
            eq = a == b;
          }
          if (eq) return true;
        }
      }
      return false;
    case Kind::kPattern:
      if (t.patterns.empty()) return true;
      for (const Pattern& p : t.patterns) {
        if (p.regex->Search(s) == Regex::Match::kYes) return true;
      }
      return false;
    default: return false;
  }
}

bool IsStringish(Kind k) {
  return k == Kind::kString || k == Kind::kEnum || k == Kind::kPattern;
}

bool ScalarDataKind(Kind k) {
  return k == Kind::kScalarData || k == Kind::kNumeric || k == Kind::kInteger ||
         k == Kind::kFloat || IsStringish(k) || k == Kind::kBoolean;
}

const PuppetType* Resolved(const PuppetType& t) {
  const PuppetType* r = &t;
  for (int i = 0; r->kind == Kind::kAlias && i < kMaxDepth; ++i) {
    auto it = r->alias_table->by_name.find(r->alias);
    if (it == r->alias_table->by_name.end() || !it->second) return r;
    r = it->second.get();
  }
  return r;
}

bool Sub(const PuppetType& t, const PuppetType& o) {
  if (t.kind == Kind::kAlias || o.kind == Kind::kAlias) {
    // Recursive aliases: assumed assignable past a nesting limit (as
    // Puppet's RecursionGuard assumes a pair it is already comparing).
    thread_local int depth = 0;
    if (depth > kMaxDepth) return true;
    ++depth;
    bool r = Sub(*Resolved(t), *Resolved(o));
    --depth;
    return r;
  }
  if (t.kind == Kind::kAny || t.kind == Kind::kUnit) return true;
  if (o.kind == Kind::kUnit) return true;
  if (o.kind == Kind::kVariant) {
    for (const TypePtr& m : o.elements) {
      if (!Sub(t, *m)) return false;
    }
    return true;
  }
  switch (t.kind) {
    case Kind::kVariant:
      for (const TypePtr& m : t.elements) {
        if (Sub(*m, o)) return true;
      }
      return false;
    case Kind::kOptional:
      if (o.kind == Kind::kUndef) return true;
      if (o.kind == Kind::kOptional) {
        return o.elements.empty() ? t.elements.empty()
                                  : SubOrAny(t.elements, *o.elements[0]);
      }
      return SubOrAny(t.elements, o);
    case Kind::kNotUndef:
      if (o.kind == Kind::kNotUndef) {
        return o.elements.empty() ? t.elements.empty()
                                  : SubOrAny(t.elements, *o.elements[0]);
      }
      return !Sub(o, UndefType()) && SubOrAny(t.elements, o);
    case Kind::kUndef: return o.kind == Kind::kUndef;
    case Kind::kDefault: return o.kind == Kind::kDefault;
    case Kind::kData:
      switch (o.kind) {
        case Kind::kData:
        case Kind::kUndef: return true;
        case Kind::kArray: return !o.elements.empty() && Sub(t, *o.elements[0]);
        case Kind::kHash:
          if (o.elements.empty()) return false;
          return Sub(StringType(), *o.elements[0]) && Sub(t, *o.elements[1]);
        case Kind::kTuple:
          for (const TypePtr& e : o.elements) {
            if (!Sub(t, *e)) return false;
          }
          return true;
        case Kind::kStruct:
          for (const StructMember& m : o.members) {
            if (!Sub(t, *m.type)) return false;
          }
          return true;
        case Kind::kOptional:
        case Kind::kNotUndef:
          return !o.elements.empty() && Sub(t, *o.elements[0]);
        default: return ScalarDataKind(o.kind);
      }
    case Kind::kScalar:
      return o.kind == Kind::kScalar || o.kind == Kind::kRegexp ||
             ScalarDataKind(o.kind);
    case Kind::kScalarData: return ScalarDataKind(o.kind);
    case Kind::kNumeric:
      return (o.kind == Kind::kNumeric || o.kind == Kind::kInteger ||
              o.kind == Kind::kFloat) &&
             RangeWithin(t, o);
    case Kind::kInteger:
    case Kind::kFloat: return o.kind == t.kind && RangeWithin(t, o);
    case Kind::kString:
      if (o.kind == Kind::kString) {
        if (t.value) return o.value && *o.value == *t.value;
        if (o.value) return StringMatches(t, *o.value);
        return SizeWithin(t.min_size, t.max_size, o.min_size, o.max_size);
      }
      if (o.kind == Kind::kEnum) {
        for (const std::string& v : o.enum_values) {
          if (!StringMatches(t, v)) return false;
        }
        return true;
      }
      if (o.kind == Kind::kPattern) {
        return !t.value && t.min_size == 0 && !t.max_size;
      }
      return false;
    case Kind::kEnum:
      if (t.enum_values.empty()) return IsStringish(o.kind);
      if (o.kind == Kind::kEnum) {
        if (o.enum_values.empty()) return false;
        for (const std::string& v : o.enum_values) {
          if (!StringMatches(t, v)) return false;
        }
        return true;
      }
      if (o.kind == Kind::kString && o.value) {
        return StringMatches(t, *o.value);
      }
      return false;
    case Kind::kPattern:
      if (t.patterns.empty()) return IsStringish(o.kind);
      if (o.kind == Kind::kEnum) {
        if (o.enum_values.empty()) return false;
        for (const std::string& v : o.enum_values) {
          if (!StringMatches(t, v)) return false;
        }
        return true;
      }
      if (o.kind == Kind::kString && o.value) {
        return StringMatches(t, *o.value);
      }
      if (o.kind == Kind::kPattern) {
        for (const Pattern& q : o.patterns) {
          bool found = false;
          for (const Pattern& p : t.patterns) {
            found = found || p.source == q.source;
          }
          if (!found) return false;
        }
        return !o.patterns.empty();
      }
      return false;
    case Kind::kBoolean:
      return o.kind == Kind::kBoolean &&
             (!t.boolean || (o.boolean && *o.boolean == *t.boolean));
    case Kind::kRegexp: return o.kind == Kind::kRegexp;
    case Kind::kArray: {
      const PuppetType& te = t.elements.empty() ? AnyType() : *t.elements[0];
      if (o.kind == Kind::kArray) {
        const PuppetType& oe = o.elements.empty() ? AnyType() : *o.elements[0];
        return Sub(te, oe) &&
               SizeWithin(t.min_size, t.max_size, o.min_size, o.max_size);
      }
      if (o.kind == Kind::kTuple) {
        for (const TypePtr& e : o.elements) {
          if (!Sub(te, *e)) return false;
        }
        std::int64_t lo;
        std::optional<std::int64_t> hi;
        TupleSize(o, &lo, &hi);
        return SizeWithin(t.min_size, t.max_size, lo, hi);
      }
      return false;
    }
    case Kind::kTuple: {
      std::int64_t lo;
      std::optional<std::int64_t> hi;
      TupleSize(t, &lo, &hi);
      if (o.kind == Kind::kTuple) {
        std::int64_t olo;
        std::optional<std::int64_t> ohi;
        TupleSize(o, &olo, &ohi);
        if (!SizeWithin(lo, hi, olo, ohi)) return false;
        std::size_t n = std::max(t.elements.size(), o.elements.size());
        for (std::size_t i = 0;
             i < n && !t.elements.empty() && !o.elements.empty(); ++i) {
          const PuppetType& a = *t.elements[std::min(i, t.elements.size() - 1)];
          const PuppetType& b = *o.elements[std::min(i, o.elements.size() - 1)];
          if (!Sub(a, b)) return false;
        }
        return true;
      }
      if (o.kind == Kind::kArray) {
        if (!SizeWithin(lo, hi, o.min_size, o.max_size)) return false;
        const PuppetType& oe = o.elements.empty() ? AnyType() : *o.elements[0];
        for (const TypePtr& e : t.elements) {
          if (!Sub(*e, oe)) return false;
        }
        return true;
      }
      return false;
    }
    case Kind::kHash: {
      const PuppetType& tk = t.elements.empty() ? AnyType() : *t.elements[0];
      const PuppetType& tv = t.elements.empty() ? AnyType() : *t.elements[1];
      if (o.kind == Kind::kHash) {
        if (o.elements.empty()) {
          return t.elements.empty() &&
                 SizeWithin(t.min_size, t.max_size, o.min_size, o.max_size);
        }
        return Sub(tk, *o.elements[0]) && Sub(tv, *o.elements[1]) &&
               SizeWithin(t.min_size, t.max_size, o.min_size, o.max_size);
      }
      if (o.kind == Kind::kStruct) {
        std::int64_t required = 0;
        for (const StructMember& m : o.members) {
          PuppetType key;
          key.kind = Kind::kString;
          key.value = m.key;
          if (!Sub(tk, key) || !Sub(tv, *m.type)) return false;
          bool optional = m.key_kind == StructMember::KeyKind::kOptional ||
                          (m.key_kind == StructMember::KeyKind::kPlain &&
                           Sub(*m.type, UndefType()));
          if (!optional) ++required;
        }
        return SizeWithin(t.min_size, t.max_size, required,
                          static_cast<std::int64_t>(o.members.size()));
      }
      return false;
    }
    case Kind::kStruct: {
      if (o.kind == Kind::kStruct) {
        for (const StructMember& m : o.members) {
          bool declared = false;
          for (const StructMember& n : t.members) declared |= n.key == m.key;
          if (!declared) return false;
        }
        for (const StructMember& m : t.members) {
          const StructMember* other = nullptr;
          for (const StructMember& n : o.members) {
            if (n.key == m.key) other = &n;
          }
          bool optional = m.key_kind == StructMember::KeyKind::kOptional ||
                          (m.key_kind == StructMember::KeyKind::kPlain &&
                           Sub(*m.type, UndefType()));
          if (!other) {
            if (!optional) return false;
            continue;
          }
          if (!Sub(*m.type, *other->type)) return false;
        }
        return true;
      }
      if (o.kind == Kind::kHash) {
        // types.rb PStructType: a Hash fits when its size range lies
        // between the required and the declared key counts, and its key
        // and value types fit every member (the §7.4 quirk).
        std::int64_t required = 0;
        for (const StructMember& m : t.members) {
          bool optional = m.key_kind == StructMember::KeyKind::kOptional ||
                          (m.key_kind == StructMember::KeyKind::kPlain &&
                           Sub(*m.type, UndefType()));
          if (!optional) ++required;
        }
        if (!o.max_size || o.min_size < required ||
            *o.max_size > static_cast<std::int64_t>(t.members.size())) {
          return false;
        }
        const PuppetType& ok = o.elements.empty() ? AnyType() : *o.elements[0];
        const PuppetType& ov = o.elements.empty() ? AnyType() : *o.elements[1];
        if (!Sub(StringType(), ok)) return false;
        for (const StructMember& m : t.members) {
          if (!Sub(*m.type, ov)) return false;
        }
        return true;
      }
      return false;
    }
    case Kind::kCollection:
      if (o.kind == Kind::kArray || o.kind == Kind::kHash ||
          o.kind == Kind::kCollection) {
        return SizeWithin(t.min_size, t.max_size, o.min_size, o.max_size);
      }
      if (o.kind == Kind::kTuple) {
        std::int64_t lo;
        std::optional<std::int64_t> hi;
        TupleSize(o, &lo, &hi);
        return SizeWithin(t.min_size, t.max_size, lo, hi);
      }
      if (o.kind == Kind::kStruct) {
        return SizeWithin(t.min_size, t.max_size, 0,
                          static_cast<std::int64_t>(o.members.size()));
      }
      return false;
    case Kind::kSensitive:
      return o.kind == Kind::kSensitive &&
             (o.elements.empty() ? t.elements.empty()
                                 : SubOrAny(t.elements, *o.elements[0]));
    case Kind::kCallable:
      // Parameters are contravariant.
      if (o.kind != Kind::kCallable) return false;
      if (t.elements.size() != o.elements.size()) return false;
      for (std::size_t i = 0; i < t.elements.size(); ++i) {
        if (!Sub(*o.elements[i], *t.elements[i])) return false;
      }
      return true;
    default: return false;
  }
}

}  // namespace

Result<TypePtr> ParseType(std::string_view text, const AliasesPtr& aliases) {
  Result<TypePtr> r = Parser(text, aliases.get()).Run();
  if (!r.ok() || !aliases) return r;
  // The root keeps the aliases its nodes may refer to alive.
  auto root = std::make_shared<PuppetType>(**r);
  root->aliases = aliases;
  return TypePtr(std::move(root));
}

namespace {

// Does `t` reach the alias `name` without passing a container (which takes
// one level of the value)? Such an alias could never be resolved.
bool ReachesBare(const PuppetType& t, const Aliases& aliases,
                 const std::string& name, int depth) {
  if (depth > kMaxDepth) return true;
  switch (t.kind) {
    case Kind::kAlias: {
      if (t.alias == name) return true;
      auto it = aliases.by_name.find(t.alias);
      return it != aliases.by_name.end() &&
             ReachesBare(*it->second, aliases, name, depth + 1);
    }
    case Kind::kVariant:
    case Kind::kOptional:
    case Kind::kNotUndef:
    case Kind::kInit:
      for (const TypePtr& e : t.elements) {
        if (ReachesBare(*e, aliases, name, depth + 1)) return true;
      }
      return false;
    default: return false;
  }
}

bool IsSpaceOrComment(std::string_view text, std::size_t* i) {
  bool any = false;
  while (*i < text.size()) {
    char c = text[*i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';') {
      ++*i;
    } else if (c == '#') {
      while (*i < text.size() && text[*i] != '\n') ++*i;
    } else {
      break;
    }
    any = true;
  }
  return any;
}

}  // namespace

Result<AliasesPtr> ParseAliases(const std::vector<std::string>& definitions) {
  auto aliases = std::make_shared<Aliases>();
  // Each definition: [type] Name = <type text>. The names first, so that
  // aliases may refer to later ones and to themselves.
  struct Def {
    std::string name;
    std::string_view body;  ///< from the type on, of `text`
    const std::string* text;
  };
  std::vector<Def> defs;
  for (const std::string& text : definitions) {
    std::size_t i = 0;
    for (;;) {
      IsSpaceOrComment(text, &i);
      if (i >= text.size()) break;
      if (text.compare(i, 5, "type ") == 0) i += 5;
      IsSpaceOrComment(text, &i);
      std::size_t start = i;
      while (i < text.size() && ((text[i] >= 'a' && text[i] <= 'z') ||
                                 (text[i] >= 'A' && text[i] <= 'Z') ||
                                 (text[i] >= '0' && text[i] <= '9') ||
                                 text[i] == '_' || text[i] == ':')) {
        ++i;
      }
      std::string name = text.substr(start, i - start);
      if (name.empty() || name[0] < 'A' || name[0] > 'Z') {
        return Status(Errc::kSyntax,
                      "a type alias is `type Name = Type`, with a "
                      "capitalized name (at offset " +
                          std::to_string(start) + ")");
      }
      IsSpaceOrComment(text, &i);
      if (i >= text.size() || text[i] != '=') {
        return Status(Errc::kSyntax,
                      "in the alias " + name + ": expected '=' after the name");
      }
      ++i;
      std::string lower = Lower(name);
      if (aliases->by_name.count(lower) != 0) {
        return Status(Errc::kSyntax, "the alias " + name + " is defined twice");
      }
      aliases->by_name.emplace(lower, nullptr);
      aliases->spelled.emplace(lower, name);
      defs.push_back({name, std::string_view(text).substr(i), &text});
      // The body ends where one type ends: find it by parsing.
      Parser probe(std::string_view(text).substr(i), aliases.get());
      if (!probe.ParseOne()) {
        return Status(Errc::kSyntax,
                      "in the alias " + name + ": " + probe.error());
      }
      defs.back().body = std::string_view(text).substr(i, probe.pos());
      i += probe.pos();
    }
  }
  for (const Def& d : defs) {
    Result<TypePtr> body = Parser(d.body, aliases.get()).Run();
    if (!body.ok()) {
      return Status(Errc::kSyntax,
                    "in the alias " + d.name + ": " + body.status().message());
    }
    aliases->by_name[Lower(d.name)] = *body;
  }
  for (const Def& d : defs) {
    std::string lower = Lower(d.name);
    if (ReachesBare(*aliases->by_name[lower], *aliases, lower, 0)) {
      return Status(Errc::kSyntax, "the alias " + d.name +
                                       " refers to itself outside a "
                                       "container and cannot be resolved");
    }
  }
  return AliasesPtr(std::move(aliases));
}

bool IsAssignable(const PuppetType& type, const PuppetType& other) {
  return Sub(type, other);
}

}  // namespace pstate::types::puppet
