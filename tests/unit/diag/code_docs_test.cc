// Every rule's helpUri (DocsBaseUri()/diagnostics.md#CODE) must land on that
// code's entry: docs/diagnostics.md gives each code an explicit anchor,
// <a id="CODE"></a>, in its heading or table row. GitHub's own heading slugs
// ("io-error-error-fatal") would change with the heading text; the explicit
// anchor does not.
#include "diag/code_docs.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "diag/codes.h"
#include "diag/finding.h"
#include "diag/report.h"

namespace pstate::diag {
namespace {

std::string ReadDiagnosticsMd() {
  // The fixtures directory sits next to docs/ in the source tree.
  std::ifstream in(std::string(PSTATE_FIXTURES_DIR) +
                   "/../docs/diagnostics.md");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::size_t Count(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t pos = haystack.find(needle); pos != std::string::npos;
       pos = haystack.find(needle, pos + needle.size())) {
    ++n;
  }
  return n;
}

TEST(CodeAnchorTest, EveryCodeHasExactlyOneAnchorInDiagnosticsMd) {
  const std::string md = ReadDiagnosticsMd();
  ASSERT_FALSE(md.empty()) << "docs/diagnostics.md not found";
  for (const CodeInfo& info : AllCodes()) {
    const std::string name(info.name);
    SCOPED_TRACE(name);
    // Exactly once: a duplicate id is invalid HTML and GitHub jumps to the
    // first one.
    EXPECT_EQ(Count(md, "<a id=\"" + name + "\"></a>"), 1u)
        << "add <a id=\"" << name << "\"></a> to the code's heading or row";
    // The anchor starts the code's own heading or table row, so the link
    // lands on the entry, not on a mention of the code elsewhere.
    EXPECT_TRUE(md.find("### <a id=\"" + name + "\"></a>`" + name + "`") !=
                    std::string::npos ||
                md.find("| <a id=\"" + name + "\"></a>`" + name + "` |") !=
                    std::string::npos);
  }
}

TEST(CodeAnchorTest, EveryAnchorNamesAKnownCode) {
  const std::string md = ReadDiagnosticsMd();
  std::set<std::string> codes;
  for (const CodeInfo& info : AllCodes()) codes.emplace(info.name);
  const std::regex anchor("<a id=\"([^\"]*)\"></a>");
  std::size_t anchors = 0;
  for (auto it = std::sregex_iterator(md.begin(), md.end(), anchor);
       it != std::sregex_iterator(); ++it) {
    ++anchors;
    EXPECT_EQ(codes.count((*it)[1].str()), 1u)
        << "stale anchor " << (*it)[1].str();
  }
  EXPECT_EQ(anchors, codes.size());
}

TEST(CodeAnchorTest, HelpUriIsTheDocsBaseThenTheAnchor) {
  for (const CodeInfo& info : AllCodes()) {
    EXPECT_EQ(CodeHelpUri(info.code), std::string(DocsBaseUri()) +
                                          "/diagnostics.md#" +
                                          std::string(info.name));
  }
  // An absolute URI without a trailing slash (GitHub rejects a relative
  // helpUri; a trailing slash would double the separator): the installed
  // docs (file:///) or a published address (https://).
  EXPECT_TRUE(DocsBaseUri().substr(0, 8) == "file:///" ||
              DocsBaseUri().substr(0, 8) == "https://" ||
              DocsBaseUri().substr(0, 7) == "http://")
      << DocsBaseUri();
  EXPECT_NE(DocsBaseUri().back(), '/');
}

}  // namespace
}  // namespace pstate::diag
