// normalize::Run around the normalizer: files, --in-place with .bak,
// compression in and out, --check, and no output after a failure.
#include "normalize/normalize.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "io/input.h"

namespace pstate::normalize {
namespace {

namespace fs = std::filesystem;

const char kCompact[] =
    R"({"version":3,"deployment":{"manifest":{"time":"2026-01-01T00:00:00+00:00","magic":"","version":""},"resources":[{"urn":"u","custom":true,"type":"t","outputs":{"b":1,"a":2}}]}})";

class RunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("pstate-normalize-run-" + std::to_string(::getpid()));
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
  /// The decoded (decompressed) bytes of a file.
  static std::string Decoded(const std::string& path) {
    auto in = io::OpenInput(path);
    EXPECT_TRUE(in.ok());
    std::string out;
    char buf[4096];
    for (;;) {
      auto n = (*in)->Read(buf, sizeof buf);
      if (!n.ok() || *n == 0) break;
      out.append(buf, *n);
    }
    return out;
  }
  fs::path dir_;
};

TEST_F(RunTest, InPlaceKeepsABackup) {
  Write(Path("s.json"), kCompact);
  Config c;
  c.input = Path("s.json");
  c.in_place = true;
  auto r = normalize::Run(c);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(Read(Path("s.json.bak")), kCompact);
  std::string normalized = Read(Path("s.json"));
  // An export comes back in the export layout: indented, newline at the end.
  EXPECT_NE(normalized.find("\"time\": \"2026-01-01T00:00:00Z\""),
            std::string::npos);
  EXPECT_EQ(normalized.back(), '\n');
  // A second run is a no-op, and --check agrees.
  Config check;
  check.input = Path("s.json");
  check.check = true;
  auto k = normalize::Run(check);
  ASSERT_TRUE(k.ok());
  EXPECT_TRUE(k->normalized);
}

TEST_F(RunTest, CheckNamesTheFirstDifference) {
  Write(Path("s.json"), kCompact);
  Config c;
  c.input = Path("s.json");
  c.check = true;
  c.options.layout = Layout::kDiy;
  auto r = normalize::Run(c);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->normalized);
  EXPECT_EQ(r->line, 1u);
  // The manifest's time is the first byte that differs.
  EXPECT_EQ(r->pointer, "/deployment/manifest/time");
  EXPECT_FALSE(fs::exists(Path("s.json.bak")));
}

TEST_F(RunTest, CompressesByNameAndFlag) {
  Write(Path("s.json"), kCompact);
  Config plain;
  plain.input = Path("s.json");
  plain.output = Path("plain.json");
  ASSERT_TRUE(normalize::Run(plain).ok());
  for (const char* name : {"out.json.gz", "out.json.zst"}) {
    Config c;
    c.input = Path("s.json");
    c.output = Path(name);
    ASSERT_TRUE(normalize::Run(c).ok());
    std::string raw = Read(Path(name));
    EXPECT_EQ(io::DetectCompression(raw), std::string(name).ends_with(".gz")
                                              ? io::Compression::kGzip
                                              : io::Compression::kZstd);
    EXPECT_EQ(Decoded(Path(name)), Read(Path("plain.json")));
    // Compressed input is read transparently.
    Config again;
    again.input = Path(name);
    again.output = Path(std::string("again-") + name + ".json");
    ASSERT_TRUE(normalize::Run(again).ok());
    EXPECT_EQ(Read(again.output), Read(Path("plain.json")));
  }
  Config flag;
  flag.input = Path("s.json");
  flag.output = Path("flag.json");
  flag.compression = io::Compression::kZstd;
  ASSERT_TRUE(normalize::Run(flag).ok());
  EXPECT_EQ(io::DetectCompression(Read(Path("flag.json"))),
            io::Compression::kZstd);
}

TEST_F(RunTest, InPlaceKeepsTheInputsCompression) {
  Write(Path("plain.json"), kCompact);
  Config gz;
  gz.input = Path("plain.json");
  gz.output = Path("s.json.gz");
  gz.options.layout = Layout::kExport;
  ASSERT_TRUE(normalize::Run(gz).ok());
  Config c;
  c.input = Path("s.json.gz");
  c.in_place = true;
  ASSERT_TRUE(normalize::Run(c).ok());
  EXPECT_EQ(io::DetectCompression(Read(Path("s.json.gz"))),
            io::Compression::kGzip);
  EXPECT_TRUE(fs::exists(Path("s.json.gz.bak")));
}

TEST_F(RunTest, BadInputLeavesNoOutput) {
  Write(Path("bad.json"), R"({"version":3,"deployment":{"resources":[{"urn":)");
  Write(Path("existing.json"), "keep me");
  for (const char* out : {"new.json", "existing.json", "new.json.gz"}) {
    Config c;
    c.input = Path("bad.json");
    c.output = Path(out);
    auto r = normalize::Run(c);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("bad.json:1:"), std::string::npos)
        << r.status().message();
  }
  EXPECT_FALSE(fs::exists(Path("new.json")));
  EXPECT_FALSE(fs::exists(Path("new.json.gz")));
  EXPECT_EQ(Read(Path("existing.json")), "keep me");
  // In place: the input and no .bak stay as they were.
  Config c;
  c.input = Path("bad.json");
  c.in_place = true;
  ASSERT_FALSE(normalize::Run(c).ok());
  EXPECT_FALSE(fs::exists(Path("bad.json.bak")));
  for (const auto& e : fs::directory_iterator(dir_)) {
    EXPECT_EQ(e.path().string().find("pstate-tmp"), std::string::npos);
  }
}

TEST_F(RunTest, OutputThatIsTheInputNeedsInPlace) {
  Write(Path("s.json"), kCompact);
  Config c;
  c.input = Path("s.json");
  c.output = Path("s.json");
  auto r = normalize::Run(c);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Errc::kInvalidArgument);
  EXPECT_EQ(Read(Path("s.json")), kCompact);
}

/// Runs `fn` with standard input reading `path` (the io layer reads it;
/// the core never does).
template <typename Fn>
void WithStdin(const std::string& path, Fn fn) {
  int saved = ::dup(STDIN_FILENO);
  ASSERT_GE(saved, 0);
  int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::dup2(fd, STDIN_FILENO), STDIN_FILENO);
  ::close(fd);
  fn();
  ::dup2(saved, STDIN_FILENO);
  ::close(saved);
}

TEST_F(RunTest, StandardInputNormalizesAndChecks) {
  Write(Path("s.json"), kCompact);
  Config c;
  c.input = "-";
  c.output = Path("out.json");
  WithStdin(Path("s.json"), [&] {
    auto r = normalize::Run(c);
    ASSERT_TRUE(r.ok()) << r.status().message();
  });
  Config direct;
  direct.input = Path("s.json");
  direct.output = Path("direct.json");
  ASSERT_TRUE(normalize::Run(direct).ok());
  EXPECT_EQ(Read(Path("out.json")), Read(Path("direct.json")));
  // --check reads standard input twice (through the io layer's spool).
  for (const char* file : {"s.json", "direct.json"}) {
    Config check;
    check.input = "-";
    check.check = true;
    WithStdin(Path(file), [&] {
      auto r = normalize::Run(check);
      ASSERT_TRUE(r.ok()) << r.status().message();
      EXPECT_EQ(r->normalized, std::string(file) == "direct.json") << file;
    });
  }
  // --in-place needs a file.
  Config in_place;
  in_place.input = "-";
  in_place.in_place = true;
  auto r = normalize::Run(in_place);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Errc::kInvalidArgument);
}

TEST_F(RunTest, MembersOutOfGoOrderTakeASecondPass) {
  // A hand-edited file: the manifest and version after the resources.
  Write(
      Path("s.json"),
      R"({"deployment":{"resources":[{"urn":"u","custom":true,"type":"t"}],"manifest":{"time":"2026-01-01T00:00:00Z","magic":"","version":""}},"version":3})");
  Config c;
  c.input = Path("s.json");
  c.output = Path("out.json");
  c.options.layout = Layout::kDiy;
  auto r = normalize::Run(c);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(
      Read(Path("out.json")),
      R"({"version":3,"deployment":{"manifest":{"time":"2026-01-01T00:00:00Z","magic":"","version":""},"resources":[{"urn":"u","custom":true,"type":"t"}],"metadata":{}}})");
  // The same from standard input (spooled by the io layer, then replayed).
  Config in;
  in.input = "-";
  in.output = Path("stdin.json");
  in.options.layout = Layout::kDiy;
  WithStdin(Path("s.json"), [&] {
    auto again = normalize::Run(in);
    ASSERT_TRUE(again.ok()) << again.status().message();
  });
  EXPECT_EQ(Read(Path("stdin.json")), Read(Path("out.json")));
}

TEST_F(RunTest, CheckOfACompressedInputComparesDecodedBytes) {
  Write(Path("s.json"), kCompact);
  Config gz;
  gz.input = Path("s.json");
  gz.output = Path("s.json.gz");
  ASSERT_TRUE(normalize::Run(gz).ok());
  Config check;
  check.input = Path("s.json.gz");
  check.check = true;
  auto r = normalize::Run(check);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->normalized);
}

}  // namespace
}  // namespace pstate::normalize
