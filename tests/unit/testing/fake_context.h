// A state::Context for checks run outside the reader: findings are kept,
// and an offset is "located" as line 1, column offset + 1.
#ifndef PSTATE_TESTS_UNIT_TESTING_FAKE_CONTEXT_H_
#define PSTATE_TESTS_UNIT_TESTING_FAKE_CONTEXT_H_

#include <string>
#include <vector>

#include "diag/finding.h"
#include "json/parser.h"
#include "state/reader.h"

namespace pstate::testing {

class FakeContext : public state::Context {
 public:
  void Report(diag::Finding finding, std::uint64_t offset) override {
    io::LineColumn lc = Locate(offset);
    finding.line = lc.line;
    finding.column = lc.column;
    findings.push_back(std::move(finding));
  }
  void ReportUnlocated(diag::Finding finding) override {
    findings.push_back(std::move(finding));
  }
  io::LineColumn Locate(std::uint64_t offset) override {
    return {1, offset + 1};
  }
  const state::Envelope& envelope() const override { return envelope_; }

  /// "code pointer @offset" per finding.
  std::vector<std::string> Lines() const {
    std::vector<std::string> out;
    for (const diag::Finding& f : findings) {
      out.push_back(std::string(f.code_name()) + " " + f.pointer + " @" +
                    std::to_string(f.column - 1));
    }
    return out;
  }

  std::vector<diag::Finding> findings;
  state::Envelope envelope_;
  json::Parser parser_;
};

}  // namespace pstate::testing

#endif  // PSTATE_TESTS_UNIT_TESTING_FAKE_CONTEXT_H_
