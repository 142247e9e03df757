#include "state/property.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "json/compact.h"
#include "json/parser.h"
#include "json/string_codec.h"

namespace pstate::state {
namespace {

constexpr std::string_view kSig = "\"4dabf18193072939515e22adb298388d\"";

json::Value Parse(const std::string& text, json::Arena& arena) {
  json::Parser parser;
  json::Value v;
  EXPECT_EQ(parser.ParseDocument(text, 0, arena, &v), json::ParseStatus::kOk)
      << text;
  return v;
}

/// {"<sig>":"<kind>", rest}
std::string Sig(std::string_view kind, std::string_view rest = "") {
  std::string s = "{" + std::string(kSig) + ":\"" + std::string(kind) + "\"";
  if (!rest.empty()) s += "," + std::string(rest);
  return s + "}";
}

PropertyNode DecodeText(const std::string& text, json::Arena& arena,
                        SecretRule rule = SecretRule::kGo) {
  // The node points into the arena's tree, which outlives it.
  auto* v = arena.Allocate<json::Value>(1);
  new (v) json::Value(Parse(text, arena));
  return DecodeProperty(*v, rule);
}

/// Records "kind pointer" for every node, descending everywhere.
struct Recorder {
  Step step = Step::kDescend;
  std::vector<std::string> seen;
  Step Visit(const PropertyNode& node, PropertyCursor& at) {
    seen.push_back(std::string(PropertyKindName(node.kind)) + " " +
                   at.Pointer());
    return step;
  }
};

TEST(PropertyDecodeTest, PlainValues) {
  json::Arena arena;
  EXPECT_EQ(DecodeText("null", arena).kind, PropertyKind::kNull);
  EXPECT_EQ(DecodeText("true", arena).kind, PropertyKind::kBool);
  EXPECT_EQ(DecodeText("1.50", arena).kind, PropertyKind::kNumber);
  EXPECT_EQ(DecodeText("\"x\"", arena).kind, PropertyKind::kString);
  EXPECT_EQ(DecodeText("[]", arena).kind, PropertyKind::kArray);
  EXPECT_EQ(DecodeText("{\"a\":1}", arena).kind, PropertyKind::kObject);
  EXPECT_FALSE(DecodeText("{\"a\":1}", arena).is_signature());
}

TEST(PropertyDecodeTest, UnknownSentinelAlsoEscaped) {
  json::Arena arena;
  EXPECT_EQ(DecodeText("\"04da6b54-80e4-46f7-96ec-b56ff0331ba9\"", arena).kind,
            PropertyKind::kUnknown);
  EXPECT_EQ(
      DecodeText("\"\\u00304da6b54-80e4-46f7-96ec-b56ff0331ba9\"", arena).kind,
      PropertyKind::kUnknown);
  EXPECT_EQ(DecodeText("\"04da6b54-80e4-46f7-96ec-b56ff0331ba8\"", arena).kind,
            PropertyKind::kString);
}

TEST(PropertyDecodeTest, EverySignatureKind) {
  json::Arena arena;
  PropertyNode secret = DecodeText(
      Sig("1b47061264138c4ac30d75fd1eb44270", "\"ciphertext\":\"v1:abc\""),
      arena);
  EXPECT_EQ(secret.kind, PropertyKind::kSecret);
  EXPECT_EQ(secret.problem, PropertyProblem::kNone);
  ASSERT_NE(secret.ciphertext(), nullptr);
  EXPECT_EQ(secret.ciphertext()->raw(), "v1:abc");
  EXPECT_EQ(secret.plaintext(), nullptr);

  PropertyNode asset = DecodeText(
      Sig("c44067f5952c0a294b673a41bacd8c17", "\"text\":\"t\",\"hash\":\"h\""),
      arena);
  EXPECT_EQ(asset.kind, PropertyKind::kAsset);
  EXPECT_EQ(asset.text()->raw(), "t");
  EXPECT_EQ(asset.hash()->raw(), "h");
  EXPECT_EQ(asset.path(), nullptr);

  PropertyNode archive = DecodeText(
      Sig("0def7320c3a5731c473e5ecbe6d01bc7",
          "\"assets\":{\"a\":" + Sig("c44067f5952c0a294b673a41bacd8c17") +
              "},\"uri\":\"u\""),
      arena);
  EXPECT_EQ(archive.kind, PropertyKind::kArchive);
  EXPECT_EQ(archive.problem, PropertyProblem::kNone);
  EXPECT_TRUE(archive.assets()->is_object());
  EXPECT_EQ(archive.uri()->raw(), "u");

  PropertyNode ref =
      DecodeText(Sig("5cf8f73096256a8f31e491e813e4eb8e",
                     "\"urn\":\"urn:pulumi:s::p::t::n\",\"id\":\"i\","
                     "\"packageVersion\":\"\""),
                 arena);
  EXPECT_EQ(ref.kind, PropertyKind::kResourceReference);
  EXPECT_EQ(ref.problem, PropertyProblem::kNone);
  EXPECT_EQ(ref.id()->raw(), "i");
  EXPECT_EQ(ref.package_version()->raw(), "");

  PropertyNode fl = DecodeText(Sig("8ad145fe-0d11-4827-bfd7-1abcbf086f5c",
                                   "\"value\":\"7ff0000000000000\""),
                               arena);
  EXPECT_EQ(fl.kind, PropertyKind::kSpecialFloat);
  EXPECT_EQ(fl.problem, PropertyProblem::kNone);

  PropertyNode bytes = DecodeText(
      Sig("803fd3297a5875dc03ca845dda5d2a98", "\"value\":\"/w==\""), arena);
  EXPECT_EQ(bytes.kind, PropertyKind::kByteString);
  EXPECT_EQ(bytes.problem, PropertyProblem::kNone);

  PropertyNode out = DecodeText(Sig("d0e6a833031e9bbcd3f4e8bde6ca49a4"), arena);
  EXPECT_EQ(out.kind, PropertyKind::kOutputValue);
  EXPECT_EQ(out.problem, PropertyProblem::kUnrecognizedSignature);

  PropertyNode odd = DecodeText(Sig("nope"), arena);
  EXPECT_EQ(odd.kind, PropertyKind::kUnrecognized);
  EXPECT_EQ(odd.problem, PropertyProblem::kUnrecognizedSignature);
  PropertyNode number = DecodeText("{" + std::string(kSig) + ":1}", arena);
  EXPECT_EQ(number.kind, PropertyKind::kUnrecognized);
  ASSERT_NE(number.signature, nullptr);
  EXPECT_TRUE(number.signature->is_number());
}

TEST(PropertyDecodeTest, MalformedSecrets) {
  json::Arena arena;
  const std::string s = "1b47061264138c4ac30d75fd1eb44270";
  EXPECT_EQ(DecodeText(Sig(s), arena).problem,
            PropertyProblem::kSecretNoPayload);
  // A non-string counts as absent (deployment.go).
  EXPECT_EQ(DecodeText(Sig(s, "\"ciphertext\":1"), arena).problem,
            PropertyProblem::kSecretNoPayload);
  EXPECT_EQ(
      DecodeText(Sig(s, "\"ciphertext\":1,\"plaintext\":\"\\\"x\\\"\""), arena)
          .problem,
      PropertyProblem::kNone);
  EXPECT_EQ(
      DecodeText(Sig(s, "\"ciphertext\":\"a\",\"plaintext\":\"b\""), arena)
          .problem,
      PropertyProblem::kSecretBothPayloads);
  EXPECT_EQ(DecodeText(Sig(s, "\"plaintext\":\"\""), arena).problem,
            PropertyProblem::kSecretEmptyPayload);
}

TEST(PropertyDecodeTest, MalformedAssetsArchivesReferencesFloatsBytes) {
  json::Arena arena;
  const std::string asset = "c44067f5952c0a294b673a41bacd8c17";
  const std::string archive = "0def7320c3a5731c473e5ecbe6d01bc7";
  const std::string ref = "5cf8f73096256a8f31e491e813e4eb8e";
  EXPECT_EQ(DecodeText(Sig(asset, "\"path\":3"), arena).problem,
            PropertyProblem::kAssetField);
  EXPECT_EQ(DecodeText(Sig(archive, "\"hash\":null"), arena).problem,
            PropertyProblem::kArchiveField);
  EXPECT_EQ(DecodeText(Sig(archive, "\"assets\":null"), arena).problem,
            PropertyProblem::kNone);
  EXPECT_EQ(DecodeText(Sig(archive, "\"assets\":[]"), arena).problem,
            PropertyProblem::kArchiveAssets);
  EXPECT_EQ(DecodeText(Sig(archive, "\"assets\":{\"a\":\"x\"}"), arena).problem,
            PropertyProblem::kArchiveMember);
  EXPECT_EQ(DecodeText(Sig(ref, "\"id\":\"i\""), arena).problem,
            PropertyProblem::kReferenceUrn);
  EXPECT_EQ(
      DecodeText(Sig(ref, "\"urn\":\"u\",\"packageVersion\":1"), arena).problem,
      PropertyProblem::kReferencePackageVersion);
  EXPECT_EQ(DecodeText(Sig(ref, "\"urn\":\"u\",\"id\":1"), arena).problem,
            PropertyProblem::kReferenceId);
  // The legacy {"V": ...} ID: null, a string or an object are fine.
  EXPECT_EQ(
      DecodeText(Sig(ref, "\"urn\":\"u\",\"id\":{\"V\":null}"), arena).problem,
      PropertyProblem::kNone);
  EXPECT_EQ(
      DecodeText(Sig(ref, "\"urn\":\"u\",\"id\":{\"V\":1}"), arena).problem,
      PropertyProblem::kReferenceId);
  const std::string fl = "8ad145fe-0d11-4827-bfd7-1abcbf086f5c";
  // Go's ParseUint takes 1 to 16 hex digits of either case.
  EXPECT_EQ(DecodeText(Sig(fl, "\"value\":\"7FF\""), arena).problem,
            PropertyProblem::kNone);
  EXPECT_EQ(DecodeText(Sig(fl, "\"value\":\"0x7ff\""), arena).problem,
            PropertyProblem::kSpecialFloatValue);
  EXPECT_EQ(
      DecodeText(Sig(fl, "\"value\":\"17ff0000000000000\""), arena).problem,
      PropertyProblem::kSpecialFloatValue);
  EXPECT_EQ(DecodeText(Sig(fl), arena).problem,
            PropertyProblem::kSpecialFloatValue);
  const std::string bytes = "803fd3297a5875dc03ca845dda5d2a98";
  EXPECT_EQ(DecodeText(Sig(bytes, "\"value\":\"/w=\""), arena).problem,
            PropertyProblem::kByteStringValue);
  EXPECT_EQ(DecodeText(Sig(bytes, "\"value\":\"/w==\\r\\n\""), arena).problem,
            PropertyProblem::kNone);
}

TEST(PropertyDecodeTest, LastDuplicateWinsAsInGo) {
  json::Arena arena;
  // Two signature members: the last decides.
  std::string text = "{" + std::string(kSig) +
                     ":\"1b47061264138c4ac30d75fd1eb44270\"," +
                     std::string(kSig) +
                     ":\"c44067f5952c0a294b673a41bacd8c17\",\"text\":\"a\","
                     "\"text\":\"b\"}";
  PropertyNode go = DecodeText(text, arena);
  EXPECT_EQ(go.kind, PropertyKind::kAsset);
  EXPECT_EQ(go.text()->raw(), "b");
  // The conservative rule: any signature member saying "secret".
  EXPECT_EQ(DecodeText(text, arena, SecretRule::kAnySignature).kind,
            PropertyKind::kSecret);
  // An escaped signature key still counts; keys match exactly, not folded.
  PropertyNode escaped = DecodeText(
      "{\"\\u0034dabf18193072939515e22adb298388d\":"
      "\"1b47061264138c4ac30d75fd1eb44270\",\"Plaintext\":\"x\"}",
      arena);
  EXPECT_EQ(escaped.kind, PropertyKind::kSecret);
  EXPECT_EQ(escaped.problem, PropertyProblem::kSecretNoPayload);
}

TEST(PropertyWalkTest, PreOrderWithPointersAndEscaping) {
  json::Arena arena;
  json::Value v = Parse(R"({"a/b":[1,{"~c":null}],"d":"x"})", arena);
  Recorder r;
  WalkOptions options;
  options.base_pointer = "/deployment/resources/0/inputs";
  EXPECT_TRUE(WalkProperties(v, r, options));
  std::vector<std::string> want = {
      "object /deployment/resources/0/inputs",
      "array /deployment/resources/0/inputs/a~1b",
      "number /deployment/resources/0/inputs/a~1b/0",
      "object /deployment/resources/0/inputs/a~1b/1",
      "null /deployment/resources/0/inputs/a~1b/1/~0c",
      "string /deployment/resources/0/inputs/d"};
  EXPECT_EQ(r.seen, want);
}

TEST(PropertyWalkTest, EscapedKeysAreDecodedInPointers) {
  json::Arena arena;
  json::Value v = Parse(R"({"a\u002fb":1})", arena);
  Recorder r;
  WalkProperties(v, r);
  EXPECT_EQ(r.seen.back(), "number /a~1b");
}

TEST(PropertyWalkTest, SkipAndStop) {
  json::Arena arena;
  json::Value v = Parse(R"({"a":[1,2],"b":{"c":3},"d":4})", arena);
  struct V {
    std::vector<std::string> seen;
    Step Visit(const PropertyNode& node, PropertyCursor& at) {
      seen.push_back(at.Pointer());
      if (node.kind == PropertyKind::kArray) return Step::kSkip;
      if (at.Pointer() == "/b/c") return Step::kStop;
      return Step::kDescend;
    }
  } visitor;
  EXPECT_FALSE(WalkProperties(v, visitor));
  std::vector<std::string> want = {"", "/a", "/b", "/b/c"};
  EXPECT_EQ(visitor.seen, want);
}

TEST(PropertyWalkTest, ArchiveDescendsIntoItsAssetsMap) {
  json::Arena arena;
  const std::string asset =
      Sig("c44067f5952c0a294b673a41bacd8c17", "\"text\":\"t\"");
  const std::string inner = Sig("0def7320c3a5731c473e5ecbe6d01bc7",
                                "\"assets\":{\"x\":" + asset + "}");
  json::Value v = Parse("[" +
                            Sig("0def7320c3a5731c473e5ecbe6d01bc7",
                                "\"hash\":\"h\",\"assets\":{\"a\":" + asset +
                                    ",\"b\":" + inner + "}") +
                            "]",
                        arena);
  Recorder r;
  WalkProperties(v, r);
  std::vector<std::string> want = {"array ", "archive /0", "asset /0/assets/a",
                                   "archive /0/assets/b",
                                   "asset /0/assets/b/assets/x"};
  EXPECT_EQ(r.seen, want);
}

TEST(PropertyWalkTest, DescendRawWalksSignatureMembers) {
  json::Arena arena;
  json::Value v =
      Parse(Sig("c44067f5952c0a294b673a41bacd8c17", "\"text\":\"t\",\"x\":[1]"),
            arena);
  Recorder r;
  r.step = Step::kDescendRaw;
  WalkProperties(v, r);
  std::vector<std::string> want = {"asset ", "string /text", "array /x",
                                   "number /x/0"};
  EXPECT_EQ(r.seen, want);
  // kDescend has nothing below an asset.
  Recorder plain;
  WalkProperties(v, plain);
  EXPECT_EQ(plain.seen.size(), 1u);
}

TEST(PropertyWalkTest, SecretPayloadIsParsedLazilyAndKeysAreHidden) {
  json::Arena arena;
  // plaintext: {"k":["v"],"n":<secret with the JSON text "\"s\"">}
  json::Value v = Parse(
      "{\"p\":" +
          Sig("1b47061264138c4ac30d75fd1eb44270",
              R"("plaintext":"{\"k\":[\"v\"],\"n\":{\"4dabf18193072939515e22adb298388d\":\"1b47061264138c4ac30d75fd1eb44270\",\"ciphertext\":\"\\\"s\\\"\"}}")") +
          "}",
      arena);
  struct V {
    std::vector<std::string> seen;
    std::vector<std::uint64_t> offsets;
    Step Visit(const PropertyNode& node, PropertyCursor& at) {
      seen.push_back(std::string(PropertyKindName(node.kind)) + " " +
                     at.Pointer() + " " + std::to_string(at.secret_depth()));
      offsets.push_back(at.Offset(*node.value));
      return Step::kDescend;
    }
  } visitor;
  WalkProperties(v, visitor);
  std::vector<std::string> want = {"object  0",
                                   "secret /p 0",
                                   "object /p/plaintext 1",
                                   "array /p/plaintext/* 1",
                                   "string /p/plaintext/*/0 1",
                                   "secret /p/plaintext/* 1",
                                   "string /p/plaintext/*/ciphertext 2"};
  EXPECT_EQ(visitor.seen, want);
  // Inside a payload, every finding is placed on the payload string.
  std::uint64_t place = v.members[0].value.members[1].value.offset;
  for (std::size_t i = 2; i < visitor.offsets.size(); ++i) {
    EXPECT_EQ(visitor.offsets[i], place) << i;
  }
}

TEST(PropertyWalkTest, CiphertextNeedsADecryptor) {
  json::Arena arena;
  json::Value v =
      Parse(Sig("1b47061264138c4ac30d75fd1eb44270", "\"ciphertext\":\"v1:x\""),
            arena);
  struct V {
    PropertyPayload::Status status{};
    int strings = 0;
    Step Visit(const PropertyNode& node, PropertyCursor& at) {
      if (node.kind == PropertyKind::kSecret) status = at.Payload(node).status;
      if (node.kind == PropertyKind::kString) ++strings;
      return Step::kDescend;
    }
  } visitor;
  WalkProperties(v, visitor);
  EXPECT_EQ(visitor.status, PropertyPayload::Status::kUnavailable);
  EXPECT_EQ(visitor.strings, 0);

  PayloadDecryptor decrypt =
      [](std::string_view c) -> std::optional<std::string> {
    if (c != "v1:x") return std::nullopt;
    return std::string("\"decrypted\"");
  };
  WalkOptions options;
  options.decrypt = &decrypt;
  V with;
  WalkProperties(v, with, options);
  EXPECT_EQ(with.status, PropertyPayload::Status::kOk);
  EXPECT_EQ(with.strings, 1);
}

TEST(PropertyWalkTest, InvalidPayloadSaysWhereNotWhat) {
  json::Arena arena;
  json::Value v =
      Parse(Sig("1b47061264138c4ac30d75fd1eb44270", R"("plaintext":"{\"a\":")"),
            arena);
  struct V {
    PropertyPayload payload;
    Step Visit(const PropertyNode& node, PropertyCursor& at) {
      if (node.kind == PropertyKind::kSecret) payload = at.Payload(node);
      return Step::kDescend;
    }
  } visitor;
  WalkProperties(v, visitor);
  EXPECT_EQ(visitor.payload.status, PropertyPayload::Status::kInvalid);
  EXPECT_EQ(visitor.payload.field, "plaintext");
  EXPECT_EQ(visitor.payload.size, 5u);
  EXPECT_EQ(visitor.payload.error_offset, 5u);
}

// A secret whose payload is a secret whose payload is ... `levels` deep.
std::string NestedSecret(int levels) {
  std::string text = "\"x\"";
  for (int i = 0; i < levels; ++i) {
    std::string quoted = "\"";
    json::AppendEscaped(text, &quoted);
    quoted += "\"";
    text = Sig(
        "1b47061264138c4ac30d75fd1eb44270",
        std::string(i + 1 == levels ? "\"plaintext\":" : "\"ciphertext\":") +
            quoted);
  }
  return text;
}

TEST(PropertyWalkTest, SecretDepthLimit) {
  json::Arena arena;
  json::Value v = Parse(NestedSecret(5), arena);
  struct V {
    int max_depth = 0;
    int too_deep = 0;
    Step Visit(const PropertyNode& node, PropertyCursor& at) {
      max_depth = std::max(max_depth, at.secret_depth());
      if (node.kind == PropertyKind::kSecret &&
          at.Payload(node).status == PropertyPayload::Status::kTooDeep) {
        ++too_deep;
      }
      return Step::kDescend;
    }
  } all, limited;
  WalkProperties(v, all);
  EXPECT_EQ(all.max_depth, 5);
  EXPECT_EQ(all.too_deep, 0);
  WalkOptions options;
  options.max_secret_depth = 3;
  WalkProperties(v, limited, options);
  EXPECT_EQ(limited.max_depth, 3);
  EXPECT_EQ(limited.too_deep, 1);
}

TEST(PropertyWalkTest, NestingDepthLimit) {
  json::Arena arena;
  std::string text;
  for (int i = 0; i < 100; ++i) text += "[";
  for (int i = 0; i < 100; ++i) text += "]";
  json::Value v = Parse(text, arena);
  struct V {
    int deepest = 0;
    bool truncated = false;
    Step Visit(const PropertyNode&, PropertyCursor& at) {
      deepest = std::max(deepest, at.depth());
      truncated = at.truncated();
      return Step::kDescend;
    }
  } visitor;
  WalkOptions options;
  options.max_depth = 10;
  EXPECT_TRUE(WalkProperties(v, visitor, options));
  EXPECT_EQ(visitor.deepest, 10);
  V all;
  WalkProperties(v, all);
  EXPECT_EQ(all.deepest, 99);
}

TEST(PropertyWalkTest, LevelStateDescendsInStepWithASecondValue) {
  json::Arena arena;
  json::Value a = Parse(R"({"x":{"y":1,"z":[1,2]},"w":true})", arena);
  json::Value b = Parse(R"({"x":{"y":1,"z":[1,3]},"w":true})", arena);
  // Finds where `a` differs from `b`, walking b in step through Level.
  struct Diff {
    struct Level {
      const json::Value* other = nullptr;
    };
    std::vector<std::string> differ;
    Step Visit(const PropertyNode& node, PropertyCursor& at, Level& level) {
      const json::Value* parent = level.other;
      const json::Value* other = parent;
      if (node.key != nullptr) {
        other = parent && parent->is_object() ? parent->Find(node.key->Str())
                                              : nullptr;
      } else if (at.depth() > 0) {
        other = parent && parent->is_array() && node.index < parent->size
                    ? &parent->elements[node.index]
                    : nullptr;
      }
      level.other = other;
      if (other == nullptr || other->type != node.value->type) {
        differ.push_back(at.Pointer());
        return Step::kSkip;
      }
      if (node.value->is_number() && other->raw() != node.value->raw()) {
        differ.push_back(at.Pointer());
      }
      return Step::kDescend;
    }
  } diff;
  WalkProperties(a, diff, {}, Diff::Level{&b});
  EXPECT_EQ(diff.differ, std::vector<std::string>{"/x/z/1"});
}

TEST(PropertyWalkTest, VisitorsMaySkipScalars) {
  json::Arena arena;
  json::Value v =
      Parse("[1,\"s\",{\"a\":null,\"b\":[true]}," +
                Sig("0def7320c3a5731c473e5ecbe6d01bc7",
                    "\"hash\":\"h\",\"assets\":{\"x\":\"not an asset\"}") +
                "]",
            arena);
  struct V {
    enum { kVisitScalars = false };
    std::vector<std::string> seen;
    Step Visit(const PropertyNode& node, PropertyCursor& at) {
      seen.push_back(std::string(PropertyKindName(node.kind)) + " " +
                     at.Pointer());
      return Step::kDescend;
    }
  } visitor;
  WalkProperties(v, visitor);
  // An archive's members are visited whatever they are.
  std::vector<std::string> want = {"array ", "object /2", "array /2/b",
                                   "archive /3", "string /3/assets/x"};
  EXPECT_EQ(visitor.seen, want);
  // The root is visited even when it is a scalar.
  json::Value scalar = Parse("7", arena);
  visitor.seen.clear();
  WalkProperties(scalar, visitor);
  EXPECT_EQ(visitor.seen, std::vector<std::string>{"number "});
}

TEST(PropertyWalkTest, LeaveRunsAfterChildren) {
  json::Arena arena;
  json::Value v = Parse(R"({"a":[1]})", arena);
  struct V {
    std::string log;
    Step Visit(const PropertyNode& node, PropertyCursor&) {
      log += "(" + std::string(PropertyKindName(node.kind));
      return Step::kDescend;
    }
    void Leave(const PropertyNode&, PropertyCursor&) { log += ")"; }
  } visitor;
  WalkProperties(v, visitor);
  EXPECT_EQ(visitor.log, "(object(array(number)))");
}

std::string Compact(const json::Value& v) { return json::ToCompactJson(v); }

TEST(PropertyRewriteTest, CopyOnWriteSharesWhatDidNotChange) {
  json::Arena arena;
  json::Value v =
      Parse(R"({"a":{"s":"x","n":1},"b":[{"s":"y"}],"c":{"k":2}})", arena);
  struct V {
    Step Visit(const PropertyNode& node, PropertyCursor& at) {
      if (node.kind == PropertyKind::kString) {
        at.Replace(at.arena()->MakeString("[r]"));
      }
      return Step::kDescend;
    }
  } visitor;
  json::Arena out_arena;
  json::Value out = RewriteProperties(v, out_arena, visitor);
  EXPECT_EQ(Compact(out),
            R"({"a":{"s":"[r]","n":1},"b":[{"s":"[r]"}],"c":{"k":2}})");
  EXPECT_EQ(Compact(v), R"({"a":{"s":"x","n":1},"b":[{"s":"y"}],"c":{"k":2}})");
  // The untouched member is shared, not copied.
  EXPECT_EQ(&out.members[2].value.members[0], &v.members[2].value.members[0]);

  struct None {
    Step Visit(const PropertyNode&, PropertyCursor&) { return Step::kDescend; }
  } none;
  json::Value same = RewriteProperties(v, out_arena, none);
  EXPECT_EQ(same.members, v.members);
}

TEST(PropertyRewriteTest, ArchiveMembersAndRootCanBeReplaced) {
  json::Arena arena;
  json::Value v = Parse(
      Sig("0def7320c3a5731c473e5ecbe6d01bc7",
          "\"assets\":{\"a\":" +
              Sig("c44067f5952c0a294b673a41bacd8c17", "\"text\":\"t\"") + "}"),
      arena);
  struct V {
    Step Visit(const PropertyNode& node, PropertyCursor& at) {
      if (node.kind == PropertyKind::kAsset) at.Replace(json::MakeNull());
      return Step::kDescend;
    }
  } visitor;
  json::Value out = RewriteProperties(v, arena, visitor);
  EXPECT_EQ(Compact(out), "{" + std::string(kSig) +
                              ":\"0def7320c3a5731c473e5ecbe6d01bc7\","
                              "\"assets\":{\"a\":null}}");
  struct Root {
    Step Visit(const PropertyNode&, PropertyCursor& at) {
      at.Replace(json::MakeBool(true));
      return Step::kDescend;
    }
  } root;
  EXPECT_EQ(Compact(RewriteProperties(v, arena, root)), "true");
}

TEST(PropertyWalkTest, DescendAllVisitsSignatureMembersToo) {
  json::Arena arena;
  json::Value v = Parse(
      Sig("5cf8f73096256a8f31e491e813e4eb8e", R"("urn":"u","id":{"V":null})"),
      arena);
  struct Keys {
    Step step;
    std::vector<std::string> seen;
    Step Visit(const PropertyNode& node, PropertyCursor&) {
      if (node.key != nullptr) seen.push_back(std::string(node.key->raw()));
      return node.is_signature() ? step : Step::kDescend;
    }
  };
  Keys raw{Step::kDescendRaw, {}};
  WalkProperties(v, raw);
  EXPECT_EQ(raw.seen, (std::vector<std::string>{"urn", "id", "V"}));
  Keys all{Step::kDescendAll, {}};
  WalkProperties(v, all);
  EXPECT_EQ(all.seen,
            (std::vector<std::string>{"4dabf18193072939515e22adb298388d", "urn",
                                      "id", "V"}));
}

/// Records "key|index: a-kind b-kind" for every pair.
struct PairRecorder {
  Step step = Step::kDescend;
  std::vector<std::string> seen;
  Step Visit(const PropertyPair& pair) {
    std::string place = pair.is_member    ? std::string(pair.key)
                        : pair.is_element ? std::to_string(pair.index)
                                          : "root";
    auto kind = [](const PropertyNode& n) {
      return n.value == nullptr ? std::string("-")
                                : std::string(PropertyKindName(n.kind));
    };
    seen.push_back(place + "@" + std::to_string(pair.depth) + ": " +
                   kind(pair.a) + " " + kind(pair.b));
    return step;
  }
};

TEST(PropertyPairWalkTest, MembersInKeyOrderLastDuplicateWins) {
  json::Arena arena;
  json::Value a = Parse(R"({"b":1,"a":[1,2],"c":"x","c":null})", arena);
  json::Value b = Parse(R"({"d":true,"a":[1],"\u0062":"s"})", arena);
  PairRecorder r;
  EXPECT_TRUE(WalkPropertyPairs(&a, &b, r));
  EXPECT_EQ(r.seen, (std::vector<std::string>{
                        "root@0: object object",
                        "a@1: array array",
                        "0@2: number number",
                        "1@2: number -",
                        "b@1: number string",
                        "c@1: null -",
                        "d@1: - bool",
                    }));
}

TEST(PropertyPairWalkTest, SignatureObjectsArePairedOnlyWhenAsked) {
  json::Arena arena;
  json::Value a = Parse(
      Sig("1b47061264138c4ac30d75fd1eb44270", R"("plaintext":"1")"), arena);
  json::Value b = Parse(
      Sig("1b47061264138c4ac30d75fd1eb44270", R"("plaintext":"2")"), arena);
  PairRecorder r;
  WalkPropertyPairs(&a, &b, r);
  EXPECT_EQ(r.seen, (std::vector<std::string>{"root@0: secret secret"}));
  r.seen.clear();
  r.step = Step::kDescendAll;
  WalkPropertyPairs(&a, &b, r);
  EXPECT_EQ(r.seen, (std::vector<std::string>{
                        "root@0: secret secret",
                        "4dabf18193072939515e22adb298388d@1: string string",
                        "plaintext@1: string string",
                    }));
}

TEST(PropertyPairWalkTest, DuplicateSignatureMembersFollowTheRule) {
  json::Arena arena;
  // Secret first, asset last: Go reads an asset.
  std::string text = "{" + std::string(kSig) +
                     ":\"1b47061264138c4ac30d75fd1eb44270\"," +
                     std::string(kSig) +
                     ":\"c44067f5952c0a294b673a41bacd8c17\",\"text\":\"a\"}";
  json::Value a = Parse(text, arena);
  PairRecorder r;
  WalkPropertyPairs(&a, nullptr, r);
  EXPECT_EQ(r.seen, (std::vector<std::string>{"root@0: asset -"}));
  r.seen.clear();
  WalkOptions any;
  any.secret_rule = SecretRule::kAnySignature;
  WalkPropertyPairs(&a, nullptr, r, any);
  EXPECT_EQ(r.seen, (std::vector<std::string>{"root@0: secret -"}));
}

TEST(PropertyPairWalkTest, StopsAndCarriesLevels) {
  json::Arena arena;
  json::Value a = Parse(R"({"a":{"b":{"c":1}},"z":2})", arena);
  struct Deepest {
    struct Level {
      int n = 0;
    };
    int deepest = 0;
    Step Visit(const PropertyPair& pair, Level& level) {
      ++level.n;
      deepest = std::max(deepest, level.n);
      return pair.key == "c" ? Step::kStop : Step::kDescend;
    }
  };
  Deepest d;
  EXPECT_FALSE(WalkPropertyPairs(&a, &a, d));
  EXPECT_EQ(d.deepest, 4);
}

}  // namespace
}  // namespace pstate::state
