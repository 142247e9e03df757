// Fuzz target: package schemas (types::SchemaSet) and the checks verify
// --schema makes with them. The input is a schema, then optionally a NUL
// byte and a value (state JSON) checked as each resource's inputs and
// outputs (without one: `{}`).
//
// Invariants beyond "no crash, no sanitizer report":
//  - a resource checked without a cache, with a fresh cache and again with
//    the same (warm) cache reports the same issues: kind, place, message,
//    schema location, dangling ref and its schema offset (a fuzz run found
//    the offset of another occurrence of the same ref);
//  - every issue's pointer is a JSON pointer ("" or starting with '/');
//  - loading the same schema twice gives the same answers.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_check.h"
#include "json/parser.h"
#include "types/schema_set.h"

namespace {

using pstate::types::CheckOptions;
using pstate::types::PackageSchema;
using pstate::types::ResourceSide;
using pstate::types::SchemaCache;
using pstate::types::SchemaIssue;
using pstate::types::SchemaSet;

constexpr std::size_t kMaxInput = 1 << 18;
constexpr std::size_t kMaxResources = 16;

bool SameIssues(const std::vector<SchemaIssue>& a,
                const std::vector<SchemaIssue>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].kind != b[i].kind || a[i].pointer != b[i].pointer ||
        a[i].message != b[i].message ||
        a[i].schema_location != b[i].schema_location || a[i].ref != b[i].ref ||
        a[i].schema_offset != b[i].schema_offset) {
      return false;
    }
  }
  return true;
}

// The issues of every resource (and the provider) of the one package.
std::vector<std::vector<SchemaIssue>> CheckAll(
    const SchemaSet& set, const std::vector<std::string>& tokens,
    const pstate::json::Value& value) {
  std::vector<std::vector<SchemaIssue>> out;
  const PackageSchema* package = set.OnlyPackage();
  if (package == nullptr) return out;
  CheckOptions options;
  SchemaCache cache(set);
  for (const std::string& token : tokens) {
    const pstate::json::Value* def = token.starts_with("pulumi:providers:")
                                         ? package->Provider()
                                         : package->Resource(token);
    if (def == nullptr) continue;
    for (ResourceSide side : {ResourceSide::kInputs, ResourceSide::kOutputs}) {
      std::vector<SchemaIssue> uncached =
          set.CheckResourceAll(*package, *def, token, side, value, options);
      SchemaCache fresh(set);
      std::vector<SchemaIssue> cold;
      set.CheckResourceAll(*package, *def, token, side, value, options, fresh,
                           &cold);
      std::vector<SchemaIssue> warm;
      set.CheckResourceAll(*package, *def, token, side, value, options, cache,
                           &warm);
      std::vector<SchemaIssue> warmer;
      set.CheckResourceAll(*package, *def, token, side, value, options, cache,
                           &warmer);
      PSTATE_FUZZ_CHECK(SameIssues(uncached, cold));
      PSTATE_FUZZ_CHECK(SameIssues(uncached, warm));
      PSTATE_FUZZ_CHECK(SameIssues(uncached, warmer));
      for (const SchemaIssue& issue : uncached) {
        PSTATE_FUZZ_CHECK(issue.pointer.empty() || issue.pointer[0] == '/');
      }
      out.push_back(std::move(uncached));
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  if (size > kMaxInput) return 0;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::string_view schema = input;
  std::string value_text = "{}";
  std::size_t nul = input.find('\0');
  if (nul != std::string_view::npos) {
    schema = input.substr(0, nul);
    value_text = std::string(input.substr(nul + 1));
  }
  pstate::json::Arena arena;
  pstate::json::Parser parser;
  pstate::json::Value value;
  if (parser.ParseDocument(value_text, 0, arena, &value) !=
      pstate::json::ParseStatus::kOk) {
    return 0;
  }
  // The resource tokens, from the schema text itself.
  pstate::json::Value root;
  std::string schema_text(schema);
  if (parser.ParseDocument(schema_text, 0, arena, &root) !=
          pstate::json::ParseStatus::kOk ||
      !root.is_object()) {
    SchemaSet set;
    (void)set.AddText(schema, "fuzz.json");  // must not crash
    return 0;
  }
  std::vector<std::string> tokens;
  if (const pstate::json::Value* resources = root.Find("resources");
      resources && resources->is_object()) {
    for (const pstate::json::Member& m : resources->object()) {
      if (tokens.size() >= kMaxResources) break;
      tokens.push_back(m.key.Str());
    }
  }
  if (const pstate::json::Value* name = root.Find("name");
      name && name->is_string()) {
    tokens.push_back("pulumi:providers:" + name->Str());
  }
  SchemaSet first;
  SchemaSet second;
  bool loaded = first.AddText(schema, "fuzz.json").ok();
  PSTATE_FUZZ_CHECK(second.AddText(schema, "fuzz.json").ok() == loaded);
  if (!loaded) return 0;
  auto a = CheckAll(first, tokens, value);
  auto b = CheckAll(second, tokens, value);
  PSTATE_FUZZ_CHECK(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    PSTATE_FUZZ_CHECK(SameIssues(a[i], b[i]));
  }
  return 0;
}
