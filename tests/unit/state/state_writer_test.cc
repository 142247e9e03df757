#include "state/state_writer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "json/parser.h"
#include "unit/testing/recording_handler.h"

namespace pstate::state {
namespace {

using pstate::testing::CompactJson;
using pstate::testing::ReadText;
using pstate::testing::RecordingHandler;

const std::string kState =
    "{\"version\":3,\"deployment\":{\"manifest\":{\"time\":\"2024-01-02T03:04:"
    "05Z\","
    "\"magic\":\"\",\"version\":\"\"},\"secrets_providers\":{\"type\":\"b64\"},"
    "\"resources\":[{\"urn\":\"urn:pulumi:d::p::pulumi:pulumi:Stack::p-d\","
    "\"custom\":false,\"type\":\"pulumi:pulumi:Stack\",\"outputs\":{\"big\":"
    "123456789012345678901234567890,\"f\":1.50,\"s\":\"a\\u0026b \\u00e9\","
    "\"e\":{},\"l\":[]}},{\"urn\":\"u2\",\"z-unknown\":[1,{\"k\":null}]}],"
    "\"pending_operations\":[],\"extensions\":{\"k1\":{\"name\":\"x\"}},"
    "\"unknownMember\":true},\"rootUnknown\":\"text\"}";

std::string Rewrite(const std::string& text, json::Layout layout,
                    std::size_t window = 4u << 20,
                    StateWriter::Pass pass = {}) {
  io::StringOutput out;
  json::Writer writer(out, layout);
  StateWriter state_writer(writer, std::move(pass));
  diag::Report report("in");
  Status s = ReadText(text, state_writer, report, window);
  EXPECT_TRUE(s.ok()) << s.message();
  return out.str();
}

std::vector<std::string> Events(const std::string& text) {
  RecordingHandler h;
  h.record_offsets = false;
  diag::Report report("in");
  EXPECT_TRUE(ReadText(text, h, report).ok());
  return h.events;
}

TEST(StateWriterTest, RoundTripThroughTheIndentedLayout) {
  std::string indented = Rewrite(kState, json::Layout::kIndented);
  EXPECT_EQ(indented.substr(0, 20), "{\n    \"version\": 3,\n");
  EXPECT_EQ(indented.back(), '\n');
  // Read back: the same events (keys, roles, pointers, values).
  EXPECT_EQ(Events(indented), Events(kState));
  // Writing is idempotent, and a tiny window changes nothing.
  EXPECT_EQ(Rewrite(indented, json::Layout::kIndented), indented);
  EXPECT_EQ(Rewrite(kState, json::Layout::kIndented, 16), indented);
  EXPECT_EQ(Rewrite(kState, json::Layout::kIndented, 1), indented);
}

TEST(StateWriterTest, CompactLayoutKeepsNumbersAndKeyOrder) {
  std::string compact = Rewrite(kState, json::Layout::kCompact);
  EXPECT_EQ(Events(compact), Events(kState));
  EXPECT_NE(compact.find("123456789012345678901234567890,\"f\":1.50"),
            std::string::npos);
  // Strings take Go's export escaping: \u0026 becomes &.
  EXPECT_NE(compact.find("\"a&b \xC3\xA9\""), std::string::npos) << compact;
  EXPECT_NE(compact.find("\"k1\":"), std::string::npos) << compact;
  EXPECT_EQ(Rewrite(compact, json::Layout::kCompact), compact);
  EXPECT_EQ(Rewrite(compact, json::Layout::kCompact, 16), compact);
}

TEST(StateWriterTest, PassReplacesLeaves) {
  std::string out =
      Rewrite(kState, json::Layout::kCompact, 4u << 20,
              [](Leaf& leaf, Context&) -> Result<LeafAction> {
                if (leaf.role == Role::kResource && leaf.index == 1) {
                  leaf.value = leaf.arena->MakeString("replaced");
                }
                return LeafAction::kWrite;
              });
  EXPECT_NE(out.find("\"resources\":[{"), std::string::npos);
  EXPECT_NE(out.find("},\"replaced\"],"), std::string::npos) << out;
}

// Edits drop leaves: an array element, or an object member with its key,
// and the commas stay right.
TEST(StateWriterTest, PassDropsLeaves) {
  for (std::size_t window : {std::size_t{4u << 20}, std::size_t{7}}) {
    std::string out = Rewrite(
        kState, json::Layout::kCompact, window,
        [](Leaf& leaf, Context&) -> Result<LeafAction> {
          bool drop = (leaf.role == Role::kResource && leaf.index == 0) ||
                      leaf.role == Role::kSecretsProviders ||
                      leaf.key == "rootUnknown" || leaf.key == "k1";
          return drop ? LeafAction::kDrop : LeafAction::kWrite;
        });
    EXPECT_EQ(out.find("secrets_providers"), std::string::npos) << out;
    EXPECT_EQ(out.find("rootUnknown"), std::string::npos) << out;
    EXPECT_EQ(out.find("pulumi:pulumi:Stack"), std::string::npos) << out;
    EXPECT_NE(out.find("\"resources\":[{\"urn\":\"u2\""), std::string::npos)
        << out;
    EXPECT_NE(out.find("\"extensions\":{}"), std::string::npos) << out;
    EXPECT_NE(out.find("\"unknownMember\":true}}"), std::string::npos) << out;
    // The result is still a state.
    RecordingHandler h;
    diag::Report report("out");
    EXPECT_TRUE(ReadText(out, h, report).ok()) << out;
  }
}

// A failing pass stops the rewrite at once.
TEST(StateWriterTest, PassFailureStopsTheRead) {
  io::StringOutput out;
  json::Writer writer(out, json::Layout::kCompact);
  int leaves = 0;
  StateWriter state_writer(writer,
                           [&](Leaf& leaf, Context&) -> Result<LeafAction> {
                             ++leaves;
                             if (leaf.role == Role::kSecretsProviders) {
                               return Status(Errc::kCrypto, "wrong passphrase");
                             }
                             return LeafAction::kWrite;
                           });
  diag::Report report("in");
  Status s = ReadText(kState, state_writer, report);
  EXPECT_EQ(s.code(), Errc::kCrypto);
  EXPECT_EQ(leaves, 3);  // version, manifest, secrets_providers
  EXPECT_EQ(out.str().find("resources"), std::string::npos);
}

struct Tree {
  json::Arena arena;
  json::Value root;
};

void ParseTree(std::string_view text, Tree* t) {
  json::Parser parser;
  ASSERT_EQ(parser.ParseDocument(text, 0, t->arena, &t->root),
            json::ParseStatus::kOk);
}

TEST(RewriteValueTest, CopiesOnlyThePathToAReplacement) {
  Tree t;
  ParseTree(R"({"a":{"b":1,"c":[1,2,{"d":"x"}]},"e":{"f":2},"g":[3]})", &t);
  const std::string before = CompactJson(t.root);
  json::Arena arena;
  json::Value out =
      RewriteValue(t.root, arena,
                   [&](const json::Value& v,
                       const json::Value* key) -> std::optional<json::Value> {
                     if (key && key->StrEquals("d"))
                       return arena.MakeString("y");
                     (void)v;
                     return std::nullopt;
                   });
  EXPECT_EQ(CompactJson(out),
            R"({"a":{"b":1,"c":[1,2,{"d":"y"}]},"e":{"f":2},"g":[3]})");
  // The input is unchanged.
  EXPECT_EQ(CompactJson(t.root), before);
  // Containers on the path are new...
  const json::Value& a_in = t.root.members[0].value;
  const json::Value& a_out = out.members[0].value;
  EXPECT_NE(out.members, t.root.members);
  EXPECT_NE(a_out.members, a_in.members);
  EXPECT_NE(a_out.members[1].value.elements, a_in.members[1].value.elements);
  // ...everything else is shared.
  EXPECT_EQ(out.members[1].value.members, t.root.members[1].value.members);
  EXPECT_EQ(out.members[2].value.elements, t.root.members[2].value.elements);
  EXPECT_EQ(a_out.members[0].value.text, a_in.members[0].value.text);
  EXPECT_EQ(out.members[0].key.text, t.root.members[0].key.text);
}

TEST(RewriteValueTest, NoReplacementReturnsTheRoot) {
  Tree t;
  ParseTree(R"({"a":[1,{"b":2}],"c":"d"})", &t);
  json::Arena arena;
  std::vector<std::string> visited;
  json::Value out = RewriteValue(
      t.root, arena,
      [&](const json::Value& v,
          const json::Value* key) -> std::optional<json::Value> {
        visited.push_back((key ? key->Str() : std::string("-")) + "=" +
                          std::string(json::TypeName(v.type)));
        return std::nullopt;
      });
  EXPECT_EQ(out.members, t.root.members);
  EXPECT_EQ(arena.used(), 0u);
  // Pre-order, with the key for members and nullptr for the root and
  // array elements.
  EXPECT_EQ(visited,
            (std::vector<std::string>{"-=object", "a=array", "-=number",
                                      "-=object", "b=number", "c=string"}));
}

TEST(RewriteValueTest, ReplacedSubtreesAreNotDescended) {
  Tree t;
  ParseTree(R"([{"secret":{"inner":1}},{"secret":2}])", &t);
  json::Arena arena;
  int calls = 0;
  json::Value out =
      RewriteValue(t.root, arena,
                   [&](const json::Value&,
                       const json::Value* key) -> std::optional<json::Value> {
                     ++calls;
                     if (key && key->StrEquals("secret"))
                       return arena.MakeString("[redacted]");
                     return std::nullopt;
                   });
  EXPECT_EQ(CompactJson(out),
            R"([{"secret":"[redacted]"},{"secret":"[redacted]"}])");
  EXPECT_EQ(calls, 5);  // root, two elements, two "secret" members
  // Replacing the root returns the replacement.
  json::Value whole =
      RewriteValue(t.root, arena,
                   [&](const json::Value&,
                       const json::Value*) -> std::optional<json::Value> {
                     return arena.MakeString("all");
                   });
  EXPECT_EQ(CompactJson(whole), "\"all\"");
}

}  // namespace
}  // namespace pstate::state
