// Shared helpers for the type-language tests: parse a case's type and
// value from JSON text and check one against the other.
#ifndef PSTATE_TESTS_UNIT_TYPES_CHECK_HELPERS_H_
#define PSTATE_TESTS_UNIT_TYPES_CHECK_HELPERS_H_

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "json/number.h"
#include "json/parser.h"
#include "types/registry.h"
#include "types/type_system.h"

namespace pstate::types::testing {

// "SIG" in test texts stands for the signature key, "UNK" for the unknown
// sentinel, so tables stay readable.
inline std::string Expand(std::string text) {
  auto replace = [&](std::string_view from, std::string_view to) {
    for (std::size_t at = text.find(from); at != std::string::npos;
         at = text.find(from, at + to.size())) {
      text.replace(at, from.size(), to);
    }
  };
  replace("SIG", "\"4dabf18193072939515e22adb298388d\"");
  replace("UNK", "\"04da6b54-80e4-46f7-96ec-b56ff0331ba9\"");
  replace("SECRET", "\"1b47061264138c4ac30d75fd1eb44270\"");
  replace("ASSET", "\"c44067f5952c0a294b673a41bacd8c17\"");
  replace("ARCHIVE", "\"0def7320c3a5731c473e5ecbe6d01bc7\"");
  replace("REF", "\"5cf8f73096256a8f31e491e813e4eb8e\"");
  return text;
}

class Checker {
 public:
  explicit Checker(System system, const SchemaSet* schemas = nullptr)
      : system_(system), cache_(schemas) {}

  const json::Value& Json(std::string_view text) {
    json::Value* v = arena_.Allocate<json::Value>(1);
    new (v) json::Value();
    json::Parser parser;
    std::string expanded = Expand(std::string(text));
    EXPECT_EQ(parser.ParseDocument(expanded, 0, arena_, v),
              json::ParseStatus::kOk)
        << expanded;
    return *v;
  }

  /// `type_json` is the case's "type" member as JSON text.
  Result<Verdict> Run(std::string_view type_json, std::string_view value) {
    Result<std::shared_ptr<const Type>> type =
        cache_.Parse(system_, Json(type_json));
    if (!type.ok()) return type.status();
    Result<const TypeSystem*> language = cache_.GetSystem(system_);
    return (*language)->Check(**type, Json(value));
  }

  TypeCache& cache() { return cache_; }

 private:
  System system_;
  TypeCache cache_;
  json::Arena arena_;
};

inline std::string Show(const Result<Verdict>& r) {
  if (!r.ok()) return "parse error: " + r.status().message();
  const Verdict& v = *r;
  std::string s(OutcomeName(v.outcome));
  if (v.outcome == Outcome::kConvert) s += " " + v.converted;
  if (v.outcome == Outcome::kError) {
    s += " at '" + v.pointer + "': " + v.message;
  }
  return s;
}

}  // namespace pstate::types::testing

#endif  // PSTATE_TESTS_UNIT_TYPES_CHECK_HELPERS_H_
