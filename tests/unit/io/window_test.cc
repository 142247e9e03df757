#include "io/window.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "io/input.h"

namespace pstate::io {
namespace {

/// An input that hands out at most `chunk` bytes per Read.
class ChunkedInput : public InputStream {
 public:
  ChunkedInput(std::string data, std::size_t chunk)
      : data_(std::move(data)), chunk_(chunk) {
    name_ = "<chunked>";
  }
  Result<std::size_t> Read(char* buf, std::size_t n) override {
    std::size_t take = std::min({n, chunk_, data_.size() - pos_});
    std::copy_n(data_.data() + pos_, take, buf);
    pos_ += take;
    return take;
  }
  std::uint64_t source_consumed() const override { return pos_; }

 private:
  std::string data_;
  std::size_t chunk_;
  std::size_t pos_ = 0;
};

std::string Digits(std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i)
    s.push_back(static_cast<char>('a' + i % 26));
  return s;
}

std::string View(const Window& w) { return std::string(w.begin(), w.end()); }

LineColumn NaiveLocate(const std::string& text, std::uint64_t offset) {
  LineColumn lc{1, 1};
  for (std::uint64_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++lc.line;
      lc.column = 1;
    } else {
      ++lc.column;
    }
  }
  return lc;
}

TEST(WindowTest, FirstFillReadsUntilFull) {
  std::string data = Digits(40);
  ChunkedInput in(data, 5);
  Window w(in, 16);
  EXPECT_EQ(w.begin(), w.end());
  ASSERT_TRUE(w.Fill(w.begin()).ok());
  EXPECT_EQ(View(w), data.substr(0, 16));
  EXPECT_FALSE(w.eof());
  EXPECT_EQ(w.OffsetOf(w.begin()), 0u);
  EXPECT_EQ(w.bytes_read(), 16u);
  // The padding after end() is readable and zero.
  for (std::size_t i = 0; i < Window::kPadding; ++i)
    EXPECT_EQ(w.end()[i], '\0');
}

TEST(WindowTest, FillKeepsBytesFromKeep) {
  std::string data = Digits(40);
  ChunkedInput in(data, 3);
  Window w(in, 16);
  ASSERT_TRUE(w.Fill(w.begin()).ok());
  ASSERT_TRUE(w.Fill(w.begin() + 10).ok());
  EXPECT_EQ(w.OffsetOf(w.begin()), 10u);
  EXPECT_EQ(View(w), data.substr(10, 16));
  EXPECT_EQ(w.bytes_read(), 26u);
  // Keeping nothing (keep == end) discards everything read so far.
  ASSERT_TRUE(w.Fill(w.end()).ok());
  EXPECT_EQ(w.OffsetOf(w.begin()), 26u);
  EXPECT_EQ(View(w), data.substr(26));
  EXPECT_TRUE(w.eof());
  for (std::size_t i = 0; i < Window::kPadding; ++i)
    EXPECT_EQ(w.end()[i], '\0');
  // At eof, Fill changes nothing.
  const char* before = w.begin();
  ASSERT_TRUE(w.Fill(w.end()).ok());
  EXPECT_EQ(w.begin(), before);
  EXPECT_EQ(View(w), data.substr(26));
}

TEST(WindowTest, GrowsWhenOnePieceFillsTheWindow) {
  std::string data = Digits(100);
  ChunkedInput in(data, 7);
  Window w(in, 16);
  ASSERT_TRUE(w.Fill(w.begin()).ok());
  ASSERT_EQ(View(w).size(), 16u);
  // Keep everything: the window must grow to make room.
  ASSERT_TRUE(w.Fill(w.begin()).ok());
  EXPECT_EQ(View(w), data.substr(0, 32));
  ASSERT_TRUE(w.Fill(w.begin()).ok());
  EXPECT_EQ(View(w), data.substr(0, 64));
  ASSERT_TRUE(w.Fill(w.begin() + 4).ok());
  // 60 kept bytes fit the 64-byte window: no growth, 4 more read.
  EXPECT_EQ(View(w), data.substr(4, 64));
  ASSERT_TRUE(w.Fill(w.begin()).ok());
  EXPECT_EQ(View(w), data.substr(4));
  EXPECT_TRUE(w.eof());
}

// A gzip bomb that inflates one string to gigabytes: the buffer stops
// growing at the cap and the reader gets a limit error, not an
// out-of-memory kill.
TEST(WindowTest, GrowthStopsAtTheCapWithALimitError) {
  std::string data = Digits(300);
  ChunkedInput in(data, 300);
  Window w(in, 16, 100);
  ASSERT_TRUE(w.Fill(w.begin()).ok());  // 16
  ASSERT_TRUE(w.Fill(w.begin()).ok());  // 32
  ASSERT_TRUE(w.Fill(w.begin()).ok());  // 64
  ASSERT_TRUE(w.Fill(w.begin()).ok());  // 100, not 128
  EXPECT_EQ(View(w), data.substr(0, 100));
  Status s = w.Fill(w.begin());
  EXPECT_EQ(s.code(), Errc::kLimit);
  EXPECT_NE(s.message().find("more than 100 bytes"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("--max-resource-bytes"), std::string::npos);
  // Bytes that are let go make room again.
  ASSERT_TRUE(w.Fill(w.begin() + 50).ok());
  EXPECT_EQ(View(w), data.substr(50, 100));
}

TEST(WindowTest, DefaultCapIsHalfAGibibyte) {
  EXPECT_EQ(kDefaultMaxWindowSize, std::size_t{512} << 20);
}

TEST(WindowTest, KeepOutsideTheWindowMeansKeepNothing) {
  std::string data = Digits(30);
  ChunkedInput in(data, 30);
  Window w(in, 16);
  ASSERT_TRUE(w.Fill(nullptr).ok());
  EXPECT_EQ(View(w), data.substr(0, 16));
  ASSERT_TRUE(w.Fill(nullptr).ok());
  EXPECT_EQ(w.OffsetOf(w.begin()), 16u);
  EXPECT_EQ(View(w), data.substr(16));
}

TEST(WindowTest, LocateAcrossDiscardedBytes) {
  std::mt19937 rng(42);
  std::string text;
  for (int i = 0; i < 1500; ++i) {
    int r = static_cast<int>(rng() % 10);
    text.push_back(r == 0 ? '\n' : static_cast<char>('a' + r));
  }
  ChunkedInput in(text, 13);
  Window w(in, 16);
  ASSERT_TRUE(w.Fill(w.begin()).ok());
  while (true) {
    std::uint64_t base = w.OffsetOf(w.begin());
    std::uint64_t top = w.OffsetOf(w.end());
    // Increasing offsets (the cached path), including end().
    for (std::uint64_t o = base; o <= top; ++o) {
      LineColumn got = w.Locate(o);
      LineColumn want = NaiveLocate(text, o);
      ASSERT_EQ(got.line, want.line) << "offset " << o;
      ASSERT_EQ(got.column, want.column) << "offset " << o;
    }
    // Decreasing offsets must not reuse a cache from further on.
    for (std::uint64_t o = top + 1; o-- > base;) {
      LineColumn got = w.Locate(o);
      LineColumn want = NaiveLocate(text, o);
      ASSERT_EQ(got.line, want.line) << "offset " << o;
      ASSERT_EQ(got.column, want.column) << "offset " << o;
    }
    if (w.eof()) break;
    // Keep a varying tail so lines are counted across discards.
    std::size_t size = static_cast<std::size_t>(w.end() - w.begin());
    std::size_t keep = size == 0 ? 0 : rng() % size;
    ASSERT_TRUE(w.Fill(w.begin() + keep).ok());
  }
  EXPECT_EQ(w.bytes_read(), text.size());
}

TEST(WindowTest, LocateClampsOffsetsOutsideTheWindow) {
  std::string text = "ab\ncd\nef\ngh\nij\nkl\nmn\nop\n";
  ChunkedInput in(text, 100);
  Window w(in, 8);
  ASSERT_TRUE(w.Fill(w.begin()).ok());
  ASSERT_TRUE(w.Fill(w.begin() + 7).ok());  // discard "ab\ncd\ne"
  LineColumn lc = w.Locate(0);              // before the window: its start
  EXPECT_EQ(lc.line, 3u);
  EXPECT_EQ(lc.column, 2u);
  lc = w.Locate(1000);  // after the window: its end
  LineColumn want = NaiveLocate(text, w.bytes_read());
  EXPECT_EQ(lc.line, want.line);
  EXPECT_EQ(lc.column, want.column);
}

// A window over the caller's bytes parses them where they are: SkipTo
// moves its start inside them (nothing copied), line:column count from the
// place given, the padding after them reads as zeros, Fill reads nothing
// (the input ends with them), and a move past them is refused.
TEST(WindowTest, BorrowedBytesAreReadWhereTheyAre) {
  std::string text = "xx\nab\ncd\nef";
  std::vector<char> bytes(text.begin(), text.end());
  bytes.resize(text.size() + Window::kPadding, '#');
  ChunkedInput unused("never read", 4);
  Window w(unused, bytes.data(), text.size(), 100);
  EXPECT_TRUE(w.eof());
  ASSERT_TRUE(w.SkipTo(103, {7, 1, 1}).ok());  // "ab\ncd\nef" at line 7
  EXPECT_EQ(w.begin(), bytes.data() + 3);
  EXPECT_EQ(View(w), "ab\ncd\nef");
  EXPECT_EQ(*w.end(), '\0');
  EXPECT_EQ(w.OffsetOf(w.begin()), 103u);
  LineColumn lc = w.Locate(107);  // the 'd' of "cd" (at 106)
  EXPECT_EQ(lc.line, 8u);
  EXPECT_EQ(lc.column, 2u);
  ASSERT_TRUE(w.Fill(w.begin()).ok());
  EXPECT_EQ(View(w), "ab\ncd\nef");
  EXPECT_EQ(unused.source_consumed(), 0u);
  EXPECT_EQ(w.SkipTo(200, {9, 1, 1}).code(), Errc::kInvalidArgument);
}

std::uint64_t NaiveCount(const std::string& s, std::size_t* after_last) {
  std::uint64_t n = 0;
  *after_last = static_cast<std::size_t>(-1);
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\n') {
      ++n;
      *after_last = i + 1;
    }
  }
  return n;
}

void ExpectCountMatches(const std::string& s) {
  std::size_t want_after = 0;
  std::uint64_t want = NaiveCount(s, &want_after);
  std::size_t got_after = 12345;
  EXPECT_EQ(CountNewlines(s.data(), s.size(), &got_after), want)
      << "length " << s.size();
  EXPECT_EQ(got_after, want_after) << "length " << s.size();
  EXPECT_EQ(CountNewlines(s.data(), s.size(), nullptr), want);
}

TEST(CountNewlinesTest, MatchesNaiveCountOnRandomShortData) {
  std::mt19937 rng(7);
  for (std::size_t len = 0; len <= 100; ++len) {
    for (int density : {0, 1, 3, 50}) {
      std::string s(len, 'x');
      for (char& c : s) {
        if (density && static_cast<int>(rng() % 100) < density * 2)
          c = '\n';
        else
          c = static_cast<char>(rng() % 256);
        if (c == '\n' && density == 0) c = 'y';
      }
      ExpectCountMatches(s);
    }
  }
}

TEST(CountNewlinesTest, AllNewlinesBeyondTheAccumulatorFlush) {
  // 255 blocks of 16 bytes fill the byte-wise counters; every byte a newline
  // is the worst case for an overflow.
  for (std::size_t len :
       {std::size_t{255 * 16 - 1}, std::size_t{255 * 16},
        std::size_t{255 * 16 + 1}, std::size_t{255 * 16 * 3 + 17},
        std::size_t{100000}}) {
    ExpectCountMatches(std::string(len, '\n'));
  }
}

TEST(CountNewlinesTest, RandomLongData) {
  std::mt19937 rng(99);
  for (std::size_t len : {std::size_t{4080}, std::size_t{4097},
                          std::size_t{20000}, std::size_t{65537}}) {
    std::string s(len, 'x');
    for (char& c : s)
      c = static_cast<char>(rng() % 4 == 0 ? '\n' : rng() % 256);
    ExpectCountMatches(s);
    // A last newline in the final partial block and none at all.
    std::string none(len, 'z');
    ExpectCountMatches(none);
    none.back() = '\n';
    ExpectCountMatches(none);
    none.back() = 'z';
    none.front() = '\n';
    ExpectCountMatches(none);
  }
}

TEST(CountNewlinesTest, UnalignedStart) {
  std::string s(5000, 'a');
  for (std::size_t i = 0; i < s.size(); i += 37) s[i] = '\n';
  for (std::size_t skip = 0; skip < 16; ++skip) {
    ExpectCountMatches(s.substr(skip));
  }
}

}  // namespace
}  // namespace pstate::io
