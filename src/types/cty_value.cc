// cty values over state JSON: reading (cty/json/type_implied.go plus the
// state layer), numbers (cty/value_init.go ParseNumberVal, big.Float text),
// set order and equality (cty/set_internals.go), and writing back.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <utf8proc.h>

#include "base/utf8.h"
#include "json/compact.h"
#include "json/number.h"
#include "json/parser.h"
#include "json/pointer.h"
#include "json/string_codec.h"
#include "state/signature.h"
#include "types/check_walk.h"
#include "types/cty.h"
#include "types/state_value.h"

namespace pstate::types::cty {
namespace {

constexpr std::int64_t kMaxExponent = 100000;

using Decimal = json::ExactDecimal;

// Strips leading and trailing zeros of digits built up by arithmetic.
void Normalize(Decimal* d) {
  std::size_t lead = 0;
  while (lead < d->digits.size() && d->digits[lead] == '0') ++lead;
  d->digits.erase(0, lead);
  while (!d->digits.empty() && d->digits.back() == '0') {
    d->digits.pop_back();
    ++d->exponent;
  }
  if (d->digits.empty()) d->exponent = 0;
}

std::string ToJsonText(const Decimal& d) {
  std::string out;
  if (d.negative) out += '-';
  if (d.digits.empty()) {
    out += '0';
    return out;
  }
  std::int64_t point = static_cast<std::int64_t>(d.digits.size()) + d.exponent;
  if (d.exponent >= 0 && d.exponent <= 21) {
    out += d.digits;
    out.append(static_cast<std::size_t>(d.exponent), '0');
  } else if (d.exponent < 0 && point > -7) {
    if (point <= 0) {
      out += "0.";
      out.append(static_cast<std::size_t>(-point), '0');
      out += d.digits;
    } else {
      out.append(d.digits, 0, static_cast<std::size_t>(point));
      out += '.';
      out.append(d.digits, static_cast<std::size_t>(point));
    }
  } else {
    out += d.digits;
    out += 'e';
    out += std::to_string(d.exponent);
  }
  return out;
}

// digits *= m (m small), decimal strings.
void MultiplySmall(std::string* digits, int m) {
  int carry = 0;
  for (std::size_t i = digits->size(); i-- > 0;) {
    int v = ((*digits)[i] - '0') * m + carry;
    (*digits)[i] = static_cast<char>('0' + v % 10);
    carry = v / 10;
  }
  while (carry > 0) {
    digits->insert(digits->begin(), static_cast<char>('0' + carry % 10));
    carry /= 10;
  }
}

// Unicode code points Go's strconv.IsPrint rejects among the common ones
// (C1 controls, the soft hyphen, line/paragraph separators, BOM). Used only
// for set ordering of structured elements.
bool GoPrintable(std::uint32_t cp) {
  if (cp < 0x20 || cp == 0x7f) return false;
  if (cp >= 0x80 && cp < 0xa0) return false;
  if (cp == 0xad || cp == 0x2028 || cp == 0x2029 || cp == 0xfeff) {
    return false;
  }
  return true;
}

// strconv.Quote (fmt %q) of a UTF-8 string.
void AppendGoQuoted(std::string_view s, std::string* out) {
  static const char kHex[] = "0123456789abcdef";
  *out += '"';
  std::size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    int len = utf8::SequenceLength(
        reinterpret_cast<const unsigned char*>(s.data() + i), s.size() - i);
    if (len == 0) {
      *out += "\\x";
      *out += kHex[c >> 4];
      *out += kHex[c & 15];
      ++i;
      continue;
    }
    if (len == 1) {
      switch (c) {
        case '\a': *out += "\\a"; break;
        case '\b': *out += "\\b"; break;
        case '\f': *out += "\\f"; break;
        case '\n': *out += "\\n"; break;
        case '\r': *out += "\\r"; break;
        case '\t': *out += "\\t"; break;
        case '\v': *out += "\\v"; break;
        case '"': *out += "\\\""; break;
        case '\\': *out += "\\\\"; break;
        default:
          if (GoPrintable(c)) {
            *out += static_cast<char>(c);
          } else {
            *out += "\\x";
            *out += kHex[c >> 4];
            *out += kHex[c & 15];
          }
      }
      ++i;
      continue;
    }
    std::uint32_t cp = c & (0xff >> (len + 1));
    for (int k = 1; k < len; ++k) {
      cp = (cp << 6) |
           (static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]) &
            0x3f);
    }
    if (GoPrintable(cp)) {
      out->append(s.substr(i, static_cast<std::size_t>(len)));
    } else {
      char buf[16];
      if (cp <= 0xffff) {
        std::snprintf(buf, sizeof buf, "\\u%04x", cp);
      } else {
        std::snprintf(buf, sizeof buf, "\\U%08x", cp);
      }
      *out += buf;
    }
    i += static_cast<std::size_t>(len);
  }
  *out += '"';
}

// big.Float.String(): Text('g', 10), from the decimal value. (The binary
// rounding of a 512-bit mantissa is not reproduced; only set order of
// structured elements depends on it.)
void AppendNumberHashText(const Val& v, std::string* out) {
  if (v.inf != 0) {
    *out += v.inf > 0 ? "+Inf" : "-Inf";
    return;
  }
  Decimal d = json::ParseDecimal(v.str);
  if (d.negative) *out += '-';
  if (d.digits.empty()) {
    *out += '0';
    return;
  }
  // Round to 10 significant digits, ties to even.
  std::int64_t point = static_cast<std::int64_t>(d.digits.size()) + d.exponent;
  std::string m = d.digits;
  if (m.size() > 10) {
    bool up;
    char next = m[10];
    bool rest_zero = m.find_first_not_of('0', 11) == std::string::npos;
    if (next > '5' || (next == '5' && !rest_zero)) {
      up = true;
    } else if (next == '5') {
      up = (m[9] - '0') % 2 == 1;
    } else {
      up = false;
    }
    m.resize(10);
    if (up) {
      std::size_t k = m.size();
      while (k > 0 && m[k - 1] == '9') {
        m[k - 1] = '0';
        --k;
      }
      if (k == 0) {
        m.insert(m.begin(), '1');
        m.pop_back();
        ++point;
      } else {
        ++m[k - 1];
      }
    }
    while (!m.empty() && m.back() == '0') m.pop_back();
  }
  std::int64_t n = static_cast<std::int64_t>(m.size());
  std::int64_t eprec = 10;
  if (eprec > n && n >= point) eprec = n;
  std::int64_t exp = point - 1;
  if (exp < -4 || exp >= eprec) {
    *out += m[0];
    if (m.size() > 1) {
      *out += '.';
      out->append(m, 1);
    }
    *out += 'e';
    *out += exp < 0 ? '-' : '+';
    std::int64_t a = exp < 0 ? -exp : exp;
    if (a < 10) *out += '0';
    *out += std::to_string(a);
    return;
  }
  std::int64_t prec = 10;
  if (prec > point) prec = n;
  std::int64_t frac = std::max<std::int64_t>(prec - point, 0);
  if (point > 0) {
    for (std::int64_t i = 0; i < point; ++i) {
      *out += i < n ? m[static_cast<std::size_t>(i)] : '0';
    }
  } else {
    *out += '0';
  }
  if (frac > 0) {
    *out += '.';
    for (std::int64_t i = 1; i <= frac; ++i) {
      std::int64_t idx = point + i - 1;
      *out += idx >= 0 && idx < n ? m[static_cast<std::size_t>(idx)] : '0';
    }
  }
}

// set_internals.go appendSetHashBytes.
void AppendHashBytes(const Val& v, std::string* out) {
  if (v.state == State::kUnknown) {
    *out += '?';
    return;
  }
  if (v.state == State::kNull) {
    *out += '~';
    return;
  }
  switch (v.type->kind) {
    case Kind::kNumber: AppendNumberHashText(v, out); return;
    case Kind::kBool: *out += v.b ? 'T' : 'F'; return;
    case Kind::kString: AppendGoQuoted(v.str, out); return;
    case Kind::kMap:
      *out += '{';
      for (std::uint32_t i = 0; i < v.count; ++i) {
        AppendGoQuoted(v.keys[i], out);
        *out += ':';
        AppendHashBytes(v.elems[i], out);
        *out += ';';
      }
      *out += '}';
      return;
    case Kind::kList:
    case Kind::kSet:
      *out += '[';
      for (const Val& e : v.elements()) {
        AppendHashBytes(e, out);
        *out += ';';
      }
      *out += ']';
      return;
    case Kind::kObject:
    case Kind::kTuple:
      *out += '<';
      for (const Val& e : v.elements()) {
        AppendHashBytes(e, out);
        *out += ';';
      }
      *out += '>';
      return;
    case Kind::kDynamic: return;
  }
}

int CompareNumberVals(const Val& a, const Val& b) {
  if (a.inf != 0 || b.inf != 0) {
    // `inf` is a sign (-1, 0, +1), not a character.
    int x = a.inf;  // NOLINT(bugprone-signed-char-misuse)
    int y = b.inf;  // NOLINT(bugprone-signed-char-misuse)
    if (x == y) return 0;
    if (x == 0) return y > 0 ? -1 : 1;
    if (y == 0) return x > 0 ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return json::CompareNumbers(a.str, b.str);
}

// setRules.Less for elements of one set (element type `ety`).
bool SetLess(const Type* ety, const Val& a, const Val& b) {
  if (ValuesEqual(a, b)) return false;
  if (b.is_null() && !a.is_null()) return true;
  if (a.is_null()) return false;
  if (a.is_known() && !b.is_known()) return true;
  if (!a.is_known()) return false;
  switch (ety->kind) {
    case Kind::kString: return a.str < b.str;
    case Kind::kBool: return b.b || !a.b;
    case Kind::kNumber: return CompareNumberVals(a, b) < 0;
    default: {
      std::string ha, hb;
      AppendHashBytes(a, &ha);
      AppendHashBytes(b, &hb);
      return ha < hb;
    }
  }
}

// The string `s` (decoded bytes) as JSON.
void AppendJsonString(std::string_view s, std::string* out) {
  *out += '"';
  json::AppendEscaped(s, out);
  *out += '"';
}

void AppendSpecialFloat(int inf, std::string* out) {
  *out += "{\"";
  out->append(state::kSigKey);
  *out += "\":\"";
  out->append(state::kSigSpecialFloat);
  *out += "\",\"value\":\"";
  *out += inf > 0 ? "7ff0000000000000" : "fff0000000000000";
  *out += "\"}";
}

void AppendValue(const Val& v, std::string* out) {
  if (v.src != nullptr) {
    json::AppendCompactJson(*v.src, out, json::EscapeStyle::kExport,
                            json::CompactStrings::kCanonical);
    return;
  }
  if (v.marked) {
    Val inner = v;
    inner.marked = false;
    inner.src = v.inner_src;
    std::string plain;
    AppendValue(inner, &plain);
    *out += "{\"";
    out->append(state::kSigKey);
    *out += "\":\"";
    out->append(state::kSigSecret);
    *out += "\",\"plaintext\":";
    AppendJsonString(plain, out);
    *out += '}';
    return;
  }
  if (v.state == State::kNull) {
    *out += "null";
    return;
  }
  if (v.state == State::kUnknown) {
    AppendJsonString(state::kUnknownValue, out);
    return;
  }
  switch (v.type->kind) {
    case Kind::kBool: *out += v.b ? "true" : "false"; return;
    case Kind::kNumber:
      if (v.inf != 0) {
        AppendSpecialFloat(v.inf, out);
      } else {
        out->append(v.str);
      }
      return;
    case Kind::kString: AppendJsonString(v.str, out); return;
    case Kind::kList:
    case Kind::kSet:
    case Kind::kTuple: {
      *out += '[';
      for (std::uint32_t i = 0; i < v.count; ++i) {
        if (i > 0) *out += ',';
        AppendValue(v.elems[i], out);
      }
      *out += ']';
      return;
    }
    case Kind::kMap: {
      *out += '{';
      for (std::uint32_t i = 0; i < v.count; ++i) {
        if (i > 0) *out += ',';
        AppendJsonString(v.keys[i], out);
        *out += ':';
        AppendValue(v.elems[i], out);
      }
      *out += '}';
      return;
    }
    case Kind::kObject: {
      *out += '{';
      for (std::uint32_t i = 0; i < v.count; ++i) {
        if (i > 0) *out += ',';
        AppendJsonString(v.type->attrs[i].name, out);
        *out += ':';
        AppendValue(v.elems[i], out);
      }
      *out += '}';
      return;
    }
    case Kind::kDynamic: *out += "null"; return;
  }
}

// Reading state JSON. Inside a secret, object keys in pointers are hidden
// as "*": the keys are part of the secret value.
// cty.StringVal's NFC normalisation (go-cty cty/ctystrings Normalize:
// golang.org/x/text norm.NFC), through utf8proc. ASCII text is always NFC.
// Returns false when `s` is NFC already (then `out` is untouched).
bool ToNfc(std::string_view s, std::string* out) {
  bool ascii = true;
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return false;
  utf8proc_uint8_t* mapped = nullptr;
  utf8proc_ssize_t n = utf8proc_map(
      reinterpret_cast<const utf8proc_uint8_t*>(s.data()),
      static_cast<utf8proc_ssize_t>(s.size()), &mapped,
      static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE));
  if (n < 0) return false;  // not UTF-8: the reader refused it already
  std::string_view nfc(reinterpret_cast<const char*>(mapped),
                       static_cast<std::size_t>(n));
  bool changed = nfc != s;
  if (changed) out->assign(nfc);
  std::free(mapped);
  return changed;
}

struct Reader {
  Reader(json::Arena& a, Failure* f) : arena(a), failure(f), walk(a) {}

  json::Arena& arena;
  Failure* failure;
  CheckWalk walk;  ///< the place, the secret depth, the error

  bool Fail(std::string_view message) {
    walk.Fail(message);
    failure->pointer = walk.error_pointer();
    failure->message = walk.error_message();
    return false;
  }

  std::string_view Decoded(const json::Value& s) {
    if (!s.has_escapes) return s.raw();
    std::string text;
    json::AppendUnescaped(s.raw(), &text);
    return arena.Copy(text);
  }

  // A string or key as cty holds it: decoded, then NFC-normalised.
  // `*changed` is set when normalising changed it.
  std::string_view Normalized(const json::Value& s, bool* changed) {
    std::string_view text = Decoded(s);
    std::string nfc;
    if (!ToNfc(text, &nfc)) return text;
    *changed = true;
    return arena.Copy(nfc);
  }

  bool Read(const json::Value& value, Val* out, int depth) {
    if (depth > json::kDefaultMaxDepth) return Fail("value nested too deeply");
    Node node = Decode(value, arena);
    *out = Val();
    out->src = &value;
    switch (node.kind) {
      case PropertyKind::kNull:
        out->type = DynamicType();
        out->state = State::kNull;
        return true;
      case PropertyKind::kBool:
        out->type = BoolType();
        out->b = value.type == json::Type::kTrue;
        return true;
      case PropertyKind::kNumber:
        out->type = NumberType();
        out->str = value.raw();
        return true;
      case PropertyKind::kString: {
        out->type = StringType();
        bool changed = false;
        out->str = Normalized(value, &changed);
        if (changed) out->src = nullptr;  // written from `str`
        return true;
      }
      case PropertyKind::kUnknown:
        out->type = DynamicType();
        out->state = State::kUnknown;
        return true;
      case PropertyKind::kArray: return ReadArray(value, out, depth);
      case PropertyKind::kSecret: {
        if (node.secret_inner == nullptr) {
          // Ciphertext only: the content is unknown (type-systems §1.4).
          out->type = DynamicType();
          out->state = State::kUnknown;
          out->marked = true;
          out->inner_src = &value;
          return true;
        }
        walk.EnterSecret();
        Val inner;
        bool ok = Read(*node.secret_inner, &inner, depth + 1);
        walk.LeaveSecret();
        if (!ok) return false;
        if (inner.marked) {
          // A secret inside a secret: one mark is all cty can hold.
          inner.src = inner.inner_src;
        }
        *out = inner;
        out->marked = true;
        out->inner_src = inner.src;
        // A plaintext that normalising changed is written anew.
        out->src = inner.src != nullptr ? &value : nullptr;
        return true;
      }
      case PropertyKind::kOutputValue:
      case PropertyKind::kUnrecognized: return Fail(node.reason);
      case PropertyKind::kSpecialFloat:
        // Pulumi reads ±Inf as a number, and so can cty
        // (cty.PositiveInfinity); cty has no NaN (NumberFloatVal panics).
        if (node.special != node.special) {
          return Fail("NaN is not a valid cty number");
        }
        out->type = NumberType();
        out->str = "0";
        out->inf = node.special > 0 ? 1 : -1;
        return true;
      case PropertyKind::kObject:
      case PropertyKind::kAsset:
      case PropertyKind::kArchive:
      case PropertyKind::kResourceReference:
      case PropertyKind::kByteString:
        // These signatures have no cty meaning: the object is what cty
        // sees (type-systems §1.4).
        return ReadObject(value, out, depth);
    }
    return Fail("unreadable value");
  }

  bool ReadArray(const json::Value& value, Val* out, int depth) {
    std::uint32_t n = value.size;
    Val* elems = arena.Allocate<Val>(n);
    const Type** types = arena.Allocate<const Type*>(n);
    for (std::uint32_t i = 0; i < n; ++i) {
      std::size_t mark = walk.PushIndex(i);
      new (&elems[i]) Val();
      if (!Read(value.elements[i], &elems[i], depth + 1)) return false;
      walk.Pop(mark);
      types[i] = elems[i].type;
      if (elems[i].src == nullptr) out->src = nullptr;  // changed inside
    }
    Type* t = arena.Allocate<Type>(1);
    *t = Type{Kind::kTuple, n, nullptr, nullptr, types};
    out->type = t;
    out->count = n;
    out->elems = elems;
    return true;
  }

  bool ReadObject(const json::Value& value, Val* out, int depth) {
    std::uint32_t n = value.size;
    struct Item {
      std::string_view name;
      std::uint32_t index;
    };
    // In the arena: no heap allocation per object.
    std::span<Item> items(arena.Allocate<Item>(n), n);
    bool changed = false;  // a key or a value was normalised
    for (std::uint32_t i = 0; i < n; ++i) {
      items[i] = Item{Normalized(value.members[i].key, &changed), i};
    }
    SmallStableSort(
        items.data(), items.data() + items.size(),
        [](const Item& a, const Item& b) { return a.name < b.name; });
    Attr* attrs = arena.Allocate<Attr>(n);
    Val* vals = arena.Allocate<Val>(n);
    std::uint32_t count = 0;
    for (std::size_t k = 0; k < items.size(); ++k) {
      const Item& item = items[k];
      std::size_t mark = walk.PushName(item.name);
      Val v;
      if (!Read(value.members[item.index].value, &v, depth + 1)) return false;
      if (count > 0 && attrs[count - 1].name == item.name) {
        // type_implied.go: a repeated key must keep its type; the last
        // occurrence wins (Go's decoder).
        if (!TypesEqual(attrs[count - 1].type, v.type)) {
          std::string quoted;
          json::AppendEscaped(walk.in_secret() ? "*" : item.name, &quoted);
          return Fail("duplicate \"" + quoted +
                      "\" property in JSON object with a different type");
        }
        vals[count - 1] = v;
      } else {
        attrs[count] = Attr{item.name, v.type, false};
        new (&vals[count]) Val(v);
        ++count;
      }
      if (v.src == nullptr) changed = true;
      walk.Pop(mark);
    }
    if (changed) out->src = nullptr;
    Type* t = arena.Allocate<Type>(1);
    *t = Type{Kind::kObject, count, nullptr, attrs, nullptr};
    out->type = t;
    out->count = count;
    out->elems = vals;
    return true;
  }
};

}  // namespace

bool NumberToString(std::string_view json_text, std::string* out) {
  Decimal d = json::ParseDecimal(json_text);
  if (d.exponent > kMaxExponent || d.exponent < -kMaxExponent) return false;
  if (d.negative) *out += '-';
  if (d.digits.empty()) {
    *out += '0';
    return true;
  }
  if (d.exponent >= 0) {
    *out += d.digits;
    out->append(static_cast<std::size_t>(d.exponent), '0');
    return true;
  }
  std::int64_t point = static_cast<std::int64_t>(d.digits.size()) + d.exponent;
  if (point <= 0) {
    *out += "0.";
    out->append(static_cast<std::size_t>(-point), '0');
    *out += d.digits;
  } else {
    out->append(d.digits, 0, static_cast<std::size_t>(point));
    *out += '.';
    out->append(d.digits, static_cast<std::size_t>(point));
  }
  return true;
}

bool ParseNumberString(std::string_view s, std::string* json_text, int* inf) {
  *inf = 0;
  std::size_t i = 0;
  bool neg = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  std::string_view rest = s.substr(i);
  if (rest == "Inf" || rest == "inf") {
    *inf = neg ? -1 : 1;
    return true;
  }
  Decimal d;
  d.negative = neg;
  std::int64_t frac = 0;
  bool any_digit = false;
  bool seen_point = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c >= '0' && c <= '9') {
      d.digits += c;
      any_digit = true;
      if (seen_point) ++frac;
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  if (!any_digit) return false;
  std::int64_t exp10 = 0;
  std::int64_t exp2 = 0;
  if (i < s.size()) {
    char c = s[i];
    if (c != 'e' && c != 'E' && c != 'p' && c != 'P') return false;
    bool binary = c == 'p' || c == 'P';
    ++i;
    bool eneg = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) eneg = s[i++] == '-';
    if (i >= s.size()) return false;
    std::int64_t e = 0;
    for (; i < s.size(); ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      if (e < 4000000000) e = e * 10 + (s[i] - '0');
    }
    if (eneg) e = -e;
    (binary ? exp2 : exp10) = e;
  }
  d.exponent = exp10 - frac;
  Normalize(&d);
  if (!d.digits.empty() && exp2 != 0) {
    // Exact: multiply by 2^p, or by 5^-p with the decimal point moved.
    if (exp2 > 4096 || exp2 < -4096) return false;
    if (exp2 > 0) {
      for (std::int64_t k = 0; k < exp2; ++k) MultiplySmall(&d.digits, 2);
    } else {
      for (std::int64_t k = 0; k < -exp2; ++k) MultiplySmall(&d.digits, 5);
      d.exponent += exp2;
    }
    Normalize(&d);
  }
  if (d.exponent > 1000000000 || d.exponent < -1000000000) return false;
  *json_text = ToJsonText(d);
  return true;
}

bool ValuesEqual(const Val& a, const Val& b) {
  // Value.Equals: two nulls are equal (set_internals.go setRules.Equivalent
  // merges them, and Hash gives every null "~").
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
  if (!a.is_known() || !b.is_known()) return false;
  if (a.type->kind != b.type->kind) return false;
  switch (a.type->kind) {
    case Kind::kBool: return a.b == b.b;
    case Kind::kNumber: return CompareNumberVals(a, b) == 0;
    case Kind::kString: return a.str == b.str;
    case Kind::kDynamic: return false;
    case Kind::kMap:
      if (a.count != b.count) return false;
      for (std::uint32_t i = 0; i < a.count; ++i) {
        if (a.keys[i] != b.keys[i]) return false;
      }
      break;
    case Kind::kObject:
      if (!TypesEqual(a.type, b.type)) return false;
      break;
    default:
      if (a.count != b.count) return false;
  }
  for (std::uint32_t i = 0; i < a.count; ++i) {
    if (!ValuesEqual(a.elems[i], b.elems[i])) return false;
  }
  return true;
}

std::uint32_t CanonicalizeSet(Val* elems, std::uint32_t count) {
  if (count == 0) return 0;
  // The element type: the first non-dynamic element type.
  const Type* ety = DynamicType();
  for (std::uint32_t i = 0; i < count; ++i) {
    if (elems[i].type->kind != Kind::kDynamic) {
      ety = elems[i].type;
      break;
    }
  }
  // Order stably (set.Values sorts with SliceStable; elements that tie
  // share a hash bucket and keep insertion order), then drop values equal
  // to an earlier one (set.Add keeps the value already there). Equal values
  // always tie, so only runs of ties need comparing.
  std::vector<std::string> keys;
  std::vector<std::uint32_t> order(count);
  for (std::uint32_t i = 0; i < count; ++i) order[i] = i;
  bool structured = !ety->is_primitive();
  if (structured) {
    keys.resize(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      AppendHashBytes(elems[i], &keys[i]);
    }
  }
  auto less = [&](std::uint32_t x, std::uint32_t y) {
    const Val& a = elems[x];
    const Val& b = elems[y];
    if (!structured) return SetLess(ety, a, b);
    if (ValuesEqual(a, b)) return false;
    if (b.is_null() && !a.is_null()) return true;
    if (a.is_null()) return false;
    if (a.is_known() && !b.is_known()) return true;
    if (!a.is_known()) return false;
    return keys[x] < keys[y];
  };
  std::stable_sort(order.begin(), order.end(), less);
  std::vector<Val> sorted;
  sorted.reserve(count);
  std::size_t run = 0;
  for (std::uint32_t k = 0; k < count; ++k) {
    std::uint32_t idx = order[k];
    if (k > 0 && less(order[k - 1], idx)) run = sorted.size();
    bool dup = false;
    for (std::size_t j = run; j < sorted.size(); ++j) {
      if (ValuesEqual(sorted[j], elems[idx])) {
        dup = true;
        break;
      }
    }
    if (!dup) sorted.push_back(elems[idx]);
  }
  std::copy(sorted.begin(), sorted.end(), elems);
  return static_cast<std::uint32_t>(sorted.size());
}

void WriteStateJson(const Val& value, std::string* out) {
  AppendValue(value, out);
}

Result<Val> FromState(const json::Value& value, json::Arena& arena,
                      Failure* failure) {
  Reader reader(arena, failure);
  Val out;
  if (!reader.Read(value, &out, 0)) {
    return Status(Errc::kFormat, failure->message);
  }
  return out;
}

}  // namespace pstate::types::cty
