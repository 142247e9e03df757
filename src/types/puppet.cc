// Checking state values against Puppet types: the `instance?` methods of
// lib/puppet/pops/types/types.rb over values read as Ruby's JSON.parse
// reads them (docs/types.md, "puppet").
#include "types/puppet.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json/compact.h"
#include "json/number.h"
#include "types/check_walk.h"
#include "types/puppet_regex.h"
#include "types/state_value.h"

namespace pstate::types {
namespace puppet {
namespace {

// Ruby's JSON.parse: a token without '.', 'e' or 'E' is an Integer.
bool IsIntegerToken(std::string_view raw) {
  return raw.find_first_of(".eE") == std::string_view::npos;
}

std::size_t CodePoints(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

// The Puppet type of a value, for messages (types.rb infer).
std::string_view ValueTypeName(const json::Value& v, const Node& node) {
  switch (node.kind) {
    case PropertyKind::kNull: return "Undef";
    case PropertyKind::kBool: return "Boolean";
    case PropertyKind::kNumber:
      return IsIntegerToken(v.raw()) ? "Integer" : "Float";
    case PropertyKind::kString:
    case PropertyKind::kUnknown: return "String";
    case PropertyKind::kArray: return "Array";
    case PropertyKind::kSecret: return "Sensitive";
    default: return "Hash";
  }
}

// Puppet never converts: a check is ok or an error, and the descent's
// converted values stay empty.
Outcome AsOutcome(bool ok) { return ok ? Outcome::kOk : Outcome::kError; }

class Checker {
 public:
  Checker(CheckWalk& walk, RegexBudget& budget)
      : walk_(walk), budget_(budget) {}

  bool Check(const PuppetType& t, const json::Value& v) {
    if (!walk_.Enter()) return false;
    bool ok = CheckNode(t, v);
    walk_.Leave();
    return ok;
  }

 private:
  bool Fail(std::string_view message) {
    walk_.Fail(message);
    return false;
  }
  bool Expects(const PuppetType& t, const json::Value& v, const Node& node) {
    std::string m = "expects ";
    m += t.text;
    m += ", got ";
    m += ValueTypeName(v, node);
    return Fail(std::move(m));
  }

  // Quotes a scalar for a message, never inside a secret.
  std::string Quote(const json::Value& v) const {
    if (walk_.in_secret()) return "a value";
    std::string q = json::ToCompactJson(v);
    if (q.size() > 80) q = q.substr(0, 77) + "...";
    return q;
  }

  bool SizeOk(std::int64_t n, std::int64_t lo,
              const std::optional<std::int64_t>& hi, std::string_view what) {
    if (n < lo) {
      return Fail("expects " + std::string(what) + " size to be at least " +
                  std::to_string(lo) + ", got " + std::to_string(n));
    }
    if (hi && n > *hi) {
      return Fail("expects " + std::string(what) + " size to be at most " +
                  std::to_string(*hi) + ", got " + std::to_string(n));
    }
    return true;
  }

  // CompareNumbers, with a fast path for short integers (the common case).
  static int Compare(std::string_view a, std::string_view b) {
    auto small = [](std::string_view s, long long* out) {
      if (s.empty() || s.size() > 18) return false;
      long long v = 0;
      std::size_t i = s[0] == '-' ? 1 : 0;
      if (i == s.size()) return false;
      for (; i < s.size(); ++i) {
        if (s[i] < '0' || s[i] > '9') return false;
        v = v * 10 + (s[i] - '0');
      }
      *out = s[0] == '-' ? -v : v;
      return true;
    };
    long long x = 0;
    long long y = 0;
    if (small(a, &x) && small(b, &y)) return x < y ? -1 : x > y ? 1 : 0;
    return json::CompareNumbers(a, b);
  }

  bool InRange(const PuppetType& t, std::string_view raw) const {
    if (t.from && Compare(raw, *t.from) < 0) return false;
    if (t.to && Compare(raw, *t.to) > 0) return false;
    return true;
  }

  bool AcceptsUndef(const PuppetType& t) {
    json::Value null_value;
    bool failed = walk_.failed();
    CheckError saved = walk_.error();
    walk_.ClearError();
    bool ok = Check(t, null_value);
    walk_.ClearError();
    if (failed) walk_.SetError(std::move(saved));
    return ok;
  }

  bool CheckNode(const PuppetType& t, const json::Value& v) {
    Node node = Decode(v, walk_.arena());
    if (node.kind == PropertyKind::kUnrecognized) return Fail(node.reason);
    if (node.kind == PropertyKind::kUnknown) return true;  // §1.4 (pstate rule)
    const bool is_secret = node.kind == PropertyKind::kSecret;
    switch (t.kind) {
      case Kind::kAny:
      case Kind::kUnit: return true;
      case Kind::kOptional:
        if (node.kind == PropertyKind::kNull || t.elements.empty()) return true;
        return Check(*t.elements[0], v);
      case Kind::kNotUndef:
        if (node.kind == PropertyKind::kNull) {
          return Fail("expects a value (" + t.text + "), got Undef");
        }
        return t.elements.empty() || Check(*t.elements[0], v);
      case Kind::kVariant: return CheckVariant(t, v, node);
      case Kind::kAlias: {
        auto it = t.alias_table->by_name.find(t.alias);
        if (it == t.alias_table->by_name.end() || !it->second) {
          return Fail("the type alias " + t.text + " is not resolved");
        }
        return Check(*it->second, v);
      }
      case Kind::kRichData: return CheckRichData(t, v, node);
      case Kind::kInit: return CheckInit(t, v, node);
      case Kind::kSensitive:
        if (!is_secret) return Expects(t, v, node);
        if (t.elements.empty()) return true;
        {
          json::Value unused;
          return walk_.Secret(node, &unused,
                              [&](const json::Value& inner, json::Value*) {
                                return AsOutcome(Check(*t.elements[0], inner));
                              }) == Outcome::kOk;
        }
      default: break;
    }
    if (is_secret) {
      return Fail("expects " + t.text +
                  ", got Sensitive (a secret; use Sensitive[...])");
    }
    switch (t.kind) {
      case Kind::kUndef:
        return node.kind == PropertyKind::kNull || Expects(t, v, node);
      case Kind::kDefault:
      case Kind::kCallable:
      case Kind::kRegexp:
      case Kind::kType:
      case Kind::kRuntime:
      case Kind::kClass:
      case Kind::kResource:
      case Kind::kCatalogEntry:
      case Kind::kIterator:
      case Kind::kSemVer:
      case Kind::kSemVerRange:
      case Kind::kTimespan:
      case Kind::kTimestamp:
      case Kind::kBinary:
      case Kind::kUri:
      case Kind::kObject:
      case Kind::kTypeSet:
        // Their instances are Ruby objects (types, resources, versions,
        // times, byte strings, URIs, objects): no JSON value is one.
        return Expects(t, v, node);
      case Kind::kTypeReference:
        return Fail("expects " + t.text +
                    ", which no type or alias defines (an unresolved type "
                    "reference matches no value), got " +
                    std::string(ValueTypeName(v, node)));
      case Kind::kIterable: return CheckIterable(t, v, node);
      case Kind::kScalar:
      case Kind::kScalarData:
        if (node.kind == PropertyKind::kString ||
            node.kind == PropertyKind::kBool ||
            node.kind == PropertyKind::kNumber) {
          return true;
        }
        return Expects(t, v, node);
      case Kind::kData: return CheckData(t, v, node);
      case Kind::kNumeric:
      case Kind::kInteger:
      case Kind::kFloat: {
        if (node.kind != PropertyKind::kNumber) return Expects(t, v, node);
        bool integer = IsIntegerToken(v.raw());
        if ((t.kind == Kind::kInteger && !integer) ||
            (t.kind == Kind::kFloat && integer)) {
          return Expects(t, v, node);
        }
        if (!InRange(t, v.raw())) {
          return Fail("expects " + t.text + ", got " +
                      std::string(ValueTypeName(v, node)) + " " + Quote(v) +
                      " (out of range)");
        }
        return true;
      }
      case Kind::kString: {
        if (node.kind != PropertyKind::kString) return Expects(t, v, node);
        std::string s = v.Str();
        if (t.value) {
          if (s == *t.value) return true;
          return Fail("expects the string '" + *t.value + "', got " + Quote(v));
        }
        return SizeOk(static_cast<std::int64_t>(CodePoints(s)), t.min_size,
                      t.max_size, "String");
      }
      case Kind::kEnum:
      case Kind::kPattern: return CheckStringMatch(t, v, node);
      case Kind::kBoolean:
        if (node.kind != PropertyKind::kBool) return Expects(t, v, node);
        if (t.boolean && (v.type == json::Type::kTrue) != *t.boolean) {
          return Expects(t, v, node);
        }
        return true;
      case Kind::kArray: return CheckArray(t, v, node);
      case Kind::kTuple: return CheckTuple(t, v, node);
      case Kind::kHash: return CheckHash(t, v, node);
      case Kind::kStruct: return CheckStruct(t, v, node);
      case Kind::kCollection:
        if (v.is_array()) {
          return SizeOk(v.size, t.min_size, t.max_size, "Collection");
        }
        if (v.is_object()) {
          return SizeOk(v.size, t.min_size, t.max_size, "Collection");
        }
        return Expects(t, v, node);
      default: return Expects(t, v, node);
    }
  }

  bool CheckVariant(const PuppetType& t, const json::Value& v,
                    const Node& node) {
    // The error of the member that came deepest into the value.
    CheckError best;
    bool have_best = false;
    for (const TypePtr& m : t.elements) {
      walk_.ClearError();
      if (Check(*m, v)) return true;
      if (!have_best || walk_.error().depth > best.depth) {
        best = walk_.error();
        have_best = true;
      }
    }
    walk_.ClearError();
    if (have_best && (t.elements.size() == 1 || best.depth > walk_.depth())) {
      walk_.SetError(std::move(best));
      return false;
    }
    return Expects(t, v, node);
  }

  // Data = Variant[ScalarData, Undef, Hash[String, Data], Array[Data]]
  // (static_loader.rb BUILTIN_ALIASES).
  bool CheckData(const PuppetType& t, const json::Value& v, const Node& node) {
    if (node.kind == PropertyKind::kSecret) return Expects(t, v, node);
    if (v.is_array()) return Elements(v, t);
    if (v.is_object()) {
      return Members(v,
                     [&](const json::Member& m) { return Check(t, m.value); });
    }
    return true;  // null, bool, number, string
  }

  // RichData = Variant[Scalar, SemVerRange, Binary, Sensitive, Type,
  // TypeSet, URI, Object, Undef, Default, Hash[RichDataKey, RichData],
  // Array[RichData]] (static_loader.rb BUILTIN_ALIASES): for JSON values,
  // Data that may hold Sensitive values. JSON keys are Strings, which
  // RichDataKey (Variant[String, Numeric]) takes.
  bool CheckRichData(const PuppetType& t, const json::Value& v,
                     const Node& node) {
    if (node.kind == PropertyKind::kSecret) return true;
    if (v.is_array()) return Elements(v, t);
    if (v.is_object()) {
      return Members(v,
                     [&](const json::Member& m) { return Check(t, m.value); });
    }
    return true;
  }

  // types.rb PIterableType#instance?: without an element type (or with
  // one Any fits), a String, Hash or Array, or an Integer >= 0 (it
  // iterates 0...n). With an element type T, Puppet asks whether
  // Iterable[T] is assignable from the value's inferred type (Infer), that
  // is whether T takes the element type of its iterable_type: String[1, 1]
  // for a string, the common type of an array's elements, Tuple[K, V] of a
  // hash's common key and value types, Integer for any integer (so -1 is
  // an Iterable[Integer]). A mixed array every element of which is a T can
  // fail: ["a", 1] infers ScalarData elements.
  bool CheckIterable(const PuppetType& t, const json::Value& v,
                     const Node& node) {
    if (t.elements.empty() || IsAssignable(*t.elements[0], AnyType())) {
      const bool iterable = (node.kind == PropertyKind::kNumber &&
                             IsIntegerToken(v.raw()) && v.raw()[0] != '-') ||
                            node.kind == PropertyKind::kString ||
                            node.kind == PropertyKind::kArray || v.is_object();
      return iterable || Expects(t, v, node);
    }
    TypePtr inferred = Infer(v, walk_.arena());
    return IsAssignable(t, *inferred) || Expects(t, v, node);
  }

  static const PuppetType& AnyType() {
    static const PuppetType any;
    return any;
  }

  // p_init_type.rb PInitType#really_instance?: a T, or a value T.new
  // takes as its one argument, or as its argument list (an array), or as
  // the only argument of a signature that takes more.
  bool CheckInit(const PuppetType& t, const json::Value& v, const Node& node) {
    if (t.elements.empty()) return CheckRichData(t, v, node);
    if (Tries(*t.elements[0], v)) return true;
    for (const TypePtr& single : t.init_single) {
      if (Tries(*single, v)) return true;
    }
    for (const TypePtr& other : t.init_other) {
      if (v.is_array() && Tries(*other, v)) return true;
    }
    if (t.init_optional_single) {
      json::Value wrapped = walk_.arena().MakeArray(std::span(&v, 1));
      for (const TypePtr& other : t.init_other) {
        if (Tries(*other, wrapped)) return true;
      }
    }
    return Expects(t, v, node);
  }

  // Checks without keeping the error: one alternative of several.
  bool Tries(const PuppetType& t, const json::Value& v) {
    bool ok = Check(t, v);
    walk_.ClearError();
    return ok;
  }

  bool CheckStringMatch(const PuppetType& t, const json::Value& v,
                        const Node& node) {
    if (node.kind != PropertyKind::kString) return Expects(t, v, node);
    std::string s = v.Str();
    if (t.kind == Kind::kEnum) {
      // An Enum without values matches no value (types.rb; §9.10).
      for (const std::string& e : t.enum_values) {
        if (e == s) return true;
        if (t.case_insensitive && e.size() == s.size()) {
          bool eq = true;
          for (std::size_t i = 0; i < e.size() && eq; ++i) {
            char a = e[i];
            char b = s[i];
            if (a >= 'A' && a <= 'Z') a = static_cast<char>(a - 'A' + 'a');
            if (b >= 'A' && b <= 'Z') b = static_cast<char>(b - 'A' + 'a');
            eq = a == b;
          }
          if (eq) return true;
        }
      }
      return Fail("expects a match for " + t.text + ", got " + Quote(v));
    }
    if (t.patterns.empty()) return true;
    budget_.Credit(&v, s.size());
    for (const Pattern& p : t.patterns) {
      switch (p.regex->Search(s, budget_)) {
        case Regex::Match::kYes: return true;
        case Regex::Match::kTooComplex:
          return Fail("the pattern /" + p.source +
                      "/ needs too much work on this value");
        case Regex::Match::kInvalidSubject:
          return Fail("the value is not valid UTF-8; no pattern can match it");
        case Regex::Match::kNo: break;
      }
    }
    return Fail("expects a match for " + t.text + ", got " + Quote(v));
  }

  bool CheckArray(const PuppetType& t, const json::Value& v, const Node& node) {
    if (!v.is_array()) return Expects(t, v, node);
    if (!SizeOk(v.size, t.min_size, t.max_size, "Array")) return false;
    if (t.elements.empty()) return true;
    return Elements(v, *t.elements[0]);
  }

  bool CheckTuple(const PuppetType& t, const json::Value& v, const Node& node) {
    if (!v.is_array()) return Expects(t, v, node);
    if (t.elements.empty() && !t.has_size) return true;  // plain Tuple
    std::int64_t lo = static_cast<std::int64_t>(t.elements.size());
    std::optional<std::int64_t> hi = lo;
    if (t.has_size) {
      lo = t.min_size;
      hi = t.max_size;
    }
    if (!SizeOk(v.size, lo, hi, "Tuple")) return false;
    if (t.elements.empty()) return true;
    json::Value unused;
    return walk_.Elements(
               v, &unused,
               [&](std::size_t i, const json::Value& e, json::Value*) {
                 // Positions past the last type use the last type.
                 return AsOutcome(
                     Check(*t.elements[std::min(i, t.elements.size() - 1)], e));
               }) == Outcome::kOk;
  }

  bool CheckHash(const PuppetType& t, const json::Value& v, const Node& node) {
    if (!v.is_object()) return Expects(t, v, node);
    if (!SizeOk(v.size, t.min_size, t.max_size, "Hash")) return false;
    if (t.elements.empty()) return true;
    return Members(v, [&](const json::Member& m) {
      if (!Check(*t.elements[0], m.key)) {
        walk_.PrefixError("the key ");
        return false;
      }
      return Check(*t.elements[1], m.value);
    });
  }

  bool CheckStruct(const PuppetType& t, const json::Value& v,
                   const Node& node) {
    if (!v.is_object()) return Expects(t, v, node);
    // Each key of the value looked up once (the last duplicate wins); the
    // first undeclared one is reported after the declared members.
    std::vector<const json::Value*> found_at(t.members.size(), nullptr);
    const json::Member* undeclared = nullptr;
    for (const json::Member& member : v.object()) {
      std::optional<std::size_t> i = t.member_index.Find(member.key.Str());
      if (i) {
        found_at[*i] = &member.value;
      } else if (!undeclared) {
        undeclared = &member;
      }
    }
    for (std::size_t i = 0; i < t.members.size(); ++i) {
      const StructMember& m = t.members[i];
      const json::Value* found = found_at[i];
      if (!found) {
        bool optional = m.key_kind == StructMember::KeyKind::kOptional ||
                        (m.key_kind == StructMember::KeyKind::kPlain &&
                         AcceptsUndef(*m.type));
        if (!optional) {
          return Fail("expects a value for key '" + m.key + "'");
        }
        continue;
      }
      std::size_t mark = walk_.PushName(m.key);
      bool ok = Check(*m.type, *found);
      walk_.Pop(mark);
      if (!ok) return false;
    }
    if (undeclared) {
      std::size_t mark = walk_.PushKey(undeclared->key);
      Fail(walk_.in_secret()
               ? "unrecognized key"
               : "unrecognized key '" + undeclared->key.Str() + "'");
      walk_.Pop(mark);
      return false;
    }
    return true;
  }

  // Every element against `t`.
  bool Elements(const json::Value& array, const PuppetType& t) {
    json::Value unused;
    return walk_.Elements(array, &unused,
                          [&](std::size_t, const json::Value& e, json::Value*) {
                            return AsOutcome(Check(t, e));
                          }) == Outcome::kOk;
  }
  // Every member through `check(member)`.
  template <typename F>
  bool Members(const json::Value& object, F&& check) {
    json::Value unused;
    return walk_.Members(object, &unused,
                         [&](std::size_t, const json::Member& m, json::Value*) {
                           return AsOutcome(check(m));
                         }) == Outcome::kOk;
  }

  CheckWalk& walk_;
  RegexBudget& budget_;  ///< shared by every pattern search of the check
};

class PuppetSystem final : public TypeSystem {
 public:
  explicit PuppetSystem(AliasesPtr aliases) : aliases_(std::move(aliases)) {}
  System system() const override { return System::kPuppet; }

  Result<std::shared_ptr<const Type>> Parse(
      const json::Value& spec) const override {
    return ParseTextType(
        spec, "a puppet type is a string, such as \"Array[String]\"",
        [this](std::string_view text) { return ParseType(text, aliases_); });
  }

  Verdict Check(const Type& type, const json::Value& value) const override {
    RegexBudget budget;
    return puppet::Check(static_cast<const PuppetType&>(type), value, budget);
  }

 private:
  AliasesPtr aliases_;
};

}  // namespace

Verdict Check(const PuppetType& type, const json::Value& value,
              RegexBudget& budget) {
  thread_local CheckWalk walk;
  walk.Reset();
  Checker checker(walk, budget);
  bool ok = walk.Readable(value) == Outcome::kOk && checker.Check(type, value);
  // Puppet never converts (§7.2).
  return walk.Finish(ok ? Outcome::kOk : Outcome::kError, json::Value());
}
}  // namespace puppet

std::unique_ptr<TypeSystem> MakePuppetSystem() {
  return std::make_unique<puppet::PuppetSystem>(nullptr);
}

namespace puppet {
std::unique_ptr<TypeSystem> MakePuppetSystemWith(AliasesPtr aliases) {
  return std::make_unique<PuppetSystem>(std::move(aliases));
}
}  // namespace puppet

}  // namespace pstate::types
