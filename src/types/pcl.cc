// Checking state values against PCL types (docs/types.md, "pcl").
//
// The model classifies conversions (pcl_type.cc); it defines no run-time
// conversion of values, so pstate runs Safe and Unsafe conversions with
// go-cty's primitive rules (cty/convert/conversion_primitive.go, through the
// cty language's own NumberToString and ParseNumberString), plus the
// int32 integrality rule for `int` (pkg/codegen/hcl2/model/type.go documents
// IntType as the 32-bit integers). The checker walks the value and the type
// together; at every node it applies exactly the kind the model gives for
// the node's own type (§4.2: a literal's ConstType, a tuple for an array,
// an object type for an object, output(T) for a secret), so a None kind is
// an error before any run-time conversion is tried.
//
// Each check is two passes at most: the first decides (ok, convert or
// error) without writing anything; only a convert runs the second pass,
// which writes the converted value. Unions pick the same member in both.
#include "types/pcl.h"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json/compact.h"
#include "json/equal.h"
#include "json/number.h"
#include "json/parser.h"
#include "json/string_codec.h"
#include "state/signature.h"
#include "types/check_walk.h"
#include "types/cty.h"
#include "types/name_index.h"
#include "types/pcl_number.h"
#include "types/state_value.h"

namespace pstate::types {
namespace pcl {
namespace {

enum class R { kFail, kSame, kChanged };

std::string_view ValueKindName(const Node& node) {
  switch (node.kind) {
    case PropertyKind::kNull: return "null";
    case PropertyKind::kBool: return "a bool";
    case PropertyKind::kNumber:
    case PropertyKind::kSpecialFloat: return "a number";
    case PropertyKind::kString:
    case PropertyKind::kByteString: return "a string";
    case PropertyKind::kUnknown: return "an unknown value";
    case PropertyKind::kArray: return "a tuple";
    case PropertyKind::kObject: return "an object";
    case PropertyKind::kSecret: return "a secret (an output)";
    case PropertyKind::kAsset: return "an Asset";
    case PropertyKind::kArchive: return "an Archive";
    case PropertyKind::kResourceReference: return "a resource reference object";
    case PropertyKind::kOutputValue:
    case PropertyKind::kUnrecognized: return "a malformed value";
  }
  return "a value";
}

bool IsNaN(double d) { return d != d; }

void AppendQuoted(std::string_view decoded, std::string* out) {
  out->push_back('"');
  json::AppendEscaped(decoded, out);
  out->push_back('"');
}

// A special-float signature object for ±Inf (the state encoding of a
// number JSON cannot spell).
void AppendInfinity(bool negative, std::string* out) {
  out->append("{\"");
  out->append(state::kSigKey);
  out->append("\":\"");
  out->append(state::kSigSpecialFloat);
  out->append(negative ? "\",\"value\":\"fff0000000000000\"}"
                       : "\",\"value\":\"7ff0000000000000\"}");
}

class Checker {
 public:
  explicit Checker(CheckWalk& walk) : walk_(walk), arena_(walk.arena()) {}

  R Check(const PclType& t, const json::Value& v, std::string* out) {
    if (!walk_.Enter()) return R::kFail;
    R r = CheckNode(t, v, out);
    walk_.Leave();
    return r;
  }

 private:
  // Inside a secret the message says so and never quotes the value
  // (CheckWalk::Fail).
  R Fail(std::string_view message) {
    walk_.Fail(message);
    return R::kFail;
  }
  R Mismatch(const Node& node, const PclType& t) {
    std::string message = "cannot convert ";
    message += ValueKindName(node);
    message += " to ";
    message += t.text;
    return Fail(std::move(message));
  }

  std::size_t PushKey(const json::Value& key) { return walk_.PushKey(key); }
  std::size_t PushName(std::string_view name) { return walk_.PushName(name); }
  std::size_t PushIndex(std::size_t i) { return walk_.PushIndex(i); }
  void Pop(std::size_t n) { walk_.Pop(n); }

  static void Emit(const json::Value& v, std::string* out) {
    if (out) json::AppendCompactJson(v, out);
  }

  R CheckNode(const PclType& t, const json::Value& v, std::string* out) {
    Node node = Decode(v, arena_);
    if (node.kind == PropertyKind::kUnrecognized) return Fail(node.reason);
    if (node.kind == PropertyKind::kUnknown) {
      Emit(v, out);  // an unknown of the wanted type (§1.4)
      return R::kSame;
    }
    switch (t.kind) {
      case Kind::kAny:
        // Everything Pulumi can read.
        if (walk_.Readable(v) != Outcome::kOk) return R::kFail;
        Emit(v, out);
        return R::kSame;
      case Kind::kUnion: return CheckUnion(t, v, node, out);
      case Kind::kOutput:
        if (node.kind == PropertyKind::kSecret) {
          return CheckSecret(*t.elements[0], v, node, out);
        }
        return Check(*t.elements[0], v, out);  // plain values are lifted
      case Kind::kPromise:
        if (node.kind == PropertyKind::kSecret) {
          return Fail("a secret is an output, and " + t.text +
                      " does not accept outputs");
        }
        return Check(*t.elements[0], v, out);
      default: break;
    }
    if (node.kind == PropertyKind::kSecret) {
      // T <- output(U) has no conversion for a plain T (§4.8).
      return Fail("a secret is an output, and " + t.text +
                  " does not accept outputs; use output(" + t.text + ")");
    }
    switch (t.kind) {
      case Kind::kNone:
        if (node.kind != PropertyKind::kNull) return Mismatch(node, t);
        Emit(v, out);
        return R::kSame;
      case Kind::kString: return ToString(t, v, node, out);
      case Kind::kNumber:
      case Kind::kInt: return ToNumber(t, v, node, out);
      case Kind::kBool: return ToBool(t, v, node, out);
      case Kind::kAsset:
      case Kind::kArchive:
        if (node.kind != (t.kind == Kind::kAsset ? PropertyKind::kAsset
                                                 : PropertyKind::kArchive)) {
          return Mismatch(node, t);
        }
        Emit(v, out);
        return R::kSame;
      case Kind::kList:
      case Kind::kTuple:
        if (node.kind != PropertyKind::kArray) return Mismatch(node, t);
        return CheckSequence(t, v, out);
      case Kind::kSet:
        if (node.kind != PropertyKind::kArray) return Mismatch(node, t);
        return CheckSet(t, v, out);
      case Kind::kMap:
        if (node.kind != PropertyKind::kObject &&
            node.kind != PropertyKind::kResourceReference) {
          return Mismatch(node, t);
        }
        return CheckMap(t, v, out);
      case Kind::kObject:
        if (node.kind != PropertyKind::kObject &&
            node.kind != PropertyKind::kResourceReference) {
          return Mismatch(node, t);
        }
        return CheckObject(t, v, out);
      case Kind::kEnum: return CheckEnum(t, v, node, out);
      default: return Mismatch(node, t);
    }
  }

  R CheckSecret(const PclType& element, const json::Value& v, const Node& node,
                std::string* out) {
    if (!node.secret_inner) {
      Emit(v, out);  // ciphertext only: content unknown (§9.8)
      return R::kSame;
    }
    std::string inner;
    walk_.EnterSecret();
    R r = Check(element, *node.secret_inner, out ? &inner : nullptr);
    walk_.LeaveSecret();
    if (!out || r == R::kFail) return r;
    if (r == R::kSame) {
      Emit(v, out);
      return r;
    }
    // The converted value stays a secret: a plaintext secret object whose
    // plaintext is the JSON of the converted inner value.
    out->append("{\"");
    out->append(state::kSigKey);
    out->append("\":\"");
    out->append(state::kSigSecret);
    out->append("\",\"plaintext\":");
    AppendQuoted(inner, out);
    out->push_back('}');
    return r;
  }

  R CheckUnion(const PclType& t, const json::Value& v, const Node& node,
               std::string* out) {
    // Prefer a member that keeps the value unchanged, otherwise the first
    // (in the union's sorted order) whose conversion succeeds.
    const PclType* chosen = nullptr;
    bool same = false;
    CheckError best;
    bool have_best = false;
    int real_members = 0;
    for (const TypePtr& m : t.elements) {
      if (m->kind == Kind::kNone) {
        if (node.kind == PropertyKind::kNull) {
          chosen = m.get();
          same = true;
          break;
        }
        continue;  // none <- anything else: no conversion
      }
      walk_.ClearError();
      R r = Check(*m, v, nullptr);
      if (r == R::kSame) {
        chosen = m.get();
        same = true;
        break;
      }
      if (r == R::kChanged) {
        if (!chosen) chosen = m.get();
        continue;
      }
      ++real_members;
      if (!have_best || walk_.error().depth > best.depth) {
        best = walk_.error();
        have_best = true;
      }
    }
    walk_.ClearError();
    if (!chosen) {
      // One real member, or a member that got deeper into the value: its
      // own error says more than "no member matches".
      if (have_best && (real_members == 1 || best.depth > walk_.depth())) {
        walk_.SetError(std::move(best));
        return R::kFail;
      }
      return Mismatch(node, t);
    }
    if (out) Check(*chosen, v, out);
    return same ? R::kSame : R::kChanged;
  }

  R ToString(const PclType& t, const json::Value& v, const Node& node,
             std::string* out) {
    switch (node.kind) {
      case PropertyKind::kString:
      case PropertyKind::kByteString: Emit(v, out); return R::kSame;
      case PropertyKind::kBool:
        // cty: bool -> string is "true" / "false" (safe).
        if (out)
          out->append(v.type == json::Type::kTrue ? "\"true\"" : "\"false\"");
        return R::kChanged;
      case PropertyKind::kNumber: {
        // cty: number -> string is big.Float.Text('f', -1) (safe).
        std::string text;
        if (!cty::NumberToString(v.raw(), &text)) {
          return Fail("the number is too large to convert to a string");
        }
        if (out) AppendQuoted(text, out);
        return R::kChanged;
      }
      case PropertyKind::kSpecialFloat:
        if (IsNaN(node.special)) return Fail("NaN is not a PCL number");
        if (out) out->append(node.special < 0 ? "\"-Inf\"" : "\"+Inf\"");
        return R::kChanged;
      default: return Mismatch(node, t);
    }
  }

  R ToNumber(const PclType& t, const json::Value& v, const Node& node,
             std::string* out) {
    const bool want_int = t.kind == Kind::kInt;
    switch (node.kind) {
      case PropertyKind::kNumber:
        if (want_int && !IsInt32(json::ParseDecimal(v.raw()))) {
          return Fail(IntProblem(json::ParseDecimal(v.raw())));
        }
        Emit(v, out);
        return R::kSame;
      case PropertyKind::kSpecialFloat:
        if (IsNaN(node.special)) return Fail("NaN is not a PCL number");
        if (want_int) return Fail("an integer is required, not infinity");
        Emit(v, out);
        return R::kSame;
      case PropertyKind::kString: {
        // Unsafe: cty.ParseNumberVal, and for int the int32 rule.
        std::string text;
        int infinity = 0;
        if (!cty::ParseNumberString(v.Str(), &text, &infinity)) {
          return Fail("a number is required");
        }
        if (infinity != 0) {
          if (want_int) return Fail("an integer is required, not infinity");
          if (out) AppendInfinity(infinity < 0, out);
          return R::kChanged;
        }
        if (want_int && !IsInt32Text(text)) {
          return Fail(IntProblem(json::ParseDecimal(text)));
        }
        if (out) out->append(text);
        return R::kChanged;
      }
      case PropertyKind::kByteString:
        // A string, but bytes that are not UTF-8 never parse as a number.
        return Fail("a number is required");
      default: return Mismatch(node, t);
    }
  }

  static std::string IntProblem(const json::ExactDecimal& d) {
    if (d.exponent < 0 && !d.digits.empty()) {
      return "an integer is required (int), but the number has a fraction";
    }
    return "the number is outside the 32-bit range of int";
  }

  R ToBool(const PclType& t, const json::Value& v, const Node& node,
           std::string* out) {
    switch (node.kind) {
      case PropertyKind::kBool: Emit(v, out); return R::kSame;
      case PropertyKind::kString: {
        // cty: exactly "true"/"1" and "false"/"0" (unsafe).
        std::string s = v.Str();
        if (s == "true" || s == "1") {
          if (out) out->append("true");
          return R::kChanged;
        }
        if (s == "false" || s == "0") {
          if (out) out->append("false");
          return R::kChanged;
        }
        std::string lower = s;
        for (char& c : lower) {
          if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        }
        if (lower == "true" || lower == "false") {
          return Fail(
              "a bool is required; to convert from string, use "
              "lowercase \"" +
              lower + "\"");
        }
        return Fail("a bool is required");
      }
      case PropertyKind::kByteString: return Fail("a bool is required");
      default: return Mismatch(node, t);
    }
  }

  // list(T) <- tuple and tuple(T...) <- tuple (equal lengths).
  R CheckSequence(const PclType& t, const json::Value& v, std::string* out) {
    const bool tuple = t.kind == Kind::kTuple;
    if (tuple && t.elements.size() != v.size) {
      return Fail("a tuple of " + std::to_string(t.elements.size()) +
                  " elements is required, but the value has " +
                  std::to_string(v.size));
    }
    R result = R::kSame;
    if (out) out->push_back('[');
    std::size_t i = 0;
    for (const json::Value& e : v.array()) {
      if (out && i > 0) out->push_back(',');
      std::size_t mark = PushIndex(i);
      R r = Check(tuple ? *t.elements[i] : *t.elements[0], e, out);
      Pop(mark);
      if (r == R::kFail) return r;
      if (r == R::kChanged) result = R::kChanged;
      ++i;
    }
    if (out) out->push_back(']');
    return result;
  }

  // set(T) <- tuple (unsafe): elements converted, duplicates removed (cty
  // SetVal), listed in cty's order (cty/set_internals.go setRules.Less).
  R CheckSet(const PclType& t, const json::Value& v, std::string* out) {
    if (!out) {
      // Deciding only: any changed element makes a convert; otherwise the
      // set changes only when it holds duplicates.
      R result = R::kSame;
      std::size_t i = 0;
      for (const json::Value& e : v.array()) {
        std::size_t mark = PushIndex(i++);
        R r = Check(*t.elements[0], e, nullptr);
        Pop(mark);
        if (r == R::kFail) return r;
        if (r == R::kChanged) result = R::kChanged;
      }
      if (result == R::kChanged) return result;
      const auto elements = v.array();
      for (std::size_t a = 0; a < elements.size(); ++a) {
        if (Decode(elements[a], arena_).kind == PropertyKind::kUnknown)
          continue;
        for (std::size_t b = a + 1; b < elements.size(); ++b) {
          if (json::Equal(elements[a], elements[b])) return R::kChanged;
        }
      }
      return R::kSame;
    }
    std::vector<std::string> texts;
    texts.reserve(v.size);
    bool changed = false;
    std::size_t i = 0;
    for (const json::Value& e : v.array()) {
      std::size_t mark = PushIndex(i++);
      std::string text;
      R r = Check(*t.elements[0], e, &text);
      Pop(mark);
      if (r == R::kFail) return r;
      changed = changed || r == R::kChanged;
      texts.push_back(std::move(text));
    }
    std::vector<json::Value> values(texts.size());
    json::Parser parser;
    for (std::size_t k = 0; k < texts.size(); ++k) {
      if (parser.ParseDocument(texts[k], 0, arena_, &values[k]) !=
          json::ParseStatus::kOk) {
        return Fail("internal error: a converted set element is not JSON");
      }
    }
    std::vector<std::size_t> kept;
    for (std::size_t k = 0; k < values.size(); ++k) {
      bool duplicate = false;
      Node node = Decode(values[k], arena_);
      if (node.kind != PropertyKind::kUnknown) {
        for (std::size_t j : kept) {
          if (json::Equal(values[j], values[k])) {
            duplicate = true;
            break;
          }
        }
      }
      if (duplicate) {
        changed = true;
      } else {
        kept.push_back(k);
      }
    }
    if (!changed) {
      Emit(v, out);
      return R::kSame;
    }
    if (out) {
      SortLikeCty(values, &kept);
      out->push_back('[');
      for (std::size_t k = 0; k < kept.size(); ++k) {
        if (k > 0) out->push_back(',');
        out->append(texts[kept[k]]);
      }
      out->push_back(']');
    }
    return R::kChanged;
  }

  // Known before unknown and non-null before null; strings bytewise,
  // numbers ascending, false before true. Other element kinds keep their
  // order (cty orders them by hash, which nobody may rely on).
  void SortLikeCty(const std::vector<json::Value>& values,
                   std::vector<std::size_t>* kept) {
    auto rank = [&](std::size_t k) {
      Node node = Decode(values[k], arena_);
      if (node.kind == PropertyKind::kUnknown) return 2;
      if (node.kind == PropertyKind::kNull) return 1;
      return 0;
    };
    std::stable_sort(kept->begin(), kept->end(),
                     [&](std::size_t a, std::size_t b) {
                       int ra = rank(a);
                       int rb = rank(b);
                       if (ra != rb) return ra < rb;
                       const json::Value& x = values[a];
                       const json::Value& y = values[b];
                       if (x.type != y.type) return false;
                       if (x.is_string()) return x.Str() < y.Str();
                       if (x.is_number()) {
                         return json::CompareNumbers(x.raw(), y.raw()) < 0;
                       }
                       return false;
                     });
    // Bools: false before true (both are literals of distinct types).
    std::stable_sort(kept->begin(), kept->end(),
                     [&](std::size_t a, std::size_t b) {
                       return values[a].type == json::Type::kFalse &&
                              values[b].type == json::Type::kTrue;
                     });
  }

  R CheckMap(const PclType& t, const json::Value& v, std::string* out) {
    R result = R::kSame;
    if (out) out->push_back('{');
    bool first = true;
    for (const json::Member& m : v.object()) {
      if (out) {
        if (!first) out->push_back(',');
        out->push_back('"');
        out->append(m.key.raw());
        out->append("\":");
      }
      first = false;
      std::size_t mark = PushKey(m.key);
      R r = Check(*t.elements[0], m.value, out);
      Pop(mark);
      if (r == R::kFail) return r;
      if (r == R::kChanged) result = R::kChanged;
    }
    if (out) out->push_back('}');
    return result;
  }

  // object(D) <- object(S): D's properties are converted, a missing one
  // counts as none, and properties only in S are ignored (kept as they
  // are in a converted value).
  R CheckObject(const PclType& t, const json::Value& v, std::string* out) {
    R result = R::kSame;
    const PclType& none = *Primitive(Kind::kNone);
    // The value's members by name, each looked up once (the last
    // duplicate wins).
    NameIndex members;
    std::vector<const json::Value*> last;
    for (const json::Member& m : v.object()) {
      std::string key = m.key.Str();
      if (std::optional<std::size_t> at = members.Insert(key, last.size())) {
        last[*at] = &m.value;
      } else {
        last.push_back(&m.value);
      }
    }
    auto find_last = [&](std::string_view name) -> const json::Value* {
      std::optional<std::size_t> at = members.Find(name);
      return at ? last[*at] : nullptr;
    };
    for (const auto& [name, pt] : t.properties) {
      const json::Value* member = find_last(name);
      if (!member) {
        if (ConversionFrom(*pt, none) == ConversionKind::kNone) {
          return Fail("the object has no property \"" + name + "\", which " +
                      pt->text + " requires");
        }
        continue;
      }
      std::size_t mark = PushName(name);
      R r = Check(*pt, *member, nullptr);
      Pop(mark);
      if (r == R::kFail) return r;
      if (r == R::kChanged) result = R::kChanged;
    }
    if (!out) return result;
    if (result == R::kSame) {
      Emit(v, out);
      return result;
    }
    out->push_back('{');
    bool first = true;
    for (const json::Member& m : v.object()) {
      if (!first) out->push_back(',');
      first = false;
      out->push_back('"');
      out->append(m.key.raw());
      out->append("\":");
      std::string key =
          m.key.has_escapes ? m.key.Str() : std::string(m.key.raw());
      // The properties are sorted by name (ObjectOf).
      auto it = std::lower_bound(
          t.properties.begin(), t.properties.end(), key,
          [](const auto& p, const std::string& n) { return p.first < n; });
      const PclType* pt = it != t.properties.end() && it->first == key
                              ? it->second.get()
                              : nullptr;
      if (pt && find_last(key) == &m.value) {
        std::size_t mark = PushKey(m.key);
        Check(*pt, m.value, out);
        Pop(mark);
      } else {
        Emit(m.value, out);
      }
    }
    out->push_back('}');
    return result;
  }

  // enum(T: v...): the value converts to T, and the result must be a member
  // (pcl/binder_schema.go: a value outside the enum is rejected). Strings
  // compare exactly, numbers by value.
  R CheckEnum(const PclType& t, const json::Value& v, const Node& node,
              std::string* out) {
    R r = Check(*t.elements[0], v, nullptr);
    if (r == R::kFail) return r;
    std::string converted;
    json::Value value = v;
    if (r == R::kChanged) {
      Check(*t.elements[0], v, &converted);
      json::Parser parser;
      if (parser.ParseDocument(converted, 0, arena_, &value) !=
          json::ParseStatus::kOk) {
        return Fail("internal error: a converted enum value is not JSON");
      }
    }
    if (Decode(value, arena_).kind != PropertyKind::kUnknown) {
      bool member = false;
      for (const Literal& l : t.literals) {
        switch (l.kind) {
          case Literal::Kind::kString:
            member = member || (value.is_string() && value.StrEquals(l.text));
            break;
          case Literal::Kind::kNumber:
            member = member || (value.is_number() &&
                                json::NumbersEqual(value.raw(), l.text));
            break;
          case Literal::Kind::kBool:
            member = member ||
                     (value.is_bool() &&
                      (value.type == json::Type::kTrue) == (l.text == "true"));
            break;
        }
      }
      if (!member) {
        std::string message;
        if (!walk_.in_secret() && (node.kind == PropertyKind::kString ||
                                   node.kind == PropertyKind::kNumber ||
                                   node.kind == PropertyKind::kBool)) {
          message = json::ToCompactJson(v) + " is not";
        } else {
          message = "the value is not";
        }
        message += " a member of " + t.text;
        return Fail(std::move(message));
      }
    }
    if (out) {
      if (r == R::kChanged) {
        out->append(converted);
      } else {
        Emit(v, out);
      }
    }
    return r;
  }

  CheckWalk& walk_;
  json::Arena& arena_;
};

class PclSystem final : public TypeSystem {
 public:
  System system() const override { return System::kPcl; }

  Result<std::shared_ptr<const Type>> Parse(
      const json::Value& spec) const override {
    return ParseTextType(
        spec, "a pcl type is a string, such as \"list(string)\"", ParseType);
  }

  Verdict Check(const Type& type, const json::Value& value) const override {
    const auto& t = static_cast<const PclType&>(type);
    thread_local CheckWalk walk;
    walk.Reset();
    Checker checker(walk);
    R r = checker.Check(t, value, nullptr);
    if (r == R::kFail) return walk.Finish(Outcome::kError, json::Value());
    if (r == R::kSame) return OkVerdict();
    std::string converted;
    Checker writer(walk);
    writer.Check(t, value, &converted);
    return ConvertVerdict(std::move(converted));
  }
};

}  // namespace
}  // namespace pcl

std::unique_ptr<TypeSystem> MakePclSystem() {
  return std::make_unique<pcl::PclSystem>();
}

}  // namespace pstate::types
