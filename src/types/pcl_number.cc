#include "types/pcl_number.h"

#include <cstddef>
#include <string>

#include "pstate/json/number.h"

namespace pstate::types::pcl {
namespace {

constexpr std::int64_t kExponentLimit = std::int64_t{1} << 40;

void Normalize(Decimal* d) {
  std::size_t lead = d->digits.find_first_not_of('0');
  if (lead == std::string::npos) {
    d->digits.clear();
    d->exponent = 0;
    return;
  }
  d->digits.erase(0, lead);
  std::size_t last = d->digits.find_last_not_of('0');
  d->exponent += static_cast<std::int64_t>(d->digits.size() - last - 1);
  d->digits.resize(last + 1);
}

// digits *= factor (a small multiplier), in place.
void Multiply(std::string* digits, int factor) {
  int carry = 0;
  for (std::size_t i = digits->size(); i-- > 0;) {
    int v = ((*digits)[i] - '0') * factor + carry;
    (*digits)[i] = static_cast<char>('0' + v % 10);
    carry = v / 10;
  }
  while (carry > 0) {
    digits->insert(digits->begin(), static_cast<char>('0' + carry % 10));
    carry /= 10;
  }
}

}  // namespace

Decimal FromJsonNumber(std::string_view text) {
  Decimal d;
  d.negative = !text.empty() && text[0] == '-';
  std::string canonical = json::CanonicalNumber(text);
  if (canonical == "0") return d;
  std::size_t i = 0;
  if (i < canonical.size() && canonical[i] == '-') ++i;
  std::int64_t exp = 0;
  for (; i < canonical.size() && canonical[i] != 'e'; ++i) {
    if (canonical[i] != '.') d.digits += canonical[i];
  }
  if (i < canonical.size()) {
    ++i;
    bool neg = i < canonical.size() && canonical[i] == '-';
    if (neg) ++i;
    for (; i < canonical.size(); ++i) {
      if (exp < kExponentLimit) exp = exp * 10 + (canonical[i] - '0');
    }
    if (neg) exp = -exp;
  }
  d.exponent = exp - static_cast<std::int64_t>(d.digits.size()) + 1;
  return d;
}

bool IsInt32(const Decimal& d) {
  if (d.digits.empty()) return true;
  if (d.exponent < 0) return false;
  if (static_cast<std::int64_t>(d.digits.size()) + d.exponent > 10) {
    return false;
  }
  std::int64_t v = 0;
  for (char c : d.digits) v = v * 10 + (c - '0');
  for (std::int64_t i = 0; i < d.exponent; ++i) v *= 10;
  return d.negative ? v <= 2147483648LL : v <= 2147483647LL;
}

bool IsInt32Text(std::string_view json_number) {
  return IsInt32(FromJsonNumber(json_number));
}

CtyParse ParseCtyNumber(std::string_view s, Decimal* out) {
  *out = Decimal();
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    out->negative = s[i] == '-';
    ++i;
  }
  std::string_view rest = s.substr(i);
  if (rest == "Inf" || rest == "inf") return CtyParse::kInfinity;
  std::size_t mantissa_digits = 0;
  std::int64_t fraction_digits = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
    out->digits += s[i];
    ++mantissa_digits;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
      out->digits += s[i];
      ++mantissa_digits;
      ++fraction_digits;
    }
  }
  if (mantissa_digits == 0) return CtyParse::kInvalid;
  std::int64_t exp = 0;
  bool binary = false;
  if (i < s.size() &&
      (s[i] == 'e' || s[i] == 'E' || s[i] == 'p' || s[i] == 'P')) {
    binary = s[i] == 'p' || s[i] == 'P';
    ++i;
    bool neg = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
      neg = s[i] == '-';
      ++i;
    }
    std::size_t exp_digits = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
      if (exp < kExponentLimit) exp = exp * 10 + (s[i] - '0');
      ++exp_digits;
    }
    if (exp_digits == 0) return CtyParse::kInvalid;
    if (neg) exp = -exp;
  }
  if (i != s.size()) return CtyParse::kInvalid;
  out->exponent = -fraction_digits;
  Normalize(out);
  if (out->digits.empty()) return CtyParse::kOk;
  if (!binary) {
    if (exp >= kExponentLimit || exp <= -kExponentLimit) {
      return CtyParse::kTooLarge;
    }
    out->exponent += exp;
    return CtyParse::kOk;
  }
  // A binary exponent: multiply by 2^exp (or by 5^-exp and shift).
  constexpr std::int64_t kBinaryLimit = 4096;
  if (exp > kBinaryLimit || exp < -kBinaryLimit) return CtyParse::kTooLarge;
  int factor = exp >= 0 ? 2 : 5;
  for (std::int64_t k = 0; k < (exp >= 0 ? exp : -exp); ++k) {
    Multiply(&out->digits, factor);
  }
  if (exp < 0) out->exponent += exp;
  Normalize(out);
  return CtyParse::kOk;
}

std::string PlainText(const Decimal& d, std::size_t max_length) {
  if (d.digits.empty()) return d.negative ? "-0" : "0";
  const auto n = static_cast<std::int64_t>(d.digits.size());
  std::int64_t length = (d.exponent >= 0 ? n + d.exponent
                                         : std::max(n, -d.exponent) + 2) +
                        1;
  if (length > static_cast<std::int64_t>(max_length)) return "";
  std::string out;
  if (d.negative) out += '-';
  if (d.exponent >= 0) {
    out += d.digits;
    out.append(static_cast<std::size_t>(d.exponent), '0');
    return out;
  }
  std::int64_t point = n + d.exponent;
  if (point > 0) {
    out.append(d.digits, 0, static_cast<std::size_t>(point));
    out += '.';
    out.append(d.digits, static_cast<std::size_t>(point));
  } else {
    out += "0.";
    out.append(static_cast<std::size_t>(-point), '0');
    out += d.digits;
  }
  return out;
}

std::string JsonText(const Decimal& d) {
  std::string plain = PlainText(d, 64);
  if (!plain.empty()) return plain;
  std::string out;
  if (d.negative) out += '-';
  out += d.digits[0];
  if (d.digits.size() > 1) {
    out += '.';
    out.append(d.digits, 1);
  }
  out += 'e';
  out += std::to_string(d.exponent +
                        static_cast<std::int64_t>(d.digits.size()) - 1);
  return out;
}

}  // namespace pstate::types::pcl
