// An input that can be read more than once (two-pass commands, diff, edits).
//
// A plain regular file is read again from the file itself: every Open()
// reopens the same inode (through /proc/self/fd, so a rename over the path
// between passes changes nothing) and maps it as io::OpenInput does. Any
// other input (gzip, zstd, standard input, a FIFO) is decoded once, into a
// temporary file created 0600 in the spool directory and unlinked at once,
// so nothing is left behind whatever ends the process; every Open() then
// reads that file through one shared mapping. Decoding happens once, so the
// limits of io::InputOptions (max_decoded_bytes) apply once, and a damaged
// stream fails in OpenReplayable, before any pass has run.
//
// Each pass gets its own io::InputStream; bytes() gives random access to the
// whole decoded input, so a caller can copy a leaf's byte range
// [start_offset, end_offset) verbatim.
#ifndef PSTATE_IO_SPOOL_H_
#define PSTATE_IO_SPOOL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "pstate/base/result.h"
#include "pstate/io/input.h"

namespace pstate::io {

struct SpoolOptions {
  /// Decoding limits (max_decoded_bytes), as for OpenInput.
  InputOptions input;
  /// Where the spool file goes. Empty: $TMPDIR, else /tmp. The directory
  /// is the caller's choice of disk: a spooled input needs as much free
  /// space as it decodes to.
  std::string directory;
};

class Replayable {
 public:
  ~Replayable();
  Replayable(const Replayable&) = delete;
  Replayable& operator=(const Replayable&) = delete;
  Replayable(Replayable&&) noexcept;
  Replayable& operator=(Replayable&&) noexcept;

  /// The name used in messages: the path, or "<stdin>" (never the spool
  /// file's name).
  const std::string& name() const { return name_; }
  /// How the input was compressed when it was first read.
  Compression compression() const { return compression_; }
  /// True when the input was decoded into a spool file.
  bool spooled() const { return spooled_; }

  /// A fresh stream over the whole decoded input, positioned at its start.
  /// Its name() is name(); it maps where OpenInput would (plain files of
  /// 1 MiB and more) and always for a spooled input (the stream keeps that
  /// mapping alive on its own). Fails with kIo (the
  /// file can no longer be opened) naming the input.
  Result<std::unique_ptr<InputStream>> Open() const;

  /// The whole decoded input, for random access: a mapping for spooled
  /// inputs and plain files of 1 MiB and more, else a copy read once.
  /// Valid until this Replayable is destroyed. A plain file that shrank
  /// while mapped reads as zero bytes past its new end instead of killing
  /// the process; check bytes_status() after using the view.
  Result<std::string_view> bytes();
  /// Ok, or the kIo error to report because the file shrank while bytes()
  /// was mapped.
  Status bytes_status() const;

  /// The spool file's mapping (an implementation detail, shared with the
  /// streams Open() returns).
  struct Mapped;

 private:
  friend Result<Replayable> OpenReplayable(const std::string& path,
                                           const SpoolOptions& options);
  Replayable() = default;
  void Reset();
  /// Opens the plain file again (same inode), not yet renamed.
  Result<std::unique_ptr<InputStream>> Reopen() const;

  std::string name_;
  std::string path_;  ///< the path to reopen when /proc is not available
  Compression compression_ = Compression::kNone;
  bool spooled_ = false;
  int fd_ = -1;             ///< the plain file, or the unlinked spool file
  std::uint64_t size_ = 0;  ///< spooled: decoded size
  InputOptions input_options_;
  // bytes(): one of these, filled on first use.
  std::unique_ptr<InputStream> bytes_stream_;  ///< a mapped plain file
  std::unique_ptr<std::string> bytes_copy_;    ///< a small plain file
  std::string_view bytes_view_;
  std::shared_ptr<const Mapped> spool_map_;  ///< a spool file's mapping
};

/// Opens `path` ("-" for standard input) so that it can be read any number
/// of times. Decodes (and spools) compressed inputs, standard input and
/// other non-regular files at once. Fails as OpenInput does, and with kIo
/// naming the input and the spool directory when the spool file cannot be
/// created or written (a full disk).
Result<Replayable> OpenReplayable(const std::string& path,
                                  const SpoolOptions& options = {});

/// Creates a temporary file, mode 0600, in `directory` ($TMPDIR, else /tmp,
/// when empty) and unlinks it at once: nothing is left behind, whatever
/// ends the process. Returns the open descriptor (the caller closes it), or
/// kIo naming the directory.
Result<int> CreateUnlinkedTempFile(const std::string& directory = {});

}  // namespace pstate::io

#endif  // PSTATE_IO_SPOOL_H_
