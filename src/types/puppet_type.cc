// Puppet type expressions: the parser (lib/puppet/pops/types/type_parser.rb
// and the parameter rules of type_factory.rb) and `assignable?` (types.rb).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "json/number.h"
#include "json/parser.h"
#include "types/puppet.h"
#include "types/puppet_regex.h"
#include "types/state_value.h"

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
    kUndef,
    kArray
  };
  K k = K::kType;
  std::size_t offset = 0;
  TypePtr type;
  std::string text;  // number text, string content, regexp source
  bool boolean = false;
  std::vector<Param> keys;    // kHash
  std::vector<Param> values;  // kHash
  std::vector<Param> items;   // kArray
};

std::size_t CodePoints(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// Pcore::TypeName (pcore.rb TYPE_QUALIFIED_REFERENCE):
// /\A[A-Z]\w*(?:::[A-Z]\w*)*\z/, \w being ASCII.
bool IsQualifiedName(std::string_view s) {
  bool segment_start = true;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (segment_start) {
      if (c < 'A' || c > 'Z') return false;
      segment_start = false;
    } else if (c == ':' && i + 2 < s.size() && s[i + 1] == ':') {
      ++i;
      segment_start = true;
    } else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                 (c >= '0' && c <= '9') || c == '_')) {
      return false;
    }
  }
  return !segment_start;
}

// --- time bounds (lib/puppet/pops/time/) ----------------------------------

// Seconds and nanoseconds (0..999999999) as exact decimal text, the form
// Timespan and Timestamp bounds are compared in (json::CompareNumbers).
std::string SecondsText(bool negative, std::uint64_t seconds,
                        std::uint64_t nanos) {
  std::string frac = std::to_string(nanos);
  frac.insert(0, 9 - frac.size(), '0');
  while (frac.size() > 1 && frac.back() == '0') frac.pop_back();
  return (negative && (seconds != 0 || nanos != 0) ? "-" : "") +
         std::to_string(seconds) + "." + frac;
}

// Reads up to `max_digits` digits at `*i` (at least one).
bool Digits(std::string_view s, std::size_t* i, std::size_t max_digits,
            std::uint64_t* out, std::size_t* count = nullptr) {
  std::size_t start = *i;
  *out = 0;
  while (*i < s.size() && s[*i] >= '0' && s[*i] <= '9' &&
         *i - start < max_digits) {
    *out = *out * 10 + static_cast<std::uint64_t>(s[*i] - '0');
    ++*i;
  }
  if (count != nullptr) *count = *i - start;
  return *i > start && (*i >= s.size() || s[*i] < '0' || s[*i] > '9');
}

// A fraction of a second after '.', as nanoseconds (Timespan's %N
// segment: "5" is 500000000).
bool Fraction(std::string_view s, std::size_t* i, std::uint64_t* nanos) {
  std::size_t n = 0;
  if (!Digits(s, i, 9, nanos, &n)) return false;
  for (; n < 9; ++n) *nanos *= 10;
  return true;
}

// A Timespan written in one of Timespan::Format::DEFAULTS (timespan.rb):
// '%D-%H:%M:%S.%-N', '%H:%M:%S.%-N', '%M:%S.%-N', '%S.%-N',
// '%D-%H:%M:%S', '%H:%M:%S', '%D-%H:%M', '%S', each after an optional '-'.
std::optional<std::string> TimespanSeconds(std::string_view s) {
  std::size_t i = 0;
  const bool negative = !s.empty() && s[0] == '-';
  if (negative) ++i;
  std::vector<std::uint64_t> fields;
  bool days = false;
  for (;;) {
    std::uint64_t v = 0;
    if (!Digits(s, &i, 12, &v)) return std::nullopt;
    fields.push_back(v);
    if (i < s.size() && s[i] == '-' && fields.size() == 1) {
      days = true;
    } else if (i >= s.size() || s[i] != ':' || fields.size() >= 4) {
      break;
    }
    ++i;
  }
  std::uint64_t nanos = 0;
  const bool fraction = i < s.size() && s[i] == '.';
  if (fraction && (++i, !Fraction(s, &i, &nanos))) return std::nullopt;
  if (i != s.size()) return std::nullopt;
  // D-H:M:S, D-H:M (no fraction), H:M:S, M:S (with a fraction), S.
  const std::size_t n = fields.size();
  const bool ok = days ? (n == 4 || (n == 3 && !fraction))
                       : (n == 3 || (n == 2 && fraction) || n == 1);
  if (!ok) return std::nullopt;
  std::uint64_t seconds = 0;
  const std::uint64_t kScale[] = {86400, 3600, 60, 1};
  const std::size_t first = days ? 0 : 4 - n;
  for (std::size_t k = 0; k < n; ++k) {
    // D-H:M counts minutes last.
    const std::size_t unit = days && n == 3 ? k : first + k;
    seconds += fields[k] * kScale[unit];
  }
  return SecondsText(negative, seconds, nanos);
}

// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's
// days_from_civil).
std::int64_t DaysFromCivil(std::int64_t y, std::int64_t m, std::int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const std::int64_t yoe = y - era * 400;
  const std::int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// Years have at most this many digits, so a Timestamp's seconds fit an
// int64 (|year| < 10^11 is within 3.2e18 s).
constexpr std::size_t kMaxYearDigits = 11;

// A Timestamp written in one of Timestamp::DEFAULT_FORMATS
// (timestamp.rb): '%F', '%FT%T', '%F %T', each %T optionally with '.%N',
// and a zone after a space (UTC, GMT, Z, ±HH:MM, ±HHMM, ±HH); no zone is
// UTC. Seconds since the epoch.
std::optional<std::string> TimestampSeconds(std::string_view s) {
  std::size_t i = 0;
  std::uint64_t y = 0;
  std::uint64_t mo = 0;
  std::uint64_t d = 0;
  // %Y takes a sign (Ruby's date__strptime), so the years Puppet prints
  // before year 0 ('-0001-01-01...') read back.
  const bool bc = !s.empty() && s[0] == '-';
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) ++i;
  if (!Digits(s, &i, kMaxYearDigits, &y) || i >= s.size() || s[i++] != '-' ||
      !Digits(s, &i, 2, &mo) || i >= s.size() || s[i++] != '-' ||
      !Digits(s, &i, 2, &d) || mo < 1 || mo > 12 || d < 1 || d > 31) {
    return std::nullopt;
  }
  std::uint64_t h = 0;
  std::uint64_t mi = 0;
  std::uint64_t sec = 0;
  std::uint64_t nanos = 0;
  if (i < s.size() && (s[i] == 'T' || s[i] == ' ') && i + 1 < s.size() &&
      s[i + 1] >= '0' && s[i + 1] <= '9') {
    ++i;
    if (!Digits(s, &i, 2, &h) || i >= s.size() || s[i++] != ':' ||
        !Digits(s, &i, 2, &mi) || i >= s.size() || s[i++] != ':' ||
        !Digits(s, &i, 2, &sec) || h > 23 || mi > 59 || sec > 60) {
      return std::nullopt;
    }
    if (i < s.size() && s[i] == '.' && (++i, !Fraction(s, &i, &nanos))) {
      return std::nullopt;
    }
  }
  std::int64_t offset = 0;
  if (i < s.size()) {
    if (s[i++] != ' ') return std::nullopt;
    std::string_view zone = s.substr(i);
    if (zone == "UTC" || zone == "GMT" || zone == "Z") {
      i = s.size();
    } else if (!zone.empty() && (zone[0] == '+' || zone[0] == '-')) {
      ++i;
      std::uint64_t zh = 0;
      std::uint64_t zm = 0;
      if (!Digits(s, &i, 2, &zh)) return std::nullopt;
      if (i < s.size() && s[i] == ':') ++i;
      if (i < s.size() && !Digits(s, &i, 2, &zm)) return std::nullopt;
      if (zh > 23 || zm > 59) return std::nullopt;
      offset = static_cast<std::int64_t>(zh * 3600 + zm * 60) *
               (zone[0] == '-' ? -1 : 1);
    }
    if (i != s.size()) return std::nullopt;
  }
  const std::int64_t year = static_cast<std::int64_t>(y) * (bc ? -1 : 1);
  const std::int64_t total =
      DaysFromCivil(year, static_cast<std::int64_t>(mo),
                    static_cast<std::int64_t>(d)) *
          86400 +
      static_cast<std::int64_t>(h * 3600 + mi * 60 + sec) - offset;
  if (total >= 0) {
    return SecondsText(false, static_cast<std::uint64_t>(total), nanos);
  }
  // -101 s + 0.5 s is -100.5 s.
  const std::uint64_t magnitude = static_cast<std::uint64_t>(-total);
  return nanos == 0 ? SecondsText(true, magnitude, 0)
                    : SecondsText(true, magnitude - 1, 1000000000 - nanos);
}

// A time bound's total nanoseconds, as p_timespan_type.rb convert_arg makes
// it: an Integer times NSECS_PER_SEC, a Float times NSECS_PER_SEC in float64
// (then truncated toward zero for a Timespan, whose fields are read from
// its magnitude, and floored for a Timestamp, as Time.at reads it), a
// string parsed in the default formats. The magnitude in decimal digits.
struct Nanos {
  bool negative = false;
  std::string digits;
  bool operator==(const Nanos&) const = default;
};

std::string TrimZeros(std::string digits) {
  const std::size_t first = digits.find_first_not_of('0');
  return first == std::string::npos ? "0" : digits.substr(first);
}

// Seconds as exact decimal text ("-12", "3.5") → nanoseconds.
Nanos NanosOfSeconds(std::string_view seconds) {
  Nanos n;
  if (!seconds.empty() && seconds[0] == '-') {
    n.negative = true;
    seconds.remove_prefix(1);
  }
  const std::size_t dot = seconds.find('.');
  std::string frac(dot == std::string_view::npos ? ""
                                                 : seconds.substr(dot + 1));
  frac.resize(9, '0');
  n.digits = TrimZeros(std::string(seconds.substr(0, dot)) + frac);
  n.negative = n.negative && n.digits != "0";
  return n;
}

std::optional<Nanos> BoundNanos(bool timespan, const Param& p) {
  switch (p.k) {
    case Param::K::kInteger: return NanosOfSeconds(p.text);
    case Param::K::kString: {
      std::optional<std::string> seconds =
          timespan ? TimespanSeconds(p.text) : TimestampSeconds(p.text);
      if (!seconds) return std::nullopt;
      return NanosOfSeconds(*seconds);
    }
    case Param::K::kFloat: {
      const double product = std::strtod(p.text.c_str(), nullptr) * 1e9;
      if (!std::isfinite(product)) return std::nullopt;
      const double whole = timespan ? std::trunc(product) : std::floor(product);
      char buf[400];
      std::snprintf(buf, sizeof buf, "%.0f", std::fabs(whole));
      Nanos n;
      n.digits = buf;
      n.negative = whole < 0;
      return n;
    }
    default: return std::nullopt;
  }
}

// Decimal digits divided by a small divisor; the remainder in *rem.
std::string DivideDigits(std::string_view digits, std::uint64_t divisor,
                         std::uint64_t* rem) {
  std::string quotient;
  std::uint64_t r = 0;
  for (char c : digits) {
    r = r * 10 + static_cast<std::uint64_t>(c - '0');
    quotient += static_cast<char>('0' + r / divisor);
    r %= divisor;
  }
  *rem = r;
  return TrimZeros(quotient);
}

std::string Padded(std::uint64_t v, std::size_t width) {
  std::string s = std::to_string(v);
  if (s.size() < width) s.insert(0, width - s.size(), '0');
  return s;
}

// Timespan#to_s: Format::DEFAULTS[0], '%D-%H:%M:%S.%-N' (timespan.rb), the
// fraction without its trailing zeros. Puppet also drops the fraction's
// leading zeros ('.05' prints as '.5', another value) and prints a Float
// bound's fraction with all its digits ('1.500000000'); pstate prints the
// value, so that the spelling reads back to itself. nullopt beyond the
// days the default formats read here (12 digits).
std::optional<std::string> TimespanText(const Nanos& n) {
  std::uint64_t nanos = 0;
  std::uint64_t of_day = 0;
  const std::string seconds = DivideDigits(n.digits, 1000000000, &nanos);
  const std::string days = DivideDigits(seconds, 86400, &of_day);
  if (days.size() > 12) return std::nullopt;
  std::string frac = Padded(nanos, 9);
  while (frac.size() > 1 && frac.back() == '0') frac.pop_back();
  return (n.negative ? "-" : "") + days + "-" + Padded(of_day / 3600, 2) + ":" +
         Padded(of_day / 60 % 60, 2) + ":" + Padded(of_day % 60, 2) + "." +
         frac;
}

// Timestamp#to_s: '%FT%T.%N %Z' of the UTC time (timestamp.rb), %Y padded
// to four digits after its sign as Ruby's strftime does. nullopt beyond
// the years the default formats read here (kMaxYearDigits).
std::optional<std::string> TimestampText(const Nanos& n) {
  std::uint64_t nanos = 0;
  const std::string magnitude = DivideDigits(n.digits, 1000000000, &nanos);
  if (magnitude.size() > 18) return std::nullopt;  // beyond 10^18 s
  std::int64_t seconds = std::stoll(magnitude);
  if (n.negative) {
    seconds = -seconds;
    if (nanos != 0) {  // Time.at floors: -0.5 s is 23:59:59.5 the day before
      --seconds;
      nanos = 1000000000 - nanos;
    }
  }
  std::int64_t days = seconds / 86400;
  std::int64_t of_day = seconds % 86400;
  if (of_day < 0) {
    of_day += 86400;
    --days;
  }
  // Howard Hinnant's civil_from_days (DaysFromCivil's inverse).
  const std::int64_t z = days + 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const std::int64_t doe = z - era * 146097;
  const std::int64_t yoe =
      (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  const std::int64_t day = doy - (153 * mp + 2) / 5 + 1;
  const std::int64_t month = mp < 10 ? mp + 3 : mp - 9;
  const std::int64_t year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const auto u = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };
  return (year < 0 ? "-" : "") + Padded(u(year < 0 ? -year : year), 4) + "-" +
         Padded(u(month), 2) + "-" + Padded(u(day), 2) + "T" +
         Padded(u(of_day / 3600), 2) + ":" + Padded(u(of_day / 60 % 60), 2) +
         ":" + Padded(u(of_day % 60), 2) + "." + Padded(nanos, 9) + " UTC";
}

// --- version ranges (semantic_puppet's VersionRange) -----------------------

// A semantic version: major.minor.patch and the prerelease identifiers.
struct Version {
  std::uint64_t major = 0;
  std::uint64_t minor = 0;
  std::uint64_t patch = 0;
  std::vector<std::string> pre;
};

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// SemVer 2.0 precedence: a version with a prerelease is below the same
// version without; identifiers compare numerically when both are digits,
// digits below letters, and a shorter list first on a common prefix.
int CompareVersions(const Version& a, const Version& b) {
  auto three = [](std::uint64_t x, std::uint64_t y) {
    return x < y ? -1 : (x > y ? 1 : 0);
  };
  if (int c = three(a.major, b.major)) return c;
  if (int c = three(a.minor, b.minor)) return c;
  if (int c = three(a.patch, b.patch)) return c;
  if (a.pre.empty() || b.pre.empty()) {
    return a.pre.empty() == b.pre.empty() ? 0 : (a.pre.empty() ? 1 : -1);
  }
  for (std::size_t i = 0; i < a.pre.size() && i < b.pre.size(); ++i) {
    const bool an = AllDigits(a.pre[i]);
    const bool bn = AllDigits(b.pre[i]);
    int c = 0;
    if (an && bn) {
      c = a.pre[i].size() != b.pre[i].size()
              ? three(a.pre[i].size(), b.pre[i].size())
              : a.pre[i].compare(b.pre[i]);
    } else if (an != bn) {
      c = an ? -1 : 1;
    } else {
      c = a.pre[i].compare(b.pre[i]);
    }
    if (c != 0) return c < 0 ? -1 : 1;
  }
  return three(a.pre.size(), b.pre.size());
}

// An interval of versions; an absent bound is open (Version::MIN/MAX).
struct VersionInterval {
  std::optional<Version> begin;
  bool exclude_begin = false;
  std::optional<Version> end;
  bool exclude_end = false;
};

int CompareBegins(const std::optional<Version>& a,
                  const std::optional<Version>& b) {
  if (!a || !b) return a ? 1 : (b ? -1 : 0);
  return CompareVersions(*a, *b);
}
int CompareEnds(const std::optional<Version>& a,
                const std::optional<Version>& b) {
  if (!a || !b) return a ? -1 : (b ? 1 : 0);
  return CompareVersions(*a, *b);
}

// One partial version (VersionRange PARTIAL: 1, 1.2, 1.2.3-pre+build,
// with x, X or * for a missing part when `wild`): the parts given.
struct Partial {
  std::optional<std::uint64_t> part[3];
  std::vector<std::string> pre;
  int given = 0;
};
std::optional<Partial> ReadPartial(std::string_view s, bool wild) {
  Partial p;
  std::size_t i = 0;
  for (int k = 0; k < 3; ++k) {
    if (k > 0) {
      if (i >= s.size() || s[i] != '.') break;
      ++i;
    }
    if (i < s.size() && (s[i] == 'x' || s[i] == 'X' || s[i] == '*')) {
      if (!wild) return std::nullopt;
      ++i;
    } else {
      std::uint64_t v = 0;
      std::size_t n = 0;
      if (!Digits(s, &i, 18, &v, &n) || (n > 1 && s[i - n] == '0')) {
        return std::nullopt;
      }
      p.part[k] = v;
    }
    p.given = k + 1;
  }
  if (p.given == 3 && i < s.size() && s[i] == '-') {
    // -pre(.pre)*, then +build (ignored in precedence).
    std::size_t start = ++i;
    while (i < s.size() && s[i] != '+') ++i;
    std::string_view pre = s.substr(start, i - start);
    for (std::size_t a = 0; a <= pre.size();) {
      std::size_t b = pre.find('.', a);
      if (b == std::string_view::npos) b = pre.size();
      std::string_view id = pre.substr(a, b - a);
      if (id.empty()) return std::nullopt;
      for (char c : id) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
              (c >= 'A' && c <= 'Z') || c == '-')) {
          return std::nullopt;
        }
      }
      p.pre.emplace_back(id);
      a = b + 1;
    }
  }
  if (p.given == 3 && i < s.size() && s[i] == '+') {
    for (++i; i < s.size(); ++i) {
      if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'z') ||
            (s[i] >= 'A' && s[i] <= 'Z') || s[i] == '-' || s[i] == '.')) {
        return std::nullopt;
      }
    }
  }
  if (i != s.size()) return std::nullopt;
  return p;
}

Version MakeVersion(std::uint64_t major, std::uint64_t minor,
                    std::uint64_t patch, std::vector<std::string> pre = {}) {
  return Version{major, minor, patch, std::move(pre)};
}

// allow_patch_updates / allow_minor_updates of version_range.rb.
VersionInterval Around(const Partial& p, bool exact, bool minor_updates) {
  VersionInterval r;
  if (!p.part[0]) return r;  // everything
  const std::uint64_t major = *p.part[0];
  if (!p.part[1]) {
    r.begin = MakeVersion(major, 0, 0);
    r.end = MakeVersion(major + 1, 0, 0);
  } else if (!p.part[2]) {
    r.begin = MakeVersion(major, *p.part[1], 0);
    r.end = minor_updates ? MakeVersion(major + 1, 0, 0)
                          : MakeVersion(major, *p.part[1] + 1, 0);
  } else {
    r.begin = MakeVersion(major, *p.part[1], *p.part[2], p.pre);
    if (exact) {
      r.end = r.begin;
      return r;
    }
    r.end = minor_updates ? MakeVersion(major + 1, 0, 0)
                          : MakeVersion(major, *p.part[1] + 1, 0);
  }
  r.exclude_end = true;
  return r;
}

Version Filled(const Partial& p) {
  return MakeVersion(p.part[0].value_or(0), p.part[1].value_or(0),
                     p.part[2].value_or(0), p.pre);
}

// The intersection of two intervals (nullopt: empty).
std::optional<VersionInterval> Intersect(const VersionInterval& a,
                                         const VersionInterval& b) {
  VersionInterval r;
  int c = CompareBegins(a.begin, b.begin);
  r.begin = c >= 0 ? a.begin : b.begin;
  r.exclude_begin = c > 0   ? a.exclude_begin
                    : c < 0 ? b.exclude_begin
                            : a.exclude_begin || b.exclude_begin;
  c = CompareEnds(a.end, b.end);
  r.end = c <= 0 ? a.end : b.end;
  r.exclude_end = c < 0   ? a.exclude_end
                  : c > 0 ? b.exclude_end
                          : a.exclude_end || b.exclude_end;
  if (r.begin && r.end) {
    int d = CompareVersions(*r.begin, *r.end);
    if (d > 0 || (d == 0 && (r.exclude_begin || r.exclude_end))) {
      return std::nullopt;
    }
  }
  return r;
}

// One simple comparator (version_range.rb parse: SIMPLE), after spaces
// following the operator were removed.
std::optional<VersionInterval> ReadSimple(std::string_view s) {
  std::string_view op;
  for (std::string_view o : {"~>", "~=", "<=", ">=", "~", "^", "<", ">", "="}) {
    if (s.substr(0, o.size()) == o) {
      op = o;
      break;
    }
  }
  std::optional<Partial> p =
      ReadPartial(s.substr(op.size()), op.empty() || op == "=");
  if (!p) return std::nullopt;
  VersionInterval r;
  if (op.empty() || op == "=") return Around(*p, true, false);
  if (op[0] == '~') return Around(*p, false, false);
  if (op == "^") return Around(*p, false, p->part[0] != 0u);
  if (op == ">=") {
    r.begin = Filled(*p);
  } else if (op == "<") {
    r.end = Filled(*p);
    r.exclude_end = true;
  } else if (op == ">") {
    if (!p->part[1]) {
      r.begin = MakeVersion(*p->part[0] + 1, 0, 0);
    } else if (!p->part[2]) {
      r.begin = MakeVersion(*p->part[0], *p->part[1] + 1, 0);
    } else {
      r.begin = Filled(*p);
      r.exclude_begin = true;
    }
  } else {  // <=
    r.exclude_end = !p->part[2];
    r.end = !p->part[1]   ? MakeVersion(*p->part[0] + 1, 0, 0)
            : !p->part[2] ? MakeVersion(*p->part[0], *p->part[1] + 1, 0)
                          : Filled(*p);
  }
  return r;
}

std::vector<std::string_view> SplitSpaces(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    std::size_t start = i;
    while (i < s.size() && s[i] != ' ') ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

// A version range with one interval (VersionRange.parse: a version, a
// partial version, comparators that intersect, `A - B`); nullopt when the
// text is no range, or several intervals joined by `||` that do not merge
// (such ranges compare as written).
std::optional<VersionInterval> ReadVersionRange(std::string_view text) {
  // Spaces after an operator do not split (and a 'v' there is dropped).
  std::string s;
  for (std::size_t i = 0; i < text.size(); ++i) {
    s += text[i];
    if (std::string_view("<>=~^").find(text[i]) != std::string_view::npos) {
      while (i + 1 < text.size() && text[i + 1] == ' ') ++i;
      if (i + 1 < text.size() && text[i + 1] == 'v') ++i;
    }
  }
  if (s.find("||") != std::string::npos) return std::nullopt;
  std::vector<std::string_view> words = SplitSpaces(s);
  if (words.empty()) return VersionInterval{};
  if (words.size() == 3 && words[1] == "-") {
    std::optional<Partial> a = ReadPartial(words[0], false);
    std::optional<Partial> b = ReadPartial(words[2], false);
    if (!a || !b) return std::nullopt;
    VersionInterval r;
    r.begin = Filled(*a);
    r.end = Filled(*b);
    return r;
  }
  VersionInterval r;
  for (std::string_view w : words) {
    std::optional<VersionInterval> one = ReadSimple(w);
    if (!one) return std::nullopt;
    std::optional<VersionInterval> both = Intersect(r, *one);
    if (!both) {
      // LtRange::MATCH_NOTHING.
      VersionInterval nothing;
      nothing.end = MakeVersion(0, 0, 0, {"0"});
      nothing.exclude_end = true;
      return nothing;
    }
    r = *both;
  }
  return r;
}

bool Includes(const VersionInterval& r, const std::optional<Version>& v) {
  if (!v) return !r.begin;
  if (r.begin) {
    int c = CompareVersions(*v, *r.begin);
    if (c < 0 || (c == 0 && r.exclude_begin)) return false;
  }
  if (r.end) {
    int c = CompareVersions(*v, *r.end);
    if (c > 0 || (c == 0 && r.exclude_end)) return false;
  }
  return true;
}

// p_sem_ver_range_type.rb merge: the union of two overlapping or adjacent
// intervals (nullopt when they are apart).
std::optional<VersionInterval> MergeIntervals(const VersionInterval& a,
                                              const VersionInterval& b) {
  if (Includes(a, b.begin) || Includes(b, a.begin)) {
    VersionInterval r;
    r.begin = CompareBegins(a.begin, b.begin) <= 0 ? a.begin : b.begin;
    const int c = CompareEnds(a.end, b.end);
    r.end = c >= 0 ? a.end : b.end;
    if (a.exclude_end) {
      r.exclude_end = c >= 0 && (c > 0 || b.exclude_end);
    } else if (b.exclude_end) {
      r.exclude_end = c <= 0 && (c < 0 || a.exclude_end);
    }
    return r;
  }
  if (a.exclude_end && a.end && b.begin &&
      CompareVersions(*a.end, *b.begin) == 0) {
    return VersionInterval{a.begin, false, b.end, b.exclude_end};
  }
  if (b.exclude_end && b.end && a.begin &&
      CompareVersions(*b.end, *a.begin) == 0) {
    return VersionInterval{b.begin, false, a.end, a.exclude_end};
  }
  return std::nullopt;
}

// p_sem_ver_range_type.rb covered_by?: a lies within b.
bool CoveredBy(const VersionInterval& a, const VersionInterval& b) {
  if (CompareBegins(b.begin, a.begin) > 0) return false;
  const int c = CompareEnds(b.end, a.end);
  return c > 0 || (c == 0 && (!b.exclude_end || a.exclude_end));
}

// A range as Puppet reads it: `||` joins ranges (one interval each).
bool IsVersionRange(std::string_view text) {
  for (std::size_t a = 0; a <= text.size();) {
    std::size_t b = text.find("||", a);
    if (b == std::string_view::npos) b = text.size();
    if (!ReadVersionRange(text.substr(a, b - a))) return false;
    a = b + 2;
  }
  return true;
}

// A single-quoted parameter's text (Quote's inverse).
std::string Unquoted(std::string_view quoted) {
  std::string out;
  for (std::size_t i = 1; i + 1 < quoted.size(); ++i) {
    if (quoted[i] == '\\') ++i;
    out += quoted[i];
  }
  return out;
}

bool SameVersion(const std::optional<Version>& a,
                 const std::optional<Version>& b) {
  return a && b && CompareVersions(*a, *b) == 0;
}

// version_range.rb AbstractRange#merge: two intervals of one VersionRange
// that overlap, touch, or lie a patch apart (`<=1.2.3 || >=1.2.4`) are one
// (nullopt when they are apart).
std::optional<VersionInterval> MergeAlternatives(const VersionInterval& a,
                                                 const VersionInterval& b) {
  if (Includes(a, b.begin) || Includes(b, a.begin)) {
    VersionInterval r;
    int c = CompareBegins(a.begin, b.begin);
    r.begin = c <= 0 ? a.begin : b.begin;
    r.exclude_begin = c < 0   ? a.exclude_begin
                      : c > 0 ? b.exclude_begin
                              : a.exclude_begin && b.exclude_begin;
    c = CompareEnds(a.end, b.end);
    r.end = c >= 0 ? a.end : b.end;
    r.exclude_end = c > 0   ? a.exclude_end
                    : c < 0 ? b.exclude_end
                            : a.exclude_end && b.exclude_end;
    return r;
  }
  // from_to(x, y): x's beginning, y's end.
  const auto joins = [](const VersionInterval& x, const VersionInterval& y) {
    if (x.exclude_end && !y.exclude_begin && SameVersion(x.end, y.begin)) {
      return true;
    }
    if (x.exclude_end || y.exclude_begin || !x.end) return false;
    return SameVersion(
        MakeVersion(x.end->major, x.end->minor, x.end->patch + 1), y.begin);
  };
  if (joins(a, b)) {
    return VersionInterval{a.begin, a.exclude_begin, b.end, b.exclude_end};
  }
  if (joins(b, a)) {
    return VersionInterval{b.begin, b.exclude_begin, a.end, a.exclude_end};
  }
  return std::nullopt;
}

// The merge loop of VersionRange#initialize and PSemVerType#merge_ranges:
// the last item absorbs every item it merges with, the rest go round
// again; repeated until nothing merges (merge_ranges makes one pass,
// which leaves some orders unmerged; pstate merges those too, so that a
// merged list merges to itself).
template <class T, class Merge>
std::vector<T> MergeAll(std::vector<T> items, const Merge& merge) {
  bool merged = true;
  while (items.size() > 1 && merged) {
    merged = false;
    std::vector<T> result;
    while (!items.empty()) {
      T memo = std::move(items.back());
      items.pop_back();
      std::vector<T> unmerged;
      for (T& y : items) {
        if (std::optional<T> m = merge(memo, y)) {
          memo = std::move(*m);
          merged = true;
        } else {
          unmerged.push_back(std::move(y));
        }
      }
      result.push_back(std::move(memo));
      items = std::move(unmerged);
    }
    std::reverse(result.begin(), result.end());
    items = std::move(result);
  }
  return items;
}

// VersionRange.parse: the `||` alternatives of a range (split as
// LOGICAL_OR splits), merged into the intervals they cover.
std::vector<VersionInterval> ReadVersionRangeSet(std::string_view text) {
  std::vector<VersionInterval> alternatives;
  for (std::size_t a = 0; a <= text.size();) {
    std::size_t b = text.find("||", a);
    if (b == std::string_view::npos) b = text.size();
    if (std::optional<VersionInterval> r =
            ReadVersionRange(text.substr(a, b - a))) {
      alternatives.push_back(*r);
    }
    a = b + 2;
  }
  return MergeAll(std::move(alternatives), MergeAlternatives);
}

std::string VersionText(const Version& v) {
  std::string out = std::to_string(v.major) + "." + std::to_string(v.minor) +
                    "." + std::to_string(v.patch);
  for (std::size_t i = 0; i < v.pre.size(); ++i) {
    out += (i == 0 ? "-" : ".") + v.pre[i];
  }
  return out;
}

// One parameter of a SemVer type: its text (quoted) and its intervals.
struct SemVerParam {
  std::string text;
  std::vector<VersionInterval> intervals;
};

// PSemVerType#initialize: the parameters parsed, then merged
// (merge_ranges, PSemVerRangeType.merge) where each is one interval. A
// merged range is VersionRange.new(begin, end, exclude_end), whose string
// is meant to be ">=begin <end" or "begin - end" (semantic_puppet writes
// the two versions the other way round, a range that reads back as
// matching nothing; pstate writes them in order); an open end prints as
// `>=begin`, an open beginning as `<end` or `<=end`.
std::vector<SemVerParam> SemVerParams(const std::vector<std::string>& quoted) {
  std::vector<SemVerParam> params;
  for (const std::string& q : quoted) {
    params.push_back({q, ReadVersionRangeSet(Unquoted(q))});
  }
  const auto merge = [](const SemVerParam& a,
                        const SemVerParam& b) -> std::optional<SemVerParam> {
    if (a.intervals.size() != 1 || b.intervals.size() != 1) {
      return std::nullopt;
    }
    std::optional<VersionInterval> m =
        MergeIntervals(a.intervals[0], b.intervals[0]);
    if (!m) return std::nullopt;
    std::string text;
    if (m->begin && m->end) {
      text = m->exclude_end
                 ? ">=" + VersionText(*m->begin) + " <" + VersionText(*m->end)
                 : VersionText(*m->begin) + " - " + VersionText(*m->end);
    } else if (m->begin) {
      text = ">=" + VersionText(*m->begin);
    } else if (m->end) {
      text = (m->exclude_end ? "<" : "<=") + VersionText(*m->end);
    } else {
      text = "*";
    }
    return SemVerParam{"'" + text + "'", {*m}};
  };
  return params.size() > 1 ? MergeAll(std::move(params), merge) : params;
}

// PSemVerType#_assignable?: each interval of `other`'s ranges is covered by
// one of the intervals of `ranges` (both merged as Puppet merges them).
// Both are the parameters as printed (quoted). (Puppet cannot compare a
// range of several intervals that do not merge; pstate compares each.)
bool RangesCover(const std::vector<std::string>& ranges,
                 const std::vector<std::string>& other) {
  const std::vector<SemVerParam> mine = SemVerParams(ranges);
  for (const SemVerParam& o : SemVerParams(other)) {
    for (const VersionInterval& v : o.intervals) {
      bool covered = false;
      for (const SemVerParam& m : mine) {
        for (const VersionInterval& r : m.intervals) {
          covered = covered || CoveredBy(v, r);
        }
      }
      if (!covered) return false;
    }
  }
  return true;
}

// Ruby's URI.parse as p_uri_type.rb uri_to_hash keeps it: the parts in
// order (scheme and host lower-cased, a scheme's default port left out,
// empty parts left out), after RFC 3986's splitting expression; a URI with
// a scheme whose rest does not start with '/' is opaque.
std::optional<std::vector<std::pair<std::string, std::string>>> UriParts(
    std::string_view uri) {
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t i = 0;
  std::string scheme;
  const std::size_t colon = uri.find(':');
  if (colon != std::string_view::npos && colon > 0 &&
      uri.find_first_of("/?#") > colon) {
    scheme = Lower(uri.substr(0, colon));
    for (char c : scheme) {
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
            c == '-' || c == '.')) {
        return std::nullopt;
      }
    }
    out.emplace_back("scheme", scheme);
    i = colon + 1;
  }
  auto upto = [&](std::string_view stops) {
    std::size_t end = uri.find_first_of(stops, i);
    if (end == std::string_view::npos) end = uri.size();
    std::string part(uri.substr(i, end - i));
    i = end;
    return part;
  };
  if (!scheme.empty() && uri.substr(i, 1) != "/") {
    std::string opaque = upto("#");
    std::string fragment;
    if (i < uri.size()) fragment = std::string(uri.substr(i + 1));
    out.emplace_back("opaque", opaque);
    if (i < uri.size()) out.emplace_back("fragment", fragment);
    return out;
  }
  if (uri.substr(i, 2) == "//") {
    i += 2;
    std::string authority = upto("/?#");
    const std::size_t at = authority.rfind('@');
    if (at != std::string::npos) {
      out.emplace_back("userinfo", authority.substr(0, at));
      authority = authority.substr(at + 1);
    }
    std::string port;
    const std::size_t pc = authority.rfind(':');
    if (pc != std::string::npos &&
        authority.find(']', pc) == std::string::npos) {
      port = authority.substr(pc + 1);
      authority = authority.substr(0, pc);
    }
    if (!authority.empty()) out.emplace_back("host", Lower(authority));
    // URI::Generic's default ports for the schemes Ruby knows; http's 80
    // and https's 443 are left out (uri_to_hash).
    static constexpr std::pair<std::string_view, std::string_view> kPorts[] = {
        {"http", "80"},   {"https", "443"}, {"ftp", "21"}, {"ldap", "389"},
        {"ldaps", "636"}, {"ws", "80"},     {"wss", "443"}};
    if (port.empty()) {
      for (const auto& [sch, p] : kPorts) {
        if (sch == scheme) port = p;
      }
    }
    if (!port.empty() && !((scheme == "http" && port == "80") ||
                           (scheme == "https" && port == "443"))) {
      out.emplace_back("port", port);
    }
  }
  std::string path = upto("?#");
  if (!path.empty()) out.emplace_back("path", path);
  if (i < uri.size() && uri[i] == '?') {
    ++i;
    out.emplace_back("query", upto("#"));
  }
  if (i < uri.size() && uri[i] == '#') {
    out.emplace_back("fragment", std::string(uri.substr(i + 1)));
  }
  return out;
}

class Parser {
 public:
  /// `aliases`: the names a type may refer to (may be null).
  Parser(std::string_view text, const Aliases* aliases)
      : text_(text), aliases_(aliases) {}

  Result<TypePtr> Run() {
    TypePtr t = ParseType(0);
    if (t) {
      SkipSpace();
      if (pos_ < text_.size()) FailAt(pos_, "unexpected text after the type");
    }
    if (!error_.empty()) return Status(Errc::kSyntax, error_);
    return t;
  }

  /// Where parsing stopped (ParseAliases reads several definitions).
  std::size_t pos() const { return pos_; }
  /// Parses one type at the current position, leaving what follows.
  TypePtr ParseOne() {
    TypePtr t = ParseType(0);
    return error_.empty() ? t : nullptr;
  }
  const std::string& error() const { return error_; }

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
  // A word ParseParam reads back as this string.
  static bool IsBareWord(std::string_view s) {
    if (s.empty() || s[0] < 'a' || s[0] > 'z' || s == "default" ||
        s == "true" || s == "false" || s == "undef") {
      return false;
    }
    return std::all_of(s.begin(), s.end(), IsAlnum);
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

  // Items read by `one`, separated by commas (a trailing one allowed), up
  // to and including `close`.
  template <typename F>
  bool Items(char close, F&& one) {
    while (Peek() != close) {
      if (!one()) return false;
      if (Peek() != ',') break;
      ++pos_;
    }
    if (Peek() != close) {
      FailAt(pos_, std::string("expected '") + close + "'");
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
    if (c == '[') {
      // An array literal (Object and Callable parameters).
      p->k = Param::K::kArray;
      ++pos_;
      return Items(']', [&] {
        Param item;
        if (!ParseParam(&item, depth + 1)) return false;
        p->items.push_back(std::move(item));
        return true;
      });
    }
    if (c == '{') {
      p->k = Param::K::kHash;
      ++pos_;
      return Items('}', [&] {
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
        return true;
      });
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
    Canonical(params, t.get());
    // static_loader.rb's BUILTIN_ALIASES print by name
    // (type_formatter.rb format_type_alias_type).
    static constexpr std::pair<std::string_view, std::string_view>
        kBuiltinAliases[] = {{"richdatakey", "RichDataKey"},
                             {"puppet::lookupkey", "Puppet::LookupKey"},
                             {"puppet::lookupvalue", "Puppet::LookupValue"}};
    const std::string lower = Lower(name);
    for (const auto& [l, spelled] : kBuiltinAliases) {
      if (lower == l) t->text = std::string(spelled);
    }
    return t;
  }

  // --- printing (type_formatter.rb) ---------------------------------------

  static std::string Quote(std::string_view s) {
    std::string out = "'";
    for (char c : s) {
      if (c == '\\' || c == '\'') out += '\\';
      out += c;
    }
    return out + "'";
  }
  static std::string Slashed(std::string_view source) {
    std::string out = "/";
    for (char c : source) {
      if (c == '/') out += '\\';
      out += c;
    }
    return out + "/";
  }
  static std::string ParamText(const Param& p) {
    switch (p.k) {
      case Param::K::kType: return p.type->text;
      case Param::K::kInteger:
      case Param::K::kFloat: return p.text;
      case Param::K::kDefault: return "default";
      case Param::K::kString: return Quote(p.text);
      case Param::K::kRegex: return Slashed(p.text);
      case Param::K::kBool: return p.boolean ? "true" : "false";
      case Param::K::kUndef: return "undef";
      case Param::K::kArray: {
        std::string out = "[";
        for (std::size_t i = 0; i < p.items.size(); ++i) {
          if (i > 0) out += ", ";
          out += ParamText(p.items[i]);
        }
        return out + "]";
      }
      case Param::K::kHash: {
        std::string out = "{";
        for (std::size_t i = 0; i < p.keys.size(); ++i) {
          if (i > 0) out += ", ";
          out += ParamText(p.keys[i]) + " => " + ParamText(p.values[i]);
        }
        return out + "}";
      }
    }
    return "";
  }
  // range_array_part: [from or default, to], without an open end.
  static void Range(std::vector<std::string>* parts,
                    const std::optional<std::string>& from,
                    const std::optional<std::string>& to) {
    if (!from && !to) return;
    parts->push_back(from ? *from : "default");
    if (to) parts->push_back(*to);
  }
  static void SizeRange(std::vector<std::string>* parts, std::int64_t min,
                        const std::optional<std::int64_t>& max) {
    Range(
        parts,
        min > 0 || max ? std::optional<std::string>(std::to_string(min))
                       : std::nullopt,
        max ? std::optional<std::string>(std::to_string(*max)) : std::nullopt);
  }
  static std::string Joined(std::string_view name,
                            const std::vector<std::string>& parts) {
    if (parts.empty()) return std::string(name);
    std::string out(name);
    out += '[';
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (i > 0) out += ", ";
      out += parts[i];
    }
    return out + "]";
  }
  static std::string ElementOrAny(const std::vector<TypePtr>& e,
                                  std::size_t i) {
    return i < e.size() ? e[i]->text : std::string("Any");
  }
  // A contained type; a String with one value prints as that string.
  static std::string Contained(const PuppetType& t) {
    if (t.kind == Kind::kString && t.value) return Quote(*t.value);
    return t.text;
  }
  static std::string FloatBound(const std::string& n) {
    return n.find_first_of(".eE") == std::string::npos ? n + ".0" : n;
  }

  // Puppet's canonical spelling of a parsed type (TypeFormatter#string),
  // which messages use; types whose parameters are Ruby data (Callable,
  // Object, SemVer, ...) keep their parameters as written.
  void Canonical(const std::vector<Param>& params, PuppetType* t) const {
    std::vector<std::string> parts;
    switch (t->kind) {
      case Kind::kAny: t->text = "Any"; return;
      case Kind::kUnit: t->text = "Unit"; return;
      case Kind::kUndef: t->text = "Undef"; return;
      case Kind::kDefault: t->text = "Default"; return;
      case Kind::kScalar: t->text = "Scalar"; return;
      case Kind::kScalarData: t->text = "ScalarData"; return;
      case Kind::kData: t->text = "Data"; return;
      case Kind::kRichData: t->text = "RichData"; return;
      case Kind::kNumeric:
      case Kind::kInteger:
      case Kind::kFloat: {
        const bool is_float = t->kind == Kind::kFloat;
        Range(
            &parts,
            t->from && is_float ? std::optional(FloatBound(*t->from)) : t->from,
            t->to && is_float ? std::optional(FloatBound(*t->to)) : t->to);
        t->text = Joined(t->kind == Kind::kNumeric   ? "Numeric"
                         : t->kind == Kind::kInteger ? "Integer"
                                                     : "Float",
                         parts);
        return;
      }
      case Kind::kString:
        SizeRange(&parts, t->min_size, t->max_size);
        t->text = Joined("String", parts);
        return;
      case Kind::kEnum:
        for (const std::string& v : t->enum_values) parts.push_back(Quote(v));
        if (t->case_insensitive) parts.push_back("true");
        t->text = Joined("Enum", parts);
        return;
      case Kind::kPattern:
      case Kind::kRegexp:
        for (const Pattern& p : t->patterns) parts.push_back(Slashed(p.source));
        t->text =
            Joined(t->kind == Kind::kPattern ? "Pattern" : "Regexp", parts);
        return;
      case Kind::kBoolean:
        if (t->boolean) parts.push_back(*t->boolean ? "true" : "false");
        t->text = Joined("Boolean", parts);
        return;
      case Kind::kArray:
      case Kind::kHash: {
        const bool array = t->kind == Kind::kArray;
        const char* name = array ? "Array" : "Hash";
        if (t->max_size && *t->max_size == 0) {
          t->text = std::string(name) + "[0, 0]";
          return;
        }
        if (t->elements.empty() && t->min_size == 0 && !t->max_size) {
          t->text = name;
          return;
        }
        parts.push_back(ElementOrAny(t->elements, 0));
        if (!array) parts.push_back(ElementOrAny(t->elements, 1));
        SizeRange(&parts, t->min_size, t->max_size);
        t->text = Joined(name, parts);
        return;
      }
      case Kind::kCollection:
        SizeRange(&parts, t->min_size, t->max_size);
        t->text = Joined("Collection", parts);
        return;
      case Kind::kTuple:
        for (const TypePtr& e : t->elements) parts.push_back(e->text);
        if (t->has_size) {
          // A size is printed as given: [min] or [min, max].
          parts.push_back(std::to_string(t->min_size));
          if (t->max_size) parts.push_back(std::to_string(*t->max_size));
        }
        t->text = Joined("Tuple", parts);
        return;
      case Kind::kStruct: {
        if (t->members.empty()) {
          t->text = "Struct";
          return;
        }
        std::string hash = "{";
        for (std::size_t i = 0; i < t->members.size(); ++i) {
          const StructMember& m = t->members[i];
          if (i > 0) hash += ", ";
          switch (m.key_kind) {
            case StructMember::KeyKind::kPlain: hash += Quote(m.key); break;
            case StructMember::KeyKind::kOptional:
              hash += "Optional[" + Quote(m.key) + "]";
              break;
            case StructMember::KeyKind::kNotUndef:
              hash += "NotUndef[" + Quote(m.key) + "]";
              break;
          }
          hash += " => " + m.type->text;
        }
        t->text = "Struct[" + hash + "}]";
        return;
      }
      case Kind::kOptional:
      case Kind::kNotUndef:
      case Kind::kSensitive:
      case Kind::kType:
      case Kind::kIterable:
      case Kind::kIterator: {
        static constexpr std::pair<Kind, std::string_view> kNames[] = {
            {Kind::kOptional, "Optional"},   {Kind::kNotUndef, "NotUndef"},
            {Kind::kSensitive, "Sensitive"}, {Kind::kType, "Type"},
            {Kind::kIterable, "Iterable"},   {Kind::kIterator, "Iterator"}};
        std::string_view name;
        for (const auto& [k, n] : kNames) {
          if (k == t->kind) name = n;
        }
        if (!t->elements.empty()) parts.push_back(Contained(*t->elements[0]));
        t->text = Joined(name, parts);
        return;
      }
      case Kind::kVariant:
        for (const TypePtr& e : t->elements) parts.push_back(e->text);
        t->text = Joined("Variant", parts);
        return;
      case Kind::kInit:
        for (const Param& p : params) parts.push_back(ParamText(p));
        t->text = Joined("Init", parts);
        return;
      case Kind::kAlias: {
        auto it = aliases_->spelled.find(t->alias);
        if (it != aliases_->spelled.end()) t->text = it->second;
        return;
      }
      case Kind::kSemVerRange: t->text = "SemVerRange"; return;
      case Kind::kBinary: t->text = "Binary"; return;
      case Kind::kCatalogEntry: t->text = "CatalogEntry"; return;
      case Kind::kTimespan:
      case Kind::kTimestamp: {
        // string_PTimespanType: [from or default, to], nothing when both
        // are open, and no `to` equal to `from`; a bound prints as its
        // value's to_s (TimespanText, TimestampText), or as written where
        // pstate cannot spell that.
        const bool timespan = t->kind == Kind::kTimespan;
        const auto bound = [&](std::size_t i) -> std::optional<Param> {
          if (i >= params.size() || params[i].k == Param::K::kDefault) {
            return std::nullopt;
          }
          return params[i];
        };
        const std::optional<Param> from = bound(0);
        const std::optional<Param> to = bound(1);
        const auto nanos = [&](const std::optional<Param>& p) {
          return p ? BoundNanos(timespan, *p) : std::nullopt;
        };
        const auto spelled = [&](const Param& p) {
          std::optional<Nanos> n = BoundNanos(timespan, p);
          std::optional<std::string> text;
          if (n) text = timespan ? TimespanText(*n) : TimestampText(*n);
          return text ? Quote(*text) : ParamText(p);
        };
        if (from || to) parts.push_back(from ? spelled(*from) : "default");
        const std::optional<Nanos> from_nanos = nanos(from);
        if (to && !(from_nanos && from_nanos == nanos(to))) {
          parts.push_back(spelled(*to));
        }
        t->text = Joined(timespan ? "Timespan" : "Timestamp", parts);
        return;
      }
      case Kind::kUri: {
        // string_PURIType: the hash of parts.
        if (t->members.empty()) {
          t->text = "URI";
          return;
        }
        std::string hash = "{";
        for (std::size_t i = 0; i < t->members.size(); ++i) {
          const StructMember& m = t->members[i];
          if (i > 0) hash += ", ";
          hash += Quote(m.key) + " => " + Contained(*m.type);
        }
        t->text = "URI[" + hash + "}]";
        return;
      }
      case Kind::kObject:
        // string_PObjectType: a named Object prints by its name (label),
        // where that name reads back as itself (not as a built-in type
        // spelled otherwise, `Semver`); an anonymous one keeps its
        // definition (Puppet prints `Object`, the type every Object type
        // is assignable to).
        if (params.empty()) {
          t->text = t->value ? *t->value : "Object";
          return;
        }
        if (t->value) {
          Result<TypePtr> by_name = Parser(*t->value, aliases_).Run();
          if (by_name.ok() && (*by_name)->text == *t->value) {
            t->text = *t->value;
            return;
          }
        }
        [[fallthrough]];
      case Kind::kCallable:
      case Kind::kRuntime:
      case Kind::kSemVer:
      case Kind::kClass:
      case Kind::kResource:
      case Kind::kTypeSet: {
        // Each parameter in its canonical spelling (type_formatter.rb
        // append_strings: types canonical, strings single-quoted, hashes
        // as {k => v}).
        static constexpr std::pair<Kind, std::string_view> kNames[] = {
            {Kind::kObject, "Object"},   {Kind::kCallable, "Callable"},
            {Kind::kRuntime, "Runtime"}, {Kind::kSemVer, "SemVer"},
            {Kind::kClass, "Class"},     {Kind::kResource, "Resource"},
            {Kind::kTypeSet, "TypeSet"}};
        std::string_view name;
        for (const auto& [k, n] : kNames) {
          if (k == t->kind) name = n;
        }
        if (t->kind == Kind::kSemVer) {
          parts = t->params;  // merged (Build)
        } else if (t->kind == Kind::kRuntime && params.size() == 2 &&
                   params[0].k == Param::K::kString &&
                   IsBareWord(params[0].text)) {
          // type_factory.rb runtime: the runtime is a Symbol, which
          // prints bare (string_Symbol): Runtime[ruby, 'Foo'].
          parts = {params[0].text, ParamText(params[1])};
        } else {
          for (const Param& p : params) parts.push_back(ParamText(p));
        }
        t->text = Joined(name, parts);
        return;
      }
      default: return;  // as written (type references)
    }
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
    // Puppet looks a type name up lower-cased (type_parser.rb type_map),
    // so `Semver` and `SemVer` are one type.
    static constexpr std::pair<std::string_view, Kind> kNames[] = {
        {"any", Kind::kAny},
        {"unit", Kind::kUnit},
        {"undef", Kind::kUndef},
        {"default", Kind::kDefault},
        {"scalar", Kind::kScalar},
        {"scalardata", Kind::kScalarData},
        {"data", Kind::kData},
        {"richdata", Kind::kRichData},
        {"puppet::lookupvalue", Kind::kRichData},
        {"numeric", Kind::kNumeric},
        {"integer", Kind::kInteger},
        {"float", Kind::kFloat},
        {"string", Kind::kString},
        {"enum", Kind::kEnum},
        {"pattern", Kind::kPattern},
        {"boolean", Kind::kBoolean},
        {"array", Kind::kArray},
        {"hash", Kind::kHash},
        {"tuple", Kind::kTuple},
        {"struct", Kind::kStruct},
        {"collection", Kind::kCollection},
        {"optional", Kind::kOptional},
        {"notundef", Kind::kNotUndef},
        {"variant", Kind::kVariant},
        {"callable", Kind::kCallable},
        {"sensitive", Kind::kSensitive},
        {"regexp", Kind::kRegexp},
        {"iterable", Kind::kIterable},
        {"init", Kind::kInit},
        {"type", Kind::kType},
        {"runtime", Kind::kRuntime},
        {"class", Kind::kClass},
        {"resource", Kind::kResource},
        {"catalogentry", Kind::kCatalogEntry},
        {"iterator", Kind::kIterator},
        {"semver", Kind::kSemVer},
        {"semverrange", Kind::kSemVerRange},
        {"timespan", Kind::kTimespan},
        {"timestamp", Kind::kTimestamp},
        {"binary", Kind::kBinary},
        {"uri", Kind::kUri},
        {"object", Kind::kObject},
        {"typeset", Kind::kTypeSet},
        // Pcore's object types (lib/puppet/pops/pcore.rb).
        {"error", Kind::kObject},
        {"deferred", Kind::kObject},
        {"task", Kind::kObject},
    };
    const std::string lower = Lower(name);
    if (lower == "richdatakey" || lower == "puppet::lookupkey") {
      // static_loader.rb BUILTIN_ALIASES.
      if (!NoParams(at, bracket, params)) return false;
      return Alias(Parser("Variant[String, Numeric]", nullptr).Run(), t);
    }
    bool known = false;
    for (const auto& [n, k] : kNames) {
      if (lower == n) {
        t->kind = k;
        known = true;
      }
    }
    if (!known) {
      if (aliases_ != nullptr && aliases_->by_name.count(lower) != 0) {
        if (!NoParams(at, bracket, params)) return false;
        t->kind = Kind::kAlias;
        t->alias = lower;
        t->alias_table = aliases_;
        return true;
      }
      // An unresolved type reference (type_parser.rb: TypeReference).
      t->kind = Kind::kTypeReference;
      return true;
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
          if (t->member_index.Insert(m.key, t->members.size())) {
            FailAt(k.offset, "duplicate Struct key");
            return false;
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
      case Kind::kRichData:
      case Kind::kCatalogEntry:
      case Kind::kSemVerRange:
      case Kind::kBinary: return NoParams(at, bracket, params);
      case Kind::kType:
      case Kind::kIterable:
      case Kind::kIterator:
        if (params.size() > 1) {
          FailAt(params[1].offset, "too many parameters");
          return false;
        }
        if (params.size() == 1) {
          if (params[0].k != Param::K::kType) {
            FailAt(params[0].offset, "expected a type");
            return false;
          }
          t->elements.push_back(params[0].type);
        }
        return true;
      case Kind::kInit: return BuildInit(params, t);
      default: break;
    }
    // The types whose parameters are Ruby data keep them in canonical
    // spelling (Canonical prints them, Sub compares them).
    for (const Param& p : params) t->params.push_back(ParamText(p));
    if (t->kind == Kind::kSemVer && t->params.size() > 1) {
      // PSemVerType#initialize merges its ranges (merge_ranges).
      std::vector<std::string> merged;
      for (SemVerParam& m : SemVerParams(t->params)) {
        merged.push_back(std::move(m.text));
      }
      t->params = std::move(merged);
    }
    switch (t->kind) {
      case Kind::kRuntime: {
        if (bracket && params.size() != 2) {
          FailAt(at, "a Runtime takes two parameters (runtime, name)");
          return false;
        }
        if (params.size() != 2) return true;
        // p_runtime_type.rb TYPE_NAME_OR_PATTERN: String[1], or
        // Tuple[Regexp, String[1]] (a pattern and its replacement).
        const Param& n = params[1];
        const auto non_empty = [](const Param& p) {
          return p.k == Param::K::kString && !p.text.empty();
        };
        if (!non_empty(n) &&
            !(n.k == Param::K::kArray && n.items.size() == 2 &&
              n.items[0].k == Param::K::kRegex && non_empty(n.items[1]))) {
          FailAt(n.offset,
                 "a Runtime's name is a non-empty string or [/pattern/, "
                 "'replacement'] (TYPE_NAME_OR_PATTERN)");
          return false;
        }
        return true;
      }
      case Kind::kUri:
        if (bracket && params.size() != 1) {
          FailAt(at, "this type takes one parameter");
          return false;
        }
        return params.empty() || UriParameters(params[0], t);
      case Kind::kClass:
        if (bracket && params.size() != 1) {
          FailAt(at, "this type takes one parameter");
          return false;
        }
        return true;
      case Kind::kResource:
        if (bracket && (params.empty() || params.size() > 2)) {
          FailAt(at, "a Resource takes a type name and an optional title");
          return false;
        }
        return true;
      case Kind::kTimespan:
      case Kind::kTimestamp:
        // Bounds in seconds (p_timespan_type.rb convert_arg): a number,
        // or a string in the default formats (read as Puppet's parse).
        if (params.size() > 2) {
          FailAt(params[2].offset, "too many parameters");
          return false;
        }
        for (std::size_t i = 0; i < params.size(); ++i) {
          const Param& p = params[i];
          if (p.k == Param::K::kInteger || p.k == Param::K::kFloat) {
            (i == 0 ? t->from : t->to) = p.text;
          } else if (p.k == Param::K::kString) {
            std::optional<std::string> seconds = t->kind == Kind::kTimespan
                                                     ? TimespanSeconds(p.text)
                                                     : TimestampSeconds(p.text);
            if (!seconds) {
              FailAt(p.offset, t->kind == Kind::kTimespan
                                   ? "not a Timespan in one of Puppet's "
                                     "default formats (D-HH:MM:SS.N, ...)"
                                   : "not a Timestamp in one of Puppet's "
                                     "default formats (YYYY-MM-DDTHH:MM:SS.N "
                                     "UTC, ...)");
              return false;
            }
            (i == 0 ? t->from : t->to) = *seconds;
          } else if (p.k != Param::K::kDefault) {
            FailAt(p.offset, "a bound must be a number, a string or default");
            return false;
          }
        }
        if (t->from && t->to && json::CompareNumbers(*t->from, *t->to) > 0) {
          FailAt(params[0].offset,
                 "'from' must be less or equal to 'to' (ArgumentError)");
          return false;
        }
        return true;
      case Kind::kSemVer:
        for (const Param& p : params) {
          if (p.k != Param::K::kString) {
            FailAt(p.offset, "a SemVer takes version ranges (strings)");
            return false;
          }
          if (!IsVersionRange(p.text)) {
            FailAt(p.offset,
                   "not a version range (semantic_puppet's "
                   "VersionRange: 1.2.3, 1.x, >=1.0.0 <2.0.0, "
                   "~1.2, ^1.2.3, 1.0.0 - 1.3.9, ... || ...)");
            return false;
          }
        }
        return true;
      case Kind::kObject:
      case Kind::kTypeSet:
        if (params.size() > 1 ||
            (params.size() == 1 && params[0].k != Param::K::kHash)) {
          FailAt(params.empty() ? at : params[0].offset,
                 "this type takes one hash of its attributes");
          return false;
        }
        if (t->kind == Kind::kObject && params.empty() && lower != "object") {
          // Pcore's Error, Deferred and Task (pcore.rb), by name.
          t->value = lower == "error"      ? "Error"
                     : lower == "deferred" ? "Deferred"
                                           : "Task";
        }
        if (t->kind == Kind::kObject && params.size() == 1) {
          // p_object_type.rb: `name` and `parent` decide assignability.
          const Param& h = params[0];
          for (std::size_t i = 0; i < h.keys.size(); ++i) {
            if (h.keys[i].k != Param::K::kString) continue;
            const Param& v = h.values[i];
            if (h.keys[i].text == "name") {
              if (v.k != Param::K::kString || !IsQualifiedName(v.text)) {
                FailAt(v.offset,
                       "an Object's name must be a qualified type name "
                       "(Pcore::TypeName, /\\A[A-Z]\\w*(?:::[A-Z]\\w*)*\\z/)");
                return false;
              }
              t->value = v.text;
            } else if (h.keys[i].text == "parent" && v.k == Param::K::kType) {
              t->elements = {v.type};
            }
          }
        }
        if (t->kind == Kind::kObject && params.size() == 1) {
          t->params = {ObjectIdentity(params[0], false)};
        }
        return true;
      default: return true;  // alias, type reference
    }
  }

  // What p_object_type.rb eql? compares (name, parent, type parameters,
  // attributes, functions, equality, checks), as text: each hash in key
  // order (Ruby's Hash#== ignores order), a member given as a bare type as
  // the {type => T} its PAttribute makes of it, an Object type by its own
  // identity (its name alone is not enough: eql? compares the whole).
  static std::string ObjectIdentity(const Param& p, bool members) {
    switch (p.k) {
      case Param::K::kType:
        if (p.type->kind == Kind::kObject && !p.type->params.empty()) {
          return "Object[" + p.type->params[0] + "]";
        }
        return p.type->text;
      case Param::K::kArray: {
        std::string out = "[";
        for (std::size_t i = 0; i < p.items.size(); ++i) {
          out += (i > 0 ? ", " : "") + ObjectIdentity(p.items[i], false);
        }
        return out + "]";
      }
      case Param::K::kHash: {
        std::vector<std::pair<std::string, std::string>> entries;
        for (std::size_t i = 0; i < p.keys.size(); ++i) {
          const Param& v = p.values[i];
          const bool member_table =
              !members && p.keys[i].k == Param::K::kString &&
              (p.keys[i].text == "attributes" || p.keys[i].text == "functions");
          std::string value = ObjectIdentity(v, member_table);
          if (members && v.k == Param::K::kType) {
            value = "{'type' => " + value + "}";
          }
          entries.emplace_back(ParamText(p.keys[i]), std::move(value));
        }
        std::sort(entries.begin(), entries.end());
        std::string out = "{";
        for (std::size_t i = 0; i < entries.size(); ++i) {
          out += (i > 0 ? ", " : "") + entries[i].first + " => " +
                 entries[i].second;
        }
        return out + "}";
      }
      default: return ParamText(p);
    }
  }

  // URI[...]: p_uri_type.rb keeps its parameters as a hash of the URI's
  // parts (uri_to_hash of a URI string, or the hash given), whose values
  // are strings, regexps or types: here `members`, a literal string as a
  // String type with that value, a regexp as a Pattern.
  bool UriParameters(const Param& p, PuppetType* t) {
    auto literal = [](std::string value) {
      auto s = std::make_shared<PuppetType>();
      s->kind = Kind::kString;
      s->value = std::move(value);
      s->text = "String";
      return TypePtr(std::move(s));
    };
    auto add = [&](std::string key, TypePtr value) {
      t->member_index.Insert(key, t->members.size());
      t->members.push_back(
          {std::move(key), StructMember::KeyKind::kPlain, std::move(value)});
    };
    if (p.k == Param::K::kString && !p.text.empty()) {
      std::optional<std::vector<std::pair<std::string, std::string>>> parts =
          UriParts(p.text);
      if (!parts) {
        FailAt(p.offset, "not a URI");
        return false;
      }
      for (auto& [key, value] : *parts) add(key, literal(std::move(value)));
      return true;
    }
    if (p.k != Param::K::kHash) {
      FailAt(p.offset, "a URI takes a URI string or a hash of its parts");
      return false;
    }
    static constexpr std::string_view kKeys[] = {
        "scheme", "userinfo", "host",     "port",
        "path",   "query",    "fragment", "opaque"};
    for (std::size_t i = 0; i < p.keys.size(); ++i) {
      const Param& k = p.keys[i];
      const Param& v = p.values[i];
      if (k.k != Param::K::kString ||
          std::find(std::begin(kKeys), std::end(kKeys), k.text) ==
              std::end(kKeys) ||
          t->member_index.Find(k.text).has_value()) {
        FailAt(k.offset,
               "a URI part is one of scheme, userinfo, host, port, "
               "path, query, fragment, opaque (once each)");
        return false;
      }
      if (v.k == Param::K::kString || v.k == Param::K::kInteger) {
        add(k.text, literal(v.text));
      } else if (v.k == Param::K::kType) {
        add(k.text, v.type);
      } else if (v.k == Param::K::kRegex) {
        auto pattern = std::make_shared<PuppetType>();
        pattern->kind = Kind::kPattern;
        if (!AddPattern(v, pattern.get())) return false;
        pattern->text = "Pattern[" + Slashed(v.text) + "]";
        add(k.text, std::move(pattern));
      } else {
        FailAt(v.offset, "a URI part is a string, a regexp or a type");
        return false;
      }
    }
    return true;
  }

  // Becomes the (already parsed) type `r`, keeping what was written.
  static bool Alias(Result<TypePtr> r, PuppetType* t) {
    std::string text = std::move(t->text);
    *t = **r;
    t->text = std::move(text);
    return true;
  }

  // --- Init[T, args...] (p_init_type.rb) ----------------------------------

  // The signatures of T.new (the dispatches of each type's new_function in
  // types.rb and p_*_type.rb, without the argument_mismatch handlers), as
  // Tuple types with their arity; nullptr when T has no `new`.
  static const std::vector<TypePtr>* NewSignatures(Kind kind) {
    // Integer/Float patterns: types.rb INTEGER_PATTERN_LENIENT,
    // FLOAT_PATTERN.
#define PSTATE_SIGN "[+-]?\\s*"
#define PSTATE_HEX_OCT_BIN "(?:0[xX][0-9A-Fa-f]+)|(?:0[0-7]+)|(?:0[bB][01]+)"
    static const std::string kIntegerPattern =
        "/\\A" PSTATE_SIGN
        "(?:(?:\\d+)|(?:0[xX][0-9A-Fa-f]+)|(?:0[bB][01]+))\\z/";
    static const std::string kFloatPattern =
        "/\\A" PSTATE_SIGN
        "(?:(?:(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE]-?\\d+)?)|" PSTATE_HEX_OCT_BIN
        ")\\z/";
#undef PSTATE_SIGN
#undef PSTATE_HEX_OCT_BIN
    static const std::string kIntConv = "Variant[Numeric, Boolean, Pattern[" +
                                        kIntegerPattern +
                                        "], Timespan, Timestamp]";
    static const std::string kFloatConv = "Variant[Numeric, Boolean, Pattern[" +
                                          kFloatPattern +
                                          "], Timespan, Timestamp]";
    static const std::string kNumConv =
        "Variant[Integer, Float, Boolean, Pattern[" + kFloatPattern +
        "], Timespan, Timestamp]";
    static const std::string kRadix =
        "Variant[Default, Integer[2,2], Integer[8,8], Integer[10,10], "
        "Integer[16,16]]";
    // semantic_puppet's Version::REGEX_FULL.
    static const std::string kSemVerPattern =
        "Pattern[/\\A(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)"
        "(?:-([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?"
        "(?:\\+([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?\\Z/]";
    static const std::string kQualifier =
        "Pattern[/\\A(?<part>[0-9A-Za-z-]+)(?:\\.\\g<part>)*\\Z/]";
    static const std::string kTimeFormats =
        "Variant[String[2], Array[String[2], 1]]";
    auto parse = [](std::vector<std::string> texts) {
      std::vector<TypePtr> out;
      for (const std::string& text : texts) {
        Result<TypePtr> r = Parser(text, nullptr).Run();
        if (r.ok()) out.push_back(*r);
      }
      return out;
    };
    static const std::vector<TypePtr> kInteger = parse({
        "Tuple[" + kIntConv + ", " + kRadix + ", Boolean, 1, 3]",
        "Tuple[Struct[{from => " + kIntConv + ", Optional[radix] => " + kRadix +
            ", Optional[abs] => Boolean}]]",
    });
    static const std::vector<TypePtr> kFloat = parse({
        "Tuple[" + kFloatConv + ", Boolean, 1, 2]",
        "Tuple[Struct[{from => " + kFloatConv + ", Optional[abs] => Boolean}]]",
    });
    static const std::vector<TypePtr> kNumeric = parse({
        "Tuple[" + kNumConv + ", Boolean, 1, 2]",
        "Tuple[Struct[{from => " + kNumConv + ", Optional[abs] => Boolean}]]",
    });
    static const std::vector<TypePtr> kString = parse({
        // Formats = Variant[Default, String[1], TypeMap], and a TypeMap's
        // keys are types: no JSON value is one.
        "Tuple[Any, Variant[Default, String[1]], 1, 2]",
    });
    static const std::vector<TypePtr> kBoolean = parse({
        "Tuple[Variant[Integer, Float, Boolean, "
        "Enum['false','true','yes','no','y','n',true]]]",
    });
    static const std::vector<TypePtr> kArray = parse({
        "Tuple[Variant[Array, Hash, Binary, Iterable], Boolean[false], 1, 2]",
        "Tuple[Any, Boolean[true]]",
    });
    static const std::vector<TypePtr> kHash = parse({
        "Tuple[Array[Tuple[Array, Any], 1], Enum[tree, hash_tree], 1, 2]",
        "Tuple[Array[Tuple[Any, Any], 1]]",
        "Tuple[Any]",
    });
    static const std::vector<TypePtr> kRegexp = parse({
        "Tuple[String, Boolean, 1, 2]",
    });
    static const std::vector<TypePtr> kSemVer = parse({
        "Tuple[" + kSemVerPattern + "]",
        "Tuple[Integer[0, default], Integer[0, default], Integer[0, "
        "default], " +
            kQualifier + ", " + kQualifier + ", 3, 5]",
        "Tuple[Struct[{major => Integer[0, default], minor => Integer[0, "
        "default], patch => Integer[0, default], Optional[prerelease] => " +
            kQualifier + ", Optional[build] => " + kQualifier + "}]]",
    });
    static const std::vector<TypePtr> kSemVerRange = parse({
        "Tuple[String[1]]",
        "Tuple[Variant[Default, SemVer], Variant[Default, SemVer], Boolean, 2, "
        "3]",
        "Tuple[Struct[{min => Variant[Default, SemVer], Optional[max] => "
        "Variant[Default, SemVer], Optional[exclude_max] => Boolean}]]",
    });
    static const std::vector<TypePtr> kTimespan = parse({
        "Tuple[Variant[Integer, Float]]",
        "Tuple[String[1], " + kTimeFormats + ", 1, 2]",
        "Tuple[Integer, Integer, Integer, Integer, Integer, Integer, Integer, "
        "4, 7]",
        "Tuple[Struct[{string => String[1], Optional[format] => " +
            kTimeFormats + "}]]",
        "Tuple[Struct[{Optional[negative] => Boolean, Optional[days] => "
        "Integer, Optional[hours] => Integer, Optional[minutes] => Integer, "
        "Optional[seconds] => Integer, Optional[milliseconds] => Integer, "
        "Optional[microseconds] => Integer, Optional[nanoseconds] => "
        "Integer}]]",
    });
    static const std::vector<TypePtr> kTimestamp = parse({
        "Tuple[0, 0]",
        "Tuple[Variant[Integer, Float]]",
        "Tuple[String[1], " + kTimeFormats + ", String[1], 1, 3]",
        "Tuple[Struct[{string => String[1], Optional[format] => " +
            kTimeFormats + ", Optional[timezone] => String[1]}]]",
        "Tuple[Struct[{Optional[year] => Integer, Optional[month] => "
        "Integer, Optional[week] => Integer, Optional[day] => Integer, "
        "Optional[hour] => Integer, Optional[minute] => Integer, "
        "Optional[second] => Integer, Optional[millisecond] => Integer, "
        "Optional[microsecond] => Integer, Optional[nanosecond] => "
        "Integer}]]",
    });
    static const std::vector<TypePtr> kBinary = parse({
        "Tuple[String, Enum['%b', '%u', '%B', '%s', '%r'], 1, 2]",
        "Tuple[Array[Integer[0, 255]]]",
        "Tuple[Variant[Struct[{value => String, 'format' => "
        "Optional[Enum['%b', '%u', '%B', '%s', '%r']]}], Struct[{value => "
        "Array[Integer[0, 255]]}]]]",
    });
    static const std::vector<TypePtr> kUri = parse({
        "Tuple[String[1]]",
        "Tuple[Struct[{Optional[scheme] => String, Optional[userinfo] => "
        "String, Optional[host] => String, Optional[port] => "
        "Integer[0, default], Optional[path] => String, Optional[query] => "
        "String, Optional[fragment] => String, Optional[opaque] => "
        "String}]]",
    });
    static const std::vector<TypePtr> kSensitive = parse({
        "Tuple[Sensitive]",
        "Tuple[Any]",
    });
    static const std::vector<TypePtr> kType = parse({"Tuple[String[1]]"});
    static const std::vector<TypePtr> kUnit = parse({"Tuple[Any]"});
    switch (kind) {
      case Kind::kInteger: return &kInteger;
      case Kind::kFloat: return &kFloat;
      case Kind::kNumeric: return &kNumeric;
      case Kind::kString: return &kString;
      case Kind::kBoolean: return &kBoolean;
      case Kind::kArray:
      case Kind::kTuple: return &kArray;  // Tuple's new is Array's
      case Kind::kHash:
      case Kind::kStruct: return &kHash;  // Struct's new is Hash's
      case Kind::kRegexp: return &kRegexp;
      case Kind::kSemVer: return &kSemVer;
      case Kind::kSemVerRange: return &kSemVerRange;
      case Kind::kTimespan: return &kTimespan;
      case Kind::kTimestamp: return &kTimestamp;
      case Kind::kBinary: return &kBinary;
      case Kind::kUri: return &kUri;
      case Kind::kSensitive: return &kSensitive;
      case Kind::kType: return &kType;
      case Kind::kUnit: return &kUnit;
      default: return nullptr;
    }
  }

  // A literal argument of Init[T, args] as the JSON value it stands for
  // (nullopt for `default` and for a type).
  static std::optional<std::string> ArgJson(const Param& p) {
    switch (p.k) {
      case Param::K::kInteger:
      case Param::K::kFloat: return p.text;
      case Param::K::kBool: return p.boolean ? "true" : "false";
      case Param::K::kUndef: return "null";
      case Param::K::kString: {
        std::string out = "\"";
        for (char c : p.text) {
          if (c == '"' || c == '\\') out += '\\';
          out += c;
        }
        return out + "\"";
      }
      default: return std::nullopt;
    }
  }

  // Would `type` accept the argument `p` (literal arguments only)?
  static bool AcceptsArg(const PuppetType& type, const Param& p) {
    if (p.k == Param::K::kDefault) {
      switch (type.kind) {
        case Kind::kAny:
        case Kind::kDefault: return true;
        case Kind::kOptional:
        case Kind::kNotUndef:
          return type.elements.empty() || AcceptsArg(*type.elements[0], p);
        case Kind::kVariant:
          for (const TypePtr& m : type.elements) {
            if (AcceptsArg(*m, p)) return true;
          }
          return false;
        default: return false;
      }
    }
    std::optional<std::string> text = ArgJson(p);
    if (!text) return false;
    json::Arena arena;
    json::Parser parser;
    json::Value v;
    if (parser.ParseDocument(*text, 0, arena, &v) != json::ParseStatus::kOk) {
      return false;
    }
    RegexBudget budget;
    return Check(type, v, budget).outcome == Outcome::kOk;
  }

  bool BuildInit(const std::vector<Param>& params, PuppetType* t) {
    if (params.empty()) return true;  // Init: RichData
    if (params[0].k != Param::K::kType) {
      FailAt(params[0].offset, "an Init takes a type first");
      return false;
    }
    const TypePtr& target = params[0].type;
    t->elements.push_back(target);
    const PuppetType* resolved = target.get();
    // A type alias's `new` is its type's (types.rb PTypeAliasType).
    for (int i = 0; resolved->kind == Kind::kAlias && i < kMaxDepth; ++i) {
      auto it = resolved->alias_table->by_name.find(resolved->alias);
      if (it == resolved->alias_table->by_name.end() || !it->second) break;
      resolved = it->second.get();
    }
    const std::vector<TypePtr>* signatures = NewSignatures(resolved->kind);
    if (signatures == nullptr) {
      FailAt(params[0].offset, "Creation of new instance of type '" +
                                   target->text + "' is not supported");
      return false;
    }
    const std::size_t args = params.size() - 1;
    for (const TypePtr& sig : *signatures) {
      const std::int64_t lo = sig->min_size;
      const std::optional<std::int64_t> hi =
          sig->has_size ? sig->max_size
                        : std::optional<std::int64_t>(
                              static_cast<std::int64_t>(sig->elements.size()));
      const std::int64_t min = sig->has_size ? lo : *hi;
      if (sig->elements.empty()) continue;  // now(): no argument
      if (args == 0) {
        // Signatures of exactly one argument add their parameter type;
        // the others are tried with the value as their argument list.
        if (min == 1 && hi && *hi == 1) {
          t->init_single.push_back(sig->elements[0]);
        } else {
          t->init_other.push_back(sig);
          if (min <= 1) t->init_optional_single = true;
        }
        continue;
      }
      // Init[T, args]: the signatures that take the value and the args.
      const auto count = static_cast<std::int64_t>(args + 1);
      if (count < min || (hi && count > *hi)) continue;
      bool fits = true;
      for (std::size_t i = 0; i < args && fits; ++i) {
        const PuppetType& at_i =
            *sig->elements[std::min(i + 1, sig->elements.size() - 1)];
        fits = AcceptsArg(at_i, params[i + 1]);
      }
      if (fits) t->init_single.push_back(sig->elements[0]);
    }
    if (args > 0 && t->init_single.empty()) {
      FailAt(params[1].offset, "The type '" + t->text +
                                   "' does not represent a valid set of "
                                   "parameters for " +
                                   target->text + ".new()");
      return false;
    }
    return true;
  }

  std::string_view text_;
  const Aliases* aliases_ = nullptr;
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
  } else if (t.elements.empty()) {
    *lo = 0;  // Tuple: any size (types.rb PTupleType#size_range)
    *hi = std::nullopt;
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

const PuppetType* Resolved(const PuppetType& t) {
  const PuppetType* r = &t;
  for (int i = 0; r->kind == Kind::kAlias && i < kMaxDepth; ++i) {
    auto it = r->alias_table->by_name.find(r->alias);
    if (it == r->alias_table->by_name.end() || !it->second) return r;
    r = it->second.get();
  }
  return r;
}

// A type built from text once (the expansions of static_loader.rb's
// aliases, Iterable's element types).
TypePtr Static(std::string_view text) {
  Result<TypePtr> r = Parser(text, nullptr).Run();
  return r.ok() ? *r : nullptr;
}
TypePtr StaticString() {
  static const TypePtr t = Static("String");
  return t;
}
const PuppetType& DataVariant() {
  static const TypePtr t =
      Static("Variant[ScalarData, Undef, Hash[String, Data], Array[Data]]");
  return *t;
}
const PuppetType& RichDataVariant() {
  static const TypePtr t = Static(
      "Variant[Scalar, SemVerRange, Binary, Sensitive, Type, TypeSet, URI, "
      "Object, Undef, Default, Hash[RichDataKey, RichData], Array[RichData]]");
  return *t;
}

// A type that does not own `t` (for a Tuple[o] built during a comparison).
TypePtr Borrowed(const PuppetType& t) { return TypePtr(TypePtr(), &t); }

// types.rb PAnyType#iterable?: a String, Enum, Integer, collection,
// Iterable or Iterator type, or Type[T] of an Enum or a finite Integer.
bool IsIterable(const PuppetType& o) {
  switch (o.kind) {
    case Kind::kString:
    case Kind::kEnum:
    case Kind::kInteger:
    case Kind::kArray:
    case Kind::kHash:
    case Kind::kTuple:
    case Kind::kStruct:
    case Kind::kCollection:
    case Kind::kIterable:
    case Kind::kIterator: return true;
    case Kind::kType:
      return !o.elements.empty() &&
             (o.elements[0]->kind == Kind::kEnum ||
              (o.elements[0]->kind == Kind::kInteger && o.elements[0]->from &&
               o.elements[0]->to));
    default: return false;
  }
}

// The element type of `o`'s iterable_type (types.rb, per type), or null
// when it has none (an Iterable without element type, a Collection).
TypePtr IterableElement(const PuppetType& o) {
  static const TypePtr kChar = Static("String[1, 1]");
  static const TypePtr kInteger = Static("Integer");
  static const TypePtr kAnyPair = [] {
    // PHashType::DEFAULT_KEY_PAIR_TUPLE: Tuple[Unit, Unit, 2, 2].
    auto pair = std::make_shared<PuppetType>();
    pair->kind = Kind::kTuple;
    auto unit = std::make_shared<PuppetType>();
    unit->kind = Kind::kUnit;
    unit->text = "Unit";
    pair->elements = {unit, unit};
    pair->min_size = 2;
    pair->max_size = 2;
    pair->has_size = true;
    pair->text = "Tuple[Unit, Unit, 2, 2]";
    return TypePtr(std::move(pair));
  }();
  auto pair_of = [](TypePtr k, TypePtr v) {
    auto pair = std::make_shared<PuppetType>();
    pair->kind = Kind::kTuple;
    pair->text = "Tuple[" + k->text + ", " + v->text + ", 2, 2]";
    pair->elements = {std::move(k), std::move(v)};
    pair->min_size = 2;
    pair->max_size = 2;
    pair->has_size = true;
    return TypePtr(std::move(pair));
  };
  // PVariantType.maybe_create: one type is itself.
  auto variant_of = [](std::vector<TypePtr> types) {
    if (types.size() == 1) return types[0];
    auto v = std::make_shared<PuppetType>();
    v->kind = Kind::kVariant;
    v->text = "Variant";
    v->elements = std::move(types);
    return TypePtr(std::move(v));
  };
  switch (o.kind) {
    case Kind::kString:
    case Kind::kEnum: return kChar;
    case Kind::kInteger: return kInteger;
    case Kind::kArray:
      // PArrayType::DEFAULT (element Any) iterates untyped.
      return o.elements.empty() || o.elements[0]->kind == Kind::kAny
                 ? nullptr
                 : o.elements[0];
    case Kind::kHash:
      if (o.elements.empty()) return kAnyPair;
      return pair_of(o.elements[0], o.elements[1]);
    case Kind::kTuple: return variant_of(o.elements);
    case Kind::kStruct: {
      if (o.members.empty()) return kAnyPair;
      std::vector<TypePtr> keys;
      std::vector<TypePtr> values;
      for (const StructMember& m : o.members) {
        auto key = std::make_shared<PuppetType>();
        key->kind = Kind::kString;
        key->value = m.key;
        key->text = "String";
        keys.push_back(std::move(key));
        values.push_back(m.type);
      }
      return pair_of(variant_of(std::move(keys)),
                     variant_of(std::move(values)));
    }
    case Kind::kIterable:
    case Kind::kIterator:
    case Kind::kType: return o.elements.empty() ? nullptr : o.elements[0];
    default: return nullptr;
  }
}

// One Object type (p_object_type.rb eql?: name, parent, attributes,
// ...), compared by canonical spelling.
bool SameObject(const PuppetType& t, const PuppetType& o) {
  return t.params == o.params && t.value == o.value;
}

bool Own(const PuppetType& t, const PuppetType& o);

// types.rb PAnyType#assignable?: Unit, aliases, Variant, Optional and
// NotUndef on the other side are decided here, for every `t`; the rest by
// t's own `_assignable?` (Own).
bool Sub(const PuppetType& t, const PuppetType& o) {
  // Recursive aliases (and Data/RichData, which refer to themselves): a
  // pair still being compared past the nesting limit is assumed
  // assignable, as Puppet's RecursionGuard assumes.
  thread_local int depth = 0;
  if (depth > kMaxDepth) return true;
  struct Nest {
    Nest() { ++depth; }
    ~Nest() { --depth; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;
  } nest;
  if (t.kind == Kind::kAlias || o.kind == Kind::kAlias) {
    return Sub(*Resolved(t), *Resolved(o));
  }
  if (t.kind == Kind::kAny || t.kind == Kind::kUnit) return true;
  if (o.kind == Kind::kUnit) return true;
  if ((o.kind == Kind::kData || o.kind == Kind::kRichData) &&
      t.kind != o.kind) {
    return Sub(t, o.kind == Kind::kData ? DataVariant() : RichDataVariant());
  }
  if (t.kind == Kind::kRichData && o.kind != Kind::kRichData) {
    return Sub(RichDataVariant(), o);
  }
  if (o.kind == Kind::kVariant) {
    if (o.elements.empty()) {
      // An empty Variant: assignable to Any, Unit, NotUndef and an empty
      // Variant only (type_calculator_spec.rb "for Variant").
      return (t.kind == Kind::kVariant && t.elements.empty()) ||
             (t.kind == Kind::kNotUndef && Own(t, o));
    }
    for (const TypePtr& m : o.elements) {
      if (!Sub(t, *m)) return false;
    }
    return true;
  }
  if (o.kind == Kind::kOptional) {
    return Sub(t, UndefType()) &&
           (o.elements.empty() || Sub(t, *o.elements[0]));
  }
  if (o.kind == Kind::kNotUndef && !o.elements.empty() &&
      !Sub(*o.elements[0], UndefType())) {
    return Sub(t, *o.elements[0]);
  }
  return Own(t, o);
}

// t's `_assignable?` (types.rb and p_*_type.rb), `o` neither Unit, an
// alias, a Variant nor an Optional.
bool Own(const PuppetType& t, const PuppetType& o) {
  switch (t.kind) {
    case Kind::kVariant:
      for (const TypePtr& m : t.elements) {
        if (Sub(*m, o)) return true;
      }
      return false;
    case Kind::kOptional:
      return o.kind == Kind::kUndef || SubOrAny(t.elements, o);
    case Kind::kNotUndef:
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
      switch (o.kind) {
        case Kind::kScalar:
        case Kind::kRegexp:
        case Kind::kSemVer:
        case Kind::kSemVerRange:
        case Kind::kTimespan:
        case Kind::kTimestamp: return true;
        default: return ScalarDataKind(o.kind);
      }
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
    case Kind::kRegexp:
      return o.kind == Kind::kRegexp &&
             (t.patterns.empty() ||
              (!o.patterns.empty() &&
               o.patterns[0].source == t.patterns[0].source));
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
        // types.rb PTupleType#_assignable?: each of o's types fits t's
        // type at its index (or t's last).
        if (!SizeWithin(lo, hi, olo, ohi)) return false;
        if (t.elements.empty()) return true;
        if (o.elements.empty()) return lo == 0;
        for (std::size_t i = 0; i < o.elements.size(); ++i) {
          const PuppetType& a = *t.elements[std::min(i, t.elements.size() - 1)];
          if (!Sub(a, *o.elements[i])) return false;
        }
        return true;
      }
      if (o.kind == Kind::kArray) {
        // The array's element type fits t's types up to its maximum size.
        if (!SizeWithin(lo, hi, o.min_size, o.max_size)) return false;
        const PuppetType& oe = o.elements.empty() ? AnyType() : *o.elements[0];
        std::size_t n = t.elements.size();
        if (o.max_size) n = std::min(n, static_cast<std::size_t>(*o.max_size));
        for (std::size_t i = 0; i < n; ++i) {
          if (!Sub(*t.elements[i], oe)) return false;
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
             SubOrAny(t.elements,
                      o.elements.empty() ? AnyType() : *o.elements[0]);
    case Kind::kCallable:
      // Parameters are contravariant.
      if (o.kind != Kind::kCallable) return false;
      if (t.elements.size() != o.elements.size()) return false;
      for (std::size_t i = 0; i < t.elements.size(); ++i) {
        if (!Sub(*o.elements[i], *t.elements[i])) return false;
      }
      return true;
    case Kind::kType:
      // PTypeType: Type ⊒ any Type; Type[T] ⊒ Type[U] when T ⊒ U.
      return o.kind == Kind::kType &&
             (t.elements.empty() ||
              (!o.elements.empty() && Sub(*t.elements[0], *o.elements[0])));
    case Kind::kIterable: {
      // PIterableType: with no element type (or one Any fits), any
      // iterable type; else T ⊒ the element type of o's iterable_type.
      if (t.elements.empty() || Sub(*t.elements[0], AnyType())) {
        return IsIterable(o);
      }
      if (!IsIterable(o)) return false;
      TypePtr element = IterableElement(o);
      return element != nullptr && Sub(*t.elements[0], *element);
    }
    case Kind::kIterator:
      return o.kind == Kind::kIterator &&
             (t.elements.empty() ||
              Sub(*t.elements[0],
                  o.elements.empty() ? AnyType() : *o.elements[0]));
    case Kind::kInit: {
      // PInitType: Init[T] ⊒ Init[U] when T ⊒ U; a bare Init is RichData;
      // else T, or what T.new takes (one argument, an argument list, or
      // the one argument of a signature with optional others).
      if (o.kind == Kind::kInit) {
        return t.elements.empty() ||
               (!o.elements.empty() && Sub(*t.elements[0], *o.elements[0]));
      }
      if (t.elements.empty()) return Sub(RichDataVariant(), o);
      if (Sub(*t.elements[0], o)) return true;
      for (const TypePtr& single : t.init_single) {
        if (Sub(*single, o)) return true;
      }
      for (const TypePtr& other : t.init_other) {
        if (Sub(*other, o)) return true;
      }
      if (t.init_optional_single) {
        PuppetType tuple;
        tuple.kind = Kind::kTuple;
        tuple.elements = {Borrowed(o)};
        for (const TypePtr& other : t.init_other) {
          if (Sub(*other, tuple)) return true;
        }
      }
      return false;
    }
    case Kind::kRuntime: {
      // PRuntimeType: the same runtime, and the same class name or
      // pattern (Ruby's class hierarchy is not known here).
      if (o.kind != Kind::kRuntime) return false;
      if (t.params.empty()) return true;
      return t.params == o.params;
    }
    case Kind::kCatalogEntry:
      return o.kind == Kind::kCatalogEntry || o.kind == Kind::kClass ||
             o.kind == Kind::kResource;
    case Kind::kClass:
      return o.kind == Kind::kClass &&
             (t.params.empty() || t.params == o.params);
    case Kind::kResource: {
      // PResourceType: type names compare lower-cased, then the title.
      if (o.kind != Kind::kResource) return false;
      if (t.params.empty()) return true;
      if (o.params.empty() || Lower(t.params[0]) != Lower(o.params[0])) {
        return false;
      }
      return t.params.size() < 2 ||
             (o.params.size() == 2 && t.params[1] == o.params[1]);
    }
    case Kind::kSemVer: {
      // PSemVerType: each of o's ranges within one of t's, merged.
      if (o.kind != Kind::kSemVer) return false;
      if (t.params.empty()) return true;
      if (o.params.empty()) return false;
      return RangesCover(t.params, o.params);
    }
    case Kind::kSemVerRange: return o.kind == Kind::kSemVerRange;
    case Kind::kBinary: return o.kind == Kind::kBinary;
    case Kind::kTimespan:
    case Kind::kTimestamp:
      // PAbstractTimeDataType: o's range (in seconds) lies in t's.
      return o.kind == t.kind && RangeWithin(t, o);
    case Kind::kUri:
      // PURIType: URI ⊒ every URI; else o has each of t's parts, and its
      // value matches t's (a literal is equal, an instance of t's type, or
      // a type t's type is assignable from).
      if (o.kind != Kind::kUri) return false;
      for (const StructMember& m : t.members) {
        std::optional<std::size_t> at = o.member_index.Find(m.key);
        if (!at || !Sub(*m.type, *o.members[*at].type)) return false;
      }
      return true;
    case Kind::kObject:
      // PObjectType: Object ⊒ every Object type; else o or one of its
      // parents is t.
      if (o.kind != Kind::kObject) return false;
      if (t.params.empty() && !t.value) return true;
      {
        const PuppetType* p = &o;
        for (int i = 0; i < kMaxDepth && p->kind == Kind::kObject; ++i) {
          if (SameObject(t, *p)) return true;
          if (p->elements.empty()) return false;
          p = Resolved(*p->elements[0]);
        }
      }
      return false;
    case Kind::kTypeSet:
      return o.kind == Kind::kTypeSet && (t.params.empty() || t.text == o.text);
    case Kind::kRichData: return true;  // o is RichData too (Sub)
    case Kind::kTypeReference:
      // PTypeReferenceType: only the same reference.
      return o.kind == Kind::kTypeReference && t.text == o.text;
    default: return false;
  }
}

}  // namespace

Result<TypePtr> ParseType(std::string_view text, const AliasesPtr& aliases) {
  Result<TypePtr> r = Parser(text, aliases.get()).Run();
  if (!r.ok() || !aliases) return r;
  // The root keeps the aliases its nodes may refer to alive.
  auto root = std::make_shared<PuppetType>(**r);
  root->aliases = aliases;
  return TypePtr(std::move(root));
}

namespace {

// Does `t` reach the alias `name` without passing a container (which takes
// one level of the value)? Such an alias could never be resolved.
bool ReachesBare(const PuppetType& t, const Aliases& aliases,
                 const std::string& name, int depth) {
  if (depth > kMaxDepth) return true;
  switch (t.kind) {
    case Kind::kAlias: {
      if (t.alias == name) return true;
      auto it = aliases.by_name.find(t.alias);
      return it != aliases.by_name.end() &&
             ReachesBare(*it->second, aliases, name, depth + 1);
    }
    case Kind::kVariant:
    case Kind::kOptional:
    case Kind::kNotUndef:
    case Kind::kInit:
      for (const TypePtr& e : t.elements) {
        if (ReachesBare(*e, aliases, name, depth + 1)) return true;
      }
      return false;
    default: return false;
  }
}

bool IsSpaceOrComment(std::string_view text, std::size_t* i) {
  bool any = false;
  while (*i < text.size()) {
    char c = text[*i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';') {
      ++*i;
    } else if (c == '#') {
      while (*i < text.size() && text[*i] != '\n') ++*i;
    } else {
      break;
    }
    any = true;
  }
  return any;
}

}  // namespace

Result<AliasesPtr> ParseAliases(const std::vector<std::string>& definitions) {
  auto aliases = std::make_shared<Aliases>();
  // Each definition: [type] Name = <type text>. The names first, so that
  // aliases may refer to later ones and to themselves.
  struct Def {
    std::string name;
    std::string_view body;  ///< from the type on, of `text`
    const std::string* text;
  };
  std::vector<Def> defs;
  for (const std::string& text : definitions) {
    std::size_t i = 0;
    for (;;) {
      IsSpaceOrComment(text, &i);
      if (i >= text.size()) break;
      if (text.compare(i, 5, "type ") == 0) i += 5;
      IsSpaceOrComment(text, &i);
      std::size_t start = i;
      while (i < text.size() && ((text[i] >= 'a' && text[i] <= 'z') ||
                                 (text[i] >= 'A' && text[i] <= 'Z') ||
                                 (text[i] >= '0' && text[i] <= '9') ||
                                 text[i] == '_' || text[i] == ':')) {
        ++i;
      }
      std::string name = text.substr(start, i - start);
      if (name.empty() || name[0] < 'A' || name[0] > 'Z') {
        return Status(Errc::kSyntax,
                      "a type alias is `type Name = Type`, with a "
                      "capitalized name (at offset " +
                          std::to_string(start) + ")");
      }
      IsSpaceOrComment(text, &i);
      if (i >= text.size() || text[i] != '=') {
        return Status(Errc::kSyntax,
                      "in the alias " + name + ": expected '=' after the name");
      }
      ++i;
      std::string lower = Lower(name);
      if (aliases->by_name.count(lower) != 0) {
        return Status(Errc::kSyntax, "the alias " + name + " is defined twice");
      }
      aliases->by_name.emplace(lower, nullptr);
      aliases->spelled.emplace(lower, name);
      defs.push_back({name, std::string_view(text).substr(i), &text});
      // The body ends where one type ends: find it by parsing.
      Parser probe(std::string_view(text).substr(i), aliases.get());
      if (!probe.ParseOne()) {
        return Status(Errc::kSyntax,
                      "in the alias " + name + ": " + probe.error());
      }
      defs.back().body = std::string_view(text).substr(i, probe.pos());
      i += probe.pos();
    }
  }
  for (const Def& d : defs) {
    Result<TypePtr> body = Parser(d.body, aliases.get()).Run();
    if (!body.ok()) {
      return Status(Errc::kSyntax,
                    "in the alias " + d.name + ": " + body.status().message());
    }
    aliases->by_name[Lower(d.name)] = *body;
  }
  for (const Def& d : defs) {
    std::string lower = Lower(d.name);
    if (ReachesBare(*aliases->by_name[lower], *aliases, lower, 0)) {
      return Status(Errc::kSyntax, "the alias " + d.name +
                                       " refers to itself outside a "
                                       "container and cannot be resolved");
    }
  }
  return AliasesPtr(std::move(aliases));
}

bool IsAssignable(const PuppetType& type, const PuppetType& other) {
  return Sub(type, other);
}

// --- infer and common_type (type_calculator.rb) ----------------------------

namespace {

std::shared_ptr<PuppetType> Made(Kind kind, std::string text) {
  auto t = std::make_shared<PuppetType>();
  t->kind = kind;
  t->text = std::move(text);
  return t;
}

// type_calculator.rb common_type: the narrowest type both `a` and `b` are
// assignable to, among those Puppet tries in turn.
TypePtr Common(const TypePtr& a, const TypePtr& b) {
  static const TypePtr kNumeric = Static("Numeric");
  static const TypePtr kScalarData = Static("ScalarData");
  static const TypePtr kScalar = Static("Scalar");
  static const TypePtr kData = Static("Data");
  static const TypePtr kRichData = Static("RichData");
  static const TypePtr kAny = Static("Any");
  // is_pnil?: Undef gives way, as does Unit.
  if (a->kind == Kind::kUndef || a->kind == Kind::kUnit) return b;
  if (b->kind == Kind::kUndef || b->kind == Kind::kUnit) return a;
  if (Sub(*a, *b)) return a;
  if (Sub(*b, *a)) return b;
  if (a->kind == b->kind) {
    switch (a->kind) {
      case Kind::kArray: {
        auto t = Made(Kind::kArray, "Array");
        t->elements = {Common(a->elements.empty() ? kAny : a->elements[0],
                              b->elements.empty() ? kAny : b->elements[0])};
        return t;
      }
      case Kind::kHash: {
        if (a->elements.empty() || b->elements.empty()) return Static("Hash");
        auto t = Made(Kind::kHash, "Hash");
        t->elements = {Common(a->elements[0], b->elements[0]),
                       Common(a->elements[1], b->elements[1])};
        return t;
      }
      case Kind::kInteger:
      case Kind::kFloat: {
        // The common range.
        auto t = Made(a->kind, a->kind == Kind::kInteger ? "Integer" : "Float");
        if (a->from && b->from) {
          t->from =
              json::CompareNumbers(*a->from, *b->from) <= 0 ? a->from : b->from;
        }
        if (a->to && b->to) {
          t->to = json::CompareNumbers(*a->to, *b->to) >= 0 ? a->to : b->to;
        }
        return t;
      }
      case Kind::kType: {
        auto t = Made(Kind::kType, "Type");
        if (!a->elements.empty() && !b->elements.empty()) {
          t->elements = {Common(a->elements[0], b->elements[0])};
        }
        return t;
      }
      default: break;
    }
  }
  // Strings and Enums: an Enum of both sets of values.
  auto values = [](const PuppetType& t, std::vector<std::string>* out) {
    if (t.kind == Kind::kString && t.value) {
      out->push_back(*t.value);
      return true;
    }
    if (t.kind == Kind::kEnum && !t.case_insensitive) {
      out->insert(out->end(), t.enum_values.begin(), t.enum_values.end());
      return true;
    }
    return false;
  };
  std::vector<std::string> both;
  if ((a->kind == Kind::kString || a->kind == Kind::kEnum) &&
      (b->kind == Kind::kString || b->kind == Kind::kEnum)) {
    if (!values(*a, &both) || !values(*b, &both)) {
      return a->kind == Kind::kString && b->kind == Kind::kString
                 ? StaticString()
                 : Static("Enum");
    }
    auto t = Made(Kind::kEnum, "Enum");
    std::unordered_set<std::string> seen;
    for (std::string& v : both) {
      if (seen.insert(v).second) t->enum_values.push_back(std::move(v));
    }
    return t;
  }
  if (a->kind == Kind::kVariant && b->kind == Kind::kVariant) {
    auto t = Made(Kind::kVariant, "Variant");
    t->elements = a->elements;
    t->elements.insert(t->elements.end(), b->elements.begin(),
                       b->elements.end());
    return t;
  }
  if (a->kind == b->kind &&
      (a->kind == Kind::kRegexp || a->kind == Kind::kCallable)) {
    return Static(a->kind == Kind::kRegexp ? "Regexp" : "Callable");
  }
  // The abstract types, from the most specific.
  for (const TypePtr& common : {kNumeric, kScalarData, kScalar, kData}) {
    if (Sub(*common, *a) && Sub(*common, *b)) return common;
  }
  if (Sub(*kRichData, *a) && Sub(*kRichData, *b)) return kRichData;
  return kAny;
}

}  // namespace

void CommonType::Add(TypePtr t) {
  if (!common_) {
    common_ = std::move(t);
  } else if (growing_ != nullptr && t->kind == Kind::kString && t->value) {
    // An Enum of the strings seen so far takes one more in O(1) (Puppet's
    // union of value lists would make a long array quadratic).
    if (seen_.insert(*t->value).second) {
      growing_->enum_values.push_back(*t->value);
    }
    return;
  } else {
    common_ = Common(common_, t);
  }
  growing_ = nullptr;
  seen_.clear();
  if (common_->kind == Kind::kEnum && !common_->case_insensitive) {
    auto copy = std::make_shared<PuppetType>(*common_);
    seen_.insert(copy->enum_values.begin(), copy->enum_values.end());
    growing_ = copy;
    common_ = std::move(copy);
  }
}

TypePtr Infer(const json::Value& v, json::Arena& arena) {
  Node node = Decode(v, arena);
  switch (node.kind) {
    case PropertyKind::kUnknown: return Made(Kind::kUnit, "Unit");
    case PropertyKind::kNull: return Made(Kind::kUndef, "Undef");
    case PropertyKind::kBool: {
      auto t = Made(Kind::kBoolean, "Boolean");
      t->boolean = v.type == json::Type::kTrue;
      return t;
    }
    case PropertyKind::kNumber: {
      const bool integer = v.raw().find_first_of(".eE") == std::string::npos;
      auto t = Made(integer ? Kind::kInteger : Kind::kFloat,
                    integer ? "Integer" : "Float");
      t->from = std::string(v.raw());
      t->to = t->from;
      return t;
    }
    case PropertyKind::kString: {
      auto t = Made(Kind::kString, "String");
      t->value = v.Str();
      return t;
    }
    case PropertyKind::kSecret: {
      auto t = Made(Kind::kSensitive, "Sensitive");
      if (node.secret_inner != nullptr) {
        t->elements = {Infer(*node.secret_inner, arena)};
      }
      return t;
    }
    default: break;
  }
  // Arrays and objects, and the signature objects (plain Hashes).
  if (v.is_array()) {
    auto t = Made(Kind::kArray, "Array");
    CommonType elements;
    for (const json::Value& e : v.array()) elements.Add(Infer(e, arena));
    t->elements = {elements.result() ? elements.result()
                                     : Made(Kind::kUnit, "Unit")};
    t->min_size = static_cast<std::int64_t>(v.size);
    t->max_size = t->min_size;
    return t;
  }
  if (v.is_object()) {
    auto t = Made(Kind::kHash, "Hash");
    CommonType keys;
    CommonType values;
    for (const json::Member& m : v.object()) {
      keys.Add(Infer(m.key, arena));
      values.Add(Infer(m.value, arena));
    }
    const TypePtr unit = Made(Kind::kUnit, "Unit");
    t->elements = {keys.result() ? keys.result() : unit,
                   values.result() ? values.result() : unit};
    t->min_size = static_cast<std::int64_t>(v.size);
    t->max_size = t->min_size;
    return t;
  }
  return Made(Kind::kAny, "Any");
}

}  // namespace pstate::types::puppet
