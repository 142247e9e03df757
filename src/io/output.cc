#include "io/output.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "io/input.h"

namespace pstate::io {
namespace {

// ---------------------------------------------------------------------------
// Temporary files removed by a fatal signal.
//
// A temporary output file may hold decrypted plaintext; Ctrl-C, a `kill`,
// a closed terminal or a dead pipe reader must not leave it behind. The
// handler may only call async-signal-safe functions, so the live paths sit
// in fixed slots (no allocation, no locks) and the handler only reads them
// and calls unlink(2), then dies of the same signal with its default
// action. pstate has one output open at a time; a few slots are plenty, and
// an output that finds none still works (only without this cleanup).

constexpr int kSlots = 8;
constexpr std::size_t kMaxTempPath = PATH_MAX;

enum SlotState : int { kFree = 0, kFilling = 1, kLive = 2 };

struct TempSlot {
  std::atomic<int> state{kFree};
  char path[kMaxTempPath];
};

TempSlot g_slots[kSlots];

constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

extern "C" void RemoveTempFilesAndDie(int sig) {
  int saved_errno = errno;
  for (TempSlot& slot : g_slots) {
    if (slot.state.load(std::memory_order_acquire) == kLive) {
      ::unlink(slot.path);
    }
  }
  errno = saved_errno;
  // SA_RESETHAND restored the default action, and `sig` stays blocked until
  // this handler returns: the re-raised signal is delivered then and ends
  // the process as if no handler had run (same exit status for the shell).
  ::raise(sig);
}

void InstallCleanupHandlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : kCleanupSignals) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) != 0) continue;
      // A signal the program ignores (SIGPIPE often is) or handles itself
      // is left alone: the write then fails, and the output is abandoned
      // through the ordinary error path.
      if ((old.sa_flags & SA_SIGINFO) != 0 || old.sa_handler != SIG_DFL) {
        continue;
      }
      struct sigaction act {};
      act.sa_handler = &RemoveTempFilesAndDie;
      sigemptyset(&act.sa_mask);
      // SA_RESETHAND is the sign bit of the int field on Linux; C++20
      // converts modulo 2^32, so the cast keeps the bit.
      act.sa_flags = static_cast<int>(SA_RESETHAND);
      ::sigaction(sig, &act, nullptr);
    }
  });
}

/// Blocks the cleanup signals for its lifetime, so that a temporary file is
/// never created without being registered.
class BlockCleanupSignals {
 public:
  BlockCleanupSignals() {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : kCleanupSignals) sigaddset(&set, sig);
    ::pthread_sigmask(SIG_BLOCK, &set, &old_);
  }
  ~BlockCleanupSignals() { ::pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  BlockCleanupSignals(const BlockCleanupSignals&) = delete;
  BlockCleanupSignals& operator=(const BlockCleanupSignals&) = delete;

 private:
  sigset_t old_;
};

/// The slot now holding `path`, or -1 when none is free (or it is too long).
int RegisterTemp(const std::string& path) {
  if (path.size() >= kMaxTempPath) return -1;
  InstallCleanupHandlers();
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (!g_slots[i].state.compare_exchange_strong(expected, kFilling,
                                                  std::memory_order_acq_rel)) {
      continue;
    }
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].state.store(kLive, std::memory_order_release);
    return i;
  }
  return -1;
}

void UnregisterTemp(int slot) {
  if (slot >= 0) g_slots[slot].state.store(kFree, std::memory_order_release);
}

// ---------------------------------------------------------------------------
// Writing.

bool WriteAll(int fd, std::string_view bytes, int* err) {
  const char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      *err = errno;
      return false;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

std::string DirName(const std::string& path) {
  std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

/// Makes renames in the directory of `path` durable (best effort: some
/// file systems cannot fsync a directory).
void SyncDirectoryOf(const std::string& path) {
  int fd = ::open(DirName(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

/// Copies `path` (when it exists) to "<path>.bak" through a temporary
/// file, keeping its mode: the DIY backend's one backup generation. The
/// bytes come from `source` when it is open (the file the run locked and
/// read), else from `path` opened now. The copy is fsync'ed before it is
/// renamed into place, so a crash never leaves a short `.bak` behind a
/// replaced state.
Status CopyToBackup(const std::string& path, int source) {
  int in = source;
  if (in < 0) {
    in = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (in < 0) {
      if (errno == ENOENT) return Status::Ok();
      return Status(Errc::kIo, path + ": cannot read for the backup: " +
                                   std::strerror(errno));
    }
  }
  auto close_in = [&] {
    if (in != source) ::close(in);
  };
  struct stat st {};
  ::fstat(in, &st);
  std::string bak = path + ".bak";
  std::string temp = bak + ".pstate-tmp-XXXXXX";
  int out = ::mkstemp(temp.data());
  if (out < 0) {
    int err = errno;
    close_in();
    return Status(Errc::kIo, bak + ": " + std::strerror(err));
  }
  ::fchmod(out, st.st_mode & 07777);
  char buf[1 << 16];
  int err = 0;
  off_t offset = 0;
  for (;;) {
    ssize_t n = ::pread(in, buf, sizeof buf, offset);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      err = errno;
      break;
    }
    if (n == 0) break;
    offset += n;
    if (!WriteAll(out, std::string_view(buf, static_cast<std::size_t>(n)),
                  &err)) {
      break;
    }
  }
  close_in();
  if (err == 0 && ::fsync(out) != 0) err = errno;
  if (::close(out) != 0 && err == 0) err = errno;
  if (err == 0 && ::rename(temp.c_str(), bak.c_str()) != 0) err = errno;
  if (err != 0) {
    ::unlink(temp.c_str());
    return Status(Errc::kIo, bak + ": " + std::strerror(err));
  }
  return Status::Ok();
}

/// Compresses everything written into another Output (libarchive's raw
/// format with a gzip or zstd filter: one stream, no archive entry).
class CompressingOutput : public Output {
 public:
  CompressingOutput(std::unique_ptr<Output> inner, Compression c)
      : inner_(std::move(inner)) {
    name_ = inner_->name();
    archive_ = archive_write_new();
    if (c == Compression::kGzip) {
      archive_write_add_filter_gzip(archive_);
      // No modification time in the header (MTIME 0), as Go's gzip.Writer
      // writes it with a zero Header: equal states compress to equal bytes.
      archive_write_set_filter_option(archive_, "gzip", "timestamp", nullptr);
    } else {
      archive_write_add_filter_zstd(archive_);
    }
    archive_write_set_format_raw(archive_);
    archive_write_set_bytes_per_block(archive_, 0);
    if (archive_write_open(archive_, this, nullptr, &CompressingOutput::Sink,
                           nullptr) != ARCHIVE_OK) {
      failed_ = true;
      return;
    }
    archive_entry* entry = archive_entry_new();
    archive_entry_set_filetype(entry, AE_IFREG);
    archive_entry_set_pathname(entry, "state.json");
    if (archive_write_header(archive_, entry) != ARCHIVE_OK) failed_ = true;
    archive_entry_free(entry);
  }
  ~CompressingOutput() override {
    if (archive_) archive_write_free(archive_);
  }
  Status Commit() override {
    Flush();
    if (!failed_ && archive_write_close(archive_) != ARCHIVE_OK) {
      failed_ = true;
    }
    if (failed_) {
      std::string why = archive_error_string(archive_)
                            ? archive_error_string(archive_)
                            : "compression failed";
      inner_->Abandon();
      return Status(Errc::kIo, name_ + ": " + why);
    }
    return inner_->Commit();
  }
  void Abandon() override {
    DiscardBuffer();
    failed_ = true;
    inner_->Abandon();
  }

 private:
  void WriteOut(std::string_view bytes) override {
    if (failed_) return;
    if (archive_write_data(archive_, bytes.data(), bytes.size()) < 0) {
      failed_ = true;
    }
  }
  static la_ssize_t Sink(archive*, void* self, const void* data, size_t size) {
    auto* out = static_cast<CompressingOutput*>(self);
    out->inner_->Write(std::string_view(static_cast<const char*>(data), size));
    return static_cast<la_ssize_t>(size);
  }

  std::unique_ptr<Output> inner_;
  archive* archive_ = nullptr;
  bool failed_ = false;
};

/// Where the bytes go and what Commit() does with them.
enum class Mode {
  kStdout,   ///< file descriptor 1, never closed
  kInPlace,  ///< an opened device, FIFO or /proc link; closed by Commit
  kRename,   ///< a temporary file renamed over the target by Commit
};

class FdOutput : public Output {
 public:
  FdOutput(int fd, Mode mode, std::string name, std::string temp_path,
           std::string final_path, int slot, bool keep_backup = false,
           const RewriteGuard* guard = nullptr)
      : keep_backup_(keep_backup),
        guard_(guard),
        fd_(fd),
        mode_(mode),
        temp_(std::move(temp_path)),
        final_(std::move(final_path)),
        slot_(slot) {
    name_ = std::move(name);
  }
  ~FdOutput() override {
    if (!committed_) Abandon();
  }

  Status Commit() override {
    Flush();
    if (error_ != 0) {
      Abandon();
      return Status(Errc::kIo, name_ + ": " + std::strerror(error_));
    }
    committed_ = true;
    switch (mode_) {
      case Mode::kStdout: return Status::Ok();
      case Mode::kInPlace: {
        int rc = ::close(fd_);
        int err = errno;
        fd_ = -1;
        if (rc != 0 && err != EINTR) {
          return Status(Errc::kIo, name_ + ": " + std::strerror(err));
        }
        return Status::Ok();
      }
      case Mode::kRename: break;
    }
    if (::fsync(fd_) != 0 || ::close(fd_) != 0) {
      int err = errno;
      fd_ = -1;
      RemoveTemp();
      return Status(Errc::kIo, name_ + ": " + std::strerror(err));
    }
    fd_ = -1;
    // A rewrite of a locked file: the target must still be the file that
    // was read (another writer may have replaced or changed it meanwhile;
    // its edit must not be lost). The window between this check and the
    // rename is what advisory locking cannot close against writers that
    // take no lock.
    int source = -1;
    if (guard_ != nullptr) {
      Result<int> locked = guard_->LockedFileAt(final_);
      if (!locked.ok()) {
        RemoveTemp();
        return locked.status();
      }
      source = *locked;
    }
    if (keep_backup_) {
      Status backup = CopyToBackup(final_, source);
      if (!backup.ok()) {
        RemoveTemp();
        return backup;
      }
    }
    if (::rename(temp_.c_str(), final_.c_str()) != 0) {
      int err = errno;
      RemoveTemp();
      return Status(Errc::kIo, name_ + ": " + std::strerror(err));
    }
    UnregisterTemp(slot_);
    slot_ = -1;
    SyncDirectoryOf(final_);
    return Status::Ok();
  }

  void Abandon() override {
    committed_ = true;
    DiscardBuffer();
    if (mode_ == Mode::kStdout) return;
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    if (mode_ == Mode::kRename) RemoveTemp();
  }

 private:
  void WriteOut(std::string_view bytes) override {
    if (error_ != 0) return;
    WriteAll(fd_, bytes, &error_);
    Wrote(bytes.size());
  }

  /// A temporary file is fsync'ed by Commit before the rename. Its pages
  /// are handed to the disk as they are written, every kWritebackStep
  /// bytes (sync_file_range starts the writeback and does not wait), so
  /// the disk works while pstate still produces the output and Commit's
  /// fsync has little left to wait for.
  void Wrote(std::uint64_t n) {
    if (mode_ != Mode::kRename) return;
    written_ += n;
    if (written_ - kicked_ < kWritebackStep) return;
    ::sync_file_range(fd_, static_cast<off_t>(kicked_),
                      static_cast<off_t>(written_ - kicked_),
                      SYNC_FILE_RANGE_WRITE);
    kicked_ = written_;
  }
  static constexpr std::uint64_t kWritebackStep = std::uint64_t{32} << 20;

  Status CopyRange(int fd, std::uint64_t offset,
                   std::uint64_t length) override {
    Flush();
    while (length > 0 && error_ == 0) {
      auto in = static_cast<loff_t>(offset);
      // In steps, so writeback starts as the copy goes (Wrote).
      std::size_t step = static_cast<std::size_t>(
          std::min<std::uint64_t>(length, kWritebackStep));
      ssize_t n = ::copy_file_range(fd, &in, fd_, nullptr, step, 0);
      if (n > 0) {
        offset += static_cast<std::uint64_t>(n);
        length -= static_cast<std::uint64_t>(n);
        Wrote(static_cast<std::uint64_t>(n));
        continue;
      }
      if (n == 0) {
        return Status(Errc::kIo,
                      "the input shrank while it was being copied (was it "
                      "rewritten in place?)");
      }
      if (errno == EINTR) continue;
      if (errno == EXDEV || errno == EINVAL || errno == ENOSYS ||
          errno == EOPNOTSUPP || errno == EBADF || errno == ETXTBSY) {
        // Not between these two (a pipe, a device, an old kernel): copy
        // through this process.
        return Output::CopyRange(fd, offset, length);
      }
      error_ = errno;  // the output's failure (a full disk): sticky
    }
    return Status::Ok();
  }

  void RemoveTemp() {
    ::unlink(temp_.c_str());
    UnregisterTemp(slot_);
    slot_ = -1;
  }

  bool keep_backup_;
  const RewriteGuard* guard_;
  int fd_;
  Mode mode_;
  std::string temp_;
  std::string final_;
  int slot_;
  int error_ = 0;
  bool committed_ = false;
  std::uint64_t written_ = 0;  ///< bytes written to the file so far
  std::uint64_t kicked_ = 0;   ///< bytes handed to writeback so far
};

// ---------------------------------------------------------------------------
// Where `-o PATH` really points.

enum class TargetKind { kCreate, kReplace, kInPlace };

struct Target {
  TargetKind kind = TargetKind::kCreate;
  std::string path;   ///< after following symbolic links
  struct stat st {};  ///< of the existing file (kReplace, kInPlace)
};

std::string BaseName(const std::string& path) {
  std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

Status ErrnoStatus(const std::string& path, int err) {
  return Status(err == ENOENT ? Errc::kNotFound : Errc::kIo,
                path + ": cannot create output: " + std::strerror(err));
}

/// Follows symbolic links from `path` one level at a time (a dangling link
/// names the file to create) and classifies what is at the end.
Result<Target> ResolveTarget(const std::string& path) {
  constexpr int kMaxLinks = 40;  // Linux's own limit (MAXSYMLINKS)
  Target target;
  target.path = path;
  for (int hops = 0;; ++hops) {
    const std::string& p = target.path;
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0) {
      if (errno == ENOENT) return target;  // kCreate
      return ErrnoStatus(path, errno);
    }
    // /proc links (/dev/stdout -> /proc/self/fd/1 -> "pipe:[…]") name open
    // files, not paths: use them as they are.
    const bool proc = p.rfind("/proc/", 0) == 0;
    if (S_ISLNK(st.st_mode) && proc) {
      if (::stat(p.c_str(), &st) != 0) return ErrnoStatus(path, errno);
    } else if (S_ISLNK(st.st_mode)) {
      if (hops >= kMaxLinks) return ErrnoStatus(path, ELOOP);
      std::string link(PATH_MAX, '\0');
      ssize_t n = ::readlink(p.c_str(), link.data(), link.size());
      if (n < 0) return ErrnoStatus(path, errno);
      link.resize(static_cast<std::size_t>(n));
      target.path = link.starts_with('/') ? link : DirName(p) + "/" + link;
      continue;
    }
    if (S_ISDIR(st.st_mode)) {
      return Status(Errc::kInvalidArgument,
                    path + ": is a directory; -o names the file to write");
    }
    target.st = st;
    target.kind = S_ISREG(st.st_mode) && !proc ? TargetKind::kReplace
                                               : TargetKind::kInPlace;
    return target;
  }
}

Result<std::unique_ptr<Output>> OpenInPlace(const std::string& path,
                                            const Target& target) {
  int flags = O_WRONLY | O_NOCTTY | O_CLOEXEC;
  // A regular file behind a /proc link: replace its content, as the shell's
  // `> /dev/stdout` would. O_TRUNC means nothing to devices and FIFOs.
  if (S_ISREG(target.st.st_mode)) flags |= O_TRUNC;
  int fd;
  do {
    fd = ::open(target.path.c_str(), flags);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return ErrnoStatus(path, errno);
  return std::unique_ptr<Output>(
      new FdOutput(fd, Mode::kInPlace, path, "", "", -1));
}

/// The permission bits the final file gets.
mode_t FinalMode(const Target& target, const OutputOptions& options) {
  if (target.kind == TargetKind::kReplace) {
    mode_t old = target.st.st_mode & 0777;
    return options.holds_secrets ? (old & 0600) : old;
  }
  mode_t mask = ::umask(0);
  ::umask(mask);
  return (options.holds_secrets ? 0600 : 0666) & ~mask;
}

}  // namespace

Compression CompressionForName(std::string_view path) {
  if (path.ends_with(".gz")) return Compression::kGzip;
  if (path.ends_with(".zst")) return Compression::kZstd;
  return Compression::kNone;
}

namespace {
Result<std::unique_ptr<Output>> OpenPlainOutput(const std::string& path,
                                                const OutputOptions& options);
}  // namespace

Result<std::unique_ptr<Output>> OpenOutput(const std::string& path,
                                           const OutputOptions& options) {
  // A version of a stack (PATH@VERSION, input.h's ResolveInputPath) can be
  // read but not written: writing would create a file of that name beside
  // the checkpoint, not a new version (`edit --in-place dev.json@~1`).
  Result<std::string> version = ResolveInputPath(path);
  if (!version.ok() || *version != path) {
    return Status(Errc::kInvalidArgument,
                  path +
                      ": names a version of a stack, which can be read but "
                      "not written; write elsewhere with -o");
  }
  Result<std::unique_ptr<Output>> plain = OpenPlainOutput(path, options);
  if (!plain.ok() || options.compression == Compression::kNone) return plain;
  return std::unique_ptr<Output>(
      new CompressingOutput(std::move(*plain), options.compression));
}

namespace {
Result<std::unique_ptr<Output>> OpenPlainOutput(const std::string& path,
                                                const OutputOptions& options) {
  if (path == "-") {
    return std::unique_ptr<Output>(
        new FdOutput(STDOUT_FILENO, Mode::kStdout, "<stdout>", "", "", -1));
  }
  Result<Target> target = ResolveTarget(path);
  if (!target.ok()) return target.status();
  if (target->kind == TargetKind::kInPlace) return OpenInPlace(path, *target);

  // The temporary name keeps the target's name recognizable but never goes
  // past NAME_MAX, so any name the target can have works.
  constexpr std::string_view kSuffix = ".pstate-tmp-XXXXXX";
  std::string base = BaseName(target->path);
  base.resize(std::min(base.size(), std::size_t{NAME_MAX} - kSuffix.size()));
  std::string dir = DirName(target->path);
  std::string temp = (target->path.find('/') == std::string::npos
                          ? std::string()
                          : (dir == "/" ? dir : dir + "/")) +
                     base + std::string(kSuffix);
  const mode_t mode = FinalMode(*target, options);
  int fd;
  int slot;
  {
    BlockCleanupSignals blocked;
    // mkstemp creates the file 0600: no byte is ever readable by others
    // before the mode below is set.
    fd = ::mkstemp(temp.data());
    if (fd < 0) return ErrnoStatus(path, errno);
    slot = RegisterTemp(temp);
  }
  if (target->kind == TargetKind::kReplace && ::geteuid() == 0) {
    // Replacing someone else's file as root: it stays theirs, as it would
    // when truncated in place. Best effort.
    (void)!::fchown(fd, target->st.st_uid, target->st.st_gid);
  }
  ::fchmod(fd, mode);
  return std::unique_ptr<Output>(
      new FdOutput(fd, Mode::kRename, path, temp, target->path, slot,
                   options.keep_backup, options.guard));
}
}  // namespace

std::size_t LiveTempFilesForTesting() {
  std::size_t n = 0;
  for (const TempSlot& slot : g_slots) {
    if (slot.state.load(std::memory_order_acquire) == kLive) ++n;
  }
  return n;
}

Status Output::CopyRange(int fd, std::uint64_t offset, std::uint64_t length) {
  std::unique_ptr<char[]> buf(new char[kMaxReserve]);
  while (length > 0) {
    std::size_t want =
        static_cast<std::size_t>(std::min<std::uint64_t>(length, kMaxReserve));
    ssize_t got = ::pread(fd, buf.get(), want, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return Status(Errc::kIo, std::strerror(errno));
    if (got == 0) {
      return Status(Errc::kIo,
                    "the input shrank while it was being copied (was it "
                    "rewritten in place?)");
    }
    Write(std::string_view(buf.get(), static_cast<std::size_t>(got)));
    offset += static_cast<std::uint64_t>(got);
    length -= static_cast<std::uint64_t>(got);
  }
  return Status::Ok();
}

}  // namespace pstate::io
