// The mapped path of io::Window: files of 1 MiB and more are parsed straight
// from a mapping. It must expose the same bytes and locations as the
// buffered path, with readable zero padding after the end.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "pstate/io/input.h"
#include "pstate/io/window.h"

namespace pstate::io {
namespace {

namespace fs = std::filesystem;

class MappedWindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = fs::temp_directory_path() /
            ("pstate-mapped-" +
             std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
             ".txt");
    // 24 MiB of lines of varying length: more than one release step.
    for (int i = 0; text_.size() < (24u << 20); ++i) {
      text_ += std::string(static_cast<std::size_t>(i % 97), 'x');
      text_ += '\n';
    }
    std::ofstream(path_, std::ios::binary) << text_;
  }
  void TearDown() override { fs::remove(path_); }

  LineColumn Naive(std::uint64_t offset) const {
    LineColumn lc{1, 1};
    for (std::uint64_t i = 0; i < offset; ++i) {
      if (text_[i] == '\n') {
        ++lc.line;
        lc.column = 1;
      } else {
        ++lc.column;
      }
    }
    return lc;
  }

  fs::path path_;
  std::string text_;
};

TEST_F(MappedWindowTest, MapsWholeFileWithZeroPadding) {
  auto input = OpenInput(path_.string());
  ASSERT_TRUE(input.ok());
  Window window(**input);
  ASSERT_TRUE(window.mapped());
  ASSERT_TRUE(window.Fill(window.begin()).ok());
  EXPECT_TRUE(window.eof());
  ASSERT_EQ(static_cast<std::size_t>(window.end() - window.begin()),
            text_.size());
  EXPECT_EQ(std::string(window.begin(), 64), text_.substr(0, 64));
  for (std::size_t i = 0; i < Window::kPadding; ++i) {
    EXPECT_EQ(window.end()[i], '\0');
  }
}

TEST_F(MappedWindowTest, LocationsSurviveRelease) {
  auto input = OpenInput(path_.string());
  ASSERT_TRUE(input.ok());
  Window window(**input);
  ASSERT_TRUE(window.mapped());
  // Walk forward, releasing as a reader does, and check a location just
  // after each release against a naive count.
  for (std::uint64_t at :
       {1000ull, 17ull << 20, 18ull << 20, (24ull << 20) - 5}) {
    const char* p = window.begin() + (at - window.OffsetOf(window.begin()));
    window.Release(p);
    LineColumn got = window.Locate(at);
    LineColumn want = Naive(at);
    EXPECT_EQ(got.line, want.line) << "offset " << at;
    EXPECT_EQ(got.column, want.column) << "offset " << at;
  }
  EXPECT_GT(window.OffsetOf(window.begin()), 0u) << "nothing was released";
  EXPECT_GT((*input)->source_consumed(), 0u);
}

// A file truncated by another process while it is mapped: the vanished
// bytes read as zeros (no SIGBUS), and the window reports an I/O error.
TEST_F(MappedWindowTest, FileThatShrinksReadsZerosAndIsAnIoError) {
  auto input = OpenInput(path_.string());
  ASSERT_TRUE(input.ok());
  Window window(**input);
  ASSERT_TRUE(window.mapped());
  EXPECT_TRUE(window.status().ok());
  fs::resize_file(path_, 1u << 20);
  // Touch a page past the new end that nothing has read yet.
  const char* late = window.begin() + (20u << 20) + 123;
  EXPECT_EQ(*static_cast<const volatile char*>(late), '\0');
  Status s = window.status();
  EXPECT_EQ(s.code(), Errc::kIo);
  EXPECT_NE(s.message().find("shrank"), std::string::npos) << s.message();
  // Bytes before the cut are intact.
  EXPECT_EQ(std::string(window.begin(), 64), text_.substr(0, 64));
}

TEST_F(MappedWindowTest, ReleaseNoticesAShrinkBeforeThePagesAreTouched) {
  auto input = OpenInput(path_.string());
  ASSERT_TRUE(input.ok());
  Window window(**input);
  ASSERT_TRUE(window.mapped());
  fs::resize_file(path_, 18u << 20);
  window.Release(window.begin() + (17u << 20));
  EXPECT_EQ(window.status().code(), Errc::kIo);
  const char* late = window.begin() + (4u << 20);  // offset 21 MiB
  EXPECT_EQ(*static_cast<const volatile char*>(late), '\0');
}

TEST(MappedWindowSmallFileTest, SmallFilesUseTheBuffer) {
  fs::path path = fs::temp_directory_path() / "pstate-mapped-small.json";
  std::ofstream(path, std::ios::binary) << "{}";
  auto input = OpenInput(path.string());
  ASSERT_TRUE(input.ok());
  Window window(**input);
  EXPECT_FALSE(window.mapped());
  fs::remove(path);
}

}  // namespace
}  // namespace pstate::io
