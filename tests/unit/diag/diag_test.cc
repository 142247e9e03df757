#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "diag/codes.h"
#include "diag/finding.h"
#include "diag/report.h"
#include "json/parser.h"

namespace pstate::diag {
namespace {

TEST(CodesTest, EveryEnumValueHasItsOwnEntryInOrder) {
  auto all = AllCodes();
  ASSERT_FALSE(all.empty());
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(static_cast<std::size_t>(all[i].code), i) << all[i].name;
    EXPECT_EQ(&Info(all[i].code), &all[i]);
  }
  // The last enumerator is the last entry: no enum value lacks an entry.
  EXPECT_EQ(all.back().code, Code::kSchemaRefInvalid);
}

TEST(CodesTest, NamesAreUniqueKebabCaseAndRoundTrip) {
  std::set<std::string_view> names;
  for (const CodeInfo& info : AllCodes()) {
    EXPECT_TRUE(names.insert(info.name).second) << "duplicate " << info.name;
    ASSERT_FALSE(info.name.empty());
    EXPECT_NE(info.name.front(), '-') << info.name;
    EXPECT_NE(info.name.back(), '-') << info.name;
    EXPECT_EQ(info.name.find("--"), std::string_view::npos) << info.name;
    for (char c : info.name) {
      EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')
          << info.name;
    }
    EXPECT_FALSE(info.summary.empty()) << info.name;
    EXPECT_EQ(info.summary.back(), '.') << info.name;
    auto found = FindCode(info.name);
    ASSERT_TRUE(found.has_value()) << info.name;
    EXPECT_EQ(*found, info.code);
  }
  EXPECT_FALSE(FindCode("no-such-code").has_value());
  EXPECT_FALSE(FindCode("").has_value());
  EXPECT_FALSE(FindCode("JSON-SYNTAX").has_value());
}

TEST(CodesTest, SomeStableNames) {
  // Tools match on these; they must never change.
  EXPECT_EQ(Info(Code::kIoError).name, "io-error");
  EXPECT_EQ(Info(Code::kJsonSyntax).name, "json-syntax");
  EXPECT_EQ(Info(Code::kJsonDuplicateKey).name, "json-duplicate-key");
  EXPECT_EQ(Info(Code::kManifestMagic).name, "manifest-magic");
  EXPECT_EQ(Info(Code::kUrnDuplicate).name, "urn-duplicate");
  EXPECT_EQ(Info(Code::kFieldUnknown).severity, Severity::kNote);
  EXPECT_EQ(Info(Code::kFeaturesIgnored).severity, Severity::kWarning);
}

TEST(CodesTest, FatalSet) {
  std::set<Code> fatal = {Code::kIoError,         Code::kJsonSyntax,
                          Code::kJsonInvalidUtf8, Code::kJsonTooDeep,
                          Code::kNotAState,       Code::kVersionUnsupported};
  for (const CodeInfo& info : AllCodes()) {
    EXPECT_EQ(IsFatal(info.code), fatal.count(info.code) == 1) << info.name;
    if (IsFatal(info.code)) {
      EXPECT_EQ(info.severity, Severity::kError) << info.name;
    }
  }
}

TEST(CodesTest, SeverityNames) {
  EXPECT_EQ(SeverityName(Severity::kError), "error");
  EXPECT_EQ(SeverityName(Severity::kWarning), "warning");
  EXPECT_EQ(SeverityName(Severity::kNote), "note");
}

TEST(FindingTest, MakeFindingTakesTheTableSeverity) {
  Finding f = MakeFinding(Code::kFieldUnknown, "msg", "/a", "urn:x");
  EXPECT_EQ(f.severity, Severity::kNote);
  EXPECT_EQ(f.message, "msg");
  EXPECT_EQ(f.pointer, "/a");
  EXPECT_EQ(f.urn, "urn:x");
  EXPECT_EQ(f.line, 0u);
  EXPECT_EQ(f.code_name(), "field-unknown");
  EXPECT_EQ(MakeFinding(Code::kPendingOperation, "").severity,
            Severity::kWarning);
}

TEST(ReportTest, CountsBeyondMaxKept) {
  Report report("state.json", 2);
  report.Add(MakeFinding(Code::kFieldType, "1"));
  report.Add(MakeFinding(Code::kFieldUnknown, "2"));
  report.Add(MakeFinding(Code::kPendingOperation, "3"));
  report.Add(MakeFinding(Code::kFieldType, "4"));
  report.Add(MakeFinding(Code::kFieldUnknown, "5"));
  report.SortByLocation();
  ASSERT_EQ(report.findings().size(), 2u);
  EXPECT_EQ(report.findings()[0].message, "1");
  EXPECT_EQ(report.findings()[1].message, "2");
  EXPECT_EQ(report.omitted(), 3u);
  EXPECT_EQ(report.summary().errors, 2u);
  EXPECT_EQ(report.summary().warnings, 1u);
  EXPECT_EQ(report.summary().notes, 2u);
  EXPECT_FALSE(report.fatal());
  // A fatal finding counts even when it is not kept.
  report.Add(MakeFinding(Code::kJsonSyntax, "6"));
  EXPECT_TRUE(report.fatal());
  EXPECT_EQ(report.omitted(), 4u);
  EXPECT_EQ(report.summary().errors, 3u);
}

TEST(ReportTest, ZeroMeansUnbounded) {
  Report report("x");
  for (int i = 0; i < 1000; ++i) report.Add(MakeFinding(Code::kFieldType, ""));
  EXPECT_EQ(report.findings().size(), 1000u);
  EXPECT_EQ(report.omitted(), 0u);
  report.set_resources(12);
  EXPECT_EQ(report.summary().resources, 12u);
  EXPECT_EQ(report.file(), "x");
}

}  // namespace
}  // namespace pstate::diag
