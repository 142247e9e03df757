#include "json/number.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <system_error>

#include "base/ascii.h"

namespace pstate::json {
namespace {

using ascii::IsDigit;

/// The pieces of a JSON number text.
struct NumberParts {
  bool negative = false;
  std::string_view int_digits;   ///< at least one digit
  std::string_view frac_digits;  ///< may be empty
  bool exp_negative = false;
  std::string_view exp_digits;  ///< may be empty (no exponent)
};

bool SplitNumber(std::string_view s, NumberParts* out) {
  std::size_t i = 0;
  if (i < s.size() && s[i] == '-') {
    out->negative = true;
    ++i;
  }
  std::size_t start = i;
  while (i < s.size() && IsDigit(s[i])) ++i;
  if (i == start) return false;
  if (s[start] == '0' && i - start > 1) return false;  // leading zero
  out->int_digits = s.substr(start, i - start);
  if (i < s.size() && s[i] == '.') {
    start = ++i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    if (i == start) return false;
    out->frac_digits = s.substr(start, i - start);
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
      out->exp_negative = s[i] == '-';
      ++i;
    }
    start = i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    if (i == start) return false;
    out->exp_digits = s.substr(start, i - start);
  }
  return i == s.size();
}

/// Magnitudes below this are held in an int64; at or above it, as decimal
/// digits. Either way each exponent has exactly one representation, so
/// comparisons never have to mix the two for equal values.
constexpr std::int64_t kSmallLimit = 1'000'000'000'000'000'000;  // 1e18
constexpr std::size_t kSmallDigits = 18;

/// A signed integer of unbounded size: the decimal exponent of a number.
/// JSON allows exponents of any length ("1e99999999999999999999999"), so a
/// fixed-width exponent would make distinct values compare equal.
struct Exponent {
  bool big = false;
  std::int64_t small = 0;  ///< when !big: |small| < kSmallLimit
  bool negative = false;   ///< when big
  std::string magnitude;   ///< when big: digits, no leading zero, >= 1e18

  int sign() const {
    if (big) return negative ? -1 : 1;
    return small < 0 ? -1 : (small > 0 ? 1 : 0);
  }
};

void StripLeadingZeros(std::string* digits) {
  std::size_t n = digits->find_first_not_of('0');
  if (n == std::string::npos) n = digits->size();
  digits->erase(0, n);
}

/// *mag += v (decimal digits, no leading zeros).
void AddMagnitude(std::string* mag, std::uint64_t v) {
  std::size_t i = mag->size();
  std::uint64_t carry = v;
  while (carry > 0) {
    if (i == 0) {
      mag->insert(mag->begin(), '0');
      i = 1;
    }
    --i;
    std::uint64_t d = static_cast<std::uint64_t>((*mag)[i] - '0') + carry;
    (*mag)[i] = static_cast<char>('0' + d % 10);
    carry = d / 10;
  }
}

/// *mag -= v, where *mag > v (decimal digits, no leading zeros).
void SubtractMagnitude(std::string* mag, std::uint64_t v) {
  std::size_t i = mag->size();
  std::uint64_t borrow = v;
  while (borrow > 0 && i > 0) {
    --i;
    std::uint64_t digit = static_cast<std::uint64_t>((*mag)[i] - '0');
    std::uint64_t take = borrow % 10;
    borrow /= 10;
    if (digit < take) {
      digit += 10;
      ++borrow;
    }
    (*mag)[i] = static_cast<char>('0' + (digit - take));
  }
  StripLeadingZeros(mag);
}

void NormalizeExponent(Exponent* e) {
  if (e->big) {
    if (e->magnitude.size() > kSmallDigits) return;
    std::int64_t v = 0;
    for (char c : e->magnitude) v = v * 10 + (c - '0');
    e->big = false;
    e->small = e->negative ? -v : v;
    e->magnitude.clear();
    return;
  }
  if (e->small > -kSmallLimit && e->small < kSmallLimit) return;
  e->big = true;
  e->negative = e->small < 0;
  std::uint64_t mag = e->negative
                          ? static_cast<std::uint64_t>(-(e->small + 1)) + 1
                          : static_cast<std::uint64_t>(e->small);
  e->magnitude = std::to_string(mag);
  e->small = 0;
}

/// Compares magnitudes |a| and |b|.
int CompareMagnitudes(const Exponent& a, const Exponent& b) {
  if (a.big != b.big) return a.big ? 1 : -1;
  if (a.big) {
    if (a.magnitude.size() != b.magnitude.size()) {
      return a.magnitude.size() < b.magnitude.size() ? -1 : 1;
    }
    int c = a.magnitude.compare(b.magnitude);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  std::int64_t x = a.small < 0 ? -a.small : a.small;
  std::int64_t y = b.small < 0 ? -b.small : b.small;
  return x < y ? -1 : (x > y ? 1 : 0);
}

int CompareExponents(const Exponent& a, const Exponent& b) {
  if (!a.big && !b.big) {
    return a.small < b.small ? -1 : (a.small > b.small ? 1 : 0);
  }
  int sa = a.sign();
  int sb = b.sign();
  if (sa != sb) return sa < sb ? -1 : 1;
  return sa * CompareMagnitudes(a, b);
}

/// A number as sign * 0.d1d2...dn... written as d1.d2...dn * 10^exponent,
/// with d1 != 0 and dn != 0: the digits are a view over the integer and
/// fraction parts of the text (skipping the '.'), so nothing is copied.
struct Decimal {
  bool valid = false;
  bool zero = true;
  bool negative = false;
  std::string_view int_digits;
  std::string_view frac_digits;
  std::size_t first = 0;  ///< index of d1 in int_digits + frac_digits
  std::size_t last = 0;   ///< one past dn
  Exponent exponent;

  char digit(std::size_t i) const {
    return i < int_digits.size() ? int_digits[i]
                                 : frac_digits[i - int_digits.size()];
  }
  std::size_t count() const { return last - first; }
  int sign() const { return zero ? 0 : (negative ? -1 : 1); }
};

Decimal ToDecimal(std::string_view text) {
  Decimal d;
  NumberParts parts;
  if (!SplitNumber(text, &parts)) return d;
  d.valid = true;
  d.int_digits = parts.int_digits;
  d.frac_digits = parts.frac_digits;
  std::size_t n = parts.int_digits.size() + parts.frac_digits.size();
  std::size_t first = 0;
  while (first < n && d.digit(first) == '0') ++first;
  if (first == n) return d;  // zero, whatever its sign and exponent
  std::size_t last = n;
  while (d.digit(last - 1) == '0') --last;
  d.zero = false;
  d.negative = parts.negative;
  d.first = first;
  d.last = last;
  // The digit at index i has place value 10^(int_size - 1 - i + exp). Texts
  // are far below 2^62 bytes, so the shift fits an int64.
  std::int64_t shift = static_cast<std::int64_t>(parts.int_digits.size()) - 1 -
                       static_cast<std::int64_t>(first);
  std::string_view exp = parts.exp_digits;
  std::size_t nz = exp.find_first_not_of('0');
  exp = nz == std::string_view::npos ? std::string_view() : exp.substr(nz);
  Exponent& e = d.exponent;
  if (exp.size() <= kSmallDigits) {
    std::int64_t v = 0;
    for (char c : exp) v = v * 10 + (c - '0');
    e.small = (parts.exp_negative ? -v : v) + shift;
  } else {
    // |exp| >= 1e18 > |shift|: the sum keeps the exponent's sign.
    e.big = true;
    e.negative = parts.exp_negative;
    e.magnitude = std::string(exp);
    std::uint64_t mag = shift < 0 ? static_cast<std::uint64_t>(-shift)
                                  : static_cast<std::uint64_t>(shift);
    if ((shift < 0) == e.negative) {
      AddMagnitude(&e.magnitude, mag);
    } else {
      SubtractMagnitude(&e.magnitude, mag);
    }
  }
  NormalizeExponent(&e);
  return d;
}

int CompareDecimals(const Decimal& a, const Decimal& b) {
  int sa = a.sign();
  int sb = b.sign();
  if (sa != sb) return sa < sb ? -1 : 1;
  if (sa == 0) return 0;
  int c = CompareExponents(a.exponent, b.exponent);
  if (c == 0) {
    std::size_t n = std::min(a.count(), b.count());
    for (std::size_t i = 0; i < n && c == 0; ++i) {
      char x = a.digit(a.first + i);
      char y = b.digit(b.first + i);
      if (x != y) c = x < y ? -1 : 1;
    }
    if (c == 0 && a.count() != b.count()) c = a.count() < b.count() ? -1 : 1;
  }
  return sa * c;
}

/// The exact decimal expansion of `value` (every double has one of at most
/// 767 significant digits), in exponent form.
std::string ExactDecimalText(double value) {
  char buf[1024];
  auto r = std::to_chars(buf, buf + sizeof buf, value,
                         std::chars_format::scientific, 800);
  if (r.ec != std::errc()) return {};
  return std::string(buf, r.ptr);
}

}  // namespace

bool IsNumberText(std::string_view text) {
  NumberParts parts;
  return SplitNumber(text, &parts);
}

bool NumbersEqual(std::string_view a, std::string_view b) {
  if (a == b) return true;
  Decimal x = ToDecimal(a);
  if (!x.valid) return false;
  Decimal y = ToDecimal(b);
  if (!y.valid) return false;
  return CompareDecimals(x, y) == 0;
}

int CompareNumbers(std::string_view a, std::string_view b) {
  Decimal x = ToDecimal(a);
  Decimal y = ToDecimal(b);
  if (!x.valid || !y.valid) {
    if (x.valid != y.valid) return x.valid ? -1 : 1;
    int c = a.compare(b);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  return CompareDecimals(x, y);
}

std::string CanonicalNumber(std::string_view text) {
  Decimal d = ToDecimal(text);
  if (!d.valid) return std::string(text);
  if (d.zero) return "0";
  std::string out;
  out.reserve(d.count() + 8);
  if (d.negative) out.push_back('-');
  out.push_back(d.digit(d.first));
  if (d.count() > 1) {
    out.push_back('.');
    for (std::size_t i = d.first + 1; i < d.last; ++i) {
      out.push_back(d.digit(i));
    }
  }
  out.push_back('e');
  const Exponent& e = d.exponent;
  if (e.big) {
    if (e.negative) out.push_back('-');
    out.append(e.magnitude);
  } else {
    out.append(std::to_string(e.small));
  }
  return out;
}

ExactDecimal ParseDecimal(std::string_view text) {
  ExactDecimal out;
  Decimal d = ToDecimal(text);
  if (!d.valid) return out;
  out.negative = !text.empty() && text[0] == '-';
  if (d.zero) return out;
  out.digits.reserve(d.count());
  for (std::size_t i = d.first; i < d.last; ++i) out.digits += d.digit(i);
  // d.exponent places the first digit; `exponent` places the last.
  const Exponent& e = d.exponent;
  std::int64_t first = kDecimalExponentLimit;
  if (!e.big)
    first = std::clamp(e.small, -kDecimalExponentLimit, kDecimalExponentLimit);
  if (e.big && e.negative) first = -kDecimalExponentLimit;
  out.exponent = first - static_cast<std::int64_t>(d.count()) + 1;
  return out;
}

std::optional<double> ToDouble(std::string_view text) {
  NumberParts parts;
  if (!SplitNumber(text, &parts)) return std::nullopt;
  double value = 0;
  // libstdc++'s from_chars rounds correctly (round half to even), as Go's
  // strconv.ParseFloat does.
  auto r = std::from_chars(text.data(), text.data() + text.size(), value,
                           std::chars_format::general);
  if (r.ec == std::errc() && r.ptr == text.data() + text.size()) return value;
  if (r.ec != std::errc::result_out_of_range) return std::nullopt;
  // Out of range: overflow (Go: ErrRange) when the magnitude is at least 1,
  // otherwise underflow, which Go rounds to zero without an error
  // (strconv/atof.go).
  Decimal d = ToDecimal(text);
  if (d.exponent.sign() >= 0) return std::nullopt;
  return d.negative ? -0.0 : 0.0;
}

std::string GoFloatText(double value) {
  if (!std::isfinite(value)) return {};
  // Shortest round-trip digits in exponent form: "-d.ddde±XX". Plain
  // decimal notation is built from these digits rather than asked of
  // to_chars, whose fixed form prints the exact binary value of large
  // doubles ("99999999999999991611392" for 1e23) where Go pads the shortest
  // digits with zeros.
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, value,
                         std::chars_format::scientific);
  std::string_view sci(buf, static_cast<std::size_t>(r.ptr - buf));
  double abs = std::fabs(value);
  // encoding/json encode.go (floatEncoder.encode): exponent form for
  // float64 magnitudes below 1e-6 or from 1e21 on; zero is always plain.
  if (abs != 0 && (abs < 1e-6 || abs >= 1e21)) {
    std::string out(sci);
    // Go writes at least two exponent digits and then trims "e-07" to
    // "e-7" (but keeps "e+21"); to_chars writes the same two digits.
    std::size_t n = out.size();
    if (n >= 4 && out[n - 4] == 'e' && out[n - 3] == '-' && out[n - 2] == '0') {
      out.erase(n - 2, 1);
    }
    return out;
  }
  std::string out;
  std::size_t pos = 0;
  if (sci[pos] == '-') {
    out.push_back('-');
    ++pos;
  }
  std::size_t e_pos = sci.find('e');
  std::string digits;
  for (std::size_t i = pos; i < e_pos; ++i) {
    if (sci[i] != '.') digits.push_back(sci[i]);
  }
  int exp = 0;
  std::from_chars(sci.data() + e_pos + 1 + (sci[e_pos + 1] == '+' ? 1 : 0),
                  sci.data() + sci.size(), exp);
  auto n = static_cast<int>(digits.size());
  if (exp >= n - 1) {
    out.append(digits);
    // 0 <= n - 1 <= exp here, so the size_t arithmetic stays positive.
    out.append(static_cast<std::size_t>(exp) + 1 - digits.size(), '0');
  } else if (exp >= 0) {
    auto point = static_cast<std::size_t>(exp) + 1;
    out.append(digits, 0, point);
    out.push_back('.');
    out.append(digits, point);
  } else {
    out.append("0.");
    out.append(static_cast<std::size_t>(-exp - 1), '0');
    out.append(digits);
  }
  return out;
}

bool IsExactFloat64(std::string_view text) {
  std::optional<double> value = ToDouble(text);
  if (!value) return false;
  if (!NumbersEqual(text, GoFloatText(*value))) return false;
  return NumbersEqual(text, ExactDecimalText(*value));
}

}  // namespace pstate::json
