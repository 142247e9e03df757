// End to end over fixtures/scan/leaks.json: every rule fires, and no output
// format and no message contains any plaintext the fixture uses
// (fixtures/scan/plaintexts.txt).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "crypto/fingerprint.h"
#include "io/input.h"
#include "report/findings.h"
#include "scan/known_secrets.h"
#include "scan/leak_scan_handler.h"
#include "state/reader.h"

namespace pstate::scan {
namespace {

std::string Fixture(const std::string& name) {
  return std::string(PSTATE_FIXTURES_DIR) + "/scan/" + name;
}

std::vector<std::string> Plaintexts() {
  std::ifstream in(Fixture("plaintexts.txt"));
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

/// Scans the fixture the way `pstate scan` does; `two_pass` as for a file.
diag::Report ScanFixture(const std::string& name, bool two_pass,
                         const crypto::Fingerprinter& fp) {
  diag::Report report(name);
  KnownSecrets known;
  SecretCollectHandler collect(&known, DecryptOptions{});
  if (two_pass) {
    auto input = io::OpenInput(Fixture(name));
    EXPECT_TRUE(input.ok());
    diag::Report scratch(name);
    EXPECT_TRUE(state::Read(**input, collect, scratch).ok());
  }
  auto input = io::OpenInput(Fixture(name));
  EXPECT_TRUE(input.ok());
  LeakScanHandler scan(&fp, &known, !two_pass, DecryptOptions{});
  EXPECT_TRUE(state::Read(**input, scan, report).ok());
  return report;
}

std::map<std::string, int> CountCodes(const diag::Report& report) {
  std::map<std::string, int> counts;
  for (const auto& f : report.findings()) ++counts[std::string(f.code_name())];
  return counts;
}

TEST(LeakScanEndToEnd, EveryRuleFiresOnTheFixture) {
  auto fp = crypto::Fingerprinter::WithRandomKey();
  diag::Report report = ScanFixture("leaks.json", true, fp);
  auto counts = CountCodes(report);
  EXPECT_EQ(counts["leak-known-secret"], 4);
  EXPECT_EQ(counts["leak-secret-mismatch"], 2);
  EXPECT_EQ(counts["leak-additional-secret-output"], 1);
  EXPECT_EQ(counts["leak-credential-property"], 2);
  EXPECT_EQ(counts["leak-credential-format"], 2);
  for (const auto& f : report.findings()) {
    EXPECT_GT(f.line, 0u) << f.pointer;
    EXPECT_FALSE(f.urn.empty()) << f.pointer;
    EXPECT_NE(f.message.find("(hmac-sha256 "), std::string::npos) << f.message;
  }
}

TEST(LeakScanEndToEnd, CleanFixtureHasNoFindings) {
  auto fp = crypto::Fingerprinter::WithRandomKey();
  diag::Report report = ScanFixture("clean.json", true, fp);
  EXPECT_TRUE(report.findings().empty()) << report.findings()[0].message;
}

TEST(LeakScanEndToEnd, OnePassSeesSecretsDefinedEarlier) {
  auto fp = crypto::Fingerprinter::WithRandomKey();
  diag::Report two = ScanFixture("leaks.json", true, fp);
  diag::Report one = ScanFixture("leaks.json", false, fp);
  // In the fixture every secret precedes its leak, so both agree.
  ASSERT_EQ(one.findings().size(), two.findings().size());
  for (std::size_t i = 0; i < one.findings().size(); ++i) {
    EXPECT_EQ(one.findings()[i].pointer, two.findings()[i].pointer);
    EXPECT_EQ(one.findings()[i].message, two.findings()[i].message);
  }
}

TEST(LeakScanEndToEnd, NoOutputContainsAPlaintext) {
  auto plaintexts = Plaintexts();
  ASSERT_GE(plaintexts.size(), 8u);
  auto fp = crypto::Fingerprinter::WithRandomKey();
  diag::Report report = ScanFixture("leaks.json", true, fp);
  ASSERT_FALSE(report.findings().empty());
  std::ostringstream text, json, sarif;
  report::RenderText(report.result(), text);
  report::RenderJsonLine(report.result(), json);
  const Findings* reports[] = {&report.result()};
  report::RenderSarif(reports, sarif, "test");
  // Sanity: the fixture does contain every plaintext (the test is not vacuous).
  std::ifstream in(Fixture("leaks.json"));
  std::string fixture((std::istreambuf_iterator<char>(in)),
                      std::istreambuf_iterator<char>());
  for (const std::string& p : plaintexts) {
    EXPECT_NE(fixture.find(p), std::string::npos)
        << "fixture lacks plaintext #" << &p - plaintexts.data();
    EXPECT_EQ(text.str().find(p), std::string::npos)
        << "text output leaks plaintext #" << &p - plaintexts.data();
    EXPECT_EQ(json.str().find(p), std::string::npos)
        << "json output leaks plaintext #" << &p - plaintexts.data();
    EXPECT_EQ(sarif.str().find(p), std::string::npos)
        << "sarif output leaks plaintext #" << &p - plaintexts.data();
    for (const auto& f : report.findings()) {
      EXPECT_EQ(f.message.find(p), std::string::npos) << f.pointer;
    }
  }
}

}  // namespace
}  // namespace pstate::scan
