// Puppet type expressions: the parser (lib/puppet/pops/types/type_parser.rb
// and the parameter rules of type_factory.rb) and `assignable?` (types.rb).
#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json/number.h"
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
    kUndef
  };
  K k = K::kType;
  std::size_t offset = 0;
  TypePtr type;
  std::string text;  // number text, string content, regexp source
  bool boolean = false;
  std::vector<Param> keys;    // kHash
  std::vector<Param> values;  // kHash
};

std::size_t CodePoints(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Result<TypePtr> Run() {
    TypePtr t = ParseType(0);
    if (t) {
      SkipSpace();
      if (pos_ < text_.size()) FailAt(pos_, "unexpected text after the type");
    }
    if (!error_.empty()) return Status(Errc::kSyntax, error_);
    return t;
  }

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
    if (c == '{') {
      p->k = Param::K::kHash;
      ++pos_;
      while (Peek() != '}') {
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
        if (Peek() != ',') break;
        ++pos_;
      }
      if (Peek() != '}') {
        FailAt(pos_, "expected '}'");
        return false;
      }
      ++pos_;
      return true;
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
    return t;
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
    static constexpr std::pair<std::string_view, Kind> kNames[] = {
        {"Any", Kind::kAny},
        {"Unit", Kind::kUnit},
        {"Undef", Kind::kUndef},
        {"Default", Kind::kDefault},
        {"Scalar", Kind::kScalar},
        {"ScalarData", Kind::kScalarData},
        {"Data", Kind::kData},
        {"Numeric", Kind::kNumeric},
        {"Integer", Kind::kInteger},
        {"Float", Kind::kFloat},
        {"String", Kind::kString},
        {"Enum", Kind::kEnum},
        {"Pattern", Kind::kPattern},
        {"Boolean", Kind::kBoolean},
        {"Array", Kind::kArray},
        {"Hash", Kind::kHash},
        {"Tuple", Kind::kTuple},
        {"Struct", Kind::kStruct},
        {"Collection", Kind::kCollection},
        {"Optional", Kind::kOptional},
        {"NotUndef", Kind::kNotUndef},
        {"Variant", Kind::kVariant},
        {"Callable", Kind::kCallable},
        {"Sensitive", Kind::kSensitive},
        {"Regexp", Kind::kRegexp},
    };
    bool known = false;
    for (const auto& [n, k] : kNames) {
      if (name == n) {
        t->kind = k;
        known = true;
      }
    }
    if (!known) {
      FailAt(at, "unknown type '" + std::string(name) + "'");
      return false;
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
          for (const StructMember& other : t->members) {
            if (other.key == m.key) {
              FailAt(k.offset, "duplicate Struct key");
              return false;
            }
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
    }
    return true;
  }

  std::string_view text_;
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

bool Sub(const PuppetType& t, const PuppetType& o) {
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

Result<TypePtr> ParseType(std::string_view text) { return Parser(text).Run(); }

bool IsAssignable(const PuppetType& type, const PuppetType& other) {
  return Sub(type, other);
}

}  // namespace pstate::types::puppet
