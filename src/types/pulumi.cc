// The formal Pulumi type system: parser of pstate's textual syntax and the
// conformance rules of Pulumi's docs/architecture/types/README.md as pstate
// makes them concrete (docs/types.md, "pulumi").
#include "types/pulumi.h"

#include <deque>
#include <string>
#include <vector>

#include "json/number.h"
#include "json/parser.h"
#include "json/string_codec.h"
#include "types/check_walk.h"
#include "types/encode.h"
#include "types/state_value.h"

namespace pstate::types {
namespace {

enum class Kind {
  kNull,
  kBool,
  kNumber,
  kString,
  kAsset,
  kArchive,
  kResourceRef,
  kArray,
  kMap,
  kPromise,
  kOutput,
  kInput,
  kTuple,
  kUnion,
  kObject,
  kEnum,
};

struct Literal {
  enum class Kind { kString, kNumber, kBool } kind = Kind::kString;
  std::string text;  ///< kString: decoded; kNumber: the JSON text
  double number = 0;
  bool boolean = false;
};

struct PType {
  Kind kind = Kind::kNull;
  std::vector<const PType*> children;  ///< element(s), members, field types
  std::vector<std::string> keys;       ///< kObject: decoded, parallel
  std::vector<Literal> literals;       ///< kEnum
};

class PulumiType : public Type {
 public:
  PType* New(Kind kind) {
    nodes_.emplace_back();
    nodes_.back().kind = kind;
    return &nodes_.back();
  }
  const PType* root = nullptr;

 private:
  std::deque<PType> nodes_;
};

void Print(const PType& t, std::string* out) {
  auto list = [&](std::string_view name) {
    out->append(name);
    out->push_back('<');
    for (std::size_t i = 0; i < t.children.size(); ++i) {
      if (i > 0) out->append(", ");
      if (t.kind == Kind::kObject) {
        out->push_back('"');
        json::AppendEscaped(t.keys[i], out);
        out->append("\", ");
      }
      Print(*t.children[i], out);
    }
    if (t.kind == Kind::kEnum) {
      for (const Literal& lit : t.literals) {
        out->append(", ");
        if (lit.kind == Literal::Kind::kString) {
          out->push_back('"');
          json::AppendEscaped(lit.text, out);
          out->push_back('"');
        } else {
          out->append(lit.text);
        }
      }
    }
    out->push_back('>');
  };
  switch (t.kind) {
    case Kind::kNull: out->append("Null"); return;
    case Kind::kBool: out->append("Bool"); return;
    case Kind::kNumber: out->append("Number"); return;
    case Kind::kString: out->append("String"); return;
    case Kind::kAsset: out->append("Asset"); return;
    case Kind::kArchive: out->append("Archive"); return;
    case Kind::kResourceRef: out->append("ResourceReference"); return;
    case Kind::kArray: list("Array"); return;
    case Kind::kMap: list("Map"); return;
    case Kind::kPromise: list("Promise"); return;
    case Kind::kOutput: list("Output"); return;
    case Kind::kInput: list("Input"); return;
    case Kind::kTuple: list("Tuple"); return;
    case Kind::kUnion: list("Union"); return;
    case Kind::kObject: list("Object"); return;
    case Kind::kEnum: list("Enum"); return;
  }
}

std::string Print(const PType& t) {
  std::string s;
  Print(t, &s);
  return s;
}

// ---------------------------------------------------------------- parsing

constexpr int kMaxTypeDepth = 200;

enum class Shape { kInput, kOutput, kPlain };

class TypeParser {
 public:
  TypeParser(std::string_view text, PulumiType& out)
      : text_(text), size_(text.size()), out_(out) {
    text_.append(json::kParserPadding, '\0');
  }

  Result<const PType*> Run() {
    const PType* t = ParseType(0);
    if (t) {
      SkipSpace();
      if (pos_ < size_) t = Fail("unexpected text after the type");
    }
    if (!t) return Status(Errc::kSyntax, error_);
    return t;
  }

 private:
  std::nullptr_t Fail(std::string_view what) {
    if (error_.empty()) {
      error_ = "at offset " + std::to_string(pos_) +
               " of the type: " + std::string(what);
    }
    return nullptr;
  }
  void SkipSpace() {
    while (pos_ < size_ && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                            text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool Expect(char c) {
    SkipSpace();
    if (pos_ < size_ && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    Fail(std::string("expected '") + c + "'");
    return false;
  }
  bool Peek(char c) {
    SkipSpace();
    return pos_ < size_ && text_[pos_] == c;
  }
  std::string_view Word() {
    SkipSpace();
    std::size_t start = pos_;
    while (pos_ < size_ && ((text_[pos_] >= 'A' && text_[pos_] <= 'Z') ||
                            (text_[pos_] >= 'a' && text_[pos_] <= 'z'))) {
      ++pos_;
    }
    return std::string_view(text_).substr(start, pos_ - start);
  }

  // One JSON value at the current position (a key or an enum literal).
  bool JsonToken(json::Value* out) {
    SkipSpace();
    const char* begin = text_.data() + pos_;
    const char* stop = nullptr;
    json::ParseStatus st = parser_.Parse(
        begin, text_.data() + size_, /*at_eof=*/true, 0, arena_, out, &stop);
    if (st != json::ParseStatus::kOk) {
      Fail("expected a JSON string, number, true or false");
      return false;
    }
    pos_ += static_cast<std::size_t>(stop - begin);
    return true;
  }

  const PType* ParseType(int depth) {
    if (depth > kMaxTypeDepth) return Fail("type nested too deeply");
    std::size_t start = pos_;
    std::string_view word = Word();
    if (word.empty()) return Fail("expected a type");
    if (word == "Null") return out_.New(Kind::kNull);
    if (word == "Bool") return out_.New(Kind::kBool);
    if (word == "Number") return out_.New(Kind::kNumber);
    if (word == "String") return out_.New(Kind::kString);
    if (word == "Asset") return out_.New(Kind::kAsset);
    if (word == "Archive") return out_.New(Kind::kArchive);
    if (word == "ResourceReference") return out_.New(Kind::kResourceRef);
    if (word == "inputShape" || word == "outputShape" || word == "plainShape") {
      if (!Expect('(')) return nullptr;
      const PType* inner = ParseType(depth + 1);
      if (!inner || !Expect(')')) return nullptr;
      Shape s = word == "inputShape"    ? Shape::kInput
                : word == "outputShape" ? Shape::kOutput
                                        : Shape::kPlain;
      return ApplyShape(s, inner);
    }
    Kind kind;
    if (word == "Array") {
      kind = Kind::kArray;
    } else if (word == "Map") {
      kind = Kind::kMap;
    } else if (word == "Promise") {
      kind = Kind::kPromise;
    } else if (word == "Output") {
      kind = Kind::kOutput;
    } else if (word == "Input") {
      kind = Kind::kInput;
    } else if (word == "Tuple") {
      kind = Kind::kTuple;
    } else if (word == "Union") {
      kind = Kind::kUnion;
    } else if (word == "Object") {
      kind = Kind::kObject;
    } else if (word == "Enum") {
      kind = Kind::kEnum;
    } else {
      pos_ = start;
      SkipSpace();
      return Fail("unknown type name '" + std::string(word) + "'");
    }
    if (!Expect('<')) return nullptr;
    PType* t = out_.New(kind);
    switch (kind) {
      case Kind::kArray:
      case Kind::kMap:
      case Kind::kPromise:
      case Kind::kOutput:
      case Kind::kInput: {
        const PType* e = ParseType(depth + 1);
        if (!e) return nullptr;
        t->children.push_back(e);
        break;
      }
      case Kind::kTuple:
        if (Peek('>')) break;
        [[fallthrough]];
      case Kind::kUnion:
        do {
          const PType* e = ParseType(depth + 1);
          if (!e) return nullptr;
          t->children.push_back(e);
        } while (Peek(',') && Expect(','));
        break;
      case Kind::kObject:
        if (Peek('>')) break;
        do {
          SkipSpace();
          std::size_t key_at = pos_;
          json::Value key;
          if (!JsonToken(&key)) return nullptr;
          if (!key.is_string()) {
            pos_ = key_at;
            return Fail("expected an object key (a JSON string)");
          }
          std::string name = key.Str();
          for (const std::string& k : t->keys) {
            if (k == name) {
              pos_ = key_at;
              return Fail("object key repeats");
            }
          }
          if (!Expect(',')) return nullptr;
          const PType* e = ParseType(depth + 1);
          if (!e) return nullptr;
          t->keys.push_back(std::move(name));
          t->children.push_back(e);
        } while (Peek(',') && Expect(','));
        break;
      case Kind::kEnum: {
        const PType* e = ParseType(depth + 1);
        if (!e) return nullptr;
        t->children.push_back(e);
        if (!Expect(',')) return nullptr;
        do {
          SkipSpace();
          std::size_t lit_at = pos_;
          json::Value v;
          if (!JsonToken(&v)) return nullptr;
          Literal lit;
          if (v.is_string()) {
            lit.kind = Literal::Kind::kString;
            lit.text = v.Str();
          } else if (v.is_number()) {
            lit.kind = Literal::Kind::kNumber;
            lit.text = std::string(v.raw());
            std::optional<double> d = json::ToDouble(v.raw());
            if (!d) {
              pos_ = lit_at;
              return Fail("number literal out of float64 range");
            }
            lit.number = *d;
          } else if (v.is_bool()) {
            lit.kind = Literal::Kind::kBool;
            lit.boolean = v.type == json::Type::kTrue;
            lit.text = lit.boolean ? "true" : "false";
          } else {
            pos_ = lit_at;
            return Fail("expected a JSON string, number, true or false");
          }
          t->literals.push_back(std::move(lit));
        } while (Peek(',') && Expect(','));
        break;
      }
      default: break;
    }
    if (!Expect('>')) return nullptr;
    if (kind == Kind::kUnion && t->children.empty()) {
      return Fail("a union needs at least one member");
    }
    return t;
  }

  // Pulumi's docs/architecture/types/README.md, "inputShape", "outputShape"
  // and "plainShape": recurse through Tuple, Array, Map, Object and Union;
  // Promise<U> and Output<U> become U without recursing (as written there).
  const PType* ApplyShape(Shape s, const PType* t) {
    const PType* inner = t;
    switch (t->kind) {
      case Kind::kTuple:
      case Kind::kArray:
      case Kind::kMap:
      case Kind::kObject:
      case Kind::kUnion: {
        PType* copy = out_.New(t->kind);
        copy->keys = t->keys;
        for (const PType* c : t->children) {
          copy->children.push_back(ApplyShape(s, c));
        }
        inner = copy;
        break;
      }
      case Kind::kPromise:
      case Kind::kOutput: inner = t->children[0]; break;
      default: break;
    }
    if (s == Shape::kPlain) return inner;
    PType* wrap = out_.New(s == Shape::kInput ? Kind::kInput : Kind::kOutput);
    wrap->children.push_back(inner);
    return wrap;
  }

  std::string text_;
  std::size_t size_;
  std::size_t pos_ = 0;
  PulumiType& out_;
  std::string error_;
  json::Parser parser_;
  json::Arena arena_;
};

// --------------------------------------------------------------- checking

class Checker {
 public:
  CheckWalk& walk() { return walk_; }

  // Checks `v` against `t`. On kConvert, `*out` holds the converted value.
  Outcome Check(const PType& t, const json::Value& v, json::Value* out) {
    Node node = Decode(v, walk_.arena());
    if (node.kind == PropertyKind::kUnrecognized)
      return walk_.Fail(node.reason);
    return CheckNode(t, node, out);
  }

 private:
  Outcome Mismatch(const PType& t, const Node& node) {
    std::string msg = "expected " + Print(t) + ", got ";
    msg.append(DescribeKind(node.kind));
    if (node.kind == PropertyKind::kUnknown) {
      msg.append(" (only Output and Input accept unknowns)");
    } else if (node.kind == PropertyKind::kSecret) {
      msg.append(" (only Output and Input accept secrets)");
    }
    return walk_.Fail(msg);
  }

  Outcome CheckNode(const PType& t, const Node& node, json::Value* out) {
    const json::Value& v = *node.value;
    switch (t.kind) {
      case Kind::kOutput:
      case Kind::kInput: return CheckOutput(t, node, out);
      case Kind::kPromise:
        if (node.kind == PropertyKind::kUnknown ||
            node.kind == PropertyKind::kSecret) {
          return Mismatch(t, node);
        }
        return CheckNode(*t.children[0], node, out);
      case Kind::kUnion: return CheckUnion(t, node, out);
      default: break;
    }
    switch (t.kind) {
      case Kind::kNull:
        return node.kind == PropertyKind::kNull ? Outcome::kOk
                                                : Mismatch(t, node);
      case Kind::kBool:
        return node.kind == PropertyKind::kBool ? Outcome::kOk
                                                : Mismatch(t, node);
      case Kind::kNumber:
        if (node.kind == PropertyKind::kSpecialFloat) return Outcome::kOk;
        if (node.kind != PropertyKind::kNumber) return Mismatch(t, node);
        return CheckFloat64(v, out);
      case Kind::kString:
        return node.kind == PropertyKind::kString ||
                       node.kind == PropertyKind::kByteString
                   ? Outcome::kOk
                   : Mismatch(t, node);
      case Kind::kAsset:
        return node.kind == PropertyKind::kAsset ? Outcome::kOk
                                                 : Mismatch(t, node);
      case Kind::kArchive:
        return node.kind == PropertyKind::kArchive ? Outcome::kOk
                                                   : Mismatch(t, node);
      case Kind::kResourceRef:
        return node.kind == PropertyKind::kResourceReference
                   ? Outcome::kOk
                   : Mismatch(t, node);
      case Kind::kArray:
      case Kind::kTuple: return CheckArray(t, node, out);
      case Kind::kMap: return CheckMap(t, node, out);
      case Kind::kObject: return CheckObject(t, node, out);
      case Kind::kEnum: return CheckEnum(t, node, out);
      default: return Mismatch(t, node);
    }
  }

  // Number is a float64 (contract §1.3, §9.13): a literal beyond float64 is
  // an error; one that float64 rounds is a convert to what Go writes back.
  Outcome CheckFloat64(const json::Value& v, json::Value* out) {
    Float64Reading r = ReadFloat64(v.raw());
    switch (r.kind) {
      case Float64Reading::Kind::kExact: return Outcome::kOk;
      case Float64Reading::Kind::kOutOfRange:
        return walk_.Fail("number is out of the float64 range");
      case Float64Reading::Kind::kRounded:
        *out = MakeNumber(r.text, walk_.arena());
        return Outcome::kConvert;
    }
    return Outcome::kOk;
  }

  // Output<U>: the unknown value, a secret whose plaintext is in U (a
  // ciphertext-only secret is accepted unseen), or a plain U. Input<U> is
  // Union<U, Output<U>>, which accepts the same values.
  Outcome CheckOutput(const PType& t, const Node& node, json::Value* out) {
    const PType& u = *t.children[0];
    if (node.kind == PropertyKind::kUnknown) return Outcome::kOk;
    if (node.kind != PropertyKind::kSecret) return CheckNode(u, node, out);
    return walk_.Secret(node, out,
                        [&](const json::Value& inner, json::Value* converted) {
                          return Check(u, inner, converted);
                        });
  }

  Outcome CheckUnion(const PType& t, const Node& node, json::Value* out) {
    bool converted = false;
    for (const PType* member : t.children) {
      json::Value candidate;
      Outcome o = CheckNode(*member, node, &candidate);
      walk_.ClearError();
      if (o == Outcome::kOk) return o;
      if (o == Outcome::kConvert && !converted) {
        converted = true;
        *out = candidate;
      }
    }
    if (converted) return Outcome::kConvert;
    std::string msg = "matches no member of " + Print(t) + " (got ";
    msg.append(DescribeKind(node.kind));
    msg.push_back(')');
    return walk_.Fail(msg);
  }

  Outcome CheckArray(const PType& t, const Node& node, json::Value* out) {
    if (node.kind != PropertyKind::kArray) return Mismatch(t, node);
    const json::Value& v = *node.value;
    if (t.kind == Kind::kTuple && v.size != t.children.size()) {
      return walk_.Fail("expected a tuple of " +
                        std::to_string(t.children.size()) + " elements, got " +
                        std::to_string(v.size));
    }
    return walk_.Elements(
        v, out,
        [&](std::size_t i, const json::Value& e, json::Value* converted) {
          return Check(t.kind == Kind::kTuple ? *t.children[i] : *t.children[0],
                       e, converted);
        });
  }

  Outcome CheckMap(const PType& t, const Node& node, json::Value* out) {
    if (node.kind != PropertyKind::kObject) return Mismatch(t, node);
    const json::Value& v = *node.value;
    return walk_.Members(
        v, out,
        [&](std::size_t, const json::Member& m, json::Value* converted) {
          return Check(*t.children[0], m.value, converted);
        });
  }

  // Object<K, V, ...> is closed: an undeclared key is an error, and a
  // declared key that is absent counts as null (contract §9.7).
  Outcome CheckObject(const PType& t, const Node& node, json::Value* out) {
    if (node.kind != PropertyKind::kObject) return Mismatch(t, node);
    const json::Value& v = *node.value;
    json::Value converted_members;
    Outcome members = walk_.Members(
        v, &converted_members,
        [&](std::size_t, const json::Member& m, json::Value* converted) {
          for (std::size_t k = 0; k < t.keys.size(); ++k) {
            if (m.key.has_escapes ? m.key.StrEquals(t.keys[k])
                                  : m.key.raw() == t.keys[k]) {
              return Check(*t.children[k], m.value, converted);
            }
          }
          return walk_.Fail("key is not a field of " + Print(t));
        });
    if (members == Outcome::kError) return members;
    for (std::size_t k = 0; k < t.keys.size(); ++k) {
      if (v.Find(t.keys[k])) continue;
      json::Value null_value;
      json::Value ignored;
      std::size_t mark = walk_.PushName(t.keys[k]);
      Outcome o = Check(*t.children[k], null_value, &ignored);
      if (o != Outcome::kOk) {
        walk_.ClearError();
        walk_.Fail("missing field (a missing field counts as null, which " +
                   Print(*t.children[k]) + " does not accept)");
        walk_.Pop(mark);
        return Outcome::kError;
      }
      walk_.Pop(mark);
    }
    if (members == Outcome::kConvert) *out = converted_members;
    return members;
  }

  // Enum<U, V...>: v in U, and equal to some V (strings exactly, numbers
  // by float64 value, bools exactly).
  Outcome CheckEnum(const PType& t, const Node& node, json::Value* out) {
    json::Value converted;
    Outcome o = CheckNode(*t.children[0], node, &converted);
    if (o == Outcome::kError) return o;
    const json::Value& v = o == Outcome::kConvert ? converted : *node.value;
    for (const Literal& lit : t.literals) {
      bool equal = false;
      switch (lit.kind) {
        case Literal::Kind::kString:
          equal = v.is_string() &&
                  (v.has_escapes ? v.StrEquals(lit.text) : v.raw() == lit.text);
          break;
        case Literal::Kind::kNumber:
          if (v.is_number()) {
            std::optional<double> d = json::ToDouble(v.raw());
            equal = d && *d == lit.number;
          }
          break;
        case Literal::Kind::kBool:
          equal = v.is_bool() && (v.type == json::Type::kTrue) == lit.boolean;
          break;
      }
      if (equal) {
        if (o == Outcome::kConvert) *out = converted;
        return o;
      }
    }
    return walk_.Fail("value is not one of the values of " + Print(t));
  }

  CheckWalk walk_;
};

class PulumiSystem : public TypeSystem {
 public:
  System system() const override { return System::kPulumi; }

  Result<std::shared_ptr<const Type>> Parse(
      const json::Value& spec) const override {
    if (!spec.is_string()) {
      return Status(Errc::kSyntax,
                    "a pulumi type is written as a JSON string, not " +
                        std::string(json::TypeName(spec.type)));
    }
    auto type = std::make_shared<PulumiType>();
    TypeParser parser(
        spec.has_escapes ? std::string_view(spec.Str()) : spec.raw(), *type);
    Result<const PType*> root = parser.Run();
    if (!root.ok()) return root.status();
    type->root = *root;
    return std::shared_ptr<const Type>(std::move(type));
  }

  Verdict Check(const Type& type, const json::Value& value) const override {
    const auto& t = static_cast<const PulumiType&>(type);
    Checker checker;
    json::Value converted;
    Outcome o = checker.Check(*t.root, value, &converted);
    return checker.walk().Finish(o, converted);
  }
};

}  // namespace

std::unique_ptr<TypeSystem> MakePulumiSystem() {
  return std::make_unique<PulumiSystem>();
}

}  // namespace pstate::types
