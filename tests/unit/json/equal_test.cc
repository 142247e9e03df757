#include "json/equal.h"

#include <gtest/gtest.h>

#include <string>
#include <unordered_set>
#include <vector>

#include "json/parser.h"

namespace pstate::json {
namespace {

class EqualTest : public ::testing::Test {
 protected:
  Value P(std::string_view text) {
    Parser parser;
    Value v;
    EXPECT_EQ(parser.ParseDocument(text, 0, arena_, &v), ParseStatus::kOk)
        << parser.error().message << " in " << text;
    return v;
  }
  void ExpectEqual(std::string_view a, std::string_view b) {
    Value x = P(a);
    Value y = P(b);
    EXPECT_TRUE(Equal(x, y)) << a << " vs " << b;
    EXPECT_TRUE(Equal(y, x)) << b << " vs " << a;
    EXPECT_EQ(Hash(x), Hash(y)) << a << " vs " << b;
  }
  void ExpectDifferent(std::string_view a, std::string_view b) {
    Value x = P(a);
    Value y = P(b);
    EXPECT_FALSE(Equal(x, y)) << a << " vs " << b;
    EXPECT_FALSE(Equal(y, x)) << b << " vs " << a;
    // Not guaranteed in general, but these small cases must not collide.
    EXPECT_NE(Hash(x), Hash(y)) << a << " vs " << b;
  }

  Arena arena_;
};

TEST_F(EqualTest, Scalars) {
  ExpectEqual("null", "null");
  ExpectEqual("true", " true");
  ExpectEqual("false", "false");
  ExpectDifferent("true", "false");
  ExpectDifferent("null", "false");
  ExpectDifferent("null", "0");
  ExpectDifferent("null", R"("")");
  ExpectDifferent("[]", "{}");
  ExpectDifferent("[]", "null");
}

TEST_F(EqualTest, BoolNeverEqualsNumberOrString) {
  ExpectDifferent("true", "1");
  ExpectDifferent("false", "0");
  ExpectDifferent("true", R"("true")");
  ExpectDifferent("1", R"("1")");
}

TEST_F(EqualTest, NumbersByExactValue) {
  ExpectEqual("1", "1.0");
  ExpectEqual("1", "1e0");
  ExpectEqual("1", "10e-1");
  ExpectEqual("-0", "0");
  ExpectEqual("1e400", "10e399");
  ExpectEqual("[1.50, 2]", "[1.5, 2E0]");
  ExpectDifferent("9007199254740993", "9007199254740992");
  ExpectDifferent("1", "-1");
  ExpectDifferent("0.1", "0.10000000000000001");
}

TEST_F(EqualTest, StringsAfterUnescaping) {
  ExpectEqual(R"("A")", R"("\u0041")");
  ExpectEqual(R"("\u0041")", R"("\u0041")");
  ExpectEqual(R"("a/b")", R"("a\/b")");
  ExpectEqual(R"("\u00e9")", "\"\xC3\xA9\"");
  ExpectEqual(R"("\n")", R"("\u000a")");
  ExpectEqual(R"("\ud83d\ude00")", "\"\xF0\x9F\x98\x80\"");
  // A lone surrogate decodes to U+FFFD, as in Go.
  ExpectEqual(R"("\ud800")", R"("\ufffd")");
  ExpectDifferent(R"("a")", R"("A")");
  ExpectDifferent(R"("\u0041")", R"("\u0042")");
  ExpectDifferent(R"("\\u0041")", R"("A")");
  ExpectDifferent(R"("")", R"(" ")");
}

TEST_F(EqualTest, ArraysInOrder) {
  ExpectEqual("[]", "[ ]");
  ExpectEqual("[1,[2,[3]]]", "[1.0,[2e0,[30e-1]]]");
  ExpectDifferent("[1,2]", "[2,1]");
  ExpectDifferent("[1]", "[1,1]");
  ExpectDifferent("[[]]", "[]");
}

TEST_F(EqualTest, ObjectsUnordered) {
  ExpectEqual("{}", "{ }");
  ExpectEqual(R"({"a":1,"b":2})", R"({"b":2,"a":1})");
  ExpectEqual(R"({"a":{"x":[1,{"y":null}]},"b":"s"})",
              R"({"b":"\u0073","a":{"x":[1.0,{"y":null}]}})");
  ExpectEqual(R"({"\u0061":1})", R"({"a":1})");
  ExpectDifferent(R"({"a":1})", R"({"a":2})");
  ExpectDifferent(R"({"a":1})", R"({"b":1})");
  ExpectDifferent(R"({"a":1})", R"({"a":1,"b":1})");
  ExpectDifferent(R"({"a":null})", "{}");
}

TEST_F(EqualTest, DuplicateKeysLastWins) {
  ExpectEqual(R"({"a":1,"a":2})", R"({"a":2})");
  ExpectEqual(R"({"a":1,"b":0,"a":2})", R"({"b":0,"a":2})");
  ExpectEqual(R"({"a":1,"\u0061":2})", R"({"a":2})");
  ExpectEqual(R"({"a":1,"a":2})", R"({"a":3,"a":2})");
  ExpectEqual(R"({"a":1,"a":1})", R"({"a":1})");
  ExpectDifferent(R"({"a":2,"a":1})", R"({"a":2})");
  ExpectDifferent(R"({"a":1,"a":2})", R"({"a":1})");
  ExpectDifferent(R"({"a":1,"a":2,"b":3})", R"({"a":2,"a":2})");
}

/// An object of `n` members "k0".."k<n-1>" in the given order, values
/// i * `scale` written as `scale_text`-style decimals, plus optional extra
/// text before the closing brace.
std::string BigObject(const std::vector<int>& order, bool escaped_first,
                      int changed = -1, std::string extra = "") {
  std::string s = "{";
  for (std::size_t i = 0; i < order.size(); ++i) {
    int k = order[i];
    if (i > 0) s += ",";
    std::string key = "k" + std::to_string(k);
    if (escaped_first && k == 0) key = "\\u006b0";
    s += "\"" + key + "\":" + std::to_string(k == changed ? -1 : k) + ".0";
  }
  s += extra;
  s += "}";
  return s;
}

TEST_F(EqualTest, LargeObjects) {
  std::vector<int> forward;
  std::vector<int> backward;
  for (int i = 0; i < 40; ++i) forward.push_back(i);
  for (int i = 39; i >= 0; --i) backward.push_back(i);
  ExpectEqual(BigObject(forward, false), BigObject(backward, true));
  ExpectEqual(BigObject(forward, false), BigObject(forward, true));
  ExpectDifferent(BigObject(forward, false), BigObject(backward, false, 17));
  // A shadowed duplicate in a large object.
  ExpectEqual(BigObject(forward, false, 5, R"(,"k5":5)"),
              BigObject(backward, false));
  ExpectDifferent(BigObject(forward, false, -1, R"(,"k5":6)"),
                  BigObject(backward, false));
  // One key more.
  ExpectDifferent(BigObject(forward, false, -1, R"(,"z":1)"),
                  BigObject(backward, false));
  // Large against small with the same distinct members.
  std::string dup_heavy = "{";
  for (int i = 0; i < 30; ++i) dup_heavy += "\"a\":" + std::to_string(i) + ",";
  dup_heavy += "\"a\":7}";
  ExpectEqual(dup_heavy, R"({"a":7.0})");
  ExpectDifferent(dup_heavy, R"({"a":29})");
}

TEST_F(EqualTest, SharedStorageShortcut) {
  Value v = P(R"({"a":[1,2,{"b":"c"}]})");
  Value copy = v;
  EXPECT_TRUE(Equal(v, copy));
  EXPECT_EQ(Hash(v), Hash(copy));
}

TEST_F(EqualTest, BuiltValuesCompareWithParsedOnes) {
  Value elements[] = {arena_.MakeNumber("2.0"), arena_.MakeString("\xC3\xA9"),
                      MakeBool(false), MakeNull()};
  Member members[] = {{arena_.MakeString("x"), arena_.MakeArray(elements)}};
  Value built = arena_.MakeObject(members);
  Value parsed = P(R"({"x":[2,"\u00e9",false,null]})");
  EXPECT_TRUE(Equal(built, parsed));
  EXPECT_EQ(Hash(built), Hash(parsed));
}

TEST_F(EqualTest, HashSpreadsAndWorksInContainers) {
  std::unordered_set<Value, ValueHash, ValueEqual> set;
  for (const char* text :
       {"1", "1.0", "\"1\"", "true", "null", "[1]", "[1.0]", "{\"a\":1}",
        "{\"a\":1e0}", "{\"b\":1}", "[]", "{}", "\"\"", "0", "-0"}) {
    set.insert(P(text));
  }
  // 1/1.0, [1]/[1.0], {"a":1}/{"a":1e0}, 0/-0 collapse.
  EXPECT_EQ(set.size(), 11u);
  // Order-independent object hash, but structure-sensitive.
  EXPECT_EQ(Hash(P(R"({"a":1,"b":2})")), Hash(P(R"({"b":2,"a":1})")));
  EXPECT_NE(Hash(P(R"({"a":1,"b":2})")), Hash(P(R"({"a":2,"b":1})")));
  EXPECT_NE(Hash(P("[1,2]")), Hash(P("[2,1]")));
  EXPECT_NE(Hash(P("[[1],2]")), Hash(P("[[1,2]]")));
  EXPECT_NE(Hash(P(R"({"a":{}})")), Hash(P(R"({"a":[]})")));
  // Deterministic.
  EXPECT_EQ(Hash(P("[1,\"x\",{\"k\":null}]")),
            Hash(P("[1,\"x\",{\"k\":null}]")));
}

}  // namespace
}  // namespace pstate::json
