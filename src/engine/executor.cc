#include "engine/executor.h"

#include <algorithm>

#include "io/window.h"

namespace pstate::engine {

bool CanSplit(const io::InputStream& input) {
  return input.compression() == io::Compression::kNone &&
         input.plain_file_fd() >= 0;
}

io::LineColumn ResourceContext::Locate(std::uint64_t offset) {
  // As io::Window::Locate does for offsets outside what it holds: clamped.
  std::uint64_t at = std::clamp<std::uint64_t>(offset, raw_.offset,
                                               raw_.offset + raw_.bytes.size());
  return io::Advance(raw_.at, raw_.bytes.data(),
                     static_cast<std::size_t>(at - raw_.offset));
}

void ResourceContext::Report(diag::Finding finding, std::uint64_t offset) {
  io::LineColumn lc = Locate(offset);
  finding.line = lc.line;
  finding.column = lc.column;
  finding.char_column = lc.char_column;
  findings_->push_back(std::move(finding));
}

namespace internal {

bool ParseResource(const state::RawResource& raw, json::Parser& parser,
                   json::Arena& arena, state::Leaf* leaf) {
  const char* begin = raw.bytes.data();
  const char* end = begin + raw.bytes.size();
  const char* stop = nullptr;
  json::ParseStatus st = parser.Parse(begin, end, /*at_eof=*/true, raw.offset,
                                      arena, &leaf->value, &stop);
  if (st != json::ParseStatus::kOk || stop != end) return false;
  leaf->role = state::Role::kResource;
  leaf->pointer = raw.pointer;
  leaf->index = raw.index;
  leaf->arena = &arena;
  leaf->end_offset = raw.offset + raw.bytes.size();
  leaf->bytes = raw.bytes;
  leaf->duplicates = parser.duplicates();
  return true;
}

}  // namespace internal
}  // namespace pstate::engine
