// The CI report formats: the XML writer, JUnit XML and GitLab Code Quality.
// (Their validation against the JUnit XSD and GitLab's schema runs in
// ctest: tests/ci_formats/validate.sh.)
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include "diag/codes.h"
#include "diag/finding.h"
#include "diag/report.h"
#include "json/parser.h"
#include "report/findings.h"
#include "report/xml_writer.h"

namespace pstate::report {
namespace {

using diag::Code;
using diag::Finding;
using diag::MakeFinding;
using diag::Report;
using diag::Severity;

std::size_t Count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t i = s.find(what); i != std::string::npos;
       i = s.find(what, i + what.size())) {
    ++n;
  }
  return n;
}

TEST(XmlEscapeTest, MarkupAndWhitespace) {
  EXPECT_EQ(XmlEscape("a<b>&\"c\"", false), "a&lt;b&gt;&amp;\"c\"");
  EXPECT_EQ(XmlEscape("a<b>&\"c\"", true), "a&lt;b&gt;&amp;&quot;c&quot;");
  EXPECT_EQ(XmlEscape("x\ty\nz\r", false), "x\ty\nz&#13;");
  EXPECT_EQ(XmlEscape("x\ty\nz\r", true), "x&#9;y&#10;z&#13;");
}

TEST(XmlEscapeTest, CharactersXmlCannotCarryBecomeVisibleText) {
  // ESC, NUL and U+FFFF are not XML 1.0 characters, even as references.
  EXPECT_EQ(
      XmlEscape(std::string("a\x1b]0;x\x07", 7) + std::string(1, '\0'), false),
      "a\\u001B]0;x\\u0007\\u0000");
  EXPECT_EQ(XmlEscape("\xEF\xBF\xBF", false), "\\uFFFF");
  // Ill-formed UTF-8 becomes U+FFFD; well-formed text is kept.
  EXPECT_EQ(XmlEscape("\xC3(\xE2\x82\xAC", false), "\xEF\xBF\xBD(\xE2\x82\xAC");
}

TEST(XmlWriterTest, NestsIndentsAndCloses) {
  std::ostringstream out;
  XmlWriter xml(out);
  xml.Open("a");
  xml.Attribute("n", std::uint64_t{3});
  xml.Open("b");
  xml.Attribute("s", "<\"x\">");
  xml.Close();
  xml.Open("c");
  xml.Text("t & u");
  xml.Close();
  xml.Close();
  EXPECT_EQ(out.str(),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<a n=\"3\">\n"
            "  <b s=\"&lt;&quot;x&quot;&gt;\"/>\n"
            "  <c>t &amp; u</c>\n"
            "</a>\n");
}

/// An error with a pointer, a note without a place, and a message that
/// tries to close the element and forge a testcase.
Report Sample() {
  Report report("./dir/state.json");
  Finding a = MakeFinding(
      Code::kUrnMalformed, "URN \"</failure></testcase><testcase name=\"x\">\"",
      "/deployment/resources/0/urn", "urn:pulumi:d::p::t::n");
  a.line = 12;
  a.column = 7;
  report.Add(a);
  report.Add(MakeFinding(Code::kFieldUnknown, "unknown field \"zz\"", ""));
  report.set_resources(3);
  return report;
}

std::string Junit(const Report& report, JunitOptions options) {
  const Findings* reports[] = {&report.result()};
  std::ostringstream out;
  RenderJunit(reports, out, options);
  return out.str();
}

TEST(RenderJunitTest, TestsuitePerInputTestcasePerRuleAndFinding) {
  Report report = Sample();
  JunitOptions options;
  options.command = "verify";
  std::string xml = Junit(report, options);
  const std::size_t rules = diag::AllCodes().size();
  EXPECT_EQ(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 0), 0u);
  EXPECT_NE(xml.find("<testsuites name=\"pstate verify\" tests=\"" +
                     std::to_string(rules) + "\" failures=\"1\" errors=\"0\">"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<testsuite name=\"./dir/state.json\" tests=\"" +
                     std::to_string(rules) +
                     "\" failures=\"1\" errors=\"0\" skipped=\"0\">"),
            std::string::npos);
  EXPECT_NE(xml.find("<property name=\"resources\" value=\"3\"/>"),
            std::string::npos);
  EXPECT_EQ(Count(xml, "<testcase "), rules);
  // A rule without a finding passes under its own name.
  EXPECT_NE(xml.find("<testcase classname=\"./dir/state.json\" "
                     "name=\"dependency-order\"/>"),
            std::string::npos);
  // The error fails; its message cannot close the element.
  EXPECT_NE(xml.find("name=\"urn-malformed at /deployment/resources/0/urn\">"
                     "\n      <failure type=\"urn-malformed\" message=\"URN "
                     "&quot;&lt;/failure&gt;&lt;/testcase&gt;&lt;testcase "
                     "name=&quot;x&quot;"
                     "&gt;&quot;\">./dir/state.json:12:7: error[urn-malformed]:"
                     " URN \"&lt;/failure&gt;&lt;/testcase&gt;&lt;testcase "
                     "name=\"x\"&gt;\"\n"
                     "  urn: urn:pulumi:d::p::t::n\n"
                     "  at: /deployment/resources/0/urn\n"
                     "  fingerprint: " +
                     report.findings()[0].fingerprint + "\n</failure>"),
            std::string::npos)
      << xml;
  EXPECT_EQ(xml.find("<testcase name=\"x\""), std::string::npos);
  // The note is below --fail-on error: a passing case that shows it.
  EXPECT_NE(xml.find("name=\"field-unknown\">\n      <system-out>./dir/"
                     "state.json: note[field-unknown]: unknown field \"zz\"\n"),
            std::string::npos)
      << xml;
  EXPECT_EQ(Count(xml, "<failure "), 1u);
}

TEST(RenderJunitTest, FailuresFollowFailOn) {
  Report report = Sample();
  JunitOptions options;
  options.command = "scan";
  options.fail_threshold = Severity::kNote;
  EXPECT_EQ(Count(Junit(report, options), "<failure "), 2u);
  options.fail_threshold = std::nullopt;  // --fail-on never
  std::string xml = Junit(report, options);
  EXPECT_EQ(Count(xml, "<failure "), 0u);
  EXPECT_EQ(Count(xml, "<system-out>"), 2u);
}

TEST(RenderJunitTest, UnreadableInputIsAnError) {
  Report report("gone.json");
  report.Add(MakeFinding(Code::kIoError, "gone.json: cannot open"));
  JunitOptions options;
  options.fail_threshold = std::nullopt;
  std::string xml = Junit(report, options);
  EXPECT_NE(xml.find("errors=\"1\""), std::string::npos);
  EXPECT_NE(xml.find("<error type=\"io-error\" message=\"gone.json: cannot "
                     "open\">"),
            std::string::npos)
      << xml;
}

TEST(RenderJunitTest, SameRuleAtSamePlaceGetsDistinctNamesAndOmittedAreListed) {
  Report report("s.json", 2);
  for (int i = 0; i < 5; ++i) {
    report.Add(MakeFinding(Code::kFieldType, "bad " + std::to_string(i), "/a"));
  }
  std::string xml = Junit(report, {});
  EXPECT_NE(xml.find("name=\"field-type at /a\">"), std::string::npos);
  EXPECT_NE(xml.find("name=\"field-type at /a (2)\">"), std::string::npos);
  EXPECT_NE(xml.find("name=\"field-type (3 not listed)\">"), std::string::npos)
      << xml;
  EXPECT_EQ(xml.find("name=\"field-type\"/>"), std::string::npos);
}

TEST(RenderJunitTest, NoInputs) {
  std::ostringstream out;
  RenderJunit({}, out, {});
  EXPECT_EQ(out.str(),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<testsuites name=\"pstate \" tests=\"0\" failures=\"0\" "
            "errors=\"0\"/>\n");
}

TEST(RenderGitlabTest, OneIssuePerFindingWithTheRequiredFields) {
  Report report = Sample();
  Report leak("<stdin>");
  leak.Add(MakeFinding(Code::kLeakCredentialProperty, "property \"pw\"", "/x"));
  Report gone("gone.json");
  gone.Add(MakeFinding(Code::kIoError, "gone.json: cannot open"));
  const Findings* reports[] = {&report.result(), &leak.result(),
                               &gone.result()};
  std::ostringstream out;
  RenderGitlab(reports, out);
  json::Arena arena;
  json::Parser parser;
  json::Value v;
  ASSERT_EQ(parser.ParseDocument(out.str(), 0, arena, &v),
            json::ParseStatus::kOk)
      << out.str();
  ASSERT_TRUE(v.is_array());
  ASSERT_EQ(v.size, 4u);
  const json::Value& a = v.array()[0];
  EXPECT_EQ(a.Find("check_name")->Str(), "urn-malformed");
  EXPECT_EQ(a.Find("severity")->Str(), "major");
  EXPECT_EQ(a.Find("fingerprint")->Str(), report.findings()[0].fingerprint);
  EXPECT_EQ(a.Find("location")->Find("path")->Str(), "dir/state.json");
  EXPECT_EQ(a.Find("location")->Find("lines")->Find("begin")->raw(), "12");
  EXPECT_EQ(a.Find("description")->Str(),
            report.findings()[0].message + " (at /deployment/resources/0/urn)");
  const json::Value& note = v.array()[1];
  EXPECT_EQ(note.Find("severity")->Str(), "info");
  EXPECT_EQ(note.Find("location")->Find("lines")->Find("begin")->raw(), "1");
  const json::Value& secret = v.array()[2];
  EXPECT_EQ(secret.Find("severity")->Str(), "critical");
  EXPECT_EQ(secret.Find("location")->Find("path")->Str(), "stdin");
  EXPECT_EQ(secret.Find("categories")->array()[0].Str(), "Security");
  EXPECT_EQ(v.array()[3].Find("severity")->Str(), "blocker");
}

TEST(RenderGitlabTest, FingerprintsAreUnique) {
  // One finding twice at one place: one pstate fingerprint.
  Report report("s.json");
  report.Add(MakeFinding(Code::kFieldType, "first", "/a"));
  report.Add(MakeFinding(Code::kFieldType, "first", "/a"));
  Report same("other/s.json");  // the same logical file elsewhere
  same.Add(MakeFinding(Code::kFieldType, "first", "/a"));
  const std::string fp = report.findings()[0].fingerprint;
  ASSERT_EQ(report.findings()[1].fingerprint, fp);
  ASSERT_EQ(same.findings()[0].fingerprint, fp);
  const Findings* reports[] = {&report.result(), &same.result()};
  std::ostringstream out;
  RenderGitlab(reports, out);
  EXPECT_NE(out.str().find("\"fingerprint\":\"" + fp + "\""),
            std::string::npos);
  EXPECT_NE(out.str().find("\"fingerprint\":\"" + fp + "-2\""),
            std::string::npos);
  EXPECT_NE(out.str().find("\"fingerprint\":\"" + fp + "-3\""),
            std::string::npos);
}

TEST(RenderGitlabTest, NoFindingsIsAnEmptyArray) {
  Report report("s.json");
  const Findings* reports[] = {&report.result()};
  std::ostringstream out;
  RenderGitlab(reports, out);
  EXPECT_EQ(out.str(), "[]\n");
}

}  // namespace
}  // namespace pstate::report
