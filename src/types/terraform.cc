// Terraform type constraints: a small HCL native-syntax expression parser
// (hashicorp/hcl hclsyntax: identifiers, function calls, tuple and object
// constructors, literals), the type reading of ext/typeexpr/get_type.go
// with optional attributes and defaults, and defaults.go's Apply.
//
// Default values are evaluated with no variables and no functions, as
// typeexpr does (`defaultExpr.Value(nil)`). pstate evaluates literals,
// tuple and object constructors, unary minus and `!`; templates with
// interpolation, heredocs and binary operators are reported as not
// supported, with their offset.
#include "types/terraform.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "json/string_codec.h"
#include "types/cty.h"
#include "types/name_index.h"

namespace pstate::types {
namespace {

// ---- lexer ----------------------------------------------------------------

enum class Tok {
  kEof,
  kIdent,
  kNumber,
  kString,
  kOParen,
  kCParen,
  kOBrack,
  kCBrack,
  kOBrace,
  kCBrace,
  kComma,
  kEqual,
  kColon,
  kMinus,
  kBang,
  kDot,
  kOther,
};

struct Token {
  Tok kind = Tok::kEof;
  std::size_t begin = 0;
  std::size_t end = 0;
  bool newline_before = false;
  std::string text;  ///< ident name, number text, decoded string
};

Status SyntaxError(std::size_t offset, const std::string& message) {
  return Status(Errc::kSyntax, "at offset " + std::to_string(offset) +
                                   " of the type: " + message);
}

bool IsIdentStart(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c >= 0x80;
}
bool IsIdentChar(unsigned char c) {
  return IsIdentStart(c) || (c >= '0' && c <= '9') || c == '-';
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

void AppendUtf8(std::uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    *out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    *out += static_cast<char>(0xc0 | (cp >> 6));
    *out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    *out += static_cast<char>(0xe0 | (cp >> 12));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    *out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    *out += static_cast<char>(0xf0 | (cp >> 18));
    *out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    *out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

Status Lex(std::string_view s, std::vector<Token>* out) {
  std::size_t i = 0;
  bool newline = false;
  while (true) {
    // Whitespace and comments (hclsyntax scan_tokens.rl).
    while (i < s.size()) {
      char c = s[i];
      if (c == ' ' || c == '\t' || c == '\r') {
        ++i;
      } else if (c == '\n') {
        newline = true;
        ++i;
      } else if (c == '#' ||
                 (c == '/' && i + 1 < s.size() && s[i + 1] == '/')) {
        while (i < s.size() && s[i] != '\n') ++i;
      } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
        std::size_t close = s.find("*/", i + 2);
        if (close == std::string_view::npos) {
          return SyntaxError(i, "unterminated comment");
        }
        if (s.substr(i, close - i).find('\n') != std::string_view::npos) {
          newline = true;
        }
        i = close + 2;
      } else {
        break;
      }
    }
    Token t;
    t.begin = i;
    t.newline_before = newline;
    newline = false;
    if (i >= s.size()) {
      t.kind = Tok::kEof;
      t.end = i;
      out->push_back(std::move(t));
      return Status::Ok();
    }
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (IsIdentStart(c)) {
      std::size_t j = i;
      while (j < s.size() && IsIdentChar(static_cast<unsigned char>(s[j]))) {
        ++j;
      }
      t.kind = Tok::kIdent;
      t.text.assign(s.substr(i, j - i));
      i = j;
    } else if (IsDigit(static_cast<char>(c))) {
      std::size_t j = i;
      while (j < s.size() && IsDigit(s[j])) ++j;
      if (j + 1 < s.size() && s[j] == '.' && IsDigit(s[j + 1])) {
        ++j;
        while (j < s.size() && IsDigit(s[j])) ++j;
      }
      if (j < s.size() && (s[j] == 'e' || s[j] == 'E')) {
        std::size_t k = j + 1;
        if (k < s.size() && (s[k] == '+' || s[k] == '-')) ++k;
        if (k < s.size() && IsDigit(s[k])) {
          while (k < s.size() && IsDigit(s[k])) ++k;
          j = k;
        }
      }
      t.kind = Tok::kNumber;
      t.text.assign(s.substr(i, j - i));
      i = j;
    } else if (c == '"') {
      std::size_t j = i + 1;
      std::string text;
      while (true) {
        if (j >= s.size() || s[j] == '\n') {
          return SyntaxError(i, "unterminated template string");
        }
        char d = s[j];
        if (d == '"') {
          ++j;
          break;
        }
        if ((d == '$' || d == '%') && j + 1 < s.size() && s[j + 1] == '{') {
          return SyntaxError(j,
                             "template interpolation and directives are "
                             "not supported in type constraints");
        }
        if ((d == '$' || d == '%') && j + 2 < s.size() && s[j + 1] == d &&
            s[j + 2] == '{') {
          text += d;
          text += '{';
          j += 3;
          continue;
        }
        if (d != '\\') {
          text += d;
          ++j;
          continue;
        }
        if (j + 1 >= s.size()) return SyntaxError(j, "invalid escape sequence");
        char e = s[j + 1];
        switch (e) {
          case 'n':
            text += '\n';
            j += 2;
            break;
          case 'r':
            text += '\r';
            j += 2;
            break;
          case 't':
            text += '\t';
            j += 2;
            break;
          case '"':
            text += '"';
            j += 2;
            break;
          case '\\':
            text += '\\';
            j += 2;
            break;
          case 'u':
          case 'U': {
            std::size_t digits = e == 'u' ? 4 : 8;
            std::uint32_t cp = 0;
            if (j + 2 + digits > s.size()) {
              return SyntaxError(j, "invalid escape sequence");
            }
            for (std::size_t k = 0; k < digits; ++k) {
              char h = s[j + 2 + k];
              int v = IsDigit(h)               ? h - '0'
                      : (h >= 'a' && h <= 'f') ? h - 'a' + 10
                      : (h >= 'A' && h <= 'F') ? h - 'A' + 10
                                               : -1;
              if (v < 0) return SyntaxError(j, "invalid escape sequence");
              cp = cp * 16 + static_cast<std::uint32_t>(v);
            }
            if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
              return SyntaxError(j, "invalid escape sequence");
            }
            AppendUtf8(cp, &text);
            j += 2 + digits;
            break;
          }
          default: return SyntaxError(j, "invalid escape sequence");
        }
      }
      t.kind = Tok::kString;
      t.text = std::move(text);
      i = j;
    } else if (c == '<' && i + 1 < s.size() && s[i + 1] == '<') {
      return SyntaxError(i,
                         "heredoc templates are not supported in type "
                         "constraints");
    } else {
      switch (c) {
        case '(': t.kind = Tok::kOParen; break;
        case ')': t.kind = Tok::kCParen; break;
        case '[': t.kind = Tok::kOBrack; break;
        case ']': t.kind = Tok::kCBrack; break;
        case '{': t.kind = Tok::kOBrace; break;
        case '}': t.kind = Tok::kCBrace; break;
        case ',': t.kind = Tok::kComma; break;
        case '=': t.kind = Tok::kEqual; break;
        case ':': t.kind = Tok::kColon; break;
        case '-': t.kind = Tok::kMinus; break;
        case '!': t.kind = Tok::kBang; break;
        case '.': t.kind = Tok::kDot; break;
        default: t.kind = Tok::kOther; break;
      }
      ++i;
      if (t.kind == Tok::kEqual && i < s.size() &&
          (s[i] == '=' || s[i] == '>')) {
        t.kind = Tok::kOther;
        ++i;
      }
    }
    t.end = i;
    out->push_back(std::move(t));
  }
}

// ---- expressions ----------------------------------------------------------

struct Expr {
  enum class Kind {
    kIdent,      ///< a single bare name (hcl.ExprAsKeyword)
    kTraversal,  ///< a.b: a reference that is not a keyword
    kCall,
    kTuple,
    kObject,
    kNumber,
    kString,
    kNeg,
    kNot,
  };
  Kind kind = Kind::kIdent;
  std::size_t begin = 0;
  std::size_t end = 0;
  std::size_t args_begin = 0;  ///< kCall: offset of '('
  std::string text;
  std::vector<Expr> args;  ///< call arguments, tuple elements, operand
  std::vector<Expr> keys;  ///< object keys (values in args)
};

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : toks_(std::move(tokens)) {}

  Result<Expr> ParseAll() {
    auto e = ParseExpr(0);
    if (!e.ok()) return e;
    if (Peek().kind != Tok::kEof) {
      return SyntaxError(Peek().begin,
                         "extra characters after the type "
                         "expression");
    }
    return e;
  }

 private:
  const Token& Peek() const { return toks_[pos_]; }
  const Token& Next() {
    const Token& t = toks_[pos_];
    if (t.kind != Tok::kEof) ++pos_;
    return t;
  }

  Result<Expr> ParseExpr(int depth) {
    if (depth > 200) return SyntaxError(Peek().begin, "nested too deeply");
    const Token& t = Peek();
    if (t.kind == Tok::kMinus || t.kind == Tok::kBang) {
      Next();
      auto operand = ParseExpr(depth + 1);
      if (!operand.ok()) return operand;
      Expr e;
      e.kind = t.kind == Tok::kMinus ? Expr::Kind::kNeg : Expr::Kind::kNot;
      e.begin = t.begin;
      e.end = operand->end;
      e.args.push_back(std::move(*operand));
      return e;
    }
    auto e = ParsePrimary(depth);
    if (!e.ok()) return e;
    const Token& after = Peek();
    if (after.kind == Tok::kOther || after.kind == Tok::kMinus) {
      return SyntaxError(after.begin,
                         "operators are not supported in type "
                         "constraints");
    }
    return e;
  }

  Result<Expr> ParsePrimary(int depth) {
    const Token& t = Next();
    Expr e;
    e.begin = t.begin;
    switch (t.kind) {
      case Tok::kIdent: {
        e.text = t.text;
        if (Peek().kind == Tok::kOParen) {
          e.kind = Expr::Kind::kCall;
          e.args_begin = Peek().begin;
          Next();
          while (Peek().kind != Tok::kCParen) {
            if (Peek().kind == Tok::kEof) {
              return SyntaxError(t.begin,
                                 "there is no closing parenthesis "
                                 "for this function call");
            }
            auto arg = ParseExpr(depth + 1);
            if (!arg.ok()) return arg;
            e.args.push_back(std::move(*arg));
            if (Peek().kind == Tok::kComma) {
              Next();
            } else if (Peek().kind == Tok::kEof) {
              return SyntaxError(t.begin,
                                 "there is no closing parenthesis "
                                 "for this function call");
            } else if (Peek().kind != Tok::kCParen) {
              return SyntaxError(Peek().begin,
                                 "a comma is required to separate each "
                                 "function argument from the next");
            }
          }
          e.end = Next().end;
          return e;
        }
        e.kind = Expr::Kind::kIdent;
        e.end = t.end;
        while (Peek().kind == Tok::kDot) {
          Next();
          const Token& name = Next();
          if (name.kind != Tok::kIdent && name.kind != Tok::kNumber) {
            return SyntaxError(name.begin,
                               "an attribute name is required "
                               "after a dot");
          }
          e.kind = Expr::Kind::kTraversal;
          e.end = name.end;
        }
        return e;
      }
      case Tok::kNumber:
        e.kind = Expr::Kind::kNumber;
        e.text = t.text;
        e.end = t.end;
        return e;
      case Tok::kString:
        e.kind = Expr::Kind::kString;
        e.text = t.text;
        e.end = t.end;
        return e;
      case Tok::kOParen: {
        auto inner = ParseExpr(depth + 1);
        if (!inner.ok()) return inner;
        if (Peek().kind != Tok::kCParen) {
          return SyntaxError(Peek().begin,
                             "a closing parenthesis is "
                             "required");
        }
        Next();
        return inner;
      }
      case Tok::kOBrack: {
        e.kind = Expr::Kind::kTuple;
        while (Peek().kind != Tok::kCBrack) {
          if (Peek().kind == Tok::kEof) {
            return SyntaxError(t.begin,
                               "there is no closing bracket for "
                               "this tuple");
          }
          auto elem = ParseExpr(depth + 1);
          if (!elem.ok()) return elem;
          e.args.push_back(std::move(*elem));
          if (Peek().kind == Tok::kComma) {
            Next();
          } else if (Peek().kind != Tok::kCBrack) {
            return SyntaxError(Peek().begin,
                               "a comma is required between "
                               "tuple elements");
          }
        }
        e.end = Next().end;
        return e;
      }
      case Tok::kOBrace: {
        e.kind = Expr::Kind::kObject;
        while (Peek().kind != Tok::kCBrace) {
          if (Peek().kind == Tok::kEof) {
            return SyntaxError(t.begin,
                               "there is no closing brace for this "
                               "object");
          }
          auto key = ParseExpr(depth + 1);
          if (!key.ok()) return key;
          if (Peek().kind != Tok::kEqual && Peek().kind != Tok::kColon) {
            return SyntaxError(Peek().begin,
                               "expected an equals sign (\"=\") "
                               "to mark the beginning of the "
                               "attribute value");
          }
          Next();
          auto value = ParseExpr(depth + 1);
          if (!value.ok()) return value;
          e.keys.push_back(std::move(*key));
          e.args.push_back(std::move(*value));
          const Token& sep = Peek();
          if (sep.kind == Tok::kComma) {
            Next();
          } else if (sep.kind != Tok::kCBrace && !sep.newline_before) {
            return SyntaxError(sep.begin,
                               "expected a newline or comma to "
                               "mark the beginning of the next "
                               "attribute");
          }
        }
        e.end = Next().end;
        return e;
      }
      case Tok::kEof:
        return SyntaxError(t.begin, "a type expression is required");
      default: return SyntaxError(t.begin, "invalid expression");
    }
  }

  std::vector<Token> toks_;
  std::size_t pos_ = 0;
};

// ---- defaults (ext/typeexpr/defaults.go) ------------------------------------

struct Defaults {
  const cty::Type* type = nullptr;
  std::map<std::string, cty::Val, std::less<>> values;
  std::map<std::string, std::unique_ptr<Defaults>, std::less<>> children;
};

const Defaults* GetChild(const Defaults& d, bool is_index, std::size_t index,
                         std::string_view key) {
  if (is_index && d.type->kind == cty::Kind::kTuple) {
    auto it = d.children.find(std::to_string(index));
    return it == d.children.end() ? nullptr : it->second.get();
  }
  if (!is_index && d.type->kind == cty::Kind::kObject) {
    auto it = d.children.find(key);
    return it == d.children.end() ? nullptr : it->second.get();
  }
  auto it = d.children.find(std::string_view());
  return it == d.children.end() ? nullptr : it->second.get();
}

bool SameSources(std::span<const cty::Val> a, std::span<const cty::Val> b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].src == nullptr || a[i].src != b[i].src) return false;
  }
  return true;
}

// unifyAsSlice / unifyAsMap: empty when unification or a conversion fails.
bool UnifyValues(cty::Converter& conv, std::vector<cty::Val>* values) {
  std::vector<const cty::Type*> types;
  types.reserve(values->size());
  for (const cty::Val& v : *values) types.push_back(v.type);
  const cty::Type* u = conv.Unify(types, true);
  if (u == nullptr) return false;
  for (cty::Val& v : *values) {
    if (cty::TypesEqual(v.type, u)) continue;
    cty::Val r;
    cty::Failure ignored;
    if (!conv.ConvertKnownToExist(v, u, "", &r, &ignored)) return false;
    v = r;
  }
  return true;
}

cty::Val ApplyDefaults(const Defaults& d, const cty::Val& in,
                       cty::Converter& conv) {
  if (!in.is_known() || in.is_null()) return in;
  if (d.values.empty() && d.children.empty()) return in;
  cty::Val v = in;
  bool marked = v.marked;
  if (marked) {
    v.marked = false;
    v.src = in.inner_src;
    v.inner_src = nullptr;
  }
  cty::Kind kind = v.type->kind;
  cty::Val result;
  bool unchanged = false;
  if (kind == cty::Kind::kSet || kind == cty::Kind::kList ||
      kind == cty::Kind::kTuple) {
    std::vector<cty::Val> values;
    values.reserve(v.count);
    for (std::uint32_t i = 0; i < v.count; ++i) {
      const Defaults* child = GetChild(d, true, i, {});
      values.push_back(child ? ApplyDefaults(*child, v.elems[i], conv)
                             : v.elems[i]);
    }
    bool done = false;
    if (kind != cty::Kind::kTuple) {
      const cty::Type* ety = v.type->elem;
      if (values.empty()) {
        result = v;
        done = true;
      } else if (UnifyValues(conv, &values)) {
        cty::Val* elems = conv.arena().Allocate<cty::Val>(values.size());
        std::copy(values.begin(), values.end(), elems);
        std::uint32_t n = static_cast<std::uint32_t>(values.size());
        const cty::Type* common = values[0].type;
        for (const cty::Val& e : values) {
          if (e.type->kind != cty::Kind::kDynamic) {
            common = e.type;
            break;
          }
        }
        (void)ety;
        result = cty::Val();
        result.type = conv.types().Collection(kind, common);
        result.elems = elems;
        if (kind == cty::Kind::kSet) {
          bool hoisted = false;
          for (std::uint32_t i = 0; i < n; ++i) {
            if (elems[i].marked) {
              hoisted = true;
              elems[i].marked = false;
              elems[i].src = elems[i].inner_src;
            }
          }
          n = cty::CanonicalizeSet(elems, n);
          result.marked = hoisted;
        }
        result.count = n;
        done = true;
      }
    }
    if (!done) {
      result = conv.MakeTuple(values);
      unchanged =
          kind == cty::Kind::kTuple && SameSources(values, v.elements());
    }
  } else if (kind == cty::Kind::kObject || kind == cty::Kind::kMap) {
    std::vector<std::string_view> names;
    std::vector<cty::Val> values;
    for (std::uint32_t i = 0; i < v.count; ++i) {
      std::string_view key =
          kind == cty::Kind::kObject ? v.type->attrs[i].name : v.keys[i];
      const Defaults* child = GetChild(d, false, 0, key);
      names.push_back(key);
      values.push_back(child ? ApplyDefaults(*child, v.elems[i], conv)
                             : v.elems[i]);
    }
    bool added = false;
    for (const auto& [key, dv] : d.values) {
      auto it = std::find(names.begin(), names.end(), std::string_view(key));
      std::size_t idx = static_cast<std::size_t>(it - names.begin());
      if (it != names.end() && !values[idx].is_null()) continue;
      const Defaults* child = GetChild(d, false, 0, key);
      cty::Val filled = child ? ApplyDefaults(*child, dv, conv) : dv;
      if (it == names.end()) {
        names.push_back(key);
        values.push_back(filled);
      } else {
        values[idx] = filled;
      }
      added = true;
    }
    bool done = false;
    if (kind == cty::Kind::kMap) {
      if (values.empty()) {
        result = v;
        done = true;
      } else {
        // unifyAsMap works in key order.
        std::vector<std::size_t> order(names.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::sort(
            order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return names[a] < names[b]; });
        std::vector<std::string_view> sorted_names;
        std::vector<cty::Val> sorted_values;
        for (std::size_t i : order) {
          sorted_names.push_back(names[i]);
          sorted_values.push_back(values[i]);
        }
        if (UnifyValues(conv, &sorted_values)) {
          std::uint32_t n = static_cast<std::uint32_t>(sorted_values.size());
          auto* keys = conv.arena().Allocate<std::string_view>(n);
          auto* elems = conv.arena().Allocate<cty::Val>(n);
          std::copy(sorted_names.begin(), sorted_names.end(), keys);
          std::copy(sorted_values.begin(), sorted_values.end(), elems);
          const cty::Type* common = elems[0].type;
          for (std::uint32_t i = 0; i < n; ++i) {
            if (elems[i].type->kind != cty::Kind::kDynamic) {
              common = elems[i].type;
              break;
            }
          }
          result = cty::Val();
          result.type = conv.types().Collection(cty::Kind::kMap, common);
          result.count = n;
          result.elems = elems;
          result.keys = keys;
          done = true;
        }
      }
    }
    if (!done) {
      result = conv.MakeObject(names, values);
      unchanged = kind == cty::Kind::kObject && !added &&
                  SameSources(values, v.elements());
    }
  } else {
    return in;
  }
  if (unchanged) return in;
  if (marked) {
    if (!result.marked) {
      result.inner_src = result.src;
      result.src = nullptr;
    }
    result.marked = true;
  }
  return result;
}

// ---- type reading (ext/typeexpr/get_type.go) --------------------------------

class ParsedType final : public Type {
 public:
  json::Arena arena;
  const cty::Type* type = nullptr;
  std::unique_ptr<Defaults> defaults;
};

class TypeReader {
 public:
  TypeReader(json::Arena& arena) : conv_(arena) {}

  Status Read(const Expr& e, const cty::Type** type,
              std::unique_ptr<Defaults>* defaults) {
    defaults->reset();
    bool literal = e.kind == Expr::Kind::kIdent &&
                   (e.text == "true" || e.text == "false" || e.text == "null");
    if (e.kind == Expr::Kind::kIdent && !literal) {
      const std::string& kw = e.text;
      if (kw == "bool") return Set(type, cty::BoolType());
      if (kw == "string") return Set(type, cty::StringType());
      if (kw == "number") return Set(type, cty::NumberType());
      if (kw == "any") return Set(type, cty::DynamicType());
      if (kw == "list" || kw == "map" || kw == "set") {
        return SyntaxError(e.begin, "the " + kw +
                                        " type constructor requires "
                                        "one argument specifying the element "
                                        "type");
      }
      if (kw == "object") return SyntaxError(e.begin, kObjectArgs);
      if (kw == "tuple") return SyntaxError(e.begin, kTupleArgs);
      return SyntaxError(e.begin, "the keyword \"" + kw +
                                      "\" is not a valid type specification");
    }
    if (e.kind != Expr::Kind::kCall) {
      return SyntaxError(e.begin,
                         "a type specification is either a "
                         "primitive type keyword (bool, number, "
                         "string) or a complex type constructor "
                         "call, like list(string)");
    }
    const std::string& name = e.text;
    if (name == "bool" || name == "string" || name == "number") {
      return SyntaxError(e.args_begin, "primitive type keyword \"" + name +
                                           "\" does not expect arguments");
    }
    if (name == "any") {
      return SyntaxError(e.args_begin,
                         "type constraint keyword \"any\" does "
                         "not expect arguments");
    }
    bool constructor = name == "list" || name == "set" || name == "map" ||
                       name == "object" || name == "tuple";
    if (constructor && e.args.size() != 1) {
      std::size_t at = e.args.size() > 1 ? e.args[1].begin : e.args_begin;
      if (name == "object") return SyntaxError(at, kObjectArgs);
      if (name == "tuple") return SyntaxError(at, kTupleArgs);
      return SyntaxError(at, "the " + name +
                                 " type constructor requires one "
                                 "argument specifying the "
                                 "element type");
    }
    if (name == "list" || name == "set" || name == "map") {
      const cty::Type* ety;
      std::unique_ptr<Defaults> child;
      Status st = Read(e.args[0], &ety, &child);
      if (!st.ok()) return st;
      cty::Kind k = name == "list"  ? cty::Kind::kList
                    : name == "set" ? cty::Kind::kSet
                                    : cty::Kind::kMap;
      *type = conv_.types().Collection(k, ety);
      if (child) {
        // collectionDefaults: the element's defaults under the key "".
        auto d = std::make_unique<Defaults>();
        d->type = *type;
        d->children.emplace("", std::move(child));
        *defaults = std::move(d);
      }
      return Status::Ok();
    }
    if (name == "object") return ReadObject(e, type, defaults);
    if (name == "tuple") return ReadTuple(e, type, defaults);
    if (name == "optional") {
      return SyntaxError(e.begin,
                         "keyword \"optional\" is valid only as a "
                         "modifier for object type attributes");
    }
    return SyntaxError(
        e.begin, "keyword \"" + name + "\" is not a valid type constructor");
  }

 private:
  static constexpr const char* kObjectArgs =
      "the object type constructor requires one argument specifying the "
      "attribute types and values as a map";
  static constexpr const char* kTupleArgs =
      "the tuple type constructor requires one argument specifying the "
      "element types as a list";

  static Status Set(const cty::Type** type, const cty::Type* t) {
    *type = t;
    return Status::Ok();
  }

  Status ReadObject(const Expr& e, const cty::Type** type,
                    std::unique_ptr<Defaults>* defaults) {
    const Expr& map = e.args[0];
    if (map.kind != Expr::Kind::kObject) {
      return SyntaxError(map.begin,
                         "the object type constructor requires a "
                         "map whose keys are attribute names and "
                         "whose values are the corresponding "
                         "attribute types");
    }
    std::vector<cty::Attr> attrs;
    std::map<std::string, cty::Val, std::less<>> values;
    std::map<std::string, std::unique_ptr<Defaults>, std::less<>> children;
    NameIndex seen;
    for (std::size_t i = 0; i < map.keys.size(); ++i) {
      const Expr& key = map.keys[i];
      if (key.kind != Expr::Kind::kIdent) {
        return SyntaxError(key.begin,
                           "object constructor map keys must be "
                           "attribute names");
      }
      if (seen.Insert(key.text, i)) {
        return SyntaxError(key.begin,
                           "object constructor map keys must "
                           "be unique");
      }
      const Expr* aty_expr = &map.args[i];
      bool optional = false;
      const Expr* default_expr = nullptr;
      if (aty_expr->kind == Expr::Kind::kCall && aty_expr->text == "optional") {
        const Expr& call = *aty_expr;
        if (call.args.empty()) {
          return SyntaxError(call.args_begin,
                             "optional attribute modifier "
                             "requires the attribute type "
                             "as its argument");
        }
        if (call.args.size() > 2) {
          return SyntaxError(call.args_begin,
                             "optional attribute modifier "
                             "expects at most two "
                             "arguments: the attribute "
                             "type, and a default value");
        }
        optional = true;
        if (call.args.size() == 2) default_expr = &call.args[1];
        aty_expr = &call.args[0];
      }
      const cty::Type* aty;
      std::unique_ptr<Defaults> child;
      Status st = Read(*aty_expr, &aty, &child);
      if (!st.ok()) return st;
      std::string_view name = conv_.arena().Copy(key.text);
      if (default_expr != nullptr) {
        cty::Val raw;
        st = Evaluate(*default_expr, &raw, 0);
        if (!st.ok()) return st;
        cty::Val converted;
        cty::Failure failure;
        if (!conv_.Convert(raw, aty, &converted, &failure)) {
          std::string where =
              failure.pointer.empty() ? "" : " at " + failure.pointer;
          return SyntaxError(default_expr->begin,
                             "invalid default value for optional attribute: "
                             "this default value is not compatible with the "
                             "attribute's type constraint" +
                                 where + ": " + failure.message);
        }
        values.emplace(std::string(name), converted);
      }
      attrs.push_back(cty::Attr{name, aty, optional});
      if (child) children.emplace(std::string(name), std::move(child));
    }
    *type = conv_.types().Object(attrs);
    if (!values.empty() || !children.empty()) {
      auto d = std::make_unique<Defaults>();
      d->type = *type;
      d->values = std::move(values);
      d->children = std::move(children);
      *defaults = std::move(d);
    }
    return Status::Ok();
  }

  Status ReadTuple(const Expr& e, const cty::Type** type,
                   std::unique_ptr<Defaults>* defaults) {
    const Expr& list = e.args[0];
    if (list.kind != Expr::Kind::kTuple) {
      return SyntaxError(list.begin,
                         "the tuple type constructor requires a "
                         "list of element types");
    }
    std::vector<const cty::Type*> elems;
    std::map<std::string, std::unique_ptr<Defaults>, std::less<>> children;
    for (std::size_t i = 0; i < list.args.size(); ++i) {
      const cty::Type* ety;
      std::unique_ptr<Defaults> child;
      Status st = Read(list.args[i], &ety, &child);
      if (!st.ok()) return st;
      elems.push_back(ety);
      if (child) children.emplace(std::to_string(i), std::move(child));
    }
    *type = conv_.types().Tuple(elems);
    if (!children.empty()) {
      auto d = std::make_unique<Defaults>();
      d->type = *type;
      d->children = std::move(children);
      *defaults = std::move(d);
    }
    return Status::Ok();
  }

  // A default value: HCL's expression evaluation with no variables and no
  // functions.
  Status Evaluate(const Expr& e, cty::Val* out, int depth) {
    if (depth > 200) return SyntaxError(e.begin, "nested too deeply");
    switch (e.kind) {
      case Expr::Kind::kNumber: {
        std::string text;
        int inf = 0;
        if (!cty::ParseNumberString(e.text, &text, &inf) || inf != 0) {
          return SyntaxError(e.begin, "invalid number literal");
        }
        *out = conv_.MakeNumber(text);
        return Status::Ok();
      }
      case Expr::Kind::kString:
        *out = conv_.MakeString(e.text);
        return Status::Ok();
      case Expr::Kind::kIdent:
        if (e.text == "true" || e.text == "false") {
          *out = conv_.MakeBool(e.text == "true");
          return Status::Ok();
        }
        if (e.text == "null") {
          *out = conv_.MakeNull(cty::DynamicType());
          return Status::Ok();
        }
        [[fallthrough]];
      case Expr::Kind::kTraversal:
        return SyntaxError(e.begin,
                           "variables may not be used in a default "
                           "value");
      case Expr::Kind::kCall:
        return SyntaxError(e.begin,
                           "functions may not be called in a "
                           "default value");
      case Expr::Kind::kNeg: {
        cty::Val v;
        Status st = Evaluate(e.args[0], &v, depth + 1);
        if (!st.ok()) return st;
        if (v.type->kind != cty::Kind::kNumber || !v.is_known() ||
            v.is_null()) {
          return SyntaxError(e.begin,
                             "unsuitable value for unary operand: "
                             "a number is required");
        }
        std::string text(v.str);
        if (!text.empty() && text[0] == '-') {
          text.erase(0, 1);
        } else {
          text.insert(text.begin(), '-');
        }
        *out = conv_.MakeNumber(text);
        return Status::Ok();
      }
      case Expr::Kind::kNot: {
        cty::Val v;
        Status st = Evaluate(e.args[0], &v, depth + 1);
        if (!st.ok()) return st;
        if (v.type->kind != cty::Kind::kBool || !v.is_known() || v.is_null()) {
          return SyntaxError(e.begin,
                             "unsuitable value for unary operand: "
                             "a bool is required");
        }
        *out = conv_.MakeBool(!v.b);
        return Status::Ok();
      }
      case Expr::Kind::kTuple: {
        std::vector<cty::Val> elems(e.args.size());
        for (std::size_t i = 0; i < e.args.size(); ++i) {
          Status st = Evaluate(e.args[i], &elems[i], depth + 1);
          if (!st.ok()) return st;
        }
        *out = conv_.MakeTuple(elems);
        return Status::Ok();
      }
      case Expr::Kind::kObject: {
        std::vector<std::string_view> names;
        std::vector<cty::Val> vals(e.args.size());
        for (std::size_t i = 0; i < e.keys.size(); ++i) {
          const Expr& key = e.keys[i];
          if (key.kind == Expr::Kind::kIdent ||
              key.kind == Expr::Kind::kString ||
              key.kind == Expr::Kind::kNumber) {
            // A bare name is the attribute name itself (hclsyntax
            // ObjectConsKeyExpr); literals are converted to strings.
            names.push_back(conv_.arena().Copy(key.text));
          } else {
            return SyntaxError(key.begin,
                               "object keys in a default value "
                               "must be names or literals");
          }
          Status st = Evaluate(e.args[i], &vals[i], depth + 1);
          if (!st.ok()) return st;
        }
        *out = conv_.MakeObject(names, vals);
        return Status::Ok();
      }
    }
    return SyntaxError(e.begin, "invalid expression");
  }

  cty::Converter conv_;
};

Status ParseInto(std::string_view text, ParsedType* parsed) {
  std::vector<Token> tokens;
  Status st = Lex(text, &tokens);
  if (!st.ok()) return st;
  Parser parser(std::move(tokens));
  auto expr = parser.ParseAll();
  if (!expr.ok()) return expr.status();
  TypeReader reader(parsed->arena);
  return reader.Read(*expr, &parsed->type, &parsed->defaults);
}

bool PrepareDefaults(const void* ctx, cty::Converter& conv, cty::Val* value,
                     cty::Failure* /*failure*/) {
  const auto* defaults = static_cast<const Defaults*>(ctx);
  *value = ApplyDefaults(*defaults, *value, conv);
  return true;
}

class TerraformSystem final : public TypeSystem {
 public:
  System system() const override { return System::kTerraform; }

  Result<std::shared_ptr<const Type>> Parse(
      const json::Value& spec) const override {
    if (!spec.is_string()) {
      return Status(Errc::kSyntax,
                    "at offset 0 of the type: a Terraform type constraint is "
                    "a string, not " +
                        std::string(json::TypeName(spec.type)));
    }
    auto parsed = std::make_shared<ParsedType>();
    Status st = ParseInto(spec.Str(), parsed.get());
    if (!st.ok()) return st;
    return std::shared_ptr<const Type>(std::move(parsed));
  }

  Verdict Check(const Type& type, const json::Value& value) const override {
    thread_local json::Arena arena;
    arena.Reset();
    const auto& t = static_cast<const ParsedType&>(type);
    if (t.defaults == nullptr) return cty::CheckValue(t.type, value, arena);
    return cty::CheckValue(t.type, value, arena, &PrepareDefaults,
                           t.defaults.get());
  }
};

}  // namespace

std::unique_ptr<TypeSystem> MakeTerraformSystem() {
  return std::make_unique<TerraformSystem>();
}

namespace terraform {

Result<ParsedConstraint> ParseConstraint(std::string_view text) {
  ParsedType parsed;
  Status st = ParseInto(text, &parsed);
  if (!st.ok()) return st;
  ParsedConstraint out;
  out.canonical = cty::TypeString(parsed.type);
  out.has_defaults = parsed.defaults != nullptr;
  return out;
}

}  // namespace terraform
}  // namespace pstate::types
