#include "io/input.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "unit/testing/temp_dir.h"

namespace pstate::io {
namespace {

using pstate::testing::ReadFile;
using pstate::testing::TempDir;

/// Reads `in` to its end in pieces of `chunk` bytes.
Result<std::string> ReadAll(InputStream& in, std::size_t chunk = 4096) {
  std::string out;
  std::string buf(chunk, '\0');
  for (;;) {
    auto got = in.Read(buf.data(), buf.size());
    if (!got.ok()) return got.status();
    if (*got == 0) return out;
    out.append(buf.data(), *got);
  }
}

std::string SampleText() {
  std::string s;
  for (int i = 0; i < 2000; ++i) {
    s += "{\"line\": " + std::to_string(i) + ", \"text\": \"sample\"}\n";
  }
  return s;
}

/// Compresses `plain` with the command-line tool `tool` ("gzip" or "zstd").
std::string Compress(const TempDir& dir, const std::string& plain,
                     const std::string& tool) {
  std::string in = dir.Write("plain-for-" + tool, plain);
  std::string out = dir.File("compressed." + tool);
  std::string cmd = tool + " -c -q " + in + " > " + out;
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  return ReadFile(out);
}

TEST(DetectCompressionTest, RecognizesMagicBytes) {
  EXPECT_EQ(DetectCompression(std::string("\x1f\x8b\x08\x00", 4)),
            Compression::kGzip);
  EXPECT_EQ(DetectCompression(std::string("\x1f\x8b\x08", 3)),
            Compression::kGzip);
  EXPECT_EQ(DetectCompression(std::string("\x28\xb5\x2f\xfd", 4)),
            Compression::kZstd);
  EXPECT_EQ(DetectCompression(std::string("\x28\xb5\x2f\xfd\x00\x01", 6)),
            Compression::kZstd);
}

TEST(DetectCompressionTest, NeitherOrTooShort) {
  EXPECT_EQ(DetectCompression(""), Compression::kNone);
  EXPECT_EQ(DetectCompression("{"), Compression::kNone);
  EXPECT_EQ(DetectCompression("{\"version\":3}"), Compression::kNone);
  // gzip with a method other than deflate (08) is not gzip for Pulumi.
  EXPECT_EQ(DetectCompression(std::string("\x1f\x8b\x07\x00", 4)),
            Compression::kNone);
  EXPECT_EQ(DetectCompression(std::string("\x1f\x8b", 2)), Compression::kNone);
  EXPECT_EQ(DetectCompression(std::string("\x28\xb5\x2f", 3)),
            Compression::kNone);
  EXPECT_EQ(DetectCompression(std::string("\x28\xb5\x2f\xfe", 4)),
            Compression::kNone);
}

TEST(CompressionNameTest, Names) {
  EXPECT_EQ(CompressionName(Compression::kNone), "none");
  EXPECT_EQ(CompressionName(Compression::kGzip), "gzip");
  EXPECT_EQ(CompressionName(Compression::kZstd), "zstd");
}

// The one spelling of standard input's name, and OpenInput's names.
TEST(InputNameTest, StandardInputAndPaths) {
  EXPECT_EQ(InputName("-"), "<stdin>");
  EXPECT_EQ(InputName("-"), std::string(kStdinName));
  EXPECT_EQ(InputName("./-"), "./-");
  EXPECT_EQ(InputName("a/b.json"), "a/b.json");
  testing::TempDir dir;
  std::string path = dir.Write("named.json", "{}");
  auto in = OpenInput(path);
  ASSERT_TRUE(in.ok());
  EXPECT_EQ((*in)->name(), InputName(path));
}

TEST(OpenInputTest, PlainFile) {
  TempDir dir;
  std::string text = SampleText();
  std::string path = dir.Write("state.json", text);
  auto in = OpenInput(path);
  ASSERT_TRUE(in.ok()) << in.status().message();
  EXPECT_EQ((*in)->name(), path);
  EXPECT_EQ((*in)->compression(), Compression::kNone);
  ASSERT_TRUE((*in)->source_size().has_value());
  EXPECT_EQ(*(*in)->source_size(), text.size());
  auto all = ReadAll(**in, 7);  // odd chunk: the peeked bytes come first
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, text);
  EXPECT_EQ((*in)->source_consumed(), text.size());
}

TEST(OpenInputTest, ShortAndEmptyPlainFiles) {
  TempDir dir;
  for (std::string text : {std::string(), std::string("{"), std::string("{}"),
                           std::string("\x1f\x8b", 2)}) {
    std::string path = dir.Write("short.json", text);
    auto in = OpenInput(path);
    ASSERT_TRUE(in.ok()) << in.status().message();
    EXPECT_EQ((*in)->compression(), Compression::kNone);
    auto all = ReadAll(**in, 1);
    ASSERT_TRUE(all.ok());
    EXPECT_EQ(*all, text);
  }
}

TEST(OpenInputTest, GzipFile) {
  TempDir dir;
  std::string text = SampleText();
  std::string gz = Compress(dir, text, "gzip");
  ASSERT_EQ(DetectCompression(gz), Compression::kGzip);
  // The name says nothing: detection is by content only.
  std::string path = dir.Write("state.json", gz);
  auto in = OpenInput(path);
  ASSERT_TRUE(in.ok()) << in.status().message();
  EXPECT_EQ((*in)->compression(), Compression::kGzip);
  EXPECT_EQ(*(*in)->source_size(), gz.size());
  auto all = ReadAll(**in, 1000);
  ASSERT_TRUE(all.ok()) << all.status().message();
  EXPECT_EQ(*all, text);
  EXPECT_EQ((*in)->source_consumed(), gz.size());
}

TEST(OpenInputTest, ZstdFile) {
  TempDir dir;
  std::string text = SampleText();
  std::string zst = Compress(dir, text, "zstd");
  ASSERT_EQ(DetectCompression(zst), Compression::kZstd);
  std::string path = dir.Write("state.json.gz", zst);  // misleading name
  auto in = OpenInput(path);
  ASSERT_TRUE(in.ok()) << in.status().message();
  EXPECT_EQ((*in)->compression(), Compression::kZstd);
  auto all = ReadAll(**in);
  ASSERT_TRUE(all.ok()) << all.status().message();
  EXPECT_EQ(*all, text);
}

TEST(OpenInputTest, MissingFileIsNotFoundAndNamed) {
  TempDir dir;
  std::string path = dir.File("no-such-state.json");
  auto in = OpenInput(path);
  ASSERT_FALSE(in.ok());
  EXPECT_EQ(in.status().code(), Errc::kNotFound);
  EXPECT_NE(in.status().message().find(path), std::string::npos)
      << in.status().message();
}

TEST(OpenInputTest, DirectoryIsInvalidArgument) {
  TempDir dir;
  auto in = OpenInput(dir.path().string());
  ASSERT_FALSE(in.ok());
  EXPECT_EQ(in.status().code(), Errc::kInvalidArgument);
  EXPECT_NE(in.status().message().find(dir.path().string()), std::string::npos);
  EXPECT_NE(in.status().message().find("directory"), std::string::npos);
}

TEST(MemoryInputTest, PlainBytes) {
  std::string text = "{\"version\":3}";
  auto in = MemoryInput(text, "mem.json");
  EXPECT_EQ(in->name(), "mem.json");
  EXPECT_EQ(in->compression(), Compression::kNone);
  EXPECT_EQ(*in->source_size(), text.size());
  auto all = ReadAll(*in, 3);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, text);
  EXPECT_EQ(in->source_consumed(), text.size());
}

TEST(MemoryInputTest, DefaultNameAndEmpty) {
  auto in = MemoryInput("");
  EXPECT_EQ(in->name(), "<memory>");
  auto all = ReadAll(*in);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, "");
}

TEST(MemoryInputTest, DecompressesGzipAndZstd) {
  TempDir dir;
  std::string text = SampleText();
  for (std::string tool : {"gzip", "zstd"}) {
    auto in = MemoryInput(Compress(dir, text, tool));
    EXPECT_EQ(in->compression(),
              tool == "gzip" ? Compression::kGzip : Compression::kZstd);
    auto all = ReadAll(*in, 333);
    ASSERT_TRUE(all.ok()) << tool << ": " << all.status().message();
    EXPECT_EQ(*all, text) << tool;
  }
}

TEST(MemoryInputTest, TruncatedCompressedStreamIsAnErrorNotACrash) {
  TempDir dir;
  std::string text = SampleText();
  for (std::string tool : {"gzip", "zstd"}) {
    std::string full = Compress(dir, text, tool);
    for (std::size_t cut :
         {std::size_t{4}, std::size_t{12}, full.size() / 2, full.size() - 1}) {
      auto in = MemoryInput(full.substr(0, cut), "cut." + tool);
      auto all = ReadAll(*in, 512);
      ASSERT_FALSE(all.ok()) << tool << " cut at " << cut;
      EXPECT_NE(all.status().message().find("cut." + tool), std::string::npos)
          << all.status().message();
    }
  }
}

// §6: `gzip < /dev/null` is an empty input, as an empty plain file is
// (the reader then says "empty input"), not an unrecognized format.
TEST(OpenInputTest, CompressedEmptyStreamsAreEmptyInputs) {
  TempDir dir;
  for (const std::string tool : {"gzip", "zstd"}) {
    std::string bytes = Compress(dir, "", tool);
    ASSERT_FALSE(bytes.empty());
    std::string path = dir.Write("empty." + tool, bytes);
    auto in = OpenInput(path);
    ASSERT_TRUE(in.ok()) << tool << ": " << in.status().message();
    auto text = ReadAll(**in);
    ASSERT_TRUE(text.ok()) << tool << ": " << text.status().message();
    EXPECT_EQ(*text, "");
    auto mem = MemoryInput(bytes, "empty");
    auto mem_text = ReadAll(*mem);
    ASSERT_TRUE(mem_text.ok()) << tool << ": " << mem_text.status().message();
    EXPECT_EQ(*mem_text, "");
    // Data after the empty stream is still refused.
    auto trailing = MemoryInput(bytes + "x", "trailing");
    EXPECT_FALSE(ReadAll(*trailing).ok()) << tool;
  }
}

// F8: a decompression bomb stops at the decoded-bytes limit.
TEST(OpenInputTest, DecompressedBytesStopAtTheLimit) {
  TempDir dir;
  std::string plain(3u << 20, 'A');
  for (const std::string tool : {"gzip", "zstd"}) {
    std::string bytes = Compress(dir, plain, tool);
    InputOptions options;
    options.max_decoded_bytes = 1u << 20;
    auto in = MemoryInput(bytes, "bomb", options);
    auto text = ReadAll(*in, 64 << 10);
    ASSERT_FALSE(text.ok()) << tool;
    EXPECT_EQ(text.status().code(), Errc::kLimit);
    EXPECT_NE(text.status().message().find(
                  "more than 1 MiB (the limit, --max-decompressed-bytes"),
              std::string::npos)
        << text.status().message();
    // At the limit exactly is fine.
    options.max_decoded_bytes = plain.size();
    auto ok = MemoryInput(bytes, "fits", options);
    auto all = ReadAll(*ok, 64 << 10);
    ASSERT_TRUE(all.ok()) << all.status().message();
    EXPECT_EQ(all->size(), plain.size());
  }
  EXPECT_EQ(kDefaultMaxDecodedBytes, std::uint64_t{64} << 30);
}

TEST(OpenInputTest, TruncatedGzipFileFailsOnRead) {
  TempDir dir;
  std::string gz = Compress(dir, SampleText(), "gzip");
  std::string path = dir.Write("cut.json", gz.substr(0, gz.size() / 2));
  auto in = OpenInput(path);
  if (!in.ok()) {
    // Rejected at open time is acceptable too; it must not crash.
    EXPECT_EQ(in.status().code(), Errc::kCorrupt);
    return;
  }
  auto all = ReadAll(**in);
  ASSERT_FALSE(all.ok());
  EXPECT_EQ(all.status().code(), Errc::kCorrupt);
  EXPECT_NE(all.status().message().find(path), std::string::npos);
}

TEST(OpenInputTest, GarbageAfterGzipMagicIsAnError) {
  std::string bytes("\x1f\x8b\x08garbage that is not deflate", 30);
  auto in = MemoryInput(bytes, "bad.gz");
  auto all = ReadAll(*in);
  EXPECT_FALSE(all.ok());
}

}  // namespace
}  // namespace pstate::io
