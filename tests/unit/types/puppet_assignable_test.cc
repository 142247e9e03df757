// Puppet's `assignable?` as its own test suites decide it: each line of
// tests/upstream/assignable/puppet.jsonl is one expectation ("type",
// "other", "assignable": whether every instance of other is one of type,
// optional "aliases"), citing the upstream spec and test it comes from.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "json/parser.h"
#include "types/puppet.h"

namespace pstate::types {
namespace {

std::string SuitePath() {
  return std::string(PSTATE_FIXTURES_DIR) +
         "/../tests/upstream/assignable/puppet.jsonl";
}

TEST(PuppetAssignableTest, UpstreamExpectations) {
  std::ifstream in(SuitePath());
  ASSERT_TRUE(in) << SuitePath();
  std::string line;
  int cases = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    json::Arena arena;
    json::Parser parser;
    json::Value row;
    ASSERT_EQ(parser.ParseDocument(line, 0, arena, &row),
              json::ParseStatus::kOk)
        << line;
    puppet::AliasesPtr aliases;
    if (const json::Value* a = row.Find("aliases")) {
      std::vector<std::string> definitions;
      for (const json::Value& d : a->array()) definitions.push_back(d.Str());
      Result<puppet::AliasesPtr> parsed = puppet::ParseAliases(definitions);
      ASSERT_TRUE(parsed.ok()) << line << ": " << parsed.status().message();
      aliases = *parsed;
    }
    Result<puppet::TypePtr> type =
        puppet::ParseType(row.Find("type")->Str(), aliases);
    Result<puppet::TypePtr> other =
        puppet::ParseType(row.Find("other")->Str(), aliases);
    ASSERT_TRUE(type.ok()) << line << ": " << type.status().message();
    ASSERT_TRUE(other.ok()) << line << ": " << other.status().message();
    EXPECT_EQ(puppet::IsAssignable(**type, **other),
              row.Find("assignable")->type == json::Type::kTrue)
        << line;
    ++cases;
  }
  EXPECT_GT(cases, 400);
}

}  // namespace
}  // namespace pstate::types
