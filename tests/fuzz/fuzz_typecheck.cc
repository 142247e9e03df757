// Fuzz target: `pstate typecheck` in its six languages (types::CheckSingle
// and report/typecheck.h's line, the language systems, their type parsers
// and printers). The input is a
// language byte (mod 6; bit 3: --format json), then TYPE, a newline, VALUE.
//
// Invariants beyond "no crash, no sanitizer report":
//  - deterministic: the same type and value give the same output, status
//    and messages on every run, and the same verdict from a fresh parse;
//  - JSON output is one JSON document; a convert verdict's value is JSON
//    and re-checks as ok or convert, never error;
//  - an error's pointer is a JSON pointer ("" or starting with '/');
//  - no secret is printed: no output or message holds an 8+ character
//    alphanumeric run that occurs in the input only inside a secret's
//    plaintext;
//  - printers round-trip: a pcl type's text reparses to an equal type, a
//    terraform constraint's canonical spelling is its own canonical
//    spelling, a puppet type's canonical spelling reparses to itself.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_check.h"
#include "json/parser.h"
#include "report/typecheck.h"
#include "types/pcl.h"
#include "types/puppet.h"
#include "types/registry.h"
#include "types/terraform.h"
#include "types/typecheck.h"

namespace {

namespace json = pstate::json;
namespace types = pstate::types;

constexpr std::size_t kMaxInput = 4096;
constexpr std::string_view kSig = "4dabf18193072939515e22adb298388d";

// The alphanumeric runs of 8 or more characters in `s`.
std::vector<std::string> Runs(std::string_view s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t j = i;
    while (j < s.size() && std::isalnum(static_cast<unsigned char>(s[j]))) ++j;
    if (j - i >= 8) out.emplace_back(s.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

// Collects the raw (escaped) text of every "plaintext" string of a
// secret-signature object in `v`.
void Plaintexts(const json::Value& v, std::vector<std::string_view>* out) {
  if (v.is_array()) {
    for (const json::Value& e : v.array()) Plaintexts(e, out);
    return;
  }
  if (!v.is_object()) return;
  bool secret = false;
  for (const json::Member& m : v.object()) {
    if (m.key.raw() == kSig) secret = true;
  }
  for (const json::Member& m : v.object()) {
    if (secret && m.key.raw() == "plaintext" && m.value.is_string()) {
      out->push_back(m.value.raw());
    }
    Plaintexts(m.value, out);
  }
}

// The single form as the command prints it: the verdict's line on `out`,
// or the reason there is none in `errors`.
struct Run {
  bool ok = false;
  std::string out;
  std::string errors;
};

Run Typecheck(const types::TypecheckConfig& config, bool json_format) {
  Run r;
  pstate::Result<types::Verdict> verdict = types::CheckSingle(config);
  if (!verdict.ok()) {
    r.errors = verdict.status().message();
    return r;
  }
  r.ok = true;
  std::ostringstream out;
  pstate::report::WriteTypeVerdict(*verdict,
                                   json_format
                                       ? pstate::report::TypecheckFormat::kJson
                                       : pstate::report::TypecheckFormat::kText,
                                   out);
  r.out = out.str();
  return r;
}

void PrintersRoundTrip(types::System system, const std::string& type) {
  switch (system) {
    case types::System::kPcl: {
      auto t = types::pcl::ParseType(type);
      if (!t.ok()) return;
      auto again = types::pcl::ParseType((*t)->text);
      PSTATE_FUZZ_CHECK(again.ok());
      PSTATE_FUZZ_CHECK(types::pcl::Equal(**t, **again));
      return;
    }
    case types::System::kTerraform: {
      auto t = types::terraform::ParseConstraint(type);
      if (!t.ok() || t->has_defaults) return;
      auto again = types::terraform::ParseConstraint(t->canonical);
      PSTATE_FUZZ_CHECK(again.ok());
      PSTATE_FUZZ_CHECK(again->canonical == t->canonical);
      return;
    }
    case types::System::kPuppet: {
      auto t = types::puppet::ParseType(type);
      if (!t.ok()) return;
      auto again = types::puppet::ParseType((*t)->text);
      PSTATE_FUZZ_CHECK(again.ok());
      PSTATE_FUZZ_CHECK((*again)->text == (*t)->text);
      return;
    }
    default: return;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  if (size < 2 || size > kMaxInput) return 0;
  static constexpr types::System kSystems[] = {
      types::System::kPulumi,    types::System::kPulumiSchema,
      types::System::kPcl,       types::System::kCty,
      types::System::kTerraform, types::System::kPuppet};
  const types::System system = kSystems[data[0] % 6];
  const bool json_format = (data[0] & 8) != 0;
  std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  std::size_t nl = rest.find('\n');
  if (nl == std::string_view::npos) return 0;
  const std::string type(rest.substr(0, nl));
  const std::string value(rest.substr(nl + 1));

  types::TypecheckConfig config;
  config.system = std::string(types::SystemName(system));
  config.type = type;
  config.value = value;
  Run first = Typecheck(config, json_format);
  Run second = Typecheck(config, json_format);
  PSTATE_FUZZ_CHECK(first.ok == second.ok);
  PSTATE_FUZZ_CHECK(first.out == second.out);
  PSTATE_FUZZ_CHECK(first.errors == second.errors);

  // The secrets' plaintext, and the input without it.
  json::Arena arena;
  json::Parser parser;
  json::Value root;
  std::string padded = value;
  if (parser.ParseDocument(padded, 0, arena, &root) == json::ParseStatus::kOk) {
    std::vector<std::string_view> secrets;
    Plaintexts(root, &secrets);
    std::string outside = type + "\n" + value;
    for (std::string_view s : secrets) {
      for (std::size_t at = outside.find(s); at != std::string::npos;
           at = outside.find(s, at + 1)) {
        outside.replace(at, s.size(), s.size(), ' ');
      }
    }
    for (std::string_view s : secrets) {
      for (const std::string& run : Runs(s)) {
        if (outside.find(run) != std::string::npos) continue;
        PSTATE_FUZZ_CHECK(first.out.find(run) == std::string::npos);
        PSTATE_FUZZ_CHECK(first.errors.find(run) == std::string::npos);
      }
    }
  }

  if (json_format && !first.out.empty()) {
    json::Value out;
    PSTATE_FUZZ_CHECK(parser.ParseDocument(first.out, 0, arena, &out) ==
                      json::ParseStatus::kOk);
  }

  // The verdict again from a fresh parse, through the language directly.
  types::TypeCache cache(nullptr);
  json::Value spec = arena.MakeString(type);
  if (system == types::System::kCty) {
    json::Value as_json;
    if (parser.ParseDocument(arena.Copy(type), 0, arena, &as_json) ==
        json::ParseStatus::kOk) {
      spec = as_json;
    }
  }
  if (system != types::System::kPulumiSchema &&
      parser.ParseDocument(padded, 0, arena, &root) == json::ParseStatus::kOk) {
    auto parsed = cache.Parse(system, spec);
    auto language = cache.GetSystem(system);
    if (parsed.ok() && language.ok()) {
      types::Verdict a = (*language)->Check(**parsed, root);
      types::Verdict b = (*language)->Check(**parsed, root);
      PSTATE_FUZZ_CHECK(a.outcome == b.outcome && a.pointer == b.pointer &&
                        a.message == b.message && a.converted == b.converted);
      PSTATE_FUZZ_CHECK(a.pointer.empty() || a.pointer[0] == '/');
      if (a.outcome == types::Outcome::kConvert) {
        json::Value converted;
        PSTATE_FUZZ_CHECK(parser.ParseDocument(arena.Copy(a.converted), 0,
                                               arena, &converted) ==
                          json::ParseStatus::kOk);
        types::Verdict again = (*language)->Check(**parsed, converted);
        PSTATE_FUZZ_CHECK(again.outcome != types::Outcome::kError);
      }
    }
  }
  PrintersRoundTrip(system, type);
  return 0;
}
