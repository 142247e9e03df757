// The parallel executor's fast scan for where a resource ends.
//
// A structural scan, not a parse: it skips strings (with their escapes) and
// counts brackets, so it finds the end of a well-formed value at a small
// fraction of the parser's cost, on the reader's thread. It validates
// nothing: the value is parsed afterwards, on a worker, by json::Parser,
// which judges it exactly as the sequential read would (and any doubt
// sends the executor back to that read; executor.h).
#ifndef PSTATE_ENGINE_BOUNDARY_H_
#define PSTATE_ENGINE_BOUNDARY_H_

#include "state/reader.h"

namespace pstate::engine {

/// Finds the end of the JSON value starting at `begin` (its first byte, not
/// whitespace): an object or array (to its matching close, whatever the
/// bracket kinds in between), a string, or a scalar (up to the next
/// whitespace, ',', ']' or '}'). `end` bounds the bytes, and 64 readable
/// bytes must follow it (as io::Window and json::Parser want them).
/// kIncomplete: the bytes ran out and `at_eof` is false. kError: `begin`
/// is no value's start, or the input ends inside the value. A
/// state::ValueScanner.
state::ScanStatus FindValueEnd(const char* begin, const char* end, bool at_eof,
                               const char** stop);

}  // namespace pstate::engine

#endif  // PSTATE_ENGINE_BOUNDARY_H_
