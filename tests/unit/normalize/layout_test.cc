#include "normalize/layout.h"

#include <gtest/gtest.h>

namespace pstate::normalize {
namespace {

TEST(LayoutTest, NamesRoundTrip) {
  for (Layout l : {Layout::kExport, Layout::kDiy, Layout::kDiyStateCommand}) {
    EXPECT_EQ(ParseLayout(LayoutName(l)), l);
  }
  EXPECT_EQ(ParseLayout("pretty"), std::nullopt);
}

TEST(LayoutTest, DetectsIndentedAsExport) {
  EXPECT_EQ(DetectLayout("{\n    \"version\": 3\n}\n"), Layout::kExport);
  EXPECT_EQ(DetectLayout("{\r\n  \"a\": \"\\u003c\"}"), Layout::kExport);
}

TEST(LayoutTest, DetectsCompactByEscapes) {
  EXPECT_EQ(DetectLayout(R"({"version":3,"checkpoint":{"stack":"a<b"}})"),
            Layout::kDiy);
  EXPECT_EQ(DetectLayout(R"({"version":3,"checkpoint":{"stack":"a\u003cb"}})"),
            Layout::kDiyStateCommand);
  EXPECT_EQ(DetectLayout(R"({"version":3,"checkpoint":{"stack":"ab"}})"),
            Layout::kDiy);
}

TEST(LayoutTest, MissingFileFails) {
  auto r = DetectLayoutOfFile("/nonexistent/state.json");
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(DetectLayoutOfFile("-").ok());
}

}  // namespace
}  // namespace pstate::normalize
