#include "report/output_format.h"

#include <gtest/gtest.h>

namespace pstate::report {
namespace {

TEST(OutputFormatTest, NamesRoundTrip) {
  for (OutputFormat f : {OutputFormat::kText, OutputFormat::kJson,
                         OutputFormat::kSarif, OutputFormat::kGithub}) {
    EXPECT_EQ(ParseOutputFormat(OutputFormatName(f)), f);
  }
  EXPECT_FALSE(ParseOutputFormat("yaml").has_value());
  EXPECT_FALSE(ParseOutputFormat("TEXT").has_value());
}

}  // namespace
}  // namespace pstate::report
