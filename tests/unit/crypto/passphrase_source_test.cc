#include "crypto/passphrase_source.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

namespace pstate::crypto {
namespace {

// The inputs as the command line finds them (the core reads no
// environment: cli/passphrase.cc does, tests/e2e/cli_args_test.cc runs it).
class ResolvePassphraseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("pstate-passphrase-test-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  std::filesystem::path WriteFile(const std::string& name,
                                  const std::string& contents) {
    const std::filesystem::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << contents;
    return path;
  }

  PassphraseInputs in_;
  std::filesystem::path dir_;
};

TEST_F(ResolvePassphraseTest, NothingGivenIsAnErrorNamingTheVariables) {
  Result<std::string> r = ResolvePassphrase(in_);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Errc::kInvalidArgument);
  EXPECT_NE(r.status().message().find("PULUMI_CONFIG_PASSPHRASE"),
            std::string::npos);
  EXPECT_NE(r.status().message().find("PULUMI_CONFIG_PASSPHRASE_FILE"),
            std::string::npos);
}

TEST_F(ResolvePassphraseTest, PassphraseIsUsedVerbatim) {
  in_.passphrase = "  spaced out\n";
  Result<std::string> r = ResolvePassphrase(in_);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(*r == "  spaced out\n");
}

TEST_F(ResolvePassphraseTest, EmptyPassphraseCounts) {
  in_.passphrase = "";
  in_.env_file = WriteFile("f", "from-file");
  Result<std::string> r = ResolvePassphrase(in_);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->empty());
}

TEST_F(ResolvePassphraseTest, FileFromTheVariableIsTrimmed) {
  in_.env_file = WriteFile("f", " \t in ner \r\n\xC2\xA0");
  Result<std::string> r = ResolvePassphrase(in_);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(*r == "in ner");
}

TEST_F(ResolvePassphraseTest, MissingFileFromTheVariableIsNotFound) {
  in_.env_file = dir_ / "absent";
  Result<std::string> r = ResolvePassphrase(in_);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Errc::kNotFound);
  EXPECT_NE(r.status().message().find("PULUMI_CONFIG_PASSPHRASE_FILE"),
            std::string::npos);
}

TEST_F(ResolvePassphraseTest, ExplicitFileWinsOverTheVariables) {
  in_.passphrase = "from-env";
  in_.env_file = WriteFile("env-file", "from-env-file");
  in_.file = WriteFile("explicit", "from-explicit\n");
  Result<std::string> r = ResolvePassphrase(in_);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(*r == "from-explicit");
}

TEST_F(ResolvePassphraseTest, MissingExplicitFileIsNotFoundEvenWithAPhrase) {
  in_.passphrase = "from-env";
  in_.file = dir_ / "absent";
  EXPECT_EQ(ResolvePassphrase(in_).status().code(), Errc::kNotFound);
}

TEST_F(ResolvePassphraseTest, PassphraseWinsOverTheFileVariable) {
  in_.passphrase = "from-env";
  in_.env_file = WriteFile("f", "from-file");
  Result<std::string> r = ResolvePassphrase(in_);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(*r == "from-env");
}

TEST(TrimSpaceLikeGoTest, TrimsUnicodeWhiteSpaceOnly) {
  EXPECT_EQ(TrimSpaceLikeGo(""), "");
  EXPECT_EQ(TrimSpaceLikeGo(" \t\n\v\f\r"), "");
  EXPECT_EQ(TrimSpaceLikeGo("\xE2\x80\x83x y\xE3\x80\x80"),
            "x y");  // em space, ideographic
  EXPECT_EQ(TrimSpaceLikeGo("\xC2\x85x\xC2\xA0"), "x");  // NEL, NBSP
  EXPECT_EQ(TrimSpaceLikeGo("x\xE2\x80\x8B"),
            "x\xE2\x80\x8B");                            // ZWSP is not space
  EXPECT_EQ(TrimSpaceLikeGo("\xA0x\xA0"), "\xA0x\xA0");  // invalid UTF-8 stays
  EXPECT_EQ(TrimSpaceLikeGo("\xC0\xA0x"), "\xC0\xA0x");  // overlong stays
}

}  // namespace
}  // namespace pstate::crypto
