// Fuzz target: the `pstate redact` pass (redact::Redactor driven by
// redact::Run, as src/cli/cmd_redact.cc runs it) over arbitrary
// input, written to a temporary file.
//
// Invariants beyond "no crash, no sanitizer report", when an output file is
// produced:
//  - it is one JSON document (json::Document::Parse accepts it);
//  - it holds no plaintext of a secret of the input. The check is kept
//    sound rather than complete: in every object whose signature member is
//    spelled exactly (no escapes) as a secret's, each run of 8 or more ASCII
//    letters and digits inside the raw text of a member spelled exactly
//    "plaintext" is a witness when it occurs nowhere else in the input and
//    in none of the redactor's placeholders. The output is made of input
//    tokens copied whole, placeholders, and structure, and JSON puts a
//    quote, comma, colon or bracket between any two tokens, so such a run
//    can only come from the secret. Inputs holding a \u escape are not
//    checked: the redactor re-encodes some strings it rewrites (argv words),
//    and decoding \u0041 makes letters that were not in the raw input.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "fuzz/fuzz_check.h"
#include "fuzz/fuzz_files.h"
#include "json/document.h"
#include "json/value.h"
#include "redact/redactor.h"
#include "redact/run.h"
#include "state/reader.h"
#include "state/signature.h"
#include "state/state_writer.h"

namespace {

namespace fs = std::filesystem;
using pstate::json::Value;

constexpr std::size_t kMinWitness = 8;

bool IsAlnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
         (c >= 'A' && c <= 'Z');
}

// Adds the witnesses of one plaintext's raw text.
void AddRuns(std::string_view raw, std::vector<std::string>* runs) {
  std::size_t i = 0;
  while (i < raw.size()) {
    if (!IsAlnum(raw[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < raw.size() && IsAlnum(raw[j])) ++j;
    if (j - i >= kMinWitness) runs->emplace_back(raw.substr(i, j - i));
    i = j;
  }
}

bool IsSecret(const Value& object) {
  for (const pstate::json::Member& m : object.object()) {
    if (m.raw_key() == pstate::state::kSigKey && m.value.is_string() &&
        m.value.raw() == pstate::state::kSigSecret) {
      return true;
    }
  }
  return false;
}

void CollectPlaintexts(const Value& value, std::vector<std::string>* runs) {
  if (value.is_array()) {
    for (const Value& element : value.array()) CollectPlaintexts(element, runs);
    return;
  }
  if (!value.is_object()) return;
  const bool secret = IsSecret(value);
  for (const pstate::json::Member& m : value.object()) {
    if (secret && m.raw_key() == "plaintext" && m.value.is_string()) {
      AddRuns(m.value.raw(), runs);
    }
    CollectPlaintexts(m.value, runs);
  }
}

bool OccursOnce(std::string_view text, std::string_view needle) {
  const std::size_t first = text.find(needle);
  return first != std::string_view::npos &&
         text.find(needle, first + 1) == std::string_view::npos;
}

// What the output may hold although the input did not.
std::string Placeholders() {
  std::string all;
  for (std::string_view p :
       {pstate::redact::kRedactedText, pstate::redact::kRedactedPlaintext,
        pstate::redact::kRedactedBase64, pstate::redact::kRedactedCiphertext,
        pstate::redact::kRedactedSalt}) {
    all.append(p);
    all.push_back(' ');
  }
  return all;
}

const fs::path& WorkDir() {
  static const fs::path dir = pstate_fuzz::MakeWorkDir("redact");
  return dir;
}

using pstate_fuzz::ReadFile;
using pstate_fuzz::WriteFile;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const fs::path in_path = WorkDir() / "in.json";
  const fs::path out_path = WorkDir() / "out.json";
  std::error_code ec;
  fs::remove(out_path, ec);
  PSTATE_FUZZ_CHECK(WriteFile(in_path, input));

  pstate::redact::Config config;
  config.input = in_path.string();
  config.output = out_path.string();
  config.layout = size % 2 == 0 ? pstate::json::Layout::kIndented
                                : pstate::json::Layout::kCompact;
  const pstate::Status status = pstate::redact::Run(std::move(config)).status();
  if (!status.ok()) {
    PSTATE_FUZZ_CHECK(!fs::exists(out_path, ec));
    return 0;
  }
  const std::string output = ReadFile(out_path);
  PSTATE_FUZZ_CHECK(pstate::json::Document::Parse(output).ok());

  if (input.find("\\u") != std::string_view::npos) return 0;
  auto document = pstate::json::Document::Parse(std::string(input));
  if (!document.ok()) return 0;  // compressed, or not JSON at all
  std::vector<std::string> runs;
  CollectPlaintexts(document->root(), &runs);
  static const std::string placeholders = Placeholders();
  for (const std::string& run : runs) {
    if (!OccursOnce(input, run)) continue;
    if (placeholders.find(run) != std::string::npos) continue;
    PSTATE_FUZZ_CHECK(output.find(run) == std::string::npos);
  }
  return 0;
}
