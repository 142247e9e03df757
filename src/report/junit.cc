#include <map>
#include <string>
#include <vector>

#include "diag/codes.h"
#include "report/findings.h"
#include "report/xml_writer.h"

namespace pstate::report {
namespace {

using diag::Severity;

/// How a finding ends its testcase.
enum class Outcome { kPass, kFailure, kError };

/// Severities as numbers that grow with gravity (note < warning < error).
int Rank(Severity s) {
  switch (s) {
    case Severity::kNote: return 0;
    case Severity::kWarning: return 1;
    case Severity::kError: return 2;
  }
  return 2;
}

Outcome OutcomeOf(diag::Code code, Severity severity,
                  const JunitOptions& options) {
  if (diag::IsFatal(code)) return Outcome::kError;
  if (options.fail_threshold &&
      Rank(severity) >= Rank(*options.fail_threshold)) {
    return Outcome::kFailure;
  }
  return Outcome::kPass;
}

/// The finding as the testcase's detail: its place, severity, code and
/// message, then the URN, pointer and fingerprint, one per line.
std::string Detail(const Findings& report, const Finding& f) {
  std::string out = report.file + ":";
  if (f.line > 0) {
    out += std::to_string(f.line) + ":" + std::to_string(f.column) + ":";
  }
  out += " " + std::string(diag::SeverityName(f.severity)) + "[" +
         std::string(f.code_name()) + "]: " + f.message + "\n";
  if (!f.urn.empty()) out += "  urn: " + f.urn + "\n";
  if (!f.pointer.empty()) out += "  at: " + f.pointer + "\n";
  out += "  fingerprint: " + f.fingerprint + "\n";
  return out;
}

/// One testcase of a suite, before it is written.
struct Case {
  std::string name;
  Outcome outcome = Outcome::kPass;
  std::string type;     ///< the rule (failure/error type)
  std::string message;  ///< the finding's message
  std::string detail;   ///< failure/error text, or system-out when passing
};

/// The testcases of one input: per rule (in the order of the code table),
/// its findings in file order, "CODE (N not listed)" for findings counted
/// but not kept, or one passing testcase when it has none.
std::vector<Case> Cases(const Findings& report, const JunitOptions& options) {
  std::map<diag::Code, std::vector<const Finding*>> by_rule;
  for (const Finding& f : report.findings) by_rule[f.code].push_back(&f);
  const FindingCounts& summary = report;
  std::vector<Case> cases;
  for (const diag::CodeInfo& info : diag::AllCodes()) {
    const std::string rule(info.name);
    auto index = static_cast<std::size_t>(info.code);
    std::uint64_t counted =
        index < summary.by_code.size() ? summary.by_code[index] : 0;
    auto it = by_rule.find(info.code);
    std::uint64_t kept = it == by_rule.end() ? 0 : it->second.size();
    if (it != by_rule.end()) {
      std::map<std::string, int> seen;
      for (const Finding* f : it->second) {
        Case c;
        c.name = rule;
        if (!f->pointer.empty()) {
          c.name += " at " + f->pointer;
        } else if (f->line > 0) {
          c.name += " at line " + std::to_string(f->line);
        }
        // GitLab and Jenkins key a testcase by its class and name: a second
        // finding of one rule at one place gets its own name.
        int n = ++seen[c.name];
        if (n > 1) c.name += " (" + std::to_string(n) + ")";
        c.outcome = OutcomeOf(f->code, f->severity, options);
        c.type = rule;
        c.message = f->message;
        c.detail = Detail(report, *f);
        cases.push_back(std::move(c));
      }
    }
    if (counted > kept) {
      Case c;
      c.name = rule + " (" + std::to_string(counted - kept) + " not listed)";
      c.outcome = OutcomeOf(info.code, info.severity, options);
      c.type = rule;
      c.message = std::to_string(counted - kept) +
                  " more findings were counted but not listed "
                  "(--max-findings)";
      c.detail = c.message + "\n";
      cases.push_back(std::move(c));
    }
    if (it == by_rule.end() && counted == 0) {
      Case c;
      c.name = rule;
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

}  // namespace

void RenderJunit(std::span<const Findings* const> reports, std::ostream& out,
                 const JunitOptions& options) {
  std::vector<std::vector<Case>> suites;
  std::uint64_t tests = 0, failures = 0, errors = 0;
  for (const Findings* report : reports) {
    suites.push_back(Cases(*report, options));
    for (const Case& c : suites.back()) {
      ++tests;
      failures += c.outcome == Outcome::kFailure ? 1 : 0;
      errors += c.outcome == Outcome::kError ? 1 : 0;
    }
  }
  XmlWriter xml(out);
  xml.Open("testsuites");
  xml.Attribute("name", "pstate " + std::string(options.command));
  xml.Attribute("tests", tests);
  xml.Attribute("failures", failures);
  xml.Attribute("errors", errors);
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const Findings& report = *reports[i];
    const std::vector<Case>& cases = suites[i];
    std::uint64_t suite_failures = 0, suite_errors = 0;
    for (const Case& c : cases) {
      suite_failures += c.outcome == Outcome::kFailure ? 1 : 0;
      suite_errors += c.outcome == Outcome::kError ? 1 : 0;
    }
    xml.Open("testsuite");
    xml.Attribute("name", report.file);
    xml.Attribute("tests", cases.size());
    xml.Attribute("failures", suite_failures);
    xml.Attribute("errors", suite_errors);
    xml.Attribute("skipped", std::uint64_t{0});
    xml.Open("properties");
    for (const auto& [name, value] :
         {std::pair<const char*, std::uint64_t>{"resources", report.resources},
          {"suppressed", report.suppressed},
          {"omitted", report.omitted}}) {
      xml.Open("property");
      xml.Attribute("name", name);
      xml.Attribute("value", std::to_string(value));
      xml.Close();
    }
    xml.Close();  // properties
    for (const Case& c : cases) {
      xml.Open("testcase");
      xml.Attribute("classname", report.file);
      xml.Attribute("name", c.name);
      if (c.outcome != Outcome::kPass) {
        xml.Open(c.outcome == Outcome::kError ? "error" : "failure");
        xml.Attribute("type", c.type);
        xml.Attribute("message", c.message);
        xml.Text(c.detail);
        xml.Close();
      } else if (!c.detail.empty()) {
        xml.Open("system-out");
        xml.Text(c.detail);
        xml.Close();
      }
      xml.Close();  // testcase
    }
    xml.Close();  // testsuite
  }
  xml.Close();  // testsuites
}

}  // namespace pstate::report
