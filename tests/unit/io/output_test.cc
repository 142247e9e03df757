#include "io/output.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "unit/testing/temp_dir.h"

namespace pstate::io {
namespace {

using pstate::testing::ReadFile;
using pstate::testing::TempDir;

std::vector<std::string> Entries(const TempDir& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(OpenOutputTest, WritesThroughATempFileRenamedOnCommit) {
  TempDir dir;
  std::string path = dir.File("out.json");
  auto out = OpenOutput(path);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ((*out)->name(), path);
  (*out)->Write("{\"a\":");
  (*out)->Put('1');
  (*out)->Write("}\n");
  // Before Commit the target does not exist; a temporary file sits beside it.
  EXPECT_FALSE(std::filesystem::exists(path));
  auto before = Entries(dir);
  ASSERT_EQ(before.size(), 1u);
  EXPECT_NE(before[0].find("out.json"), std::string::npos);
  EXPECT_NE(before[0], "out.json");
  ASSERT_TRUE((*out)->Commit().ok());
  EXPECT_EQ(ReadFile(path), "{\"a\":1}\n");
  EXPECT_EQ(Entries(dir), std::vector<std::string>{"out.json"});
  out->reset();  // destruction after Commit keeps the file
  EXPECT_EQ(ReadFile(path), "{\"a\":1}\n");
}

TEST(OpenOutputTest, LargeWritesKeepOrder) {
  TempDir dir;
  std::string path = dir.File("big.json");
  std::string expected;
  {
    auto out = OpenOutput(path);
    ASSERT_TRUE(out.ok());
    for (int i = 0; i < 3; ++i) {
      std::string piece(static_cast<std::size_t>(500000 + i * 600000),
                        static_cast<char>('a' + i));
      (*out)->Write(piece);
      (*out)->Put('\n');
      expected += piece;
      expected += '\n';
    }
    ASSERT_TRUE((*out)->Commit().ok());
  }
  EXPECT_EQ(ReadFile(path), expected);
}

TEST(OpenOutputTest, NewFileGetsOrdinaryPermissions) {
  TempDir dir;
  std::string path = dir.File("perm.json");
  auto out = OpenOutput(path);
  ASSERT_TRUE(out.ok());
  ASSERT_TRUE((*out)->Commit().ok());
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  mode_t mask = ::umask(0);
  ::umask(mask);
  EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask);
}

TEST(OpenOutputTest, AbandonLeavesNothing) {
  TempDir dir;
  std::string path = dir.File("out.json");
  auto out = OpenOutput(path);
  ASSERT_TRUE(out.ok());
  (*out)->Write("partial");
  (*out)->Abandon();
  EXPECT_TRUE(Entries(dir).empty());
  out->reset();
  EXPECT_TRUE(Entries(dir).empty());
}

TEST(OpenOutputTest, DestructionWithoutCommitLeavesNothing) {
  TempDir dir;
  std::string path = dir.File("out.json");
  {
    auto out = OpenOutput(path);
    ASSERT_TRUE(out.ok());
    (*out)->Write(std::string(3 << 20, 'x'));  // some of it already flushed
  }
  EXPECT_TRUE(Entries(dir).empty());
}

TEST(OpenOutputTest, ExistingFileUntouchedWhenAbandoned) {
  TempDir dir;
  std::string path = dir.Write("state.json", "original");
  {
    auto out = OpenOutput(path);
    ASSERT_TRUE(out.ok());
    (*out)->Write("replacement");
    (*out)->Abandon();
  }
  EXPECT_EQ(ReadFile(path), "original");
  {
    auto out = OpenOutput(path);
    ASSERT_TRUE(out.ok());
    (*out)->Write("replacement");
  }
  EXPECT_EQ(ReadFile(path), "original");
  EXPECT_EQ(Entries(dir), std::vector<std::string>{"state.json"});
  {
    auto out = OpenOutput(path);
    ASSERT_TRUE(out.ok());
    (*out)->Write("replacement");
    ASSERT_TRUE((*out)->Commit().ok());
  }
  EXPECT_EQ(ReadFile(path), "replacement");
  EXPECT_EQ(Entries(dir), std::vector<std::string>{"state.json"});
}

TEST(OpenOutputTest, MissingDirectoryFails) {
  TempDir dir;
  auto out = OpenOutput(dir.File("no/such/dir/out.json"));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), Errc::kNotFound);
  EXPECT_NE(out.status().message().find("out.json"), std::string::npos);
}

TEST(OpenOutputTest, DashIsStandardOutput) {
  auto out = OpenOutput("-");
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)->name(), "<stdout>");
  EXPECT_TRUE((*out)->Commit().ok());
}

// --- The -o rule: links are followed, non-regular files written in place.

mode_t ModeOf(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st.st_mode;
}

TEST(OpenOutputTest, FifoIsWrittenInPlace) {
  TempDir dir;
  std::string fifo = dir.File("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] {
    int fd = ::open(fifo.c_str(), O_RDONLY);
    char buf[4096];
    ssize_t n;
    while ((n = ::read(fd, buf, sizeof buf)) > 0) {
      received.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
  });
  {
    auto out = OpenOutput(fifo);
    ASSERT_TRUE(out.ok()) << out.status().message();
    (*out)->Write("{\"through\":\"the fifo\"}\n");
    ASSERT_TRUE((*out)->Commit().ok());
  }
  reader.join();
  EXPECT_EQ(received, "{\"through\":\"the fifo\"}\n");
  EXPECT_TRUE(S_ISFIFO(ModeOf(fifo)));
  EXPECT_EQ(Entries(dir), std::vector<std::string>{"pipe"});
}

TEST(OpenOutputTest, LinkToADeviceWritesIntoTheDevice) {
  TempDir dir;
  std::string link = dir.File("null");
  ASSERT_EQ(::symlink("/dev/null", link.c_str()), 0);
  auto out = OpenOutput(link, OutputOptions{.holds_secrets = true});
  ASSERT_TRUE(out.ok()) << out.status().message();
  (*out)->Write("discarded");
  ASSERT_TRUE((*out)->Commit().ok());
  EXPECT_TRUE(S_ISLNK(ModeOf(link)));
  EXPECT_TRUE(S_ISCHR(ModeOf("/dev/null")));
  EXPECT_EQ(Entries(dir), std::vector<std::string>{"null"});
}

TEST(OpenOutputTest, ProcFdLinkIsWrittenInPlace) {
  // /dev/stdout is a link to /proc/self/fd/1; any descriptor behaves alike.
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::string path = "/proc/self/fd/" + std::to_string(fds[1]);
  {
    auto out = OpenOutput(path);
    ASSERT_TRUE(out.ok()) << out.status().message();
    (*out)->Write("to the pipe");
    ASSERT_TRUE((*out)->Commit().ok());
  }
  ::close(fds[1]);
  char buf[64] = {};
  ssize_t n = ::read(fds[0], buf, sizeof buf);
  ::close(fds[0]);
  ASSERT_GT(n, 0);
  EXPECT_EQ(std::string(buf, static_cast<std::size_t>(n)), "to the pipe");
}

TEST(OpenOutputTest, SymlinkIsFollowedAndItsTargetReplaced) {
  TempDir dir;
  std::filesystem::create_directory(dir.path() / "real");
  std::string target = dir.Write("real/state.json", "old");
  ASSERT_EQ(::chmod(target.c_str(), 0640), 0);
  std::string link = dir.File("link.json");
  ASSERT_EQ(::symlink("real/state.json", link.c_str()), 0);
  {
    auto out = OpenOutput(link);
    ASSERT_TRUE(out.ok()) << out.status().message();
    (*out)->Write("new");
    // The temporary file sits beside the target, not beside the link.
    EXPECT_EQ(Entries(dir).size(), 2u);
    ASSERT_TRUE((*out)->Commit().ok());
  }
  EXPECT_TRUE(S_ISLNK(ModeOf(link)));
  EXPECT_EQ(ReadFile(target), "new");
  EXPECT_EQ(ModeOf(target) & 0777, 0640u);  // a replaced file keeps its mode
  EXPECT_EQ(
      std::distance(std::filesystem::directory_iterator(dir.path() / "real"),
                    std::filesystem::directory_iterator()),
      1);
}

TEST(OpenOutputTest, DanglingSymlinkCreatesItsTarget) {
  TempDir dir;
  std::string link = dir.File("link.json");
  ASSERT_EQ(::symlink("made.json", link.c_str()), 0);
  auto out = OpenOutput(link);
  ASSERT_TRUE(out.ok()) << out.status().message();
  (*out)->Write("x");
  ASSERT_TRUE((*out)->Commit().ok());
  EXPECT_TRUE(S_ISLNK(ModeOf(link)));
  EXPECT_EQ(ReadFile(dir.File("made.json")), "x");
}

TEST(OpenOutputTest, DirectoryIsAUsageError) {
  TempDir dir;
  auto out = OpenOutput(dir.path().string());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), Errc::kInvalidArgument);
  EXPECT_NE(out.status().message().find("directory"), std::string::npos);
  EXPECT_TRUE(Entries(dir).empty());
}

TEST(OpenOutputTest, LongestFileNameWorks) {
  TempDir dir;
  std::string path = dir.File(std::string(250, 'n') + ".json");
  auto out = OpenOutput(path);
  ASSERT_TRUE(out.ok()) << out.status().message();
  (*out)->Write("{}");
  ASSERT_TRUE((*out)->Commit().ok());
  EXPECT_EQ(ReadFile(path), "{}");
}

// --- Outputs holding secrets.

TEST(OpenOutputTest, SecretOutputIsPrivateFromTheFirstByte) {
  TempDir dir;
  std::string path = dir.File("plain.json");
  auto out = OpenOutput(path, OutputOptions{.holds_secrets = true});
  ASSERT_TRUE(out.ok());
  auto entries = Entries(dir);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(ModeOf(dir.File(entries[0])) & 0077, 0u);
  (*out)->Write("secret");
  ASSERT_TRUE((*out)->Commit().ok());
  EXPECT_EQ(ModeOf(path) & 0077, 0u);
  EXPECT_NE(ModeOf(path) & 0600, 0u);
}

TEST(OpenOutputTest, SecretOutputKeepsAStricterModeAndTightensALooserOne) {
  TempDir dir;
  std::string strict = dir.Write("strict.json", "x");
  ASSERT_EQ(::chmod(strict.c_str(), 0400), 0);
  std::string loose = dir.Write("loose.json", "x");
  ASSERT_EQ(::chmod(loose.c_str(), 0644), 0);
  for (const std::string& path : {strict, loose}) {
    auto out = OpenOutput(path, OutputOptions{.holds_secrets = true});
    ASSERT_TRUE(out.ok()) << out.status().message();
    (*out)->Write("plaintext");
    ASSERT_TRUE((*out)->Commit().ok());
    EXPECT_EQ(ReadFile(path), "plaintext");
  }
  EXPECT_EQ(ModeOf(strict) & 0777, 0400u);
  EXPECT_EQ(ModeOf(loose) & 0777, 0600u);
}

void ExpectSignalRemovesTempFile(int sig) {
  TempDir dir;
  std::string path = dir.File("out.json");
  ::fflush(nullptr);
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto out = OpenOutput(path, OutputOptions{.holds_secrets = true});
    if (!out.ok()) ::_exit(10);
    (*out)->Write(std::string(3 << 20, 's'));  // some of it reaches the file
    if (LiveTempFilesForTesting() != 1) ::_exit(11);
    ::raise(sig);
    ::_exit(12);  // not reached: the signal ends the process
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "exit " << WEXITSTATUS(status);
  EXPECT_EQ(WTERMSIG(status), sig);
  EXPECT_TRUE(Entries(dir).empty()) << "signal " << sig;
}

TEST(OpenOutputTest, FatalSignalsRemoveTheTemporaryFile) {
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) {
    ExpectSignalRemovesTempFile(sig);
  }
}

TEST(OpenOutputTest, CommitAndAbandonUnregisterTheTemporaryFile) {
  TempDir dir;
  std::size_t before = LiveTempFilesForTesting();
  {
    auto out = OpenOutput(dir.File("a.json"));
    ASSERT_TRUE(out.ok());
    EXPECT_EQ(LiveTempFilesForTesting(), before + 1);
    ASSERT_TRUE((*out)->Commit().ok());
    EXPECT_EQ(LiveTempFilesForTesting(), before);
  }
  {
    auto out = OpenOutput(dir.File("b.json"));
    ASSERT_TRUE(out.ok());
    EXPECT_EQ(LiveTempFilesForTesting(), before + 1);
  }
  EXPECT_EQ(LiveTempFilesForTesting(), before);
}

TEST(StringOutputTest, CollectsBytes) {
  StringOutput out;
  out.Write("ab");
  out.Put('c');
  out.Write(std::string(2 << 20, 'd'));
  EXPECT_EQ(out.str().size(), 3u + (2u << 20));
  EXPECT_EQ(out.str().substr(0, 4), "abcd");
  EXPECT_TRUE(out.Commit().ok());
  EXPECT_EQ(out.name(), "<memory>");
}

// Every write size (the small-copy cases 0-32, memcpy, a buffer's worth and
// more) at every kind of buffer position, and Reserve/Advance in between,
// must come out byte for byte in order.
TEST(StringOutputTest, EverySizeAndReserveKeepOrder) {
  StringOutput out;
  std::string want;
  unsigned seed = 7;
  auto next = [&] {
    seed = seed * 1103515245u + 12345u;
    return (seed >> 16) & 0x7FFF;
  };
  for (int round = 0; round < 5000; ++round) {
    std::size_t n = 0;
    switch (next() % 4) {
      case 0: n = next() % 33; break;
      case 1: n = next() % 300; break;
      case 2: n = next() % 9000; break;
      default: n = round % 97 == 0 ? (std::size_t{1} << 16) + next() % 5 : 3;
    }
    std::string bytes(n, '\0');
    for (char& c : bytes) c = static_cast<char>('a' + next() % 26);
    if (next() % 5 == 0 && n <= Output::kMaxReserve) {
      char* at = out.Reserve(n);
      std::copy(bytes.begin(), bytes.end(), at);
      out.Advance(n);
    } else {
      out.Write(bytes);
    }
    want += bytes;
  }
  ASSERT_EQ(out.str().size(), want.size());
  EXPECT_TRUE(out.str() == want);
}

// CopyRange appends a file's byte range: in the kernel into a file output,
// through pread into any other; an input that ends early is an error.
TEST(OutputCopyRangeTest, CopiesTheRangeIntoFilesAndOtherOutputs) {
  TempDir dir;
  std::string text;
  for (int i = 0; text.size() < (3u << 20); ++i) {
    text += std::to_string(i) + ",";
  }
  std::string src = (dir.path() / "src").string();
  {
    std::ofstream f(src, std::ios::binary);
    f << text;
  }
  int fd = ::open(src.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  std::string dst = (dir.path() / "dst").string();
  auto out = OpenOutput(dst);
  ASSERT_TRUE(out.ok());
  (*out)->Write("head:");
  ASSERT_TRUE((*out)->CopyRange(fd, 7, 2u << 20).ok());
  (*out)->Write(":mid:");
  ASSERT_TRUE((*out)->CopyRange(fd, 0, 5).ok());
  ASSERT_TRUE((*out)->Commit().ok());
  std::string want =
      "head:" + text.substr(7, 2u << 20) + ":mid:" + text.substr(0, 5);
  EXPECT_TRUE(ReadFile(dst) == want);

  StringOutput mem;
  mem.Write("head:");
  ASSERT_TRUE(mem.CopyRange(fd, 7, 2u << 20).ok());
  mem.Write(":mid:");
  ASSERT_TRUE(mem.CopyRange(fd, 0, 5).ok());
  EXPECT_TRUE(mem.str() == want);

  // Past the end of the input: an error, for both kinds.
  auto late = OpenOutput((dir.path() / "late").string());
  ASSERT_TRUE(late.ok());
  EXPECT_EQ((*late)->CopyRange(fd, text.size() - 3, 10).code(), Errc::kIo);
  (*late)->Abandon();
  StringOutput late_mem;
  EXPECT_EQ(late_mem.CopyRange(fd, text.size() - 3, 10).code(), Errc::kIo);
  ::close(fd);
}
}  // namespace
}  // namespace pstate::io
