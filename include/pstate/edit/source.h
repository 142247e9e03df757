// The bytes `pstate edit` reads twice: once through the state reader (the
// index) and then by range (splicing the output). A plain regular file is
// mapped; gzip, zstd and standard input are decompressed once into an
// unlinked temporary file that is mapped instead, so memory never holds
// the state and every offset the reader reports is an offset here.
//
// (Brief A's io::OpenReplayable does the same for every command; this is
// the small version edit needs until it lands.)
#ifndef PSTATE_EDIT_SOURCE_H_
#define PSTATE_EDIT_SOURCE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "pstate/base/result.h"
#include "pstate/io/input.h"
#include "pstate/io/output.h"

namespace pstate::edit {

class Source {
 public:
  /// Opens `path` ("-" for standard input). Fails as io::OpenInput does,
  /// with a message naming the file.
  static Result<std::unique_ptr<Source>> Open(const std::string& path);
  ~Source();
  Source(const Source&) = delete;
  Source& operator=(const Source&) = delete;

  /// The decoded bytes (valid as long as the Source).
  std::string_view bytes() const { return {data_, size_}; }
  /// The name used in messages: the path, or "<stdin>".
  const std::string& name() const { return name_; }
  /// How the input was compressed (the output is compressed the same way).
  io::Compression compression() const { return compression_; }
  /// A path holding the decoded bytes (the input, or the spool file).
  const std::string& replay_path() const { return path_; }
  /// Hands the pages of [begin, end) back (they stay in the page cache and
  /// are read again on demand).
  void Release(std::uint64_t begin, std::uint64_t end) const;
  /// Opens the decoded bytes again as a stream for the state reader.
  Result<std::unique_ptr<io::InputStream>> Reopen() const;

 private:
  Source() = default;
  std::string name_;
  std::string path_;  ///< what Reopen opens (the spool file when spooled)
  bool spooled_ = false;
  io::Compression compression_ = io::Compression::kNone;
  const char* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t mapped_size_ = 0;
};

/// An Output that compresses what it is given (gzip or zstd, as Pulumi's
/// DIY backend writes them) into `inner`. Commit finishes the stream and
/// commits `inner`; Abandon abandons it. The gzip header carries no time,
/// so equal inputs give equal bytes.
Result<std::unique_ptr<io::Output>> CompressingOutput(
    std::unique_ptr<io::Output> inner, io::Compression compression);

}  // namespace pstate::edit

#endif  // PSTATE_EDIT_SOURCE_H_
