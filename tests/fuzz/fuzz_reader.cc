// Fuzz target: state::Read with verify's handler (verify::Verifier) over
// arbitrary bytes, read once with the default window and once with a
// window of a few bytes (every value then straddles window refills).
//
// Invariants beyond "no crash, no sanitizer report":
//  - a failed read has exactly one fatal finding (diag::IsFatal) in its
//    report, a successful one none (state/reader.h: the reader's failure
//    lives in the report once; the Verifier itself never fails);
//  - the window size changes nothing: same status class, same findings
//    (code, line, column, pointer) in the same order, unless the bytes
//    could not be read (io-error, which comes where the reader stood);
//  - the engine's parallel executor (engine/executor.h, two threads,
//    batches of a few bytes) reports exactly what its sequential read
//    does, message and column included, over the bytes as a plain file.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "diag/codes.h"
#include "diag/report.h"
#include "engine/executor.h"
#include "fuzz/fuzz_check.h"
#include "io/input.h"
#include "io/spool.h"
#include "state/reader.h"
#include "verify/verifier.h"

namespace {

using pstate::diag::Finding;

struct Run {
  pstate::Status status;
  std::vector<Finding> findings;
};

Run ReadWith(const std::string& bytes, std::size_t window_size) {
  // A small decompression limit: a gzip or zstd input of a few KiB may
  // expand to far more, which is the io module's business, not the reader's.
  pstate::io::InputOptions input_options;
  input_options.max_decoded_bytes = std::uint64_t{16} << 20;
  auto input = pstate::io::MemoryInput(bytes, "fuzz.json", input_options);
  pstate::verify::Verifier verifier;
  pstate::diag::Report report("fuzz.json");
  pstate::state::ReadOptions options;
  options.max_depth = 64;
  options.window_size = window_size;
  Run run;
  run.status = pstate::state::Read(*input, verifier, report, options);
  report.SortByLocation();
  run.findings = report.findings();

  std::size_t fatal = 0;
  for (const Finding& f : run.findings) {
    if (pstate::diag::IsFatal(f.code)) ++fatal;
  }
  PSTATE_FUZZ_CHECK(fatal == (run.status.ok() ? 0u : 1u));
  PSTATE_FUZZ_CHECK(report.fatal() == !run.status.ok());
  return run;
}

/// verify through the engine, on `jobs` threads, over the file `path`:
/// every finding spelled out.
std::vector<std::string> EngineFindings(const std::string& path, int jobs) {
  pstate::diag::Report report(path);
  pstate::engine::Options options;
  options.jobs = jobs;
  options.batch_bytes = 64;
  std::function<std::unique_ptr<pstate::verify::Verifier>()> make = [] {
    return std::make_unique<pstate::verify::Verifier>();
  };
  pstate::engine::Run<pstate::verify::Verifier>(path, make, report, options);
  report.SortByLocation();
  std::vector<std::string> out;
  for (const Finding& f : report.findings()) {
    out.push_back(std::string(f.code_name()) + " " + std::to_string(f.line) +
                  ":" + std::to_string(f.column) + ":" +
                  std::to_string(f.char_column) + " " + f.pointer + " " +
                  f.urn + " " + f.message);
  }
  return out;
}

/// The parallel executor against the sequential read of the same file.
void CheckEngine(const std::string& bytes) {
  if (pstate::io::DetectCompression(bytes) != pstate::io::Compression::kNone) {
    return;  // read sequentially whatever --jobs says
  }
  // The project's one named temporary file (0600, removed when it goes).
  pstate::io::TempPath file;
  if (!file.Create("fuzz-engine").ok()) return;
  std::FILE* out = std::fopen(file.path().c_str(), "wb");
  if (out == nullptr) return;
  bool written =
      std::fwrite(bytes.data(), 1, bytes.size(), out) == bytes.size();
  written = std::fclose(out) == 0 && written;
  if (written) {
    PSTATE_FUZZ_CHECK(EngineFindings(file.path(), 2) ==
                      EngineFindings(file.path(), 1));
  }
}

bool HasIoError(const Run& run) {
  for (const Finding& f : run.findings) {
    if (f.code == pstate::diag::Code::kIoError) return true;
  }
  return false;
}

auto Key(const Finding& f) {
  return std::tie(f.code, f.line, f.column, f.pointer);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const Run large = ReadWith(bytes, std::size_t{1} << 20);
  const Run tiny = ReadWith(bytes, 7);
  CheckEngine(bytes);
  // An input that cannot be read or decompressed to its end (a gzip stream
  // with trailing bytes, a decompression limit) fails where the reader
  // stood when the bad bytes came in, which depends on the window; so do
  // the findings before it, and a syntax error in the decompressed bytes
  // may come first with a small window.
  if (HasIoError(large) || HasIoError(tiny)) return 0;
  PSTATE_FUZZ_CHECK(large.status.code() == tiny.status.code());
  PSTATE_FUZZ_CHECK(large.findings.size() == tiny.findings.size());
  for (std::size_t i = 0; i < large.findings.size(); ++i) {
    if (Key(large.findings[i]) != Key(tiny.findings[i])) {
      // Places and codes only: a message may quote the input.
      for (const Run* run : {&large, &tiny}) {
        const Finding& f = run->findings[i];
        std::fprintf(stderr, "finding %zu: %.*s at %llu:%llu\n", i,
                     static_cast<int>(f.code_name().size()),
                     f.code_name().data(),
                     static_cast<unsigned long long>(f.line),
                     static_cast<unsigned long long>(f.column));
      }
    }
    PSTATE_FUZZ_CHECK(Key(large.findings[i]) == Key(tiny.findings[i]));
  }
  return 0;
}
