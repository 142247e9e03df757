// RFC 3339 times exactly as Go reads and writes them in JSON: every time in
// a Pulumi state (the manifest's "time", a resource's "created" and
// "modified") is a time.Time that encoding/json decodes with
// Time.UnmarshalJSON and encodes with Time.MarshalJSON.
#ifndef PSTATE_BASE_RFC3339_H_
#define PSTATE_BASE_RFC3339_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pstate {

/// What Go's time.Time holds after parsing RFC 3339 text: the wall clock as
/// written and the offset it was written with.
struct GoTime {
  int year = 0;  ///< 0 to 9999
  int month = 1, day = 1, hour = 0, minute = 0, second = 0;
  std::int32_t nanos = 0;           ///< the fraction, cut after 9 digits
  std::int32_t offset_seconds = 0;  ///< east of UTC; 0 for 'Z'

  /// Seconds since 1970-01-01T00:00:00Z of the instant.
  std::int64_t UnixSeconds() const;
  /// True when both denote the same instant (offsets may differ).
  bool SameInstant(const GoTime& other) const {
    return UnixSeconds() == other.UnixSeconds() && nanos == other.nanos;
  }
};

/// Parses `text` as Go's Time.UnmarshalJSON does (time/format_rfc3339.go,
/// parseStrictRFC3339): the fast parseRFC3339 and, when that fails,
/// time.Parse(time.RFC3339, text), whose extra RFC 3339 checks are disabled
/// in Go ("Strict parsing is disabled for now"). What both accept together:
///   YYYY-MM-DDTHH:MM:SS[.F](Z|+hh:mm|-hh:mm)
/// - exactly 4 year digits and 2 month, day, minute and second digits; the
///   hour may have 1 or 2 (time.Parse's "15" takes either);
/// - month 1-12, day 1 to the days of that month (leap years: divisible by
///   4, not by 100 unless by 400), hour 0-23, minute and second 0-59;
/// - 'T' and 'Z' upper case only;
/// - the fraction: '.' or ',' and one or more digits, any number of them,
///   of which the first 9 count (the rest are dropped, not rounded);
/// - the offset: two digits, ':', two digits, hours at most 24 and minutes
///   at most 60 (time.Parse allows 24 and 60, "as some people do write
///   offsets of 24 hours or 60 minutes").
/// `text` is the JSON string as stored, between the quotes: UnmarshalJSON
/// does not unescape it, so text with an escape is never a time.
std::optional<GoTime> ParseRfc3339(std::string_view text);

/// The text Go's Time.MarshalJSON writes for `time` (RFC3339Nano through
/// appendStrictRFC3339): the fraction without trailing zeros and without
/// the '.' when it is zero, a zero offset as "Z", any other as ±hh:mm.
/// nullopt when MarshalJSON fails: an offset of 24 hours or more.
std::optional<std::string> FormatRfc3339(const GoTime& time);

}  // namespace pstate

#endif  // PSTATE_BASE_RFC3339_H_
