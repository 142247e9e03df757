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
//    could not be read (io-error, which comes where the reader stood).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "fuzz/fuzz_check.h"
#include "pstate/diag/codes.h"
#include "pstate/diag/report.h"
#include "pstate/io/input.h"
#include "pstate/state/reader.h"
#include "pstate/verify/verifier.h"

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
