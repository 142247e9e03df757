// Checking state values against Puppet types: the `instance?` methods of
// lib/puppet/pops/types/types.rb over values read as Ruby's JSON.parse
// reads them (docs/types.md, "puppet").
#include "pstate/types/puppet.h"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pstate/json/compact.h"
#include "pstate/json/number.h"
#include "pstate/json/pointer.h"
#include "pstate/types/state_value.h"
#include "types/puppet_regex.h"

namespace pstate::types {
namespace puppet {
namespace {

constexpr int kMaxDepth = 512;

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
    case NodeKind::kNull: return "Undef";
    case NodeKind::kBool: return "Boolean";
    case NodeKind::kNumber:
      return IsIntegerToken(v.raw()) ? "Integer" : "Float";
    case NodeKind::kString:
    case NodeKind::kUnknown: return "String";
    case NodeKind::kArray: return "Array";
    case NodeKind::kSecret: return "Sensitive";
    default: return "Hash";
  }
}

class Checker {
 public:
  explicit Checker(json::Arena& arena) : arena_(arena) {}

  bool Check(const PuppetType& t, const json::Value& v) {
    if (++depth_ > kMaxDepth) {
      --depth_;
      return Fail("the value is nested too deeply");
    }
    bool ok = CheckNode(t, v);
    --depth_;
    return ok;
  }

  /// Fails on the first malformed signature anywhere in `v`. Only objects
  /// can be signatures, so scalars are not decoded.
  bool Validate(const json::Value& v) {
    if (!v.is_array() && !v.is_object()) return true;
    if (++depth_ > kMaxDepth) {
      --depth_;
      return Fail("the value is nested too deeply");
    }
    Node node = v.is_array() ? Node{NodeKind::kArray, &v, nullptr, 0, {}}
                             : Decode(v, arena_);
    bool ok = true;
    if (node.kind == NodeKind::kMalformed) {
      ok = Fail(node.reason);
    } else if (node.kind == NodeKind::kSecret && node.secret_inner) {
      ++in_secret_;
      ok = Validate(*node.secret_inner);
      --in_secret_;
    } else if (v.is_array()) {
      std::size_t i = 0;
      for (const json::Value& e : v.array()) {
        std::size_t mark = PushIndex(i++);
        if (!(ok = Validate(e))) break;
        Pop(mark);
      }
    } else if (v.is_object() && node.kind != NodeKind::kSecret) {
      for (const json::Member& m : v.object()) {
        std::size_t mark = PushKey(m.key);
        if (!(ok = Validate(m.value))) break;
        Pop(mark);
      }
    }
    --depth_;
    return ok;
  }

  const std::string& error_pointer() const { return error_pointer_; }
  const std::string& error_message() const { return error_message_; }

 private:
  bool Fail(std::string message) {
    error_pointer_ = PointerText();
    error_depth_ = path_.size();
    error_message_ =
        in_secret_ > 0 ? "inside a secret: " + message : std::move(message);
    return false;
  }
  bool Expects(const PuppetType& t, const json::Value& v, const Node& node) {
    std::string m = "expects ";
    m += t.text;
    m += ", got ";
    m += ValueTypeName(v, node);
    return Fail(std::move(m));
  }

  // The place in the value, as segments; the pointer text is built only
  // when a check fails. Inside a secret's plaintext, object keys are shown
  // as '*' (they may be part of the secret); indices are kept.
  std::size_t PushKey(const json::Value& key) {
    return path_.PushKey(key, /*hidden=*/in_secret_ > 0);
  }
  std::size_t PushName(std::string_view name) {
    return path_.PushName(name, /*hidden=*/in_secret_ > 0);
  }
  std::size_t PushIndex(std::size_t i) { return path_.PushIndex(i); }
  void Pop(std::size_t n) { path_.Pop(n); }
  std::string PointerText() const { return path_.str(); }

  // Quotes a scalar for a message, never inside a secret.
  std::string Quote(const json::Value& v) const {
    if (in_secret_ > 0) return "a value";
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
    std::string saved_pointer = error_pointer_;
    std::string saved_message = error_message_;
    bool ok = Check(t, null_value);
    error_pointer_ = std::move(saved_pointer);
    error_message_ = std::move(saved_message);
    return ok;
  }

  bool CheckNode(const PuppetType& t, const json::Value& v) {
    Node node = Decode(v, arena_);
    if (node.kind == NodeKind::kMalformed) return Fail(node.reason);
    if (node.kind == NodeKind::kUnknown) return true;  // §1.4 (pstate rule)
    const bool is_secret = node.kind == NodeKind::kSecret;
    switch (t.kind) {
      case Kind::kAny:
      case Kind::kUnit: return true;
      case Kind::kOptional:
        if (node.kind == NodeKind::kNull || t.elements.empty()) return true;
        return Check(*t.elements[0], v);
      case Kind::kNotUndef:
        if (node.kind == NodeKind::kNull) {
          return Fail("expects a value (" + t.text + "), got Undef");
        }
        return t.elements.empty() || Check(*t.elements[0], v);
      case Kind::kVariant: return CheckVariant(t, v, node);
      case Kind::kSensitive:
        if (!is_secret) return Expects(t, v, node);
        if (!node.secret_inner || t.elements.empty()) return true;
        {
          ++in_secret_;
          bool ok = Check(*t.elements[0], *node.secret_inner);
          --in_secret_;
          return ok;
        }
      default: break;
    }
    if (is_secret) {
      return Fail("expects " + t.text +
                  ", got Sensitive (a secret; use Sensitive[...])");
    }
    switch (t.kind) {
      case Kind::kUndef:
        return node.kind == NodeKind::kNull || Expects(t, v, node);
      case Kind::kDefault:
      case Kind::kCallable:
      case Kind::kRegexp:
        return Expects(t, v, node);  // no JSON value is one of these
      case Kind::kScalar:
      case Kind::kScalarData:
        if (node.kind == NodeKind::kString || node.kind == NodeKind::kBool ||
            node.kind == NodeKind::kNumber) {
          return true;
        }
        return Expects(t, v, node);
      case Kind::kData: return CheckData(t, v, node);
      case Kind::kNumeric:
      case Kind::kInteger:
      case Kind::kFloat: {
        if (node.kind != NodeKind::kNumber) return Expects(t, v, node);
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
        if (node.kind != NodeKind::kString) return Expects(t, v, node);
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
        if (node.kind != NodeKind::kBool) return Expects(t, v, node);
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
    std::string best_pointer;
    std::string best_message;
    std::size_t best_depth = 0;
    bool have_best = false;
    for (const TypePtr& m : t.elements) {
      if (Check(*m, v)) return true;
      if (!have_best || error_depth_ > best_depth) {
        best_pointer = error_pointer_;
        best_message = error_message_;
        best_depth = error_depth_;
        have_best = true;
      }
    }
    if (have_best && (t.elements.size() == 1 || best_depth > path_.size())) {
      error_pointer_ = std::move(best_pointer);
      error_message_ = std::move(best_message);
      error_depth_ = best_depth;
      return false;
    }
    return Expects(t, v, node);
  }

  // Data = Variant[ScalarData, Undef, Hash[String, Data], Array[Data]]
  // (static_loader.rb BUILTIN_ALIASES).
  bool CheckData(const PuppetType& t, const json::Value& v, const Node& node) {
    if (node.kind == NodeKind::kSecret) return Expects(t, v, node);
    if (v.is_array()) {
      std::size_t i = 0;
      for (const json::Value& e : v.array()) {
        std::size_t mark = PushIndex(i++);
        if (!Check(t, e)) return false;
        Pop(mark);
      }
      return true;
    }
    if (v.is_object()) {
      for (const json::Member& m : v.object()) {
        std::size_t mark = PushKey(m.key);
        if (!Check(t, m.value)) return false;
        Pop(mark);
      }
      return true;
    }
    return true;  // null, bool, number, string
  }

  bool CheckStringMatch(const PuppetType& t, const json::Value& v,
                        const Node& node) {
    if (node.kind != NodeKind::kString) return Expects(t, v, node);
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
    for (const Pattern& p : t.patterns) {
      switch (p.regex->Search(s)) {
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
    std::size_t i = 0;
    for (const json::Value& e : v.array()) {
      std::size_t mark = PushIndex(i++);
      if (!Check(*t.elements[0], e)) return false;
      Pop(mark);
    }
    return true;
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
    std::size_t i = 0;
    for (const json::Value& e : v.array()) {
      // Positions past the last type use the last type.
      const PuppetType& et = *t.elements[std::min(i, t.elements.size() - 1)];
      std::size_t mark = PushIndex(i++);
      if (!Check(et, e)) return false;
      Pop(mark);
    }
    return true;
  }

  bool CheckHash(const PuppetType& t, const json::Value& v, const Node& node) {
    if (!v.is_object()) return Expects(t, v, node);
    if (!SizeOk(v.size, t.min_size, t.max_size, "Hash")) return false;
    if (t.elements.empty()) return true;
    for (const json::Member& m : v.object()) {
      std::size_t mark = PushKey(m.key);
      if (!Check(*t.elements[0], m.key)) {
        error_message_ = "the key " + error_message_;
        return false;
      }
      if (!Check(*t.elements[1], m.value)) return false;
      Pop(mark);
    }
    return true;
  }

  bool CheckStruct(const PuppetType& t, const json::Value& v,
                   const Node& node) {
    if (!v.is_object()) return Expects(t, v, node);
    for (const StructMember& m : t.members) {
      const json::Value* found = nullptr;
      for (const json::Member& member : v.object()) {
        if (member.key.StrEquals(m.key)) found = &member.value;
      }
      if (!found) {
        bool optional = m.key_kind == StructMember::KeyKind::kOptional ||
                        (m.key_kind == StructMember::KeyKind::kPlain &&
                         AcceptsUndef(*m.type));
        if (!optional) {
          return Fail("expects a value for key '" + m.key + "'");
        }
        continue;
      }
      std::size_t mark = PushName(m.key);
      if (!Check(*m.type, *found)) return false;
      Pop(mark);
    }
    for (const json::Member& member : v.object()) {
      bool declared = false;
      for (const StructMember& m : t.members) {
        declared = declared || member.key.StrEquals(m.key);
      }
      if (!declared) {
        std::size_t mark = PushKey(member.key);
        (void)mark;
        return Fail(in_secret_ > 0
                        ? "unrecognized key"
                        : "unrecognized key '" + member.key.Str() + "'");
      }
    }
    return true;
  }

  json::Arena& arena_;
  json::PointerPath path_;  ///< the current place; spelled only for an error
  std::size_t error_depth_ = 0;
  int in_secret_ = 0;
  int depth_ = 0;
  std::string error_pointer_;
  std::string error_message_;
};

class PuppetSystem final : public TypeSystem {
 public:
  System system() const override { return System::kPuppet; }

  Result<std::shared_ptr<const Type>> Parse(
      const json::Value& spec) const override {
    if (!spec.is_string()) {
      return Status(Errc::kSyntax,
                    "a puppet type is a string, such as \"Array[String]\"");
    }
    Result<TypePtr> t = ParseType(spec.Str());
    if (!t.ok()) return t.status();
    return std::shared_ptr<const Type>(std::move(t).value());
  }

  Verdict Check(const Type& type, const json::Value& value) const override {
    const auto& t = static_cast<const PuppetType&>(type);
    thread_local json::Arena arena;
    arena.Reset();
    Checker checker(arena);
    if (!checker.Validate(value) || !checker.Check(t, value)) {
      return Verdict::Error(checker.error_pointer(), checker.error_message());
    }
    return Verdict::Ok();  // Puppet never converts (§7.2)
  }
};

}  // namespace
}  // namespace puppet

std::unique_ptr<TypeSystem> MakePuppetSystem() {
  return std::make_unique<puppet::PuppetSystem>();
}

}  // namespace pstate::types
