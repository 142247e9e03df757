#include "diff/filter.h"

#include <gtest/gtest.h>

namespace pstate::diff {
namespace {

ResourceEntry Entry(ResourceChangeKind kind, std::string urn,
                    std::string type) {
  ResourceEntry e;
  e.kind = kind;
  e.urn = std::move(urn);
  e.type = std::move(type);
  return e;
}

/// A string value (stored text without escapes).
Value Text(const std::string& s) {
  Value v;
  v.kind = ValueKind::kString;
  v.text = s;
  return v;
}

DiffResult Sample() {
  DiffResult r;
  ResourceEntry bucket = Entry(ResourceChangeKind::kChanged,
                               "urn:pulumi:d::p::aws:s3/bucket:Bucket::logs",
                               "aws:s3/bucket:Bucket");
  PropertyChange time;
  time.path = "lastModified";
  time.before = Text("2024-01-01T00:00:00Z");
  time.after = Text("2024-02-01T00:00:00.5+01:00");
  bucket.properties.push_back(time);
  FieldChange modified{"modified", ChangeKind::kUpdate,
                       Text("2024-01-01T00:00:00Z"),
                       Text("2024-03-01T00:00:00Z")};
  bucket.fields.push_back(modified);
  r.resources.push_back(bucket);
  r.resources.push_back(Entry(ResourceChangeKind::kAdded,
                              "urn:pulumi:d::p::aws:sqs/queue:Queue::jobs",
                              "aws:sqs/queue:Queue"));
  r.envelope.push_back({"manifest.time", ChangeKind::kUpdate,
                        Text("2024-01-01T00:00:00Z"),
                        Text("2024-02-01T00:00:00Z")});
  r.summary.changed = 1;
  r.summary.added = 1;
  r.summary.unchanged = 3;
  r.summary.envelope = 1;
  return r;
}

TEST(DiffFilterTest, TypeAndUrnGlobsKeepMatchingEntries) {
  DiffResult r = Sample();
  DiffFilter f;
  f.types = {"aws:sqs/*"};
  ApplyFilter(f, &r);
  ASSERT_EQ(r.resources.size(), 1u);
  EXPECT_EQ(r.resources[0].type, "aws:sqs/queue:Queue");
  EXPECT_EQ(r.summary.changed, 0u);
  EXPECT_EQ(r.summary.added, 1u);
  EXPECT_EQ(r.envelope.size(), 1u);  // the envelope stays

  DiffResult u = Sample();
  DiffFilter g;
  g.urns = {"*::logs"};
  ApplyFilter(g, &u);
  ASSERT_EQ(u.resources.size(), 1u);
  EXPECT_EQ(u.summary.added, 0u);
}

TEST(DiffFilterTest, TimestampsOnlyChangesBecomeUnchanged) {
  DiffResult r = Sample();
  DiffFilter f;
  ASSERT_TRUE(AddIgnoreKind("timestamps", &f).ok());
  ApplyFilter(f, &r);
  ASSERT_EQ(r.resources.size(), 1u);  // the added queue
  EXPECT_EQ(r.summary.changed, 0u);
  EXPECT_EQ(r.summary.unchanged, 4u);
  EXPECT_TRUE(r.envelope.empty());
  EXPECT_EQ(r.summary.envelope, 0u);
}

TEST(DiffFilterTest, OtherChangesStay) {
  DiffResult r = Sample();
  PropertyChange tag;
  tag.path = "tags.env";
  tag.before = Text("dev");
  tag.after = Text("2024-01-01T00:00:00Z");  // not time to time
  r.resources[0].properties.push_back(tag);
  DiffFilter f;
  f.ignore_timestamps = true;
  ApplyFilter(f, &r);
  ASSERT_EQ(r.resources.size(), 2u);
  ASSERT_EQ(r.resources[0].properties.size(), 1u);
  EXPECT_EQ(r.resources[0].properties[0].path, "tags.env");
  EXPECT_TRUE(r.resources[0].fields.empty());
}

TEST(DiffFilterTest, UnknownIgnoreKindIsNamed) {
  DiffFilter f;
  Status st = AddIgnoreKind("colours", &f);
  EXPECT_EQ(st.code(), Errc::kInvalidArgument);
  EXPECT_NE(st.message().find("timestamps"), std::string::npos);
}

}  // namespace
}  // namespace pstate::diff
