// Header bytes of the Go-compatible tar encoder, field by field.
#include "asset_hash/tar_stream.h"

#include <gtest/gtest.h>

#include <string>

#include "base/sha256.h"

namespace pstate::asset_hash {
namespace {

std::string Field(const std::string& block, std::size_t off, std::size_t len) {
  return block.substr(off, len);
}

// NUL-terminated string at `off` (at most `len` bytes).
std::string CString(const std::string& block, std::size_t off,
                    std::size_t len) {
  std::string f = block.substr(off, len);
  return f.substr(0, f.find('\0'));
}

// The checksum recomputed here, independently of the encoder.
std::string ExpectedChecksum(const std::string& block) {
  unsigned sum = 0;
  for (std::size_t i = 0; i < 512; ++i) {
    sum += (i >= 148 && i < 156) ? 0x20u : static_cast<unsigned char>(block[i]);
  }
  char buf[9];
  std::snprintf(buf, sizeof(buf), "%06o", sum);
  return std::string(buf, 6) + std::string(1, '\0') + " ";
}

void ExpectCommonUstarFields(const std::string& b, char typeflag) {
  ASSERT_EQ(b.size(), 512u);
  EXPECT_EQ(Field(b, 100, 8), std::string("0000600\0", 8));
  EXPECT_EQ(Field(b, 108, 8), std::string("0000000\0", 8));
  EXPECT_EQ(Field(b, 116, 8), std::string("0000000\0", 8));
  EXPECT_EQ(Field(b, 136, 12), std::string("00000000000\0", 12));
  EXPECT_EQ(Field(b, 148, 8), ExpectedChecksum(b));
  EXPECT_EQ(b[156], typeflag);
  EXPECT_EQ(Field(b, 157, 100), std::string(100, '\0'));
  EXPECT_EQ(Field(b, 257, 8), std::string("ustar\0"
                                          "00",
                                          8));
  EXPECT_EQ(Field(b, 265, 64), std::string(64, '\0'));
  EXPECT_EQ(Field(b, 329, 8), std::string("0000000\0", 8));
  EXPECT_EQ(Field(b, 337, 8), std::string("0000000\0", 8));
  EXPECT_EQ(Field(b, 500, 12), std::string(12, '\0'));
}

TEST(AssetTarStream, PlainUstarHeader) {
  Result<std::string> h = EncodeMemberHeader("foo", 5);
  ASSERT_TRUE(h.ok());
  ExpectCommonUstarFields(*h, '0');
  EXPECT_EQ(Field(*h, 0, 100), "foo" + std::string(97, '\0'));
  EXPECT_EQ(Field(*h, 124, 12), std::string("00000000005\0", 12));
  EXPECT_EQ(Field(*h, 345, 155), std::string(155, '\0'));
}

TEST(AssetTarStream, ChecksumOfKnownHeader) {
  // Sum for {"foo", 0600, size 12}: computed by hand from the layout.
  Result<std::string> h = EncodeMemberHeader("foo", 12);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(Field(*h, 148, 8), std::string("007676\0 ", 8));
}

TEST(AssetTarStream, NameOfExactly100BytesHasNoTerminator) {
  const std::string name(100, 'n');
  Result<std::string> h = EncodeMemberHeader(name, 0);
  ASSERT_TRUE(h.ok());
  ASSERT_EQ(h->size(), 512u);
  EXPECT_EQ(Field(*h, 0, 100), name);
  EXPECT_EQ(Field(*h, 345, 155), std::string(155, '\0'));
}

TEST(AssetTarStream, LongAsciiNameIsSplitIntoPrefix) {
  const std::string dir(60, 'd');
  const std::string file(80, 'f');
  Result<std::string> h = EncodeMemberHeader(dir + "/" + file, 1);
  ASSERT_TRUE(h.ok());
  ASSERT_EQ(h->size(), 512u);  // still plain ustar, no PAX
  ExpectCommonUstarFields(*h, '0');
  EXPECT_EQ(CString(*h, 0, 100), file);
  EXPECT_EQ(CString(*h, 345, 155), dir);
}

TEST(AssetTarStream, SplitUsesLastSlashWithinFirst156Bytes) {
  // 150 + '/' + 20 + '/' + 30: the last slash in the first 156 bytes is at
  // 150; the suffix "20/30" (51 bytes) fits.
  const std::string name = std::string(150, 'a') + "/" + std::string(20, 'b') +
                           "/" + std::string(30, 'c');
  Result<std::string> h = EncodeMemberHeader(name, 0);
  ASSERT_TRUE(h.ok());
  ASSERT_EQ(h->size(), 512u);
  EXPECT_EQ(CString(*h, 345, 155), std::string(150, 'a'));
  EXPECT_EQ(CString(*h, 0, 100),
            std::string(20, 'b') + "/" + std::string(30, 'c'));
}

TEST(AssetTarStream, UnsplittableLongNameUsesPax) {
  const std::string name(120, 'x');  // no slash at all
  Result<std::string> h = EncodeMemberHeader(name, 7);
  ASSERT_TRUE(h.ok());
  ASSERT_EQ(h->size(), 3 * 512u);
  const std::string pax = h->substr(0, 512);
  const std::string data = h->substr(512, 512);
  const std::string main = h->substr(1024, 512);
  // PAX header block: PaxHeaders.0/<name> cut to 100 bytes.
  EXPECT_EQ(Field(pax, 0, 100), ("PaxHeaders.0/" + name).substr(0, 100));
  EXPECT_EQ(Field(pax, 100, 8), std::string("0000000\0", 8));
  const std::string record = "130 path=" + name + "\n";
  ASSERT_EQ(record.size(), 130u);
  EXPECT_EQ(Field(pax, 124, 12), std::string("00000000202\0", 12));
  EXPECT_EQ(pax[156], 'x');
  EXPECT_EQ(Field(pax, 148, 8), ExpectedChecksum(pax));
  EXPECT_EQ(Field(pax, 257, 8), std::string("ustar\0"
                                            "00",
                                            8));
  EXPECT_EQ(Field(pax, 265, 247), std::string(247, '\0'));  // uname..prefix NUL
  EXPECT_EQ(data, record + std::string(512 - record.size(), '\0'));
  ExpectCommonUstarFields(main, '0');
  EXPECT_EQ(Field(main, 0, 100), name.substr(0, 100));
  EXPECT_EQ(Field(main, 124, 12), std::string("00000000007\0", 12));
  EXPECT_EQ(Field(main, 345, 155), std::string(155, '\0'));
}

TEST(AssetTarStream, NonAsciiNameUsesPax) {
  const std::string name =
      "donn\xc3\xa9"
      "es/\xc3\xa9t\xc3\xa9.txt";  // données/été.txt
  Result<std::string> h = EncodeMemberHeader(name, 3);
  ASSERT_TRUE(h.ok());
  ASSERT_EQ(h->size(), 3 * 512u);
  const std::string pax = h->substr(0, 512);
  EXPECT_EQ(CString(pax, 0, 100), "donnes/PaxHeaders.0/t.txt");
  EXPECT_EQ(Field(pax, 124, 12), std::string("00000000033\0", 12));  // 27
  EXPECT_EQ(h->substr(512, 27), "27 path=" + name + "\n");
  EXPECT_EQ(h->substr(512 + 27, 512 - 27), std::string(512 - 27, '\0'));
  const std::string main = h->substr(1024, 512);
  EXPECT_EQ(CString(main, 0, 100), "donnes/t.txt");
  ExpectCommonUstarFields(main, '0');
}

TEST(AssetTarStream, TruncatedNameEndingInSlashRunIsTerminated) {
  // Unsplittable: 97 'a', then "///" reaching byte 99, then a non-ASCII tail.
  const std::string name =
      std::string(97, 'a') + "///" + "\xc3\xa9" + std::string(10, 'z');
  Result<std::string> h = EncodeMemberHeader(name, 0);
  ASSERT_TRUE(h.ok());
  const std::string main = h->substr(h->size() - 512);
  // Field holds 97 'a' + "///" (100 bytes); the first slash of the run is
  // replaced by NUL, the rest of the run stays.
  EXPECT_EQ(Field(main, 0, 100), std::string(97, 'a') + std::string("\0//", 3));
}

TEST(AssetTarStream, TrailingSlashMakesDirectoryEntry) {
  Result<std::string> h = EncodeMemberHeader("dir/", 0);
  ASSERT_TRUE(h.ok());
  ExpectCommonUstarFields(*h, '5');

  std::string out;
  TarStream tar([&out](std::string_view d) { out.append(d); });
  EXPECT_FALSE(tar.BeginMember("dir/", 3).ok());
}

TEST(AssetTarStream, NulInNameIsRefused) {
  EXPECT_FALSE(EncodeMemberHeader(std::string("a\0b", 3), 0).ok());
}

TEST(AssetTarStream, HugeSizeUsesPaxSizeRecord) {
  const std::uint64_t size = std::uint64_t{1} << 33;  // 8 GiB: 12 octal digits
  Result<std::string> h = EncodeMemberHeader("big", size);
  ASSERT_TRUE(h.ok());
  ASSERT_EQ(h->size(), 3 * 512u);
  EXPECT_EQ(CString(*h, 0, 100), "PaxHeaders.0/big");
  EXPECT_EQ(h->substr(512, 20), std::string("19 size=8589934592\n\0", 20));
  const std::string main = h->substr(1024, 512);
  EXPECT_EQ(Field(main, 124, 12), std::string("00000000000\0", 12));
  EXPECT_EQ(CString(main, 0, 100), "big");
  // Just below the limit stays ustar.
  Result<std::string> below = EncodeMemberHeader("big", size - 1);
  ASSERT_TRUE(below.ok());
  EXPECT_EQ(below->size(), 512u);
  EXPECT_EQ(Field(*below, 124, 12), std::string("77777777777\0", 12));
}

TEST(AssetTarStream, StreamPadsContentAndEndsWithTwoZeroBlocks) {
  std::string out;
  TarStream tar([&out](std::string_view d) { out.append(d); });
  ASSERT_TRUE(tar.BeginMember("foo", 12).ok());
  ASSERT_TRUE(tar.Write("a test asset").ok());
  EXPECT_FALSE(tar.Write("x").ok());  // more than announced
  ASSERT_TRUE(tar.EndMember().ok());
  ASSERT_TRUE(tar.BeginMember("empty", 0).ok());
  ASSERT_TRUE(tar.EndMember().ok());
  tar.Finish();
  // header + one data block + header (no data block) + 1024 zero bytes
  ASSERT_EQ(out.size(), 512u * 3 + 1024u);
  EXPECT_EQ(out.substr(512, 12), "a test asset");
  EXPECT_EQ(out.substr(524, 500), std::string(500, '\0'));
  EXPECT_EQ(out.substr(1536), std::string(1024, '\0'));
  // Pulumi's asserted hash for {"foo": "a test asset"}.
  EXPECT_EQ(Sha256::HexOf(out.substr(0, 1024) + std::string(1024, '\0')),
            "27ab4a14a617df10cff3e1cf4e30cf510302afe56bf4cc91f84041c9f7b62fd8");
}

TEST(AssetTarStream, ShortContentFails) {
  std::string out;
  TarStream tar([&out](std::string_view d) { out.append(d); });
  ASSERT_TRUE(tar.BeginMember("foo", 12).ok());
  ASSERT_TRUE(tar.Write("short").ok());
  EXPECT_FALSE(tar.EndMember().ok());
}

}  // namespace
}  // namespace pstate::asset_hash
