#include "base/rfc3339.h"

#include <gtest/gtest.h>

namespace pstate {
namespace {

std::optional<std::string> RoundTrip(std::string_view text) {
  std::optional<GoTime> t = ParseRfc3339(text);
  if (!t) return std::nullopt;
  return FormatRfc3339(*t);
}

TEST(Rfc3339Test, AcceptsWhatGoAccepts) {
  for (const char* s :
       {"2024-01-02T03:04:05Z", "2024-01-02T03:04:05.1Z",
        "2024-01-02T03:04:05.123456789Z", "2024-01-02T03:04:05+01:00",
        "2024-01-02T03:04:05.5-07:30", "2024-12-31T23:59:59Z",
        "2024-02-29T00:00:00Z", "2000-02-29T12:00:00Z", "2023-04-30T00:00:00Z",
        "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
        "2024-01-02T03:04:05+23:59",
        // time.Parse's fallback: a one-digit hour, a comma before the
        // fraction, more than nine fraction digits, offsets of 24 hours and
        // of 60 minutes.
        "2024-01-02T3:04:05Z", "2024-01-02T03:04:05,5Z",
        "2024-01-02T03:04:05.1234567891Z", "2024-01-02T03:04:05+24:00",
        "2024-01-02T03:04:05+01:60"}) {
    EXPECT_TRUE(ParseRfc3339(s)) << s;
  }
}

TEST(Rfc3339Test, RejectsWhatGoRejects) {
  for (const char* s :
       {"", "2024-01-02", "2024-01-02T03:04:05", "2024-01-02 03:04:05Z",
        "2024-1-02T03:04:05Z", "2024-01-2T03:04:05Z", "24-01-02T03:04:05Z",
        "+024-01-02T03:04:05Z", "2024-13-02T03:04:05Z", "2024-00-02T03:04:05Z",
        "2024-01-00T03:04:05Z", "2024-01-32T03:04:05Z", "2024-01-02T24:00:00Z",
        "2024-01-02T003:04:05Z", "2024-01-02T03:4:05Z", "2024-01-02T03:04:5Z",
        "2024-01-02T03:60:00Z", "2024-01-02T03:04:60Z", "2024-01-02T03:04:05.Z",
        "2024-01-02T03:04:05.", "2024-01-02T03:04:05+0100",
        "2024-01-02T03:04:05+01", "2024-01-02T03:04:05+1:00",
        "2024-01-02T03:04:05+25:00", "2024-01-02T03:04:05+01:61",
        "2024-01-02T03:04:05+01:00 ", "2024-01-02T03:04:05Zjunk",
        "2024-01-02T03:04:05ZZ", "2024/01/02T03:04:05Z", "x024-01-02T03:04:05Z",
        "2024-01-02T03:04:05 Z", "2024-01-02t03:04:05Z", "2024-01-02T03:04:05z",
        // UnmarshalJSON does not unescape: "\u005a" is no Z.
        "2024-01-02T03:04:05\\u005a"}) {
    EXPECT_FALSE(ParseRfc3339(s)) << s;
  }
}

TEST(Rfc3339Test, DayMustExistInTheMonth) {
  // Go: "day out of range".
  for (const char* s :
       {"2023-02-29T00:00:00Z", "2024-02-30T00:00:00.000+00:00",
        "1900-02-29T00:00:00Z", "2024-04-31T00:00:00Z", "2024-06-31T00:00:00Z",
        "2024-09-31T00:00:00Z", "2024-11-31T00:00:00Z"}) {
    EXPECT_FALSE(ParseRfc3339(s)) << s;
  }
  EXPECT_TRUE(ParseRfc3339("2024-01-31T00:00:00Z"));
  EXPECT_TRUE(ParseRfc3339("2024-03-31T00:00:00Z"));
  EXPECT_TRUE(ParseRfc3339("2000-02-29T00:00:00Z"));
  EXPECT_TRUE(ParseRfc3339("0000-02-29T00:00:00Z"));
}

TEST(Rfc3339Test, Fields) {
  std::optional<GoTime> t =
      ParseRfc3339("2019-05-30T15:54:35.8128170009-07:30");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->year, 2019);
  EXPECT_EQ(t->month, 5);
  EXPECT_EQ(t->day, 30);
  EXPECT_EQ(t->hour, 15);
  EXPECT_EQ(t->minute, 54);
  EXPECT_EQ(t->second, 35);
  EXPECT_EQ(t->nanos, 812817000);  // cut, not rounded
  EXPECT_EQ(t->offset_seconds, -(7 * 3600 + 30 * 60));
}

TEST(Rfc3339Test, Instants) {
  EXPECT_EQ(ParseRfc3339("1970-01-01T00:00:00Z")->UnixSeconds(), 0);
  EXPECT_EQ(ParseRfc3339("1970-01-01T01:00:00+01:00")->UnixSeconds(), 0);
  EXPECT_EQ(ParseRfc3339("1969-12-31T23:59:59Z")->UnixSeconds(), -1);
  EXPECT_EQ(ParseRfc3339("2000-03-01T00:00:00Z")->UnixSeconds(), 951868800);
  EXPECT_EQ(ParseRfc3339("0000-01-01T00:00:00Z")->UnixSeconds(), -62167219200);
  auto a = ParseRfc3339("2024-01-02T03:04:05Z");
  auto b = ParseRfc3339("2024-01-02T04:04:05+01:00");
  auto c = ParseRfc3339("2024-01-02T03:04:05.000Z");
  auto d = ParseRfc3339("2024-01-02T03:04:05.5Z");
  EXPECT_TRUE(a->SameInstant(*b));
  EXPECT_TRUE(a->SameInstant(*c));
  EXPECT_FALSE(a->SameInstant(*d));
}

TEST(Rfc3339Test, FormatsAsMarshalJsonDoes) {
  EXPECT_EQ(RoundTrip("2026-01-01T00:00:00+00:00"), "2026-01-01T00:00:00Z");
  EXPECT_EQ(RoundTrip("2026-01-01T00:00:00-00:00"), "2026-01-01T00:00:00Z");
  EXPECT_EQ(RoundTrip("2019-05-30T15:54:35.812817000-07:00"),
            "2019-05-30T15:54:35.812817-07:00");
  EXPECT_EQ(RoundTrip("2026-01-01T00:00:00.500Z"), "2026-01-01T00:00:00.5Z");
  EXPECT_EQ(RoundTrip("2026-01-01T00:00:00.000Z"), "2026-01-01T00:00:00Z");
  EXPECT_EQ(RoundTrip("2026-01-01T00:00:00.000000001Z"),
            "2026-01-01T00:00:00.000000001Z");
  EXPECT_EQ(RoundTrip("2026-01-01T00:00:00.1234567890Z"),
            "2026-01-01T00:00:00.123456789Z");
  EXPECT_EQ(RoundTrip("0001-01-01T00:00:00Z"), "0001-01-01T00:00:00Z");
  EXPECT_EQ(RoundTrip("2024-01-02T3:04:05,25+05:30"),
            "2024-01-02T03:04:05.25+05:30");
  EXPECT_EQ(RoundTrip("2024-01-02T03:04:05+01:60"),
            "2024-01-02T03:04:05+02:00");
  EXPECT_EQ(RoundTrip("2024-01-02T03:04:05-23:59"),
            "2024-01-02T03:04:05-23:59");
  // Read, but MarshalJSON fails: "timezone hour outside of range [0,23]".
  EXPECT_EQ(RoundTrip("2024-01-02T03:04:05+24:00"), std::nullopt);
  EXPECT_EQ(RoundTrip("2024-01-02T03:04:05-23:60"), std::nullopt);
}

}  // namespace
}  // namespace pstate
