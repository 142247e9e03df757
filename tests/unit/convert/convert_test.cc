// convert::Run: each conversion of state-operations.md §2 (reference
// notes; Pulumi's pkg/resource/stack/migrate/*.go, pkg/backend/diy and
// pkg/cmd/pulumi/stack/io.go) with its exact expected JSON, and each
// refusal (features in use, a URN of another stack, a bad version, the
// output being the input, an unreadable input) leaving no output.
#include "convert/convert.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "io/input.h"
#include "unit/testing/state_samples.h"

namespace pstate::convert {
namespace {

namespace fs = std::filesystem;

// A version 3 export: a stack, a bucket depending on it, a pending
// operation; outputs out of order, a "+00:00" time (normalized on the way).
const char kExport[] =
    R"({"version":3,"deployment":{"manifest":{"time":"2026-01-01T00:00:00+00:00","magic":"m","version":"v3.200.0"},"resources":[{"urn":"urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev","custom":false,"type":"pulumi:pulumi:Stack"},{"urn":"urn:pulumi:dev::proj::aws:s3/bucket:Bucket::b","custom":true,"id":"b-1","type":"aws:s3/bucket:Bucket","outputs":{"z":1,"a":2},"parent":"urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev"}],"pending_operations":[{"resource":{"urn":"urn:pulumi:dev::proj::aws:s3/bucket:Bucket::c","custom":true,"type":"aws:s3/bucket:Bucket"},"type":"creating"}]}})";

const char kCheckpoint[] =
    R"({"version":3,"checkpoint":{"stack":"organization/proj/dev","config":{"proj:a":"1"},"latest":{"manifest":{"time":"2026-01-01T00:00:00Z","magic":"m","version":"v3.200.0"},"resources":[{"urn":"urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev","custom":false,"type":"pulumi:pulumi:Stack"}],"metadata":{}},"extra":true}})";

// Version 1 resources (pkg/resource/stack/migrate: ResourceV1): defaults,
// null dependencies and initErrors, an "external" V1 does not have.
const char kV1[] =
    R"({"version":1,"checkpoint":{"stack":"organization/proj/dev","latest":{"manifest":{"time":"2018-01-01T00:00:00-08:00","magic":"","version":""},"resources":[{"urn":"urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev","custom":false,"type":"pulumi:pulumi:Stack","dependencies":null,"initErrors":null},{"urn":"urn:pulumi:dev::proj::aws:s3/bucket:Bucket::b","custom":true,"id":"b-1","type":"aws:s3/bucket:Bucket","inputs":{"bucket":"b-1","acl":"private"},"defaults":{"acl":"private"},"parent":"urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev","dependencies":["urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev"],"initErrors":null,"external":true}]}}})";

// What kV1 becomes: defaults and external dropped, null lists omitted,
// propertyDependencies for every input key, "metadata": {} added.
const char kV1AsV3Checkpoint[] =
    R"({"version":3,"checkpoint":{"stack":"organization/proj/dev","latest":{"manifest":{"time":"2018-01-01T00:00:00-08:00","magic":"","version":""},"resources":[{"urn":"urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev","custom":false,"type":"pulumi:pulumi:Stack"},{"urn":"urn:pulumi:dev::proj::aws:s3/bucket:Bucket::b","custom":true,"id":"b-1","type":"aws:s3/bucket:Bucket","inputs":{"acl":"private","bucket":"b-1"},"parent":"urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev","dependencies":["urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev"],"propertyDependencies":{"acl":["urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev"],"bucket":["urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev"]}}],"metadata":{}}}})";

class ConvertTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("pstate-convert-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const std::string& name) { return (dir_ / name).string(); }
  static void Write(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
  }
  static std::string Read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  static std::string Decoded(const std::string& path) {
    auto in = io::OpenInput(path);
    EXPECT_TRUE(in.ok());
    if (!in.ok()) return {};
    std::string out;
    char buf[4096];
    for (;;) {
      auto n = (*in)->Read(buf, sizeof buf);
      if (!n.ok() || *n == 0) break;
      out.append(buf, *n);
    }
    return out;
  }
  /// Converts `text` (written to in.json) to out.json in the diy layout.
  Result<Outcome> Convert(const std::string& text, Config config) {
    Write(Path("in.json"), text);
    config.input = Path("in.json");
    config.output = Path("out.json");
    if (!config.layout) config.layout = normalize::Layout::kDiy;
    return convert::Run(config);
  }
  std::string Out() { return Read(Path("out.json")); }
  static bool Noted(const Outcome& o, normalize::NoteKind kind,
                    const std::string& part) {
    for (const normalize::Note& n : o.notes) {
      if (n.kind == kind && n.message.find(part) != std::string::npos) {
        return true;
      }
    }
    return false;
  }
  fs::path dir_;
};

TEST_F(ConvertTest, ExportToCheckpointWrapsTheDeploymentAndDropsPending) {
  Config c;
  c.to = Target::kCheckpoint;
  auto r = Convert(kExport, c);
  ASSERT_TRUE(r.ok()) << r.status().message();
  // The stack comes from the first URN, as organization/<project>/<stack>.
  EXPECT_EQ(r->stack, "organization/proj/dev");
  EXPECT_EQ(r->version, 3);
  EXPECT_EQ(
      Out(),
      R"({"version":3,"checkpoint":{"stack":"organization/proj/dev","latest":{"manifest":{"time":"2026-01-01T00:00:00Z","magic":"m","version":"v3.200.0"},"resources":[{"urn":"urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev","custom":false,"type":"pulumi:pulumi:Stack"},{"urn":"urn:pulumi:dev::proj::aws:s3/bucket:Bucket::b","custom":true,"id":"b-1","type":"aws:s3/bucket:Bucket","outputs":{"a":2,"z":1},"parent":"urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev"}],"metadata":{}}}})");
  // pulumi stack import removes every pending operation, naming it.
  EXPECT_TRUE(Noted(*r, normalize::NoteKind::kDropped,
                    "removed pending operation 'creating' on "
                    "'urn:pulumi:dev::proj::aws:s3/bucket:Bucket::c'"));
}

TEST_F(ConvertTest, ExportToCheckpointDefaultsToTheDiyLayout) {
  Config c;
  c.to = Target::kCheckpoint;
  Write(Path("in.json"), kExport);
  c.input = Path("in.json");
  c.output = Path("out.json");
  auto r = convert::Run(c);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->layout, normalize::Layout::kDiy);
  std::string out = Out();
  EXPECT_EQ(out.find('\n'), std::string::npos);
}

TEST_F(ConvertTest, CheckpointToExportDropsStackConfigAndUnknowns) {
  Config c;
  c.to = Target::kExport;
  auto r = Convert(kCheckpoint, c);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(
      Out(),
      R"({"version":3,"deployment":{"manifest":{"time":"2026-01-01T00:00:00Z","magic":"m","version":"v3.200.0"},"resources":[{"urn":"urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev","custom":false,"type":"pulumi:pulumi:Stack"}],"metadata":{}}})");
  EXPECT_TRUE(Noted(*r, normalize::NoteKind::kDropped,
                    "dropped the checkpoint's \"config\""));
  EXPECT_TRUE(Noted(*r, normalize::NoteKind::kDropped,
                    "dropped the checkpoint's \"extra\""));
}

TEST_F(ConvertTest, CheckpointToExportInTheExportLayoutByDefault) {
  Write(Path("in.json"), kCheckpoint);
  Config c;
  c.input = Path("in.json");
  c.output = Path("out.json");
  c.to = Target::kExport;
  auto r = convert::Run(c);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->layout, normalize::Layout::kExport);
  std::string out = Out();
  EXPECT_EQ(out.substr(0, 20), "{\n    \"version\": 3,\n");
  EXPECT_EQ(out.back(), '\n');
}

TEST_F(ConvertTest, CheckpointWithoutLatestIsADeploymentNull) {
  Config c;
  c.to = Target::kExport;
  auto r = Convert(R"({"version":3,"checkpoint":{"stack":"s"}})", c);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(Out(), R"({"version":3,"deployment":null})");
}

TEST_F(ConvertTest, RoundTripExportCheckpointExport) {
  // Without pending operations, export -> checkpoint -> export is the
  // export's normalized form.
  std::string no_pending(kExport);
  no_pending.erase(no_pending.find(R"(,"pending_operations")"));
  no_pending += "}}";
  Config to_cp;
  to_cp.to = Target::kCheckpoint;
  auto r = Convert(no_pending, to_cp);
  ASSERT_TRUE(r.ok()) << r.status().message();
  std::string checkpoint = Out();
  Config to_export;
  to_export.to = Target::kExport;
  auto back = Convert(checkpoint, to_export);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(
      Out(),
      R"({"version":3,"deployment":{"manifest":{"time":"2026-01-01T00:00:00Z","magic":"m","version":"v3.200.0"},"resources":[{"urn":"urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev","custom":false,"type":"pulumi:pulumi:Stack"},{"urn":"urn:pulumi:dev::proj::aws:s3/bucket:Bucket::b","custom":true,"id":"b-1","type":"aws:s3/bucket:Bucket","outputs":{"a":2,"z":1},"parent":"urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev"}],"metadata":{}}})");
}

TEST_F(ConvertTest, StackFlagNamesTheCheckpointsStack) {
  Config c;
  c.to = Target::kCheckpoint;
  c.stack = "acme/proj/dev";
  auto r = Convert(kExport, c);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->stack, "acme/proj/dev");
  EXPECT_EQ(
      Out().rfind(R"({"version":3,"checkpoint":{"stack":"acme/proj/dev",)", 0),
      0u);
}

TEST_F(ConvertTest, BareStackNameChecksOnlyTheStack) {
  Config c;
  c.to = Target::kCheckpoint;
  c.stack = "dev";
  auto r = Convert(kExport, c);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->stack, "dev");
}

TEST_F(ConvertTest, UrnOfAnotherStackIsAUsageError) {
  Config c;
  c.to = Target::kCheckpoint;
  c.stack = "organization/proj/prod";
  auto r = Convert(kExport, c);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Errc::kInvalidArgument);
  EXPECT_NE(r.status().message().find(
                "resource urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev "
                "belongs to stack \"dev\" of project \"proj\", not to "
                "\"organization/proj/prod\" (--force converts anyway)"),
            std::string::npos)
      << r.status().message();
  EXPECT_FALSE(fs::exists(Path("out.json")));
}

TEST_F(ConvertTest, UrnOfAnotherProjectIsAUsageError) {
  Config c;
  c.to = Target::kCheckpoint;
  c.stack = "organization/other/dev";
  auto r = Convert(kExport, c);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Errc::kInvalidArgument);
  EXPECT_FALSE(fs::exists(Path("out.json")));
}

TEST_F(ConvertTest, ForceConvertsDespiteOtherStacks) {
  Config c;
  c.to = Target::kCheckpoint;
  c.stack = "organization/other/prod";
  c.force = true;
  auto r = Convert(kExport, c);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->stack, "organization/other/prod");
  EXPECT_TRUE(fs::exists(Path("out.json")));
}

TEST_F(ConvertTest, NoStackAnywhereNeedsTheStackFlag) {
  Config c;
  c.to = Target::kCheckpoint;
  auto r = Convert(
      R"({"version":3,"deployment":{"manifest":{"time":"2026-01-01T00:00:00Z","magic":"","version":""}}})",
      c);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Errc::kInvalidArgument);
  EXPECT_NE(r.status().message().find("pass --stack ORG/PROJECT/STACK"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(Path("out.json")));
}

TEST_F(ConvertTest, CheckpointKeepsItsOwnStack) {
  Config c;
  c.to = Target::kCheckpoint;
  auto r = Convert(kCheckpoint, c);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->stack, "organization/proj/dev");
  // Checkpoint to checkpoint keeps the config.
  EXPECT_NE(Out().find(R"("config":{"proj:a":"1"})"), std::string::npos);
}

TEST_F(ConvertTest, V1MigratesToV3FieldByField) {
  Config c;
  c.to = Target::kCheckpoint;
  auto r = Convert(kV1, c);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->version, 3);
  EXPECT_EQ(Out(), kV1AsV3Checkpoint);
  EXPECT_TRUE(Noted(*r, normalize::NoteKind::kDropped,
                    "dropped \"defaults\": the version 1 to 2 migration"));
  EXPECT_TRUE(Noted(*r, normalize::NoteKind::kDropped,
                    "dropped \"external\": version 1 resources have no "
                    "such field"));
}

TEST_F(ConvertTest, V0IsReadWholeAsACheckpointV1) {
  // An unversioned file: the top level is the checkpoint itself.
  std::string v0(kV1);
  v0 = v0.substr(std::string(R"({"version":1,"checkpoint":)").size());
  v0.pop_back();
  Config c;
  c.to = Target::kCheckpoint;
  auto r = Convert(v0, c);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(Out(), kV1AsV3Checkpoint);
  EXPECT_TRUE(Noted(*r, normalize::NoteKind::kDropped,
                    "version 0 resources have no such field"));
}

TEST_F(ConvertTest, V2MigratesResourcesAndPendingOperations) {
  // No dependencies: every input key maps to null. Pending operations'
  // resources are migrated too (OperationV1 -> OperationV2).
  const char v2[] =
      R"({"version":2,"checkpoint":{"stack":"organization/proj/dev","latest":{"manifest":{"time":"2018-08-01T00:00:00Z","magic":"","version":""},"resources":[{"urn":"urn:pulumi:dev::proj::pulumi:providers:aws::default","custom":true,"id":"p-1","type":"pulumi:providers:aws","inputs":{"region":"us-west-2"},"external":false,"provider":""}],"pending_operations":[{"resource":{"urn":"urn:pulumi:dev::proj::aws:s3/bucket:Bucket::c","custom":true,"type":"aws:s3/bucket:Bucket","inputs":{"bucket":"c-1"},"dependencies":["urn:pulumi:dev::proj::pulumi:providers:aws::default"]},"type":"creating"}]}}})";
  Config c;
  c.to = Target::kExport;
  auto r = Convert(v2, c);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(
      Out(),
      R"({"version":3,"deployment":{"manifest":{"time":"2018-08-01T00:00:00Z","magic":"","version":""},"resources":[{"urn":"urn:pulumi:dev::proj::pulumi:providers:aws::default","custom":true,"id":"p-1","type":"pulumi:providers:aws","inputs":{"region":"us-west-2"},"propertyDependencies":{"region":null}}],"pending_operations":[{"resource":{"urn":"urn:pulumi:dev::proj::aws:s3/bucket:Bucket::c","custom":true,"type":"aws:s3/bucket:Bucket","inputs":{"bucket":"c-1"},"dependencies":["urn:pulumi:dev::proj::pulumi:providers:aws::default"],"propertyDependencies":{"bucket":["urn:pulumi:dev::proj::pulumi:providers:aws::default"]}},"type":"creating"}],"metadata":{}}})");
}

TEST_F(ConvertTest, V2CanGoStraightToV4) {
  Config c;
  c.to = Target::kExport;
  c.version = 4;
  auto r = Convert(kV1, c);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->version, 4);
  EXPECT_TRUE(r->features.empty());
  EXPECT_EQ(Out().rfind(R"({"version":4,"deployment":)", 0), 0u);
}

TEST_F(ConvertTest, V3ToV4ComputesSortedFeatures) {
  const char v3[] =
      R"({"version":3,"deployment":{"manifest":{"time":"2026-01-01T00:00:00Z","magic":"","version":""},"resources":[{"urn":"urn:pulumi:dev::proj::t:m:T::a","custom":true,"type":"t:m:T","taint":true},{"urn":"urn:pulumi:dev::proj::t:m:T::b","custom":true,"type":"t:m:T","refreshBeforeUpdate":true}]}})";
  Config c;
  c.to = Target::kExport;
  c.version = 4;
  auto r = Convert(v3, c);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->features.size(), 2u);
  EXPECT_EQ(r->features[0], "refreshBeforeUpdate");
  EXPECT_EQ(r->features[1], "taint");
  EXPECT_EQ(
      Out().rfind(
          R"({"version":4,"features":["refreshBeforeUpdate","taint"],"deployment":{)",
          0),
      0u)
      << Out();
}

TEST_F(ConvertTest, V4ToV3WhenNoFeatureIsInUse) {
  const char v4[] =
      R"({"version":4,"features":["taint"],"deployment":{"manifest":{"time":"2026-01-01T00:00:00Z","magic":"","version":""},"resources":[{"urn":"urn:pulumi:dev::proj::t:m:T::a","custom":true,"type":"t:m:T"}]}})";
  Config c;
  c.to = Target::kExport;
  c.version = 3;
  auto r = Convert(v4, c);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->version, 3);
  EXPECT_EQ(
      Out(),
      R"({"version":3,"deployment":{"manifest":{"time":"2026-01-01T00:00:00Z","magic":"","version":""},"resources":[{"urn":"urn:pulumi:dev::proj::t:m:T::a","custom":true,"type":"t:m:T"}],"metadata":{}}})");
}

TEST_F(ConvertTest, V4ToV3RefusedNamingTheUsers) {
  // Seven tainted resources: five are named, then "and 2 more".
  std::string resources;
  for (int i = 0; i < 7; ++i) {
    if (i) resources += ",";
    resources += R"({"urn":"urn:pulumi:dev::proj::t:m:T::r)" +
                 std::to_string(i) +
                 R"(","custom":true,"type":"t:m:T","taint":true})";
  }
  resources +=
      R"(,{"urn":"urn:pulumi:dev::proj::t:m:T::h","custom":true,"type":"t:m:T","resourceHooks":{"beforeCreate":["x"]}})";
  std::string v4 =
      R"({"version":4,"features":["hooks","taint"],"deployment":{"manifest":{"time":"2026-01-01T00:00:00Z","magic":"","version":""},"resources":[)" +
      resources + "]}}";
  Config c;
  c.to = Target::kExport;
  c.version = 3;
  auto r = Convert(v4, c);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Errc::kUnsupported);
  const std::string m = r.status().message();
  EXPECT_NE(m.find("cannot write version 3"), std::string::npos) << m;
  EXPECT_NE(m.find("\n  hooks: urn:pulumi:dev::proj::t:m:T::h"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("\n  taint: urn:pulumi:dev::proj::t:m:T::r0, "),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("urn:pulumi:dev::proj::t:m:T::r4 and 2 more"),
            std::string::npos)
      << m;
  EXPECT_EQ(m.find("::r5"), std::string::npos) << m;
  EXPECT_FALSE(fs::exists(Path("out.json")));
}

TEST_F(ConvertTest, ByteStringAlwaysBlocksVersion3) {
  const char v4[] =
      R"({"version":4,"features":["byteString"],"deployment":{"manifest":{"time":"2026-01-01T00:00:00Z","magic":"","version":""}}})";
  Config c;
  c.to = Target::kExport;
  c.version = 3;
  auto r = Convert(v4, c);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Errc::kUnsupported);
  EXPECT_NE(r.status().message().find("byteString"), std::string::npos);
  // Kept when the version stays 4.
  c.version = 4;
  auto kept = Convert(v4, c);
  ASSERT_TRUE(kept.ok()) << kept.status().message();
  ASSERT_EQ(kept->features.size(), 1u);
  EXPECT_EQ(kept->features[0], "byteString");
}

TEST_F(ConvertTest, BadVersionIsAUsageError) {
  Config c;
  c.version = 5;
  auto r = Convert(kExport, c);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Errc::kInvalidArgument);
  EXPECT_FALSE(fs::exists(Path("out.json")));
}

TEST_F(ConvertTest, OutputIsInputIsRefused) {
  Write(Path("in.json"), kExport);
  Config c;
  c.input = Path("in.json");
  c.output = Path("in.json");
  auto r = convert::Run(c);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Errc::kInvalidArgument);
  EXPECT_EQ(Read(Path("in.json")), kExport);
}

TEST_F(ConvertTest, UnreadableInputIsLocatedAndWritesNothing) {
  Write(Path("out.json"), "old");
  Config c;
  c.to = Target::kCheckpoint;
  auto r = Convert(R"({"version":3,"deployment":{"resources":[{"urn":)", c);
  ASSERT_FALSE(r.ok());
  const std::string m = r.status().message();
  EXPECT_EQ(m.rfind(Path("in.json") + ":1:", 0), 0u) << m;
  EXPECT_EQ(Out(), "old");
}

TEST_F(ConvertTest, MissingInputIsNotFound) {
  Config c;
  c.input = Path("absent.json");
  c.output = Path("out.json");
  auto r = convert::Run(c);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Errc::kNotFound);
  EXPECT_FALSE(fs::exists(Path("out.json")));
}

TEST_F(ConvertTest, CompressedInAndOut) {
  // gzip by the output's name, zstd by the option; compressed input read
  // transparently.
  Write(Path("in.json"), kCheckpoint);
  Config c;
  c.input = Path("in.json");
  c.output = Path("out.json.gz");
  c.to = Target::kExport;
  c.layout = normalize::Layout::kDiy;
  auto r = convert::Run(c);
  ASSERT_TRUE(r.ok()) << r.status().message();
  std::string gz = Read(Path("out.json.gz"));
  ASSERT_GE(gz.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(gz[0]), 0x1f);
  std::string plain = Decoded(Path("out.json.gz"));
  EXPECT_EQ(plain.rfind(R"({"version":3,"deployment":)", 0), 0u);

  Config z;
  z.input = Path("out.json.gz");
  z.output = Path("back");
  z.to = Target::kCheckpoint;
  z.compression = io::Compression::kZstd;
  auto back = convert::Run(z);
  ASSERT_TRUE(back.ok()) << back.status().message();
  std::string zst = Read(Path("back"));
  ASSERT_GE(zst.size(), 4u);
  EXPECT_EQ(static_cast<unsigned char>(zst[0]), 0x28);
  EXPECT_EQ(
      Decoded(Path("back"))
          .rfind(
              R"({"version":3,"checkpoint":{"stack":"organization/proj/dev",)",
              0),
      0u);
}

TEST_F(ConvertTest, StandardInputIsReadThroughTheIoLayer) {
  Write(Path("in.json"), kExport);
  int saved = ::dup(STDIN_FILENO);
  ASSERT_GE(saved, 0);
  int fd = ::open(Path("in.json").c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::dup2(fd, STDIN_FILENO), STDIN_FILENO);
  ::close(fd);
  Config c;
  c.input = "-";
  c.output = Path("out.json");
  c.to = Target::kCheckpoint;
  auto r = convert::Run(c);
  ::dup2(saved, STDIN_FILENO);
  ::close(saved);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->stack, "organization/proj/dev");
  EXPECT_EQ(Out().rfind(R"({"version":3,"checkpoint":)", 0), 0u);
}

TEST_F(ConvertTest, NumbersAndUnknownMembersSurvive) {
  // Lossless as normalize is: big integers keep their digits, unknown
  // members are kept after the known ones (each noted).
  const char in[] =
      R"({"version":3,"deployment":{"manifest":{"time":"2026-01-01T00:00:00Z","magic":"","version":""},"resources":[{"urn":"urn:pulumi:dev::proj::t:m:T::a","custom":true,"type":"t:m:T","outputs":{"n":9007199254740993,"f":1.50},"mine":1}]}})";
  Config c;
  c.to = Target::kCheckpoint;
  auto r = Convert(in, c);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_NE(Out().find(R"("outputs":{"f":1.5,"n":9007199254740993},"mine":1})"),
            std::string::npos)
      << Out();
  EXPECT_TRUE(Noted(*r, normalize::NoteKind::kUnknownMember, "\"mine\""));
  // --drop-unknown drops them as Pulumi does.
  c.drop_unknown = true;
  auto dropped = Convert(in, c);
  ASSERT_TRUE(dropped.ok());
  EXPECT_EQ(Out().find("mine"), std::string::npos);
}

// A version 0-2 pending operation without a resource migrates to Go's zero
// ResourceV3 (OperationV2.Resource is a struct value), as version 3 writes
// it, so convert accepts its own output again (not "resource": null).
TEST_F(ConvertTest, MigratedPendingOperationWithoutResourceConvertsAgain) {
  Config c;
  c.to = Target::kExport;
  auto r = Convert(
      R"({"version":2,"checkpoint":{"stack":"org/proj/dev","latest":{"manifest":{"time":"2024-01-01T00:00:00Z","magic":"","version":""},"pending_operations":[{"type":"creating"}]}}})",
      c);
  ASSERT_TRUE(r.ok()) << r.status().message();
  std::string first = Out();
  EXPECT_NE(
      first.find(
          R"("pending_operations":[{"resource":{"urn":"","custom":false,"type":""},"type":"creating"}])"),
      std::string::npos)
      << first;
  auto again = Convert(first, c);
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(Out(), first);
}

// Both passes over the input (the check, the conversion) report progress
// (every 8 MiB of each).
TEST_F(ConvertTest, ReportsProgressPerPass) {
  Config c;
  c.to = Target::kCheckpoint;
  std::vector<std::uint64_t> done;
  c.on_progress = [&](std::uint64_t n, std::uint64_t) { done.push_back(n); };
  auto r = Convert(testing::BigState(), c);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_GE(done.size(), 2u);
}

}  // namespace
}  // namespace pstate::convert
