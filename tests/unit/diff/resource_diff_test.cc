#include "diff/resource_diff.h"

#include <gtest/gtest.h>

#include <string>

#include "diff/differ.h"
#include "diff/property_path.h"
#include "json/document.h"
#include "json/writer.h"
#include "report/diff.h"
#include "report/value.h"

namespace pstate::diff {
namespace {

/// A change's side as compact JSON ("" when absent).
std::string Json(const std::optional<Value>& v) {
  return v ? report::CompactJson(*v) : std::string();
}

json::Document Doc(const std::string& text) {
  auto doc = json::Document::Parse(text);
  EXPECT_TRUE(doc.ok()) << text;
  return std::move(doc).value();
}

std::string Path(std::initializer_list<std::string_view> keys) {
  std::string p;
  for (std::string_view k : keys) AppendPathKey(&p, k);
  return p;
}

TEST(PropertyPathTest, WritesPulumisSyntax) {
  EXPECT_EQ(Path({"a", "b"}), "a.b");
  EXPECT_EQ(Path({"a", "x.y"}), "a[\"x.y\"]");
  EXPECT_EQ(Path({"x.y", "a"}), "[\"x.y\"].a");
  EXPECT_EQ(Path({"say \"hi\""}), "[\"say \\\"hi\\\"\"]");
  EXPECT_EQ(Path({"0abc", "_x"}), "0abc._x");
  EXPECT_EQ(Path({""}), "[\"\"]");
  std::string p = "a";
  AppendPathIndex(&p, 0);
  AppendPathKey(&p, "b");
  EXPECT_EQ(p, "a[0].b");
  EXPECT_TRUE(KeyNeedsQuotes("a-b"));
  EXPECT_TRUE(KeyNeedsQuotes("\xC3\xA9"));
  EXPECT_FALSE(KeyNeedsQuotes("Abc_09"));
}

TEST(TimestampTest, SameInstantWithAnotherOffsetIsEqual) {
  auto a = ParseTimestamp("2024-01-02T03:04:05Z");
  auto b = ParseTimestamp("2024-01-02T04:04:05+01:00");
  auto c = ParseTimestamp("2024-01-02T03:04:05.000Z");
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(*a, *b);
  EXPECT_EQ(*a, *c);
  EXPECT_EQ(ParseTimestamp("1970-01-01T00:00:00Z")->seconds, 0);
  EXPECT_EQ(ParseTimestamp("2024-01-02T03:04:05.5Z")->nanos, 500000000);
  EXPECT_FALSE(ParseTimestamp("2024-01-02T03:04:05z"));
  EXPECT_FALSE(ParseTimestamp("2024-01-02 03:04:05Z"));
  EXPECT_FALSE(ParseTimestamp("yesterday"));
}

TEST(DiffResourceTest, EncodingsAreNoChange) {
  auto a = Doc(R"({"urn":"u","custom":true,"type":"t","inputs":{"n":1.0,)"
               R"("s":"\u0041","o":{"x":1,"y":2}},"protect":false,)"
               R"("dependencies":["b","a"],"created":"2024-01-02T03:04:05Z"})");
  auto b = Doc(R"({"URN":"u","type":"t","custom":true,"inputs":{"o":{"y":2,)"
               R"("x":1e0},"s":"A","n":1},"dependencies":["a","b","a"],)"
               R"("created":"2024-01-02T04:04:05+01:00"})");
  ResourceChanges c = DiffResource(a.root(), b.root());
  EXPECT_TRUE(c.empty());
  EXPECT_EQ(ResourceDigest(a.root()), ResourceDigest(b.root()));
}

TEST(DiffResourceTest, PropertyChangesHavePathsAndKinds) {
  auto a = Doc(R"({"urn":"u","type":"t","inputs":{"tags":{"Name":"a",)"
               R"("x.y":1},"list":[1,2]},"outputs":{"gone":true}})");
  auto b = Doc(R"({"urn":"u","type":"t","inputs":{"tags":{"Name":"b",)"
               R"("x.y":1,"new":null},"list":[1]},"protect":true,)"
               R"("provider":"p::1"})");
  ResourceChanges c = DiffResource(a.root(), b.root());
  ASSERT_EQ(c.properties.size(), 4u);
  EXPECT_EQ(c.properties[0].path, "list[1]");
  EXPECT_EQ(c.properties[0].kind, ChangeKind::kDelete);
  EXPECT_EQ(c.properties[1].path, "tags.Name");
  EXPECT_EQ(c.properties[1].kind, ChangeKind::kUpdate);
  EXPECT_EQ(Json(c.properties[1].before), "\"a\"");
  EXPECT_EQ(Json(c.properties[1].after), "\"b\"");
  EXPECT_EQ(c.properties[2].path, "tags.new");
  EXPECT_EQ(c.properties[2].kind, ChangeKind::kAdd);
  EXPECT_EQ(c.properties[3].section, Section::kOutputs);
  EXPECT_EQ(c.properties[3].path, "gone");
  ASSERT_EQ(c.fields.size(), 2u);
  EXPECT_EQ(c.fields[0].name, "protect");
  EXPECT_EQ(c.fields[1].name, "provider");
  EXPECT_NE(ResourceDigest(a.root()), ResourceDigest(b.root()));
  EXPECT_EQ(report::ChangeLine(c.properties[1]),
            "~ inputs.tags.Name: \"a\" => \"b\"");
  EXPECT_EQ(report::ChangeLine(c.fields[0]), "~ protect: false => true");
  std::string json;
  {
    json::StringSink sink(&json);
    json::Writer w(sink, json::Layout::kCompact);
    w.BeginObject();
    report::WriteChangesJson(c, w);
    w.EndObject();
  }
  EXPECT_NE(json.find(R"({"section":"inputs","path":"tags.Name",)"
                      R"("kind":"update","before":"a","after":"b"})"),
            std::string::npos)
      << json;
}

constexpr char kSig[] = "\"4dabf18193072939515e22adb298388d\"";
constexpr char kSecret[] = "\"1b47061264138c4ac30d75fd1eb44270\"";

std::string SecretJson(const std::string& ciphertext) {
  return std::string("{") + kSig + ":" + kSecret + ",\"ciphertext\":\"" +
         ciphertext + "\"}";
}

class ReverseOpener : public SecretOpener {
 public:
  Result<std::string> Open(std::string_view c) const override {
    // Test ciphertexts are "enc:<plaintext JSON>".
    if (c.substr(0, 4) != "enc:") return Status(Errc::kCrypto, "bad");
    return std::string(c.substr(4));
  }
};

TEST(DiffResourceTest, SecretsNeverShowAndCompareByValueWhenOpened) {
  auto a =
      Doc(R"({"urn":"u","type":"t","outputs":{"p":)" + SecretJson("enc:1") +
          R"(,"q":)" + SecretJson("enc:2") + R"(,"r":"plain"}})");
  auto b = Doc(R"({"urn":"u","type":"t","outputs":{"p":)" +
               SecretJson("enc:1.0") + R"(,"q":)" + SecretJson("enc:2") +
               R"(,"r":)" + SecretJson("enc:\\\"plain\\\"") + "}}");
  // Closed: p's ciphertexts differ (unknown); q's are equal; r became
  // secret.
  ResourceChanges closed = DiffResource(a.root(), b.root());
  ASSERT_EQ(closed.properties.size(), 2u);
  EXPECT_EQ(closed.properties[0].path, "p");
  EXPECT_TRUE(closed.properties[0].unknown);
  EXPECT_TRUE(closed.properties[0].secret);
  EXPECT_TRUE(closed.properties[0].before->hidden());
  EXPECT_EQ(Json(closed.properties[0].before), "\"[secret]\"");
  EXPECT_EQ(closed.properties[1].path, "r");
  EXPECT_EQ(closed.properties[1].transition, SecretTransition::kToSecret);
  EXPECT_TRUE(closed.properties[1].before->hidden());
  EXPECT_EQ(report::ChangeLine(closed.properties[0]),
            "~ outputs.p: [secret] => [secret] (unknown: different "
            "ciphertexts)");
  // Opened: 1 and 1.0 are the same value.
  ReverseOpener opener;
  DiffOptions options;
  options.before_secrets = &opener;
  options.after_secrets = &opener;
  ResourceChanges open = DiffResource(a.root(), b.root(), options);
  ASSERT_EQ(open.properties.size(), 1u);
  EXPECT_EQ(open.properties[0].path, "r");
  options.show_secrets = true;
  ResourceChanges shown = DiffResource(a.root(), b.root(), options);
  ASSERT_EQ(shown.properties.size(), 1u);
  ASSERT_EQ(shown.properties[0].after->kind, ValueKind::kSecret);
  EXPECT_FALSE(shown.properties[0].after->hidden());
  EXPECT_EQ(Json(shown.properties[0].after), "\"plain\"");
}

}  // namespace
}  // namespace pstate::diff

namespace pstate::diff {
namespace {

TEST(DiffRunTest, NonChangesGiveSameAndChangesAreFound) {
  std::string dir = std::string(PSTATE_FIXTURES_DIR) + "/inspect/";
  for (const char* other : {"base-reformatted.json", "base.json.gz",
                            "base-checkpoint.json", "base.json"}) {
    DiffConfig config;
    config.before = dir + "base.json";
    config.after = dir + other;
    auto r = diff::Run(config);
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_TRUE(r->same()) << other;
  }
  DiffConfig config;
  config.before = dir + "base.json";
  config.after = dir + "changed.json";
  auto r = diff::Run(config);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->summary.added, 1u);
  EXPECT_EQ(r->summary.removed, 1u);
  EXPECT_EQ(r->summary.renamed, 1u);
  EXPECT_EQ(r->summary.changed, 1u);
  config.after = dir + "reordered.json";
  r = diff::Run(config);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->summary.order_only, 1u);
  config.after = dir + "truncated.json";
  r = diff::Run(config);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("truncated.json:"), std::string::npos);
}

TEST(DiffRunTest, AReorderThatBreaksPulumisOrderIsOrderBroken) {
  std::string dir = std::string(PSTATE_FIXTURES_DIR) + "/inspect/";
  DiffConfig config;
  config.before = dir + "base.json";
  config.after = dir + "misordered-provider.json";
  auto r = diff::Run(config);
  ASSERT_TRUE(r.ok()) << r.status().message();
  // The provider moved last: it is order-only; the two unchanged resources
  // it serves are order-broken, the changed bucket stays "changed" and
  // carries its break too.
  EXPECT_EQ(r->summary.order_only, 1u);
  EXPECT_EQ(r->summary.order_broken, 2u);
  EXPECT_EQ(r->summary.changed, 1u);
  EXPECT_EQ(r->summary.unchanged, 2u);
  ASSERT_EQ(r->resources.size(), 4u);
  EXPECT_EQ(r->resources[0].kind, ResourceChangeKind::kChanged);
  ASSERT_EQ(r->resources[0].order.size(), 1u);
  EXPECT_EQ(r->resources[0].order[0].field, "provider");
  EXPECT_EQ(r->resources[0].order[0].target,
            "urn:pulumi:dev::proj::pulumi:providers:aws::default::prov-1");
  EXPECT_EQ(r->resources[1].kind, ResourceChangeKind::kOrderBroken);
  EXPECT_EQ(r->resources[3].kind, ResourceChangeKind::kOrderOnly);
  EXPECT_TRUE(r->resources[3].order.empty());
  // Breaks the older state already had are not reported again.
  config.before = dir + "misordered.json";
  config.after = dir + "misordered.json";
  r = diff::Run(config);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->same());
}

}  // namespace
}  // namespace pstate::diff
