// An input that can be read more than once (two-pass commands, diff, edits).
//
// A plain regular file is read again from the file itself: every Open()
// reopens the same inode (through /proc/self/fd, so a rename over the path
// between passes changes nothing) and maps it as io::OpenInput does. Any
// other input (gzip, zstd, standard input, a FIFO) is spooled: copied, as
// it is decoded, into a temporary file created 0600 in the spool directory
// and unlinked at once, so nothing is left behind whatever ends the process.
//
// The spool is lazy. The first Open() returns a stream that decodes and
// writes each block to the spool file as the first pass reads it (a tee), so
// a pass that stops early (a syntax error, a decompression bomb past
// max_decoded_bytes, a wrong passphrase) stops the spooling with it: the
// disk holds at most what was decoded, never the whole stream. Any later
// Open(), and bytes(), first decode what the first pass left unread (the
// second pass of a command whose first pass stopped on purpose), then read
// the complete spool file through one shared mapping. Decoding happens
// once, so the limits of io::InputOptions apply once; a damaged stream
// fails in the first pass's Read, like any input, and every later Open()
// and bytes() fail with the same status.
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

#include "base/result.h"
#include "io/input.h"

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
  /// True when the input is decoded into a spool file.
  bool spooled() const { return spooled_; }
  /// Decoded bytes written to the spool file so far (0 when not spooled).
  std::uint64_t spooled_bytes() const;

  /// A fresh stream over the whole decoded input, positioned at its start.
  /// Its name() is name(); it maps where OpenInput would (plain files of
  /// 1 MiB and more). A spooled input's first stream is the tee (not
  /// mapped); later ones map the complete spool file (the stream keeps that
  /// mapping alive on its own). Fails with kIo (the file can no longer be
  /// opened, the spool file cannot be written) naming the input, or with
  /// the decoder's status when the input cannot be decoded to its end.
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
  /// The spool being written: the decoder, the file, how far it got
  /// (shared with the tee stream, which may outlive this object).
  struct Spool;

 private:
  friend Result<Replayable> OpenReplayable(const std::string& path,
                                           const SpoolOptions& options);
  Replayable() = default;
  void Reset();
  /// Opens the plain file again (same inode), not yet renamed. A failure
  /// names the input, and says "again" when `again`.
  Result<std::unique_ptr<InputStream>> Reopen(bool again = true) const;

  std::string name_;
  std::string path_;  ///< the path to reopen when /proc is not available
  Compression compression_ = Compression::kNone;
  bool spooled_ = false;
  int fd_ = -1;  ///< the plain file (a spool file belongs to spool_)
  InputOptions input_options_;
  std::shared_ptr<Spool> spool_;
  /// Spooled: the complete spool file's mapping, once made (Complete()).
  mutable std::shared_ptr<const Mapped> spool_map_;
  /// Spooled: the tee was handed out (the first Open()).
  mutable bool tee_taken_ = false;
  /// Spooled: decodes the rest and maps the spool file.
  Status Complete() const;
  // bytes(): one of these, filled on first use.
  std::unique_ptr<InputStream> bytes_stream_;  ///< a mapped plain file
  std::unique_ptr<std::string> bytes_copy_;    ///< a small plain file
  std::string_view bytes_view_;
};

/// Opens `path` ("-" for standard input) so that it can be read any number
/// of times. Compressed inputs, standard input and other non-regular files
/// are spooled as they are read (see above). Fails as OpenInput does, and
/// with kIo naming the input and the spool directory when the spool file
/// cannot be created.
Result<Replayable> OpenReplayable(const std::string& path,
                                  const SpoolOptions& options = {});

/// Creates a temporary file, mode 0600, in `directory` ($TMPDIR, else /tmp,
/// when empty) and unlinks it at once: nothing is left behind, whatever
/// ends the process. Returns the open descriptor (the caller closes it), or
/// kIo naming the directory.
Result<int> CreateUnlinkedTempFile(const std::string& directory = {});

/// A named temporary file for engines that take a path (diff reads files):
/// created empty, mode 0600, as $TMPDIR/pstate-<what>-XXXXXX (else /tmp),
/// and removed when this goes. Prefer CreateUnlinkedTempFile where a
/// descriptor will do: a named file is left behind if the process is
/// killed.
class TempPath {
 public:
  TempPath() = default;
  TempPath(const TempPath&) = delete;
  TempPath& operator=(const TempPath&) = delete;
  ~TempPath();

  /// Creates the file; kIo naming the directory when it cannot.
  [[nodiscard]] Status Create(std::string_view what);
  /// "" until Create succeeded.
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace pstate::io

#endif  // PSTATE_IO_SPOOL_H_
