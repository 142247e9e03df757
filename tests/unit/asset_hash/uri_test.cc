#include "asset_hash/uri.h"

#include <gtest/gtest.h>

#include "asset_hash/member_source.h"

namespace pstate::asset_hash {
namespace {

TEST(AssetUri, FileUriForms) {
  Result<ParsedUri> u = ParseUri("file:///tmp/a%20b.txt");
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->scheme, "file");
  EXPECT_EQ(u->host, "");
  EXPECT_EQ(u->path, "/tmp/a b.txt");

  u = ParseUri("FILE://localhost/x");
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->scheme, "file");
  EXPECT_EQ(u->host, "localhost");
  EXPECT_EQ(u->path, "/x");

  u = ParseUri("file:////tmp/x.tar");  // Pulumi's own test form
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->host, "");
  EXPECT_EQ(u->path, "//tmp/x.tar");

  u = ParseUri("file:/abs");
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->path, "/abs");

  u = ParseUri("file:relative");
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->opaque, "relative");
  EXPECT_EQ(u->path, "");
}

TEST(AssetUri, QueryFragmentUser) {
  Result<ParsedUri> u = ParseUri("https://h/x.zip?sig=1#frag");
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->path, "/x.zip");
  EXPECT_EQ(u->raw_query, "sig=1");
  EXPECT_EQ(u->fragment, "frag");
  u = ParseUri("file://user@/x");
  ASSERT_TRUE(u.ok());
  EXPECT_TRUE(u->has_user);
  u = ParseUri("file:///x?");  // a bare '?' is no query for Go
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->raw_query, "");
}

TEST(AssetUri, ErrorsWhereGoFails) {
  EXPECT_FALSE(ParseUri("file:///a%zz").ok());
  EXPECT_FALSE(ParseUri("file:///a\nb").ok());
  EXPECT_FALSE(ParseUri(":nothing").ok());
  EXPECT_FALSE(ParseUri("http://host:port/").ok());
  EXPECT_FALSE(ParseUri("http://ho st/").ok());
  EXPECT_FALSE(ParseUri("1a:b").ok());  // colon in a scheme-less first segment
  Result<ParsedUri> u = ParseUri("a:b/c");
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->scheme, "a");
  EXPECT_EQ(u->opaque, "b/c");
}

TEST(AssetUri, AssetAndArchiveFileRules) {
  EXPECT_EQ(AssetUriPath("file://localhost/tmp/x").value(), "/tmp/x");
  EXPECT_EQ(AssetUriPath("file://other/tmp/x").status().code(), Errc::kFormat);
  EXPECT_EQ(AssetUriPath("file:///x?q=1").status().code(), Errc::kFormat);
  EXPECT_EQ(AssetUriPath("file:///x#f").status().code(), Errc::kFormat);
  EXPECT_EQ(AssetUriPath("file://u@/x").status().code(), Errc::kFormat);
  EXPECT_EQ(AssetUriPath("https://example.com/x").status().code(),
            Errc::kUnsupported);
  EXPECT_EQ(AssetUriPath("s3://bucket/x").status().code(), Errc::kFormat);

  EXPECT_EQ(ArchiveUriFile("file:///a/b.tgz").value().format,
            ArchiveFormat::kTarGzip);
  EXPECT_EQ(ArchiveUriFile("file://localhost/a/b.tgz").status().code(),
            Errc::kFormat);
  EXPECT_EQ(ArchiveUriFile("https://h/x.zip?sig=a.txt").status().code(),
            Errc::kUnsupported);
  // No recognized extension: an error even for http (no fetch needed to know).
  EXPECT_EQ(ArchiveUriFile("https://h/x").status().code(), Errc::kFormat);
  EXPECT_EQ(ArchiveUriFile("file:///dir").status().code(), Errc::kFormat);
}

TEST(AssetUri, ArchiveFormatIsCaseSensitiveSuffix) {
  EXPECT_EQ(DetectArchiveFormat("my.file.zip"), ArchiveFormat::kZip);
  EXPECT_EQ(DetectArchiveFormat("a.jar"), ArchiveFormat::kZip);
  EXPECT_EQ(DetectArchiveFormat("a.tar.gz"), ArchiveFormat::kTarGzip);
  EXPECT_EQ(DetectArchiveFormat("a.tar"), ArchiveFormat::kTar);
  EXPECT_EQ(DetectArchiveFormat("X.ZIP"), ArchiveFormat::kNone);
  EXPECT_EQ(DetectArchiveFormat("x.gz"), ArchiveFormat::kNone);
  EXPECT_EQ(DetectArchiveFormat("x.tar.bz2"), ArchiveFormat::kNone);
  EXPECT_EQ(DetectArchiveFormat("x.tar.xz"), ArchiveFormat::kNone);
}

}  // namespace
}  // namespace pstate::asset_hash
