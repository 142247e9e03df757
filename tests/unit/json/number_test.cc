#include "json/number.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace pstate::json {
namespace {

TEST(NumberTextTest, AcceptsTheJsonGrammarOnly) {
  for (const char* s : {"0", "-0", "1", "-1", "10", "1.5", "0.001", "1e5",
                        "1E5", "1e+5", "1e-5", "-1.25E-007", "123456789"}) {
    EXPECT_TRUE(IsNumberText(s)) << s;
  }
  for (const char* s :
       {"", "-", "+1", "01", "-01", "1.", ".5", "1e", "1e+", "1.e5", "0x10",
        "1 ", " 1", "NaN", "Infinity", "1f", "--1", "1e5.0"}) {
    EXPECT_FALSE(IsNumberText(s)) << s;
  }
}

TEST(NumbersEqualTest, SameValueDifferentSpelling) {
  const std::vector<std::vector<const char*>> groups = {
      {"1", "1.0", "1e0", "10e-1", "0.1e1", "1.000", "100E-2", "1e+0",
       "0.0001e4"},
      {"0", "-0", "0.0", "-0.0", "0e5", "0e-99999999999999999999999", "-0E+1"},
      {"-12.5", "-125e-1", "-1.25e1", "-0.0125e3"},
      {"1e400", "10e399", "0.1e401", "100000e395"},
      {"123000", "1.23e5", "123e3", "123000.000"},
  };
  for (const auto& group : groups) {
    for (const char* a : group) {
      for (const char* b : group) {
        EXPECT_TRUE(NumbersEqual(a, b)) << a << " vs " << b;
        EXPECT_EQ(CompareNumbers(a, b), 0) << a << " vs " << b;
        EXPECT_EQ(CanonicalNumber(a), CanonicalNumber(b)) << a << " " << b;
      }
    }
  }
}

TEST(NumbersEqualTest, ExactNotThroughDouble) {
  EXPECT_FALSE(NumbersEqual("9007199254740993", "9007199254740992"));
  EXPECT_FALSE(NumbersEqual("0.1", "0.1000000000000000055511151231257827"));
  EXPECT_FALSE(NumbersEqual("1e400", "1e401"));
  EXPECT_FALSE(NumbersEqual("1e-400", "0"));
  EXPECT_FALSE(NumbersEqual("1", "-1"));
  EXPECT_FALSE(NumbersEqual("12", "1.2"));
  EXPECT_FALSE(NumbersEqual("1.5", "1.50000000000000000000000000001"));
}

TEST(NumbersEqualTest, HugeExponentsWithoutOverflow) {
  // Exponents beyond int64 are compared exactly.
  EXPECT_TRUE(
      NumbersEqual("1e99999999999999999999999", "10e99999999999999999999998"));
  EXPECT_FALSE(
      NumbersEqual("1e99999999999999999999999", "1e99999999999999999999998"));
  EXPECT_TRUE(NumbersEqual("1e-99999999999999999999999",
                           "0.1e-99999999999999999999998"));
  EXPECT_TRUE(NumbersEqual("1e000000000000000000000000000007", "1e7"));
  // Around the int64/big boundary of the internal exponent.
  EXPECT_TRUE(NumbersEqual("1e1000000000000000000", "10e999999999999999999"));
  EXPECT_TRUE(NumbersEqual("100e999999999999999998", "1e1000000000000000000"));
  EXPECT_TRUE(
      NumbersEqual("0.001e1000000000000000002", "1e999999999999999999"));
  EXPECT_TRUE(
      NumbersEqual("0.01e-999999999999999998", "1e-1000000000000000000"));
  EXPECT_EQ(CompareNumbers("1e1000000000000000000", "9e999999999999999999"), 1);
  EXPECT_EQ(CompareNumbers("1e-1000000000000000000", "9e-999999999999999999"),
            -1);
  EXPECT_EQ(CompareNumbers("-1e99999999999999999999", "-1e9"), -1);
  EXPECT_EQ(CompareNumbers("1e-99999999999999999999", "1e-9"), -1);
  EXPECT_EQ(CompareNumbers("1e-99999999999999999999", "0"), 1);
}

TEST(CompareNumbersTest, Order) {
  // Ascending; every pair must compare consistently.
  const std::vector<const char*> ascending = {"-1e400",
                                              "-1e20",
                                              "-100",
                                              "-99.99",
                                              "-1",
                                              "-0.5",
                                              "-1e-400",
                                              "0",
                                              "1e-400",
                                              "0.001",
                                              "0.5",
                                              "0.51",
                                              "1",
                                              "1.00001",
                                              "9",
                                              "10",
                                              "11",
                                              "99.999",
                                              "100",
                                              "9007199254740992",
                                              "9007199254740993",
                                              "1e20",
                                              "1e400"};
  for (std::size_t i = 0; i < ascending.size(); ++i) {
    for (std::size_t j = 0; j < ascending.size(); ++j) {
      int want = i < j ? -1 : (i > j ? 1 : 0);
      EXPECT_EQ(CompareNumbers(ascending[i], ascending[j]), want)
          << ascending[i] << " vs " << ascending[j];
    }
  }
}

TEST(CompareNumbersTest, NonNumbersSortLastAndEqualOnlyThemselves) {
  EXPECT_EQ(CompareNumbers("1e999", "abc"), -1);
  EXPECT_EQ(CompareNumbers("abc", "1"), 1);
  EXPECT_EQ(CompareNumbers("abc", "abd"), -1);
  EXPECT_EQ(CompareNumbers("abc", "abc"), 0);
  EXPECT_TRUE(NumbersEqual("01", "01"));
  EXPECT_FALSE(NumbersEqual("01", "1"));
  EXPECT_FALSE(NumbersEqual("1", ""));
  EXPECT_EQ(CanonicalNumber("x1"), "x1");
}

TEST(CanonicalNumberTest, Spelling) {
  EXPECT_EQ(CanonicalNumber("0"), "0");
  EXPECT_EQ(CanonicalNumber("-0.000e7"), "0");
  EXPECT_EQ(CanonicalNumber("1"), "1e0");
  EXPECT_EQ(CanonicalNumber("-1.50"), "-1.5e0");
  EXPECT_EQ(CanonicalNumber("150"), "1.5e2");
  EXPECT_EQ(CanonicalNumber("0.00120"), "1.2e-3");
  EXPECT_EQ(CanonicalNumber("9007199254740993"), "9.007199254740993e15");
  EXPECT_EQ(CanonicalNumber("10e399"), "1e400");
  EXPECT_EQ(CanonicalNumber("1E-7"), "1e-7");
  EXPECT_EQ(CanonicalNumber("12e99999999999999999999"),
            "1.2e100000000000000000000");
  EXPECT_EQ(CanonicalNumber("0.012e-99999999999999999999"),
            "1.2e-100000000000000000001");
  // The canonical text is a number of the same value.
  for (const char* s : {"0", "-3.25e-2", "1e400", "12e99999999999999999999"}) {
    std::string c = CanonicalNumber(s);
    EXPECT_TRUE(IsNumberText(c)) << c;
    EXPECT_TRUE(NumbersEqual(c, s)) << c;
    EXPECT_EQ(CanonicalNumber(c), c);
  }
}

TEST(ToDoubleTest, AsGoParseFloat) {
  EXPECT_EQ(ToDouble("0"), 0.0);
  EXPECT_EQ(ToDouble("1.5"), 1.5);
  EXPECT_EQ(ToDouble("-2e3"), -2000.0);
  EXPECT_EQ(ToDouble("0.1"), 0.1);
  EXPECT_EQ(ToDouble("9007199254740993"), 9007199254740992.0);
  EXPECT_EQ(ToDouble("9007199254740995"), 9007199254740996.0);  // ties even
  EXPECT_EQ(ToDouble("1.7976931348623157e308"),
            std::numeric_limits<double>::max());
  EXPECT_EQ(ToDouble("1.7976931348623158e308"),
            std::numeric_limits<double>::max());
  EXPECT_EQ(ToDouble("5e-324"), std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(ToDouble("3e-324"), std::numeric_limits<double>::denorm_min());
  // Negative zero keeps its sign.
  std::optional<double> neg_zero = ToDouble("-0");
  ASSERT_TRUE(neg_zero.has_value());
  EXPECT_TRUE(std::signbit(*neg_zero));
}

TEST(ToDoubleTest, OverflowFailsUnderflowIsZero) {
  EXPECT_EQ(ToDouble("1e400"), std::nullopt);
  EXPECT_EQ(ToDouble("-1e400"), std::nullopt);
  EXPECT_EQ(ToDouble("1.7976931348623159e308"), std::nullopt);
  EXPECT_EQ(ToDouble("1e99999999999999999999"), std::nullopt);
  std::optional<double> tiny = ToDouble("1e-400");
  ASSERT_TRUE(tiny.has_value());
  EXPECT_EQ(*tiny, 0.0);
  EXPECT_FALSE(std::signbit(*tiny));
  std::optional<double> neg_tiny = ToDouble("-2e-324");
  ASSERT_TRUE(neg_tiny.has_value());
  EXPECT_EQ(*neg_tiny, 0.0);
  EXPECT_TRUE(std::signbit(*neg_tiny));
  EXPECT_EQ(ToDouble("1e-99999999999999999999"), 0.0);
}

TEST(ToDoubleTest, NotNumbers) {
  EXPECT_EQ(ToDouble(""), std::nullopt);
  EXPECT_EQ(ToDouble("Infinity"), std::nullopt);
  EXPECT_EQ(ToDouble("nan"), std::nullopt);
  EXPECT_EQ(ToDouble("0x1p3"), std::nullopt);
  EXPECT_EQ(ToDouble("1 "), std::nullopt);
}

TEST(GoFloatTextTest, KnownGoOutputs) {
  // Outputs of Go's json.Marshal(float64(x)).
  EXPECT_EQ(GoFloatText(1e21), "1e+21");
  EXPECT_EQ(GoFloatText(1e20), "100000000000000000000");
  EXPECT_EQ(GoFloatText(0.000001), "0.000001");
  EXPECT_EQ(GoFloatText(1e-7), "1e-7");
  EXPECT_EQ(GoFloatText(1.5), "1.5");
  EXPECT_EQ(GoFloatText(-0.0), "-0");
  EXPECT_EQ(GoFloatText(0.0), "0");
  EXPECT_EQ(GoFloatText(9007199254740993.0), "9007199254740992");
  EXPECT_EQ(GoFloatText(1), "1");
  EXPECT_EQ(GoFloatText(-1), "-1");
  EXPECT_EQ(GoFloatText(0.1), "0.1");
  EXPECT_EQ(GoFloatText(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(GoFloatText(123456789.125), "123456789.125");
  EXPECT_EQ(GoFloatText(1.5e-10), "1.5e-10");
  EXPECT_EQ(GoFloatText(-1.5e-7), "-1.5e-7");
  EXPECT_EQ(GoFloatText(1e100), "1e+100");
  EXPECT_EQ(GoFloatText(1.2345e25), "1.2345e+25");
  EXPECT_EQ(GoFloatText(5e-324), "5e-324");
  EXPECT_EQ(GoFloatText(1e-300), "1e-300");
  EXPECT_EQ(GoFloatText(std::numeric_limits<double>::max()),
            "1.7976931348623157e+308");
  // Plain form pads the shortest digits with zeros, never the exact binary
  // value: 123456789012345678901 is 123456789012345683968 as a double.
  EXPECT_EQ(GoFloatText(123456789012345678901.0), "123456789012345680000");
  EXPECT_EQ(GoFloatText(999999999999999999999.0), "1e+21");
  EXPECT_EQ(GoFloatText(9.99999999999999e20), "999999999999999000000");
  EXPECT_EQ(GoFloatText(0.00000123), "0.00000123");
  EXPECT_EQ(GoFloatText(9.99999e-7), "9.99999e-7");
  EXPECT_EQ(GoFloatText(12345.678), "12345.678");
  EXPECT_EQ(GoFloatText(100), "100");
}

TEST(GoFloatTextTest, NonFiniteIsEmpty) {
  EXPECT_EQ(GoFloatText(std::numeric_limits<double>::infinity()), "");
  EXPECT_EQ(GoFloatText(-std::numeric_limits<double>::infinity()), "");
  EXPECT_EQ(GoFloatText(std::numeric_limits<double>::quiet_NaN()), "");
}

TEST(GoFloatTextTest, ReadsBackAsTheSameDouble) {
  for (double d : {0.1, 1.0 / 3, 2.0 / 3e10, 6.02214076e23, 1e-6, 1e21,
                   4.9e-324, 2.2250738585072014e-308, 123.456e-5}) {
    std::string text = GoFloatText(d);
    EXPECT_TRUE(IsNumberText(text)) << text;
    EXPECT_EQ(ToDouble(text), d) << text;
    EXPECT_EQ(GoFloatText(-d), "-" + text);
  }
}

TEST(IsExactFloat64Test, LosslessThroughGo) {
  for (const char* s : {"0", "-0", "1", "1.0", "0.5", "-0.25", "0.125", "1.5e3",
                        "9007199254740992", "1e21", "1e22", "1e20",
                        "100000000000000000000", "-1234.5"}) {
    EXPECT_TRUE(IsExactFloat64(s)) << s;
  }
  for (const char* s :
       {"0.1",                     // not a binary fraction
        "0.000001",                // nor this
        "1e23",                    // 5^23 needs more than 53 bits
        "9007199254740993",        // rounds to ...992
        "1180591620717411303424",  // 2^70: exact, Go writes 1.18...e+21
        "1e400",                   // out of range
        "1e-400",                  // underflows to 0
        "0.1000000000000000055511151231257827021181583404541015625",
        "not a number"}) {
    EXPECT_FALSE(IsExactFloat64(s)) << s;
  }
}

TEST(NumberTest, ParseDecimalIsExactDigitsAndExponent) {
  auto check = [](std::string_view text, bool negative, std::string digits,
                  std::int64_t exponent) {
    ExactDecimal d = ParseDecimal(text);
    EXPECT_EQ(d.negative, negative) << text;
    EXPECT_EQ(d.digits, digits) << text;
    EXPECT_EQ(d.exponent, exponent) << text;
  };
  check("0", false, "", 0);
  check("-0.000", true, "", 0);  // a zero keeps its sign
  check("120", false, "12", 1);
  check("-1.50", true, "15", -1);
  check("0.00123e2", false, "123", -3);
  check("9007199254740993", false, "9007199254740993", 0);
  check("1e400", false, "1", 400);
  check("12e-400", false, "12", -400);
  // Beyond the limit the exponent is clamped (of the first digit).
  check("1e99999999999999999999", false, "1", kDecimalExponentLimit);
  check("25e-99999999999999999999", false, "25", -kDecimalExponentLimit - 1);
  check("not a number", false, "", 0);
}

}  // namespace
}  // namespace pstate::json
