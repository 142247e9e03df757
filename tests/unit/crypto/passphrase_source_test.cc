#include "crypto/passphrase_source.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>

namespace pstate::crypto {
namespace {

// Saves the two variables, clears them, and restores them afterwards.
class ResolvePassphraseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {kPassphraseEnv, kPassphraseFileEnv}) {
      const char* value = std::getenv(name);
      saved_.emplace_back(
          name, value ? std::optional<std::string>(value) : std::nullopt);
      unsetenv(name);
    }
    dir_ = std::filesystem::temp_directory_path() /
           ("pstate-passphrase-test-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    for (const auto& [name, value] : saved_) {
      if (value) {
        setenv(name, value->c_str(), 1);
      } else {
        unsetenv(name);
      }
    }
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  std::filesystem::path WriteFile(const std::string& name,
                                  const std::string& contents) {
    const std::filesystem::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << contents;
    return path;
  }

  std::vector<std::pair<const char*, std::optional<std::string>>> saved_;
  std::filesystem::path dir_;
};

TEST_F(ResolvePassphraseTest, NothingSetIsAnErrorNamingTheVariables) {
  Result<std::string> r = ResolvePassphrase(std::nullopt);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Errc::kInvalidArgument);
  EXPECT_NE(r.status().message().find("PULUMI_CONFIG_PASSPHRASE"),
            std::string::npos);
  EXPECT_NE(r.status().message().find("PULUMI_CONFIG_PASSPHRASE_FILE"),
            std::string::npos);
}

TEST_F(ResolvePassphraseTest, EnvironmentValueIsUsedVerbatim) {
  setenv(kPassphraseEnv, "  spaced out\n", 1);
  Result<std::string> r = ResolvePassphrase(std::nullopt);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(*r == "  spaced out\n");
}

TEST_F(ResolvePassphraseTest, EmptyEnvironmentValueCounts) {
  setenv(kPassphraseEnv, "", 1);
  setenv(kPassphraseFileEnv, WriteFile("f", "from-file").c_str(), 1);
  Result<std::string> r = ResolvePassphrase(std::nullopt);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->empty());
}

TEST_F(ResolvePassphraseTest, FileVariableIsTrimmed) {
  setenv(kPassphraseFileEnv, WriteFile("f", " \t in ner \r\n\xC2\xA0").c_str(),
         1);
  Result<std::string> r = ResolvePassphrase(std::nullopt);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(*r == "in ner");
}

TEST_F(ResolvePassphraseTest, EmptyFileVariableIsIgnored) {
  setenv(kPassphraseFileEnv, "", 1);
  EXPECT_EQ(ResolvePassphrase(std::nullopt).status().code(),
            Errc::kInvalidArgument);
}

TEST_F(ResolvePassphraseTest, MissingFileFromVariableIsNotFound) {
  setenv(kPassphraseFileEnv, (dir_ / "absent").c_str(), 1);
  Result<std::string> r = ResolvePassphrase(std::nullopt);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Errc::kNotFound);
  EXPECT_NE(r.status().message().find("PULUMI_CONFIG_PASSPHRASE_FILE"),
            std::string::npos);
}

TEST_F(ResolvePassphraseTest, ExplicitFileWinsOverEnvironment) {
  setenv(kPassphraseEnv, "from-env", 1);
  setenv(kPassphraseFileEnv, WriteFile("env-file", "from-env-file").c_str(), 1);
  Result<std::string> r =
      ResolvePassphrase(WriteFile("explicit", "from-explicit\n"));
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(*r == "from-explicit");
}

TEST_F(ResolvePassphraseTest,
       MissingExplicitFileIsNotFoundEvenWithEnvironment) {
  setenv(kPassphraseEnv, "from-env", 1);
  EXPECT_EQ(ResolvePassphrase(dir_ / "absent").status().code(),
            Errc::kNotFound);
}

TEST_F(ResolvePassphraseTest, EnvironmentValueWinsOverFileVariable) {
  setenv(kPassphraseEnv, "from-env", 1);
  setenv(kPassphraseFileEnv, WriteFile("f", "from-file").c_str(), 1);
  Result<std::string> r = ResolvePassphrase(std::nullopt);
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
