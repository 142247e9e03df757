#include "io/spool.h"

#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>

#include "unit/testing/temp_dir.h"

namespace pstate::io {
namespace {

using pstate::testing::ReadFile;
using pstate::testing::TempDir;

Result<std::string> ReadAll(InputStream& in) {
  std::string out;
  std::string buf(4096, '\0');
  for (;;) {
    auto got = in.Read(buf.data(), buf.size());
    if (!got.ok()) return got.status();
    if (*got == 0) return out;
    out.append(buf.data(), *got);
  }
}

/// Reads through the mapping when the stream offers one, as io::Window
/// does, else through Read.
Result<std::string> ReadMappedOrNot(InputStream& in) {
  if (auto m = in.Map()) return std::string(m->data, m->size);
  return ReadAll(in);
}

std::string Text(std::size_t lines) {
  std::string s;
  for (std::size_t i = 0; i < lines; ++i) {
    s += "{\"line\": " + std::to_string(i) + ", \"text\": \"sample\"}\n";
  }
  return s;
}

std::string Compressed(const TempDir& dir, const std::string& plain,
                       const std::string& tool) {
  std::string in = dir.Write("plain-for-" + tool, plain);
  std::string out = dir.File("input." + tool);
  std::string cmd = tool + " -c -q " + in + " > " + out;
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  return out;
}

/// Entries of `dir` (the spool directory must stay empty: the spool file is
/// unlinked at once).
int CountEntries(const std::string& dir) {
  int n = 0;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return -1;
  while (dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name != "." && name != "..") ++n;
  }
  ::closedir(d);
  return n;
}

/// Every way of reading `r` gives `want`, twice.
void ExpectReplays(Replayable& r, const std::string& want) {
  for (int pass = 0; pass < 2; ++pass) {
    auto a = r.Open();
    ASSERT_TRUE(a.ok()) << a.status().message();
    auto got = ReadAll(**a);
    ASSERT_TRUE(got.ok()) << got.status().message();
    EXPECT_EQ(*got, want) << "pass " << pass;
    auto b = r.Open();
    ASSERT_TRUE(b.ok());
    auto mapped = ReadMappedOrNot(**b);
    ASSERT_TRUE(mapped.ok());
    EXPECT_EQ(*mapped, want);
    EXPECT_EQ((*b)->name(), r.name());
  }
  auto bytes = r.bytes();
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  EXPECT_EQ(std::string(*bytes), want);
  EXPECT_TRUE(r.bytes_status().ok());
}

// A named temporary file exists, empty and 0600, under the name asked
// for, until its owner goes.
TEST(SpoolTest, TempPathIsPrivateAndRemovedWithItsOwner) {
  std::string path;
  {
    TempPath temp;
    EXPECT_TRUE(temp.path().empty());
    ASSERT_TRUE(temp.Create("unit").ok());
    path = temp.path();
    EXPECT_NE(path.find("/pstate-unit-"), std::string::npos);
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    EXPECT_EQ(st.st_size, 0);
  }
  struct stat st {};
  EXPECT_NE(::stat(path.c_str(), &st), 0);
}

TEST(SpoolTest, PlainSmallFileIsReadInPlace) {
  TempDir dir;
  std::string text = Text(10);
  std::string path = dir.Write("state.json", text);
  auto r = OpenReplayable(path);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_FALSE(r->spooled());
  EXPECT_EQ(r->name(), path);
  EXPECT_EQ(r->compression(), Compression::kNone);
  ExpectReplays(*r, text);
}

TEST(SpoolTest, PlainLargeFileIsMappedEachTime) {
  TempDir dir;
  std::string text = Text(40000);  // > 1 MiB: OpenInput maps it
  ASSERT_GT(text.size(), std::size_t{1} << 20);
  std::string path = dir.Write("big.json", text);
  auto r = OpenReplayable(path);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->spooled());
  auto in = r->Open();
  ASSERT_TRUE(in.ok());
  EXPECT_TRUE((*in)->Map().has_value());
  ExpectReplays(*r, text);
}

TEST(SpoolTest, PlainFileReplacedBetweenPassesStillReadsTheFirstOne) {
  TempDir dir;
  std::string text = Text(10);
  std::string path = dir.Write("state.json", text);
  auto r = OpenReplayable(path);
  ASSERT_TRUE(r.ok());
  // `pulumi stack export > x && mv x state.json` between two passes.
  std::string other = dir.Write("other.json", "{}");
  ASSERT_EQ(std::rename(other.c_str(), path.c_str()), 0);
  ExpectReplays(*r, text);
}

TEST(SpoolTest, GzipIsDecodedOnceIntoAnUnlinkedFile) {
  TempDir dir;
  TempDir spool_dir;
  std::string text = Text(3000);
  std::string path = Compressed(dir, text, "gzip");
  SpoolOptions options;
  options.directory = spool_dir.path().string();
  auto r = OpenReplayable(path, options);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->spooled());
  EXPECT_EQ(r->compression(), Compression::kGzip);
  EXPECT_EQ(r->name(), path);
  EXPECT_EQ(CountEntries(options.directory), 0);
  ExpectReplays(*r, text);
  auto in = r->Open();
  ASSERT_TRUE(in.ok());
  EXPECT_TRUE((*in)->Map().has_value());
}

TEST(SpoolTest, ZstdIsDecodedOnce) {
  TempDir dir;
  std::string text = Text(3000);
  std::string path = Compressed(dir, text, "zstd");
  auto r = OpenReplayable(path);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->spooled());
  EXPECT_EQ(r->compression(), Compression::kZstd);
  ExpectReplays(*r, text);
}

TEST(SpoolTest, SpoolFileIsPrivate) {
  TempDir dir;
  std::string path = Compressed(dir, Text(5), "gzip");
  auto r = OpenReplayable(path);
  ASSERT_TRUE(r.ok());
  // The spool file is unlinked; /proc still shows the descriptor. Its mode
  // is checked through the mapping's backing file in /proc/self/fd: every
  // descriptor of this process pointing at a deleted pstate-spool file.
  bool seen = false;
  DIR* d = ::opendir("/proc/self/fd");
  if (d == nullptr) GTEST_SKIP() << "no /proc";
  while (dirent* e = ::readdir(d)) {
    std::string fd_path = std::string("/proc/self/fd/") + e->d_name;
    char target[4096];
    ssize_t n = ::readlink(fd_path.c_str(), target, sizeof target - 1);
    if (n <= 0) continue;
    std::string t(target, static_cast<std::size_t>(n));
    if (t.find("pstate-spool-") == std::string::npos) continue;
    EXPECT_NE(t.find("(deleted)"), std::string::npos) << t;
    struct stat st {};
    ASSERT_EQ(::stat(fd_path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    seen = true;
  }
  ::closedir(d);
  EXPECT_TRUE(seen);
}

TEST(SpoolTest, EmptyInputs) {
  TempDir dir;
  std::string empty = dir.Write("empty.json", "");
  auto plain = OpenReplayable(empty);
  ASSERT_TRUE(plain.ok());
  ExpectReplays(*plain, "");

  std::string gz = Compressed(dir, "", "gzip");
  auto spooled = OpenReplayable(gz);
  ASSERT_TRUE(spooled.ok()) << spooled.status().message();
  EXPECT_TRUE(spooled->spooled());
  ExpectReplays(*spooled, "");
  auto in = spooled->Open();
  ASSERT_TRUE(in.ok());
  auto m = (*in)->Map();
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->size, 0u);
  EXPECT_EQ(m->data[0], '\0');  // the padding is readable
}

/// Runs `body` with standard input replaced by the read end of a pipe that
/// a thread fills with `bytes`.
template <typename Body>
void WithStdinPipe(const std::string& bytes, Body body) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::thread writer([&] {
    std::size_t done = 0;
    while (done < bytes.size()) {
      ssize_t put = ::write(fds[1], bytes.data() + done, bytes.size() - done);
      if (put <= 0) break;
      done += static_cast<std::size_t>(put);
    }
    ::close(fds[1]);
  });
  int saved = ::dup(0);
  ASSERT_GE(saved, 0);
  ASSERT_EQ(::dup2(fds[0], 0), 0);
  ::close(fds[0]);
  body();
  ::dup2(saved, 0);
  ::close(saved);
  writer.join();
}

TEST(SpoolTest, StdinThroughAPipe) {
  std::string text = Text(20000);  // more than a pipe buffer
  WithStdinPipe(text, [&] {
    auto r = OpenReplayable("-");
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_TRUE(r->spooled());
    EXPECT_EQ(r->name(), "<stdin>");
    ExpectReplays(*r, text);
  });
}

TEST(SpoolTest, GzipOnStdin) {
  TempDir dir;
  std::string text = Text(500);
  std::string gz = ReadFile(Compressed(dir, text, "gzip"));
  WithStdinPipe(gz, [&] {
    auto r = OpenReplayable("-");
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(r->compression(), Compression::kGzip);
    ExpectReplays(*r, text);
  });
}

TEST(SpoolTest, EmptyStdin) {
  WithStdinPipe("", [&] {
    auto r = OpenReplayable("-");
    ASSERT_TRUE(r.ok()) << r.status().message();
    ExpectReplays(*r, "");
  });
}

TEST(SpoolTest, ErrorsNameTheInput) {
  TempDir dir;
  auto missing = OpenReplayable(dir.File("nope.json"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), Errc::kNotFound);
  EXPECT_NE(missing.status().message().find("nope.json"), std::string::npos);

  auto directory = OpenReplayable(dir.path().string());
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(directory.status().code(), Errc::kInvalidArgument);

  // A damaged gzip stream fails in the first pass, where it is damaged;
  // every later pass and bytes() fail the same way.
  std::string text = Text(200000);  // larger than what opening reads
  std::string gz = ReadFile(Compressed(dir, text, "gzip"));
  std::string cut = dir.Write("cut.json.gz", gz.substr(0, gz.size() / 2));
  auto damaged = OpenReplayable(cut);
  ASSERT_TRUE(damaged.ok()) << damaged.status().message();
  auto first = damaged->Open();
  ASSERT_TRUE(first.ok());
  auto read = ReadAll(**first);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), Errc::kCorrupt);
  EXPECT_EQ(read.status().message().rfind(cut + ": ", 0), 0u)
      << read.status().message();
  auto again = damaged->Open();
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().message(), read.status().message());
  auto bytes = damaged->bytes();
  ASSERT_FALSE(bytes.ok());
  EXPECT_EQ(bytes.status().code(), Errc::kCorrupt);

  SpoolOptions nowhere;
  nowhere.directory = dir.File("no-such-dir");
  std::string good = Compressed(dir, "{}", "gzip");
  auto no_spool = OpenReplayable(good, nowhere);
  ASSERT_FALSE(no_spool.ok());
  EXPECT_EQ(no_spool.status().code(), Errc::kIo);
  EXPECT_NE(no_spool.status().message().find(good), std::string::npos);
  EXPECT_NE(no_spool.status().message().find("no-such-dir"), std::string::npos);
}

TEST(SpoolTest, DecodeLimitAppliesOnce) {
  TempDir dir;
  std::string path = Compressed(dir, Text(3000), "gzip");
  SpoolOptions options;
  options.input.max_decoded_bytes = 1000;
  auto r = OpenReplayable(path, options);
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto first = r->Open();
  ASSERT_TRUE(first.ok());
  auto read = ReadAll(**first);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), Errc::kLimit);
  EXPECT_LE(r->spooled_bytes(), 1000u);
  auto again = r->Open();
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), Errc::kLimit);
}

/// `size` bytes of JSON whitespace, gzip-compressed (about 1000:1).
std::string WhitespaceBomb(const TempDir& dir, std::size_t size) {
  std::string out = dir.File("bomb.json.gz");
  std::string cmd = "head -c " + std::to_string(size) +
                    " /dev/zero | tr '\\0' ' ' | gzip -c > " + out;
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  return out;
}

TEST(SpoolTest, BombStopsSpoolingAtTheLimit) {
  // 64 MiB of spaces in ~64 KiB of gzip, under a 4 MiB limit: the first
  // pass fails at the limit and the spool file holds no more than that.
  TempDir dir;
  TempDir spool_dir;
  std::string path = WhitespaceBomb(dir, std::size_t{64} << 20);
  SpoolOptions options;
  options.directory = spool_dir.path().string();
  options.input.max_decoded_bytes = std::uint64_t{4} << 20;
  auto r = OpenReplayable(path, options);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->spooled_bytes(), 0u);  // nothing before the first pass
  auto first = r->Open();
  ASSERT_TRUE(first.ok());
  auto read = ReadAll(**first);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), Errc::kLimit);
  EXPECT_NE(read.status().message().find(path), std::string::npos);
  EXPECT_GT(r->spooled_bytes(), 0u);
  EXPECT_LE(r->spooled_bytes(), options.input.max_decoded_bytes);
  EXPECT_EQ(CountEntries(options.directory), 0);
}

TEST(SpoolTest, AStoppedFirstPassStopsTheSpoolWhereItStopped) {
  // A pass that gives up early (a syntax error in the first bytes) leaves
  // the spool file no longer than what it read.
  TempDir dir;
  std::string text = "{]" + Text(200000);  // ~8 MiB after a syntax error
  std::string path = Compressed(dir, text, "gzip");
  auto r = OpenReplayable(path);
  ASSERT_TRUE(r.ok());
  auto first = r->Open();
  ASSERT_TRUE(first.ok());
  std::string buf(64 << 10, '\0');
  auto got = (*first)->Read(buf.data(), buf.size());
  ASSERT_TRUE(got.ok());
  ASSERT_GT(*got, 0u);
  EXPECT_EQ(r->spooled_bytes(), *got);
  EXPECT_LT(r->spooled_bytes(), text.size());
}

TEST(SpoolTest, TwoPassesSeeIdenticalBytesWhereverTheFirstStopped) {
  TempDir dir;
  std::string text = Text(100000);  // ~4 MiB
  std::string path = Compressed(dir, text, "zstd");
  auto r = OpenReplayable(path);
  ASSERT_TRUE(r.ok());
  auto first = r->Open();
  ASSERT_TRUE(first.ok());
  EXPECT_FALSE((*first)->Map().has_value());  // the tee streams
  std::string head(12345, '\0');
  std::size_t have = 0;
  while (have < head.size()) {
    auto got = (*first)->Read(head.data() + have, head.size() - have);
    ASSERT_TRUE(got.ok());
    ASSERT_GT(*got, 0u);
    have += *got;
  }
  // The second pass decodes the rest first, then maps the whole copy.
  auto second = r->Open();
  ASSERT_TRUE(second.ok()) << second.status().message();
  EXPECT_EQ(r->spooled_bytes(), text.size());
  auto all = ReadMappedOrNot(**second);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, text);
  // The first pass goes on from the copy and sees the same bytes.
  auto rest = ReadAll(**first);
  ASSERT_TRUE(rest.ok()) << rest.status().message();
  EXPECT_EQ(head + *rest, text);
  ExpectReplays(*r, text);
}

TEST(SpoolTest, FileThatShrinksIsAnIoErrorNotSigbus) {
  TempDir dir;
  std::string text = Text(40000);
  std::string path = dir.Write("big.json", text);
  auto r = OpenReplayable(path);
  ASSERT_TRUE(r.ok());
  auto bytes = r->bytes();
  ASSERT_TRUE(bytes.ok());
  ASSERT_EQ(bytes->size(), text.size());
  ASSERT_EQ(::truncate(path.c_str(), 4096), 0);
  // Touching the vanished pages reads zeros instead of raising SIGBUS.
  std::size_t zeros = 0;
  for (std::size_t i = std::size_t{1} << 20; i < bytes->size(); i += 4096) {
    if ((*bytes)[i] == '\0') ++zeros;
  }
  EXPECT_GT(zeros, 0u);
  Status s = r->bytes_status();
  EXPECT_EQ(s.code(), Errc::kIo);
  EXPECT_EQ(s.message().rfind(path + ": ", 0), 0u) << s.message();

  // A fresh pass sees the shorter file.
  auto in = r->Open();
  ASSERT_TRUE(in.ok());
  auto got = ReadAll(**in);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->size(), 4096u);
}

TEST(SpoolTest, MovedReplayableKeepsWorking) {
  TempDir dir;
  std::string text = Text(100);
  std::string path = Compressed(dir, text, "zstd");
  auto r = OpenReplayable(path);
  ASSERT_TRUE(r.ok());
  auto in = r->Open();  // outlives the Replayable it came from
  Replayable moved = std::move(r).value();
  ExpectReplays(moved, text);
  auto got = ReadAll(**in);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, text);
}

}  // namespace
}  // namespace pstate::io
