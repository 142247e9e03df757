#include "base/rfc3339.h"

#include "base/ascii.h"

namespace pstate {
namespace {

/// Reads exactly `n` digits at `*at` into `*out` and moves past them.
bool Fixed(std::string_view s, std::size_t* at, std::size_t n, int* out) {
  if (*at + n > s.size()) return false;
  int v = 0;
  for (std::size_t i = *at; i < *at + n; ++i) {
    if (!ascii::IsDigit(s[i])) return false;
    v = v * 10 + (s[i] - '0');
  }
  *at += n;
  *out = v;
  return true;
}

bool Literal(std::string_view s, std::size_t* at, char c) {
  if (*at >= s.size() || s[*at] != c) return false;
  ++*at;
  return true;
}

int DaysIn(int month, int year) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30,
                                  31, 31, 30, 31, 30, 31};
  bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  return month == 2 && leap ? 29 : kDays[month - 1];
}

void AppendDigits(std::string* out, int value, int width) {
  char buf[4];
  for (int i = width - 1; i >= 0; --i) {
    buf[i] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
  out->append(buf, static_cast<std::size_t>(width));
}

}  // namespace

std::int64_t GoTime::UnixSeconds() const {
  // Days from the civil date (Howard Hinnant's days_from_civil).
  std::int64_t y = year - (month <= 2 ? 1 : 0);
  std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  std::int64_t yoe = y - era * 400;
  std::int64_t mp = (month + 9) % 12;
  std::int64_t doy = (153 * mp + 2) / 5 + day - 1;
  std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  std::int64_t days = era * 146097 + doe - 719468;
  return days * 86400 + std::int64_t{hour} * 3600 + std::int64_t{minute} * 60 +
         second - offset_seconds;
}

std::optional<GoTime> ParseRfc3339(std::string_view s) {
  GoTime t;
  std::size_t at = 0;
  if (!Fixed(s, &at, 4, &t.year) || !Literal(s, &at, '-') ||
      !Fixed(s, &at, 2, &t.month) || !Literal(s, &at, '-') ||
      !Fixed(s, &at, 2, &t.day) || !Literal(s, &at, 'T')) {
    return std::nullopt;
  }
  // time.Parse's "15": one digit, or two when a second one follows.
  if (at >= s.size() || !ascii::IsDigit(s[at])) return std::nullopt;
  t.hour = s[at++] - '0';
  if (at < s.size() && ascii::IsDigit(s[at]))
    t.hour = t.hour * 10 + (s[at++] - '0');
  if (!Literal(s, &at, ':') || !Fixed(s, &at, 2, &t.minute) ||
      !Literal(s, &at, ':') || !Fixed(s, &at, 2, &t.second)) {
    return std::nullopt;
  }
  if (t.month < 1 || t.month > 12 || t.day < 1 ||
      t.day > DaysIn(t.month, t.year) || t.hour > 23 || t.minute > 59 ||
      t.second > 59) {
    return std::nullopt;
  }
  if (at + 1 < s.size() && (s[at] == '.' || s[at] == ',') &&
      ascii::IsDigit(s[at + 1])) {
    ++at;
    std::int32_t scale = 100000000;
    for (; at < s.size() && ascii::IsDigit(s[at]); ++at) {
      t.nanos += (s[at] - '0') * scale;
      scale /= 10;  // 0 after the ninth digit: the rest count for nothing
    }
  }
  if (at < s.size() && s[at] == 'Z')
    return at + 1 == s.size() ? std::optional(t) : std::nullopt;
  if (at + 6 != s.size() || (s[at] != '+' && s[at] != '-')) return std::nullopt;
  bool west = s[at] == '-';
  ++at;
  int oh = 0, om = 0;
  if (!Fixed(s, &at, 2, &oh) || !Literal(s, &at, ':') ||
      !Fixed(s, &at, 2, &om) || oh > 24 || om > 60) {
    return std::nullopt;
  }
  t.offset_seconds = (oh * 60 + om) * 60 * (west ? -1 : 1);
  return t;
}

std::optional<std::string> FormatRfc3339(const GoTime& t) {
  int zone = t.offset_seconds / 60;  // minutes, as appendFormatRFC3339
  int abs_zone = zone < 0 ? -zone : zone;
  if (abs_zone / 60 >= 24) return std::nullopt;  // errTZHourOutsideOfRange
  std::string out;
  out.reserve(35);
  AppendDigits(&out, t.year, 4);
  out.push_back('-');
  AppendDigits(&out, t.month, 2);
  out.push_back('-');
  AppendDigits(&out, t.day, 2);
  out.push_back('T');
  AppendDigits(&out, t.hour, 2);
  out.push_back(':');
  AppendDigits(&out, t.minute, 2);
  out.push_back(':');
  AppendDigits(&out, t.second, 2);
  if (t.nanos != 0) {
    std::string fraction;
    AppendDigits(&fraction, t.nanos / 100000, 4);
    AppendDigits(&fraction, t.nanos % 100000 / 10, 4);
    fraction.push_back(static_cast<char>('0' + t.nanos % 10));
    while (fraction.back() == '0') fraction.pop_back();
    out.push_back('.');
    out += fraction;
  }
  if (t.offset_seconds == 0) {
    out.push_back('Z');
    return out;
  }
  out.push_back(zone < 0 ? '-' : '+');
  AppendDigits(&out, abs_zone / 60, 2);
  out.push_back(':');
  AppendDigits(&out, abs_zone % 60, 2);
  return out;
}

}  // namespace pstate
