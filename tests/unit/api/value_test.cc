// pstate::Value: a hidden secret, a string that reads "[secret]" and a shown
// secret are three different values, in show's and diff's results alike.
#include <gtest/gtest.h>

#include <string>

#include "pstate/pstate.h"

namespace pstate {
namespace {

constexpr std::string_view kSig =
    R"("4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270")";

/// An export with a b64 secrets provider and one resource whose outputs
/// are `outputs` (a JSON object's members).
std::string StateWith(const std::string& outputs) {
  return R"({"version":3,"deployment":{"manifest":{"time":)"
         R"("2024-01-01T00:00:00Z","magic":"","version":"v3.100.0"},)"
         R"("secrets_providers":{"type":"b64"},"resources":[)"
         R"({"urn":"urn:pulumi:dev::p::t:m:R::r","custom":true,"id":"r1",)"
         R"("type":"t:m:R","outputs":{)" +
         outputs + "}}]}}";
}

// "hidden": a ciphertext (b64 of "a"), "literal": the string "[secret]",
// "plain": a secret in the plaintext form (its value "b").
std::string ThreeValues() {
  return StateWith(R"("hidden":{)" + std::string(kSig) +
                   R"(,"ciphertext":"ImEi"},"literal":"[secret]",)"
                   R"("plain":{)" +
                   std::string(kSig) + R"(,"plaintext":"\"b\""})");
}

State FromBytes(std::string bytes) {
  Result<State> state = State::FromBytes(std::move(bytes));
  EXPECT_TRUE(state.ok()) << state.status().message();
  return std::move(state).value();
}

const Value& Member(const Value& object, std::string_view key) {
  for (const ValueMember& m : object.members) {
    if (m.key == key) return m.value;
  }
  ADD_FAILURE() << "no member " << key;
  static const Value kNone;
  return kNone;
}

Value String(std::string text) {
  Value v;
  v.kind = ValueKind::kString;
  v.text = std::move(text);
  return v;
}

TEST(ValueTest, ShowKeepsHiddenLiteralAndShownSecretsApart) {
  State state = FromBytes(ThreeValues());
  ShowConfig config;
  config.urn = "urn:pulumi:dev::p::t:m:R::r";
  Result<ShowResult> closed = Show(state, config);
  ASSERT_TRUE(closed.ok()) << closed.status().message();
  ASSERT_TRUE(closed->outputs.has_value());
  ASSERT_EQ(closed->outputs->kind, ValueKind::kObject);
  const Value& hidden = Member(*closed->outputs, "hidden");
  const Value& literal = Member(*closed->outputs, "literal");
  EXPECT_TRUE(hidden.hidden());
  EXPECT_TRUE(Member(*closed->outputs, "plain").hidden());
  EXPECT_EQ(literal.kind, ValueKind::kString);
  EXPECT_EQ(literal.Str(), "[secret]");
  EXPECT_FALSE(literal.hidden());
  EXPECT_NE(hidden, literal);

  config.show_secrets = true;
  Result<ShowResult> open = Show(state, config);
  ASSERT_TRUE(open.ok()) << open.status().message();
  ASSERT_TRUE(open->outputs.has_value());
  const Value& shown = Member(*open->outputs, "hidden");
  ASSERT_EQ(shown.kind, ValueKind::kSecret);
  ASSERT_FALSE(shown.hidden());
  EXPECT_EQ(shown.elements.at(0), String("a"));
  const Value& plain = Member(*open->outputs, "plain");
  ASSERT_FALSE(plain.hidden());
  EXPECT_EQ(plain.elements.at(0).Str(), "b");
  EXPECT_EQ(Member(*open->outputs, "literal"), literal);
  // Three different values.
  EXPECT_NE(shown, hidden);
  EXPECT_NE(shown, literal);
  EXPECT_NE(shown, String("a"));  // a shown secret is still a secret
}

TEST(ValueTest, DiffKeepsHiddenLiteralAndShownSecretsApart) {
  State before = FromBytes(StateWith(R"("keep":1)"));
  State after = FromBytes(ThreeValues().replace(
      ThreeValues().find(R"("hidden")"), 0, R"("keep":1,)"));
  Result<DiffResult> closed = Diff(before, after);
  ASSERT_TRUE(closed.ok()) << closed.status().message();
  ASSERT_EQ(closed->resources.size(), 1u);
  const std::vector<PropertyChange>& c = closed->resources[0].properties;
  ASSERT_EQ(c.size(), 3u);  // hidden, literal, plain: added
  for (const PropertyChange& p : c) {
    EXPECT_EQ(p.kind, ChangeKind::kAdd) << p.path;
    EXPECT_FALSE(p.before.has_value()) << p.path;  // absent
    ASSERT_TRUE(p.after.has_value()) << p.path;
  }
  EXPECT_EQ(c[0].path, "hidden");
  EXPECT_TRUE(c[0].after->hidden());
  EXPECT_TRUE(c[0].secret);
  EXPECT_EQ(c[1].path, "literal");
  EXPECT_EQ(*c[1].after, String("[secret]"));
  EXPECT_FALSE(c[1].secret);

  DiffConfig config;
  config.show_secrets = true;
  Result<DiffResult> open = Diff(before, after, config);
  ASSERT_TRUE(open.ok()) << open.status().message();
  const std::vector<PropertyChange>& o = open->resources[0].properties;
  ASSERT_EQ(o.size(), 3u);
  ASSERT_EQ(o[0].after->kind, ValueKind::kSecret);
  ASSERT_FALSE(o[0].after->hidden());
  EXPECT_EQ(o[0].after->elements.at(0), String("a"));
  EXPECT_NE(*o[0].after, *c[0].after);
  EXPECT_NE(*o[0].after, *c[1].after);
}

TEST(ValueTest, StringsAndNumbersKeepTheirStoredText) {
  State state = FromBytes(StateWith(R"("s":"caf\u00e9","n":1.50)"));
  ShowConfig config;
  config.urn = "urn:pulumi:dev::p::t:m:R::r";
  Result<ShowResult> shown = Show(state, config);
  ASSERT_TRUE(shown.ok()) << shown.status().message();
  const Value& s = Member(*shown->outputs, "s");
  EXPECT_EQ(s.text, "caf\\u00e9");
  EXPECT_EQ(s.Str(), "caf\xc3\xa9");
  const Value& n = Member(*shown->outputs, "n");
  EXPECT_EQ(n.kind, ValueKind::kNumber);
  EXPECT_EQ(n.text, "1.50");
  EXPECT_EQ(n.Str(), "");
}

}  // namespace
}  // namespace pstate
