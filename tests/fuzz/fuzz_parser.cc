// Fuzz target: json::Parser on arbitrary bytes.
//
// Invariants beyond "no crash, no sanitizer report":
//  - Parse over windows that grow from a few bytes (as the state reader's
//    sliding window does, reporting kIncomplete until enough bytes are in)
//    ends exactly as one Parse over the whole input: same status, same stop
//    position, same error code and offset;
//  - kIncomplete is never returned at the end of the input;
//  - ParseDocument agrees with Parse about whether the input starts with a
//    value, and accepts only inputs whose rest is whitespace.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_check.h"
#include "json/parser.h"
#include "json/value.h"

namespace {

using pstate::json::Arena;
using pstate::json::Parser;
using pstate::json::ParseStatus;
using pstate::json::Value;

struct Outcome {
  ParseStatus status = ParseStatus::kError;
  std::size_t stop = 0;  // bytes consumed, when kOk
  pstate::json::SyntaxCode code = pstate::json::SyntaxCode::kSyntax;
  std::uint64_t error_offset = 0;
};

// Parses `bytes` as the reader does: a window of `window` bytes first, then
// twice as many after each kIncomplete, restarting the value each time.
Outcome ParseGrowing(const std::vector<char>& padded, std::size_t size,
                     std::size_t window) {
  Parser parser(/*max_depth=*/64);
  Arena arena;
  const char* begin = padded.data();
  std::size_t available = std::min(window, size);
  for (;;) {
    const bool at_eof = available == size;
    Value value;
    const char* stop = nullptr;
    ParseStatus status =
        parser.Parse(begin, begin + available, at_eof, 0, arena, &value, &stop);
    if (status == ParseStatus::kIncomplete) {
      PSTATE_FUZZ_CHECK(!at_eof);
      available = std::min(size, available * 2);
      arena.Reset();
      continue;
    }
    Outcome outcome;
    outcome.status = status;
    if (status == ParseStatus::kOk) {
      PSTATE_FUZZ_CHECK(stop >= begin && stop <= begin + available);
      outcome.stop = static_cast<std::size_t>(stop - begin);
    } else {
      outcome.code = parser.error().code;
      outcome.error_offset = parser.error().offset;
      PSTATE_FUZZ_CHECK(outcome.error_offset <= size);
    }
    return outcome;
  }
}

bool OnlyWhitespace(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  // The parser may read kParserPadding bytes past `end`; they hold junk
  // that must not change the result.
  std::vector<char> padded(size + pstate::json::kParserPadding, '"');
  if (size != 0) std::memcpy(padded.data(), data, size);

  const Outcome whole = ParseGrowing(padded, size, size);
  for (std::size_t window : {std::size_t{1}, std::size_t{3}, std::size_t{16}}) {
    if (window >= size) break;
    const Outcome part = ParseGrowing(padded, size, window);
    PSTATE_FUZZ_CHECK(part.status == whole.status);
    PSTATE_FUZZ_CHECK(part.stop == whole.stop);
    PSTATE_FUZZ_CHECK(part.code == whole.code);
    PSTATE_FUZZ_CHECK(part.error_offset == whole.error_offset);
  }

  const std::string_view text(padded.data(), size);
  Parser parser(/*max_depth=*/64);
  Arena arena;
  Value value;
  const ParseStatus document =
      parser.ParseDocument(text, /*base_offset=*/0, arena, &value);
  PSTATE_FUZZ_CHECK(document != ParseStatus::kIncomplete);
  if (document == ParseStatus::kOk) {
    PSTATE_FUZZ_CHECK(whole.status == ParseStatus::kOk);
    PSTATE_FUZZ_CHECK(OnlyWhitespace(text.substr(whole.stop)));
  } else if (whole.status == ParseStatus::kOk) {
    PSTATE_FUZZ_CHECK(!OnlyWhitespace(text.substr(whole.stop)));
  }
  return 0;
}
