// Fuzz target: `pstate edit` (edit::Run, as the CLI runs it) over arbitrary
// input, written to a private temporary directory.
//
// Byte 0 chooses the operation (protect, unprotect, taint, untaint, delete,
// repair) and bit 7 --force; byte 1 the target resource (by index, among the
// resources the reader finds). The rest is the state.
//
// Invariants beyond "no crash, no sanitizer report":
//  - a dry run decides as the real run does (failure, refusal, changes) and
//    writes nothing; a refusal or a failure writes nothing;
//  - never verifies worse: without --force the output has, code by code, no
//    more error findings than the input (both read through the verifier);
//  - untouched bytes are kept: after a flag operation (protect, unprotect,
//    taint, untaint), every resource with another URN appears in the
//    output byte for byte as it is in the input.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "diag/report.h"
#include "edit/edit.h"
#include "fuzz/fuzz_check.h"
#include "fuzz/fuzz_files.h"
#include "io/input.h"
#include "state/reader.h"
#include "state/resource.h"
#include "verify/verifier.h"

namespace {

namespace fs = std::filesystem;

const fs::path& WorkDir() {
  static const fs::path dir = pstate_fuzz::MakeWorkDir("edit");
  return dir;
}

using pstate_fuzz::ReadFile;
using pstate_fuzz::WriteFile;

/// Each resource's URN and text, and the verifier's findings, as one read.
class Survey : public pstate::state::Handler {
 public:
  struct Resource {
    std::string urn;
    std::string bytes;
  };
  pstate::Result<pstate::state::Flow> OnLeaf(
      pstate::state::Leaf& leaf, pstate::state::Context& context) override {
    if (leaf.role == pstate::state::Role::kResource) {
      auto view = pstate::state::ResourceView::Of(leaf);
      Resource r;
      if (view && view->urn != nullptr && view->urn->is_string()) {
        r.urn = view->urn->Str();
      }
      r.bytes = std::string(leaf.bytes);
      resources.push_back(std::move(r));
    }
    return verifier_.OnLeaf(leaf, context);
  }
  pstate::Status OnFinish(const pstate::state::Envelope& envelope,
                          pstate::state::Context& context) override {
    return verifier_.OnFinish(envelope, context);
  }
  std::vector<Resource> resources;

 private:
  pstate::verify::Verifier verifier_;
};

struct Read {
  bool ok = false;
  std::vector<Survey::Resource> resources;
  std::map<std::string, int> errors;  ///< error findings by code
};

Read ReadState(const fs::path& path) {
  Read read;
  auto input = pstate::io::OpenInput(path.string());
  if (!input.ok()) return read;
  Survey survey;
  pstate::diag::Report report(path.string());
  pstate::Status status = pstate::state::Read(**input, survey, report);
  read.ok = status.ok() && !report.fatal();
  read.resources = std::move(survey.resources);
  for (const pstate::diag::Finding& f : report.findings()) {
    if (f.severity == pstate::diag::Severity::kError) {
      ++read.errors[std::string(f.code_name())];
    }
  }
  return read;
}

constexpr pstate::edit::Operation kOperations[] = {
    pstate::edit::Operation::kProtect, pstate::edit::Operation::kUnprotect,
    pstate::edit::Operation::kTaint,   pstate::edit::Operation::kUntaint,
    pstate::edit::Operation::kDelete,  pstate::edit::Operation::kRepair,
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  if (size < 2) return 0;
  const pstate::edit::Operation op =
      kOperations[(data[0] & 0x7f) % std::size(kOperations)];
  const bool force = (data[0] & 0x80) != 0;
  const fs::path in = WorkDir() / "in.json";
  const fs::path out = WorkDir() / "out.json";
  std::error_code ec;
  fs::remove(out, ec);
  if (!WriteFile(in, std::string_view(reinterpret_cast<const char*>(data + 2),
                                      size - 2))) {
    return 0;
  }
  const Read before = ReadState(in);
  if (!before.ok || before.resources.empty()) return 0;
  const std::string target =
      before.resources[data[1] % before.resources.size()].urn;

  pstate::edit::Config config;
  config.request.op = op;
  config.request.force = force;
  if (op != pstate::edit::Operation::kRepair) {
    if (target.empty()) return 0;
    config.request.urns = {target};
  }
  config.input = in.string();
  config.output = out.string();
  config.dry_run = true;
  auto dry = pstate::edit::Run(config);
  PSTATE_FUZZ_CHECK(!fs::exists(out, ec));
  config.dry_run = false;
  auto real = pstate::edit::Run(config);
  PSTATE_FUZZ_CHECK(dry.ok() == real.ok());
  if (!real.ok()) {
    PSTATE_FUZZ_CHECK(!fs::exists(out, ec));
    return 0;
  }
  PSTATE_FUZZ_CHECK(dry->refused == real->refused);
  PSTATE_FUZZ_CHECK(dry->changes.resources.size() ==
                    real->changes.resources.size());
  PSTATE_FUZZ_CHECK(dry->unchanged == real->unchanged);
  if (real->refused) {
    PSTATE_FUZZ_CHECK(!fs::exists(out, ec));
    return 0;
  }
  PSTATE_FUZZ_CHECK(real->written);
  const Read after = ReadState(out);
  PSTATE_FUZZ_CHECK(after.ok);
  if (!force) {
    for (const auto& [code, n] : after.errors) {
      auto was = before.errors.find(code);
      PSTATE_FUZZ_CHECK(was != before.errors.end() && was->second >= n);
    }
  }
  const bool flag_op = op == pstate::edit::Operation::kProtect ||
                       op == pstate::edit::Operation::kUnprotect ||
                       op == pstate::edit::Operation::kTaint ||
                       op == pstate::edit::Operation::kUntaint;
  const bool plain = pstate::io::DetectCompression(std::string_view(
                         reinterpret_cast<const char*>(data + 2), size - 2)) ==
                     pstate::io::Compression::kNone;
  if (flag_op && plain) {
    const std::string written = ReadFile(out);
    for (const Survey::Resource& r : before.resources) {
      if (r.urn == target) continue;
      PSTATE_FUZZ_CHECK(written.find(r.bytes) != std::string::npos);
    }
  }
  return 0;
}
