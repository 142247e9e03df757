// The one CSV writer: RFC 4180 quoting.
#include "report/csv.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace pstate::report {
namespace {

TEST(CsvWriterTest, PlainFieldsAreWrittenAsTheyAreWithCrlfRecords) {
  std::ostringstream out;
  CsvWriter csv(out);
  csv.Field("urn:pulumi:dev::web::aws:s3/bucket:Bucket::logs")
      .Field(std::uint64_t{42})
      .Field("")
      .Field("caf\xc3\xa9");
  csv.EndRecord();
  csv.Field("next");
  csv.EndRecord();
  EXPECT_EQ(out.str(),
            "urn:pulumi:dev::web::aws:s3/bucket:Bucket::logs,42,,caf\xc3\xa9"
            "\r\nnext\r\n");
}

TEST(CsvWriterTest, CommasQuotesAndLineBreaksAreQuoted) {
  std::ostringstream out;
  CsvWriter csv(out);
  csv.Field("a,b").Field("say \"hi\"").Field("two\nlines").Field("cr\r");
  csv.EndRecord();
  EXPECT_EQ(out.str(),
            "\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\r\"\r\n");
}

TEST(CsvWriterTest, OtherControlCharactersAreQuotedToo) {
  std::ostringstream out;
  CsvWriter csv(out);
  csv.Field(std::string("tab\there")).Field("esc\x1b").Field("del\x7f");
  csv.EndRecord();
  EXPECT_EQ(out.str(), "\"tab\there\",\"esc\x1b\",\"del\x7f\"\r\n");
}

}  // namespace
}  // namespace pstate::report
