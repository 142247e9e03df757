// A plain file read two ways: through io::Window's buffer (how the reader
// reads every input) and as one mapping (InputStream::Map, for random
// access: edit's splice, Replayable::bytes). Both must expose the file's
// bytes and locations, and a file truncated while it is read must be an
// I/O error naming the cause, never a crash or a syntax error.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "io/input.h"
#include "io/window.h"

namespace pstate::io {
namespace {

namespace fs = std::filesystem;

class FileInputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = fs::temp_directory_path() /
            ("pstate-file-input-" +
             std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
             ".txt");
    // 24 MiB of lines of varying length: several windows' worth.
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

TEST_F(FileInputTest, WindowReadsTheWholeFileThroughItsBuffer) {
  auto input = OpenInput(path_.string());
  ASSERT_TRUE(input.ok());
  Window window(**input, 1u << 20);
  std::string seen;
  const char* keep = window.begin();
  while (!window.eof()) {
    ASSERT_TRUE(window.Fill(keep).ok());
    seen.append(window.begin(), window.end());
    keep = window.end();
    // Locations of bytes in this window agree with a naive count.
    std::uint64_t at = window.OffsetOf(window.begin());
    if (at < text_.size()) {
      LineColumn got = window.Locate(at);
      LineColumn want = Naive(at);
      EXPECT_EQ(got.line, want.line) << "offset " << at;
      EXPECT_EQ(got.column, want.column) << "offset " << at;
    }
    for (std::size_t i = 0; i < Window::kPadding; ++i) {
      ASSERT_EQ(window.end()[i], '\0');
    }
  }
  EXPECT_TRUE(seen == text_);
}

// A plain file's pieces are bounded by the file, not by the
// --max-resource-bytes cap (which is for input of unknown size).
TEST_F(FileInputTest, APieceAsLargeAsThePlainFileFitsDespiteTheCap) {
  InputOptions options;
  options.max_piece_bytes = 1u << 20;
  auto input = OpenInput(path_.string(), options);
  ASSERT_TRUE(input.ok());
  Window window(**input, 1u << 16);
  while (!window.eof()) {
    Status s = window.Fill(window.begin());  // keep everything
    ASSERT_TRUE(s.ok()) << s.message();
  }
  EXPECT_EQ(static_cast<std::size_t>(window.end() - window.begin()),
            text_.size());
}

// Truncated by another process while it is read through the buffer: the
// early end is an I/O error that says what happened.
TEST_F(FileInputTest, FileThatShrinksWhileReadIsAnIoError) {
  auto input = OpenInput(path_.string());
  ASSERT_TRUE(input.ok());
  Window window(**input, 1u << 20);
  ASSERT_TRUE(window.Fill(window.begin()).ok());
  fs::resize_file(path_, 3u << 20);
  Status s = Status::Ok();
  while (s.ok() && !window.eof()) s = window.Fill(window.end());
  EXPECT_EQ(s.code(), Errc::kIo);
  EXPECT_NE(s.message().find("shrank"), std::string::npos) << s.message();
}

TEST_F(FileInputTest, MapsWholeFileWithZeroPadding) {
  auto input = OpenInput(path_.string());
  ASSERT_TRUE(input.ok());
  auto map = (*input)->Map();
  ASSERT_TRUE(map.has_value());
  ASSERT_EQ(map->size, text_.size());
  EXPECT_EQ(std::string(map->data, 64), text_.substr(0, 64));
  for (std::size_t i = 0; i < Window::kPadding; ++i) {
    EXPECT_EQ(map->data[map->size + i], '\0');
  }
  (*input)->Release(17u << 20);  // pages behind are given back
  EXPECT_EQ(std::string(map->data + (20u << 20), 16),
            text_.substr(20u << 20, 16));
}

// A file truncated by another process while it is mapped: the vanished
// bytes read as zeros (no SIGBUS), and the stream reports an I/O error.
TEST_F(FileInputTest, MappedFileThatShrinksReadsZerosAndIsAnIoError) {
  auto input = OpenInput(path_.string());
  ASSERT_TRUE(input.ok());
  auto map = (*input)->Map();
  ASSERT_TRUE(map.has_value());
  EXPECT_TRUE((*input)->mapping_status().ok());
  fs::resize_file(path_, 1u << 20);
  // Touch a page past the new end that nothing has read yet.
  const char* late = map->data + (20u << 20) + 123;
  EXPECT_EQ(*static_cast<const volatile char*>(late), '\0');
  Status s = (*input)->mapping_status();
  EXPECT_EQ(s.code(), Errc::kIo);
  EXPECT_NE(s.message().find("shrank"), std::string::npos) << s.message();
  // Bytes before the cut are intact.
  EXPECT_EQ(std::string(map->data, 64), text_.substr(0, 64));
}

TEST_F(FileInputTest, ReleaseNoticesAShrinkBeforeThePagesAreTouched) {
  auto input = OpenInput(path_.string());
  ASSERT_TRUE(input.ok());
  auto map = (*input)->Map();
  ASSERT_TRUE(map.has_value());
  fs::resize_file(path_, 18u << 20);
  (*input)->Release(17u << 20);
  EXPECT_EQ((*input)->mapping_status().code(), Errc::kIo);
  const char* late = map->data + (21u << 20);
  EXPECT_EQ(*static_cast<const volatile char*>(late), '\0');
}

TEST(FileInputSmallTest, SmallFilesAreNotMapped) {
  fs::path path = fs::temp_directory_path() / "pstate-file-input-small.json";
  std::ofstream(path, std::ios::binary) << "{}";
  auto input = OpenInput(path.string());
  ASSERT_TRUE(input.ok());
  EXPECT_FALSE((*input)->Map().has_value());
  fs::remove(path);
}

// RangeReader reads ranges of a file again, in any order, across its
// chunks; a range past the file's end (it was rewritten shorter) is kIo,
// and a stream that is not a plain file cannot be read again.
TEST_F(FileInputTest, RangeReaderReadsRangesAgain) {
  auto in = OpenInput(path_.string());
  ASSERT_TRUE(in.ok()) << in.status().message();
  RangeReader reader(**in, 4096);
  for (std::uint64_t at :
       {std::uint64_t{0}, std::uint64_t{4000}, std::uint64_t{10} << 20,
        std::uint64_t{100}, std::uint64_t{text_.size() - 10}}) {
    auto got = reader.Read(at, 10);
    ASSERT_TRUE(got.ok()) << at << ": " << got.status().message();
    EXPECT_EQ(*got, text_.substr(static_cast<std::size_t>(at), 10)) << at;
  }
  auto big = reader.Read(5, 10000);  // larger than a chunk
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(*big, text_.substr(5, 10000));
  auto past = reader.Read(text_.size() - 5, 10);
  ASSERT_FALSE(past.ok());
  EXPECT_EQ(past.status().code(), Errc::kIo);
  EXPECT_NE(past.status().message().find("shorter"), std::string::npos);

  auto memory = MemoryInput("[1]");
  RangeReader none(*memory);
  EXPECT_EQ(none.Read(0, 1).status().code(), Errc::kUnsupported);
}

}  // namespace
}  // namespace pstate::io
