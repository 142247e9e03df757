#include "io/input.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <mutex>
#include <vector>

namespace pstate::io {
namespace {

constexpr std::size_t kPeekBytes = 4;

std::string ErrnoMessage(const std::string& name, int err) {
  return name + ": " + std::strerror(err);
}

/// Raw bytes of the underlying file: first the bytes already peeked for
/// compression detection, then the rest of the descriptor.
class ByteSource {
 public:
  ByteSource(int fd, bool owns_fd, std::string peeked)
      : fd_(fd), owns_fd_(owns_fd), peeked_(std::move(peeked)) {}
  ByteSource(std::string bytes) : memory_(std::move(bytes)) {}
  ~ByteSource() {
    if (owns_fd_ && fd_ >= 0) ::close(fd_);
  }
  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;

  /// Returns bytes read, 0 at end, -1 on error (errno set).
  long Read(char* buf, std::size_t n) {
    if (fd_ < 0) {
      std::size_t take = std::min(n, memory_.size() - memory_pos_);
      std::memcpy(buf, memory_.data() + memory_pos_, take);
      memory_pos_ += take;
      consumed_ += take;
      return static_cast<long>(take);
    }
    if (peek_pos_ < peeked_.size()) {
      std::size_t take = std::min(n, peeked_.size() - peek_pos_);
      std::memcpy(buf, peeked_.data() + peek_pos_, take);
      peek_pos_ += take;
      consumed_ += take;
      return static_cast<long>(take);
    }
    for (;;) {
      ssize_t got = ::read(fd_, buf, n);
      if (got < 0 && errno == EINTR) continue;
      if (got > 0) consumed_ += static_cast<std::uint64_t>(got);
      return static_cast<long>(got);
    }
  }
  std::uint64_t consumed() const { return consumed_; }
  /// The next Read starts at byte `offset` of the file (descriptors only).
  bool SeekTo(std::uint64_t offset) {
    if (fd_ < 0) return false;
    std::uint64_t file_at = std::max<std::uint64_t>(offset, peeked_.size());
    if (::lseek(fd_, static_cast<off_t>(file_at), SEEK_SET) < 0) return false;
    peek_pos_ = static_cast<std::size_t>(
        std::min<std::uint64_t>(offset, peeked_.size()));
    consumed_ = offset;
    return true;
  }
  int fd() const { return fd_; }
  /// Nothing has been read past the peeked bytes.
  bool untouched() const { return fd_ >= 0 && consumed_ == 0; }

 private:
  int fd_ = -1;
  bool owns_fd_ = false;
  std::string peeked_;
  std::size_t peek_pos_ = 0;
  std::string memory_;
  std::size_t memory_pos_ = 0;
  std::uint64_t consumed_ = 0;
};

// ---------------------------------------------------------------------------
// Mapped files that shrink.
//
// A file truncated while it is mapped (`pulumi stack export > stack.json`
// rewriting the state pstate is reading) makes every access past its new
// end raise SIGBUS, which would kill the process and leave a temporary
// output behind. The handler below turns such a fault into zero bytes: it
// maps anonymous zero pages over the vanished part of the mapping and
// marks the mapping as cut, then the faulting read is retried and sees a
// NUL byte, where the JSON parser stops. The owner reports the cut as an
// I/O error (mapping_status). Faults outside registered mappings go to the
// previous handler. Release() also checks the size with fstat, so a cut is
// usually found before any page is touched. The handler only reads atomics
// and calls mmap(2), a plain system call on Linux.

constexpr int kMapSlots = 16;

struct MapSlot {
  std::atomic<std::uintptr_t> begin{0};  ///< 0: free
  std::atomic<std::uintptr_t> end{0};
  std::atomic<bool> cut{false};
};

MapSlot g_maps[kMapSlots];
std::uintptr_t g_page_size = 4096;
struct sigaction g_previous_bus {};

/// Replaces [from, end) of a mapping with zero pages; `from` page-aligned.
bool ZeroPages(std::uintptr_t from, std::uintptr_t end) {
  if (from >= end) return true;
  // NOLINTNEXTLINE(performance-no-int-to-ptr): page arithmetic on addresses
  void* p = ::mmap(reinterpret_cast<void*>(from), end - from, PROT_READ,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  return p != MAP_FAILED;
}

extern "C" void OnBusError(int sig, siginfo_t* info, void* context) {
  if (info != nullptr && info->si_code > 0) {  // a fault, not kill(2)
    auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
    for (MapSlot& slot : g_maps) {
      std::uintptr_t begin = slot.begin.load(std::memory_order_acquire);
      std::uintptr_t end = slot.end.load(std::memory_order_acquire);
      if (begin == 0 || addr < begin || addr >= end) continue;
      // Everything from the faulting page on is gone (files shrink from the
      // end): one call covers the rest of the mapping.
      if (ZeroPages(addr & ~(g_page_size - 1), end)) {
        slot.cut.store(true, std::memory_order_release);
        return;  // the read is retried and sees zeros
      }
    }
  }
  // Not ours: hand over to whoever handled SIGBUS before.
  if ((g_previous_bus.sa_flags & SA_SIGINFO) != 0 &&
      g_previous_bus.sa_sigaction != nullptr) {
    g_previous_bus.sa_sigaction(sig, info, context);
    return;
  }
  if (g_previous_bus.sa_handler != SIG_DFL &&
      g_previous_bus.sa_handler != SIG_IGN &&
      g_previous_bus.sa_handler != nullptr) {
    g_previous_bus.sa_handler(sig);
    return;
  }
  ::signal(sig, SIG_DFL);
  if (info == nullptr || info->si_code <= 0) ::raise(sig);
  // A real fault re-faults on return, now with the default action.
}

void InstallBusHandler() {
  static std::once_flag once;
  std::call_once(once, [] {
    g_page_size = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    struct sigaction act {};
    act.sa_sigaction = &OnBusError;
    sigemptyset(&act.sa_mask);
    act.sa_flags = SA_SIGINFO;
    ::sigaction(SIGBUS, &act, &g_previous_bus);
  });
}

/// The slot guarding [begin, end), or -1 when none is free (the mapping is
/// then not used: the caller reads through the buffer instead).
int RegisterMapping(const char* begin, std::size_t length) {
  InstallBusHandler();
  for (int i = 0; i < kMapSlots; ++i) {
    std::uintptr_t expected = 0;
    auto b = reinterpret_cast<std::uintptr_t>(begin);
    if (!g_maps[i].begin.compare_exchange_strong(expected, b,
                                                 std::memory_order_acq_rel)) {
      continue;
    }
    g_maps[i].cut.store(false, std::memory_order_relaxed);
    g_maps[i].end.store(b + length, std::memory_order_release);
    return i;
  }
  return -1;
}

void UnregisterMapping(int slot) {
  if (slot < 0) return;
  g_maps[slot].end.store(0, std::memory_order_release);
  g_maps[slot].begin.store(0, std::memory_order_release);
}

class PlainInput : public InputStream {
 public:
  PlainInput(std::unique_ptr<ByteSource> source, std::string name,
             std::optional<std::uint64_t> size)
      : source_(std::move(source)) {
    name_ = std::move(name);
    source_size_ = size;
  }
  Result<std::size_t> Read(char* buf, std::size_t n) override {
    long got = source_->Read(buf, n);
    if (got < 0) return Status(Errc::kIo, ErrnoMessage(name_, errno));
    if (got == 0 && n > 0 && source_size_ &&
        source_->consumed() < *source_size_) {
      // The end came before the size the file had when it was opened:
      // someone truncated it (`pulumi stack export > stack.json` rewriting
      // the state being read). Say so instead of a syntax error.
      return Shrank();
    }
    return static_cast<std::size_t>(got);
  }
  std::uint64_t source_consumed() const override {
    return map_base_ ? released_ : source_->consumed();
  }
  int plain_file_fd() const override {
    return source_size_ ? source_->fd() : -1;  // sized: opened by path
  }
  Status SeekTo(std::uint64_t offset) override {
    if (plain_file_fd() < 0 || map_base_) return InputStream::SeekTo(offset);
    if (!source_->SeekTo(offset)) {
      return Status(Errc::kIo, ErrnoMessage(name_, errno));
    }
    return Status::Ok();
  }
  ~PlainInput() override {
    UnregisterMapping(map_slot_);
    if (map_base_) ::munmap(map_base_, map_length_);
  }

  std::optional<Mapping> Map() override {
    // Only regular files of a known, non-trivial size that nothing has read.
    if (map_base_ || !source_size_ || *source_size_ < (1u << 20) ||
        !source_->untouched()) {
      return std::nullopt;
    }
    auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    std::size_t size = static_cast<std::size_t>(*source_size_);
    std::size_t file_pages = (size + page - 1) / page * page;
    // Reserve the file's pages plus one zero page, then map the file over
    // the front: the tail of its last page and the extra page read as
    // zeros, which is the padding the JSON scanners need.
    std::size_t length = file_pages + page;
    void* base =
        ::mmap(nullptr, length, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) return std::nullopt;
    void* file = ::mmap(base, size, PROT_READ, MAP_PRIVATE | MAP_FIXED,
                        source_->fd(), 0);
    if (file == MAP_FAILED) {
      ::munmap(base, length);
      return std::nullopt;
    }
    map_slot_ = RegisterMapping(static_cast<char*>(base), file_pages);
    if (map_slot_ < 0) {
      ::munmap(base, length);
      return std::nullopt;
    }
    ::madvise(file, size, MADV_SEQUENTIAL);
    map_base_ = static_cast<char*>(base);
    map_length_ = length;
    map_file_pages_ = file_pages;
    page_ = page;
    // The file may have shrunk between fstat and mmap.
    CheckSize();
    return Mapping{map_base_, size};
  }

  Status Shrank() const {
    return Status(Errc::kIo,
                  name_ +
                      ": the file shrank while it was being read "
                      "(was it rewritten in place?); read it again once "
                      "it is complete");
  }

  void Release(std::uint64_t upto) override {
    if (!map_base_) return;
    // Each step of the reader (several MiB) first checks that the file
    // still has the bytes ahead: one fstat, no cost worth measuring.
    CheckSize();
    std::uint64_t end = upto / page_ * page_;
    if (end <= released_) return;
    ::madvise(map_base_ + released_, static_cast<std::size_t>(end - released_),
              MADV_DONTNEED);
    released_ = end;
  }

  void ReleaseRange(std::uint64_t begin, std::uint64_t end) override {
    if (!map_base_) return;
    CheckSize();
    std::uint64_t from = (begin + page_ - 1) / page_ * page_;
    std::uint64_t to =
        std::min<std::uint64_t>(end, map_length_) / page_ * page_;
    if (to <= from) return;
    ::madvise(map_base_ + from, static_cast<std::size_t>(to - from),
              MADV_DONTNEED);
  }

  Status mapping_status() const override {
    if (map_slot_ < 0 ||
        !g_maps[map_slot_].cut.load(std::memory_order_acquire)) {
      return Status::Ok();
    }
    return Shrank();
  }

 private:
  std::unique_ptr<ByteSource> source_;
  char* map_base_ = nullptr;
  std::size_t map_length_ = 0;
  std::size_t page_ = 4096;
  std::uint64_t released_ = 0;
  std::size_t map_file_pages_ = 0;
  int map_slot_ = -1;

  /// Zeroes the pages of the mapping past the file's current end, before
  /// anything touches them.
  void CheckSize() {
    struct stat st {};
    if (::fstat(source_->fd(), &st) != 0 || !source_size_) return;
    auto now = static_cast<std::uint64_t>(st.st_size);
    if (now >= *source_size_) return;
    std::uint64_t keep = (now + page_ - 1) / page_ * page_;
    auto begin = reinterpret_cast<std::uintptr_t>(map_base_);
    if (ZeroPages(begin + keep, begin + map_file_pages_)) {
      g_maps[map_slot_].cut.store(true, std::memory_order_release);
    }
  }
};

/// gzip or zstd through libarchive's "raw" format: one entry, the
/// decompressed stream.
class DecompressingInput : public InputStream {
 public:
  DecompressingInput(std::unique_ptr<ByteSource> source, std::string name,
                     std::optional<std::uint64_t> size, Compression c,
                     const InputOptions& options)
      : source_(std::move(source)),
        buffer_(1 << 20),
        max_decoded_(options.max_decoded_bytes) {
    name_ = std::move(name);
    source_size_ = size;
    compression_ = c;
  }
  ~DecompressingInput() override {
    if (archive_) archive_read_free(archive_);
  }

  Status Open() {
    archive_ = archive_read_new();
    if (!archive_) return Status(Errc::kIo, name_ + ": out of memory");
    archive_read_support_filter_gzip(archive_);
    archive_read_support_filter_zstd(archive_);
    archive_read_support_format_raw(archive_);
    // The raw format refuses a stream that decompresses to nothing; the
    // empty format takes it, so it reads as the empty input it is.
    archive_read_support_format_empty(archive_);
    if (archive_read_open(archive_, this, nullptr, &DecompressingInput::Fill,
                          nullptr) != ARCHIVE_OK) {
      return Failure();
    }
    archive_entry* entry = nullptr;
    int r = archive_read_next_header(archive_, &entry);
    if (r != ARCHIVE_EOF && r != ARCHIVE_OK && r != ARCHIVE_WARN) {
      return Failure();
    }
    empty_ = r == ARCHIVE_EOF;
    // libarchive only recognizes a gzip stream with its whole 10-byte
    // header; a shorter input starting with the magic bytes would pass
    // through the raw format undecompressed. It is a cut-short file.
    if (!FilterApplied()) {
      return Status(Errc::kCorrupt,
                    name_ + ": cannot decompress " +
                        std::string(CompressionName(compression_)) +
                        " input: truncated " +
                        std::string(CompressionName(compression_)) +
                        " input (the header is incomplete)");
    }
    return Status::Ok();
  }

  Result<std::size_t> Read(char* buf, std::size_t n) override {
    la_ssize_t got = empty_ ? 0 : archive_read_data(archive_, buf, n);
    if (got < 0) return Failure();
    decoded_ += static_cast<std::uint64_t>(got);
    if (decoded_ > max_decoded_) {
      return Status(Errc::kLimit,
                    name_ + ": the " +
                        std::string(CompressionName(compression_)) +
                        " input decompresses to more than " +
                        FormatByteLimit(max_decoded_) +
                        " (the limit, --max-decompressed-bytes; a "
                        "decompression bomb?)");
    }
    if (got == 0 && !end_checked_) {
      end_checked_ = true;
      // libarchive stops at the first bytes after the compressed stream
      // that are not another gzip member or zstd frame, silently; Go's
      // readers (and so Pulumi) fail on them.
      la_int64_t used = archive_filter_bytes(archive_, -1);
      bool more =
          used >= 0 && static_cast<std::uint64_t>(used) < source_->consumed();
      char probe = 0;
      if (!more) more = source_->Read(&probe, 1) > 0;
      if (more) {
        return Status(Errc::kCorrupt,
                      name_ + ": cannot decompress " +
                          std::string(CompressionName(compression_)) +
                          " input: unexpected data after the end of the "
                          "compressed stream");
      }
    }
    return static_cast<std::size_t>(got);
  }
  std::uint64_t source_consumed() const override { return source_->consumed(); }

 private:
  static la_ssize_t Fill(archive* a, void* self_ptr, const void** out) {
    auto* self = static_cast<DecompressingInput*>(self_ptr);
    long got = self->source_->Read(self->buffer_.data(), self->buffer_.size());
    if (got < 0) {
      archive_set_error(a, errno, "%s", std::strerror(errno));
      return -1;
    }
    *out = self->buffer_.data();
    return got;
  }

  bool FilterApplied() const {
    int want = compression_ == Compression::kGzip ? ARCHIVE_FILTER_GZIP
                                                  : ARCHIVE_FILTER_ZSTD;
    for (int i = 0; i < archive_filter_count(archive_); ++i) {
      if (archive_filter_code(archive_, i) == want) return true;
    }
    return false;
  }

  Status Failure() {
    const char* why = archive_error_string(archive_);
    // libarchive sets no message when a gzip stream ends inside its
    // 8-byte trailer.
    std::string reason =
        why ? why : "the compressed stream is damaged or cut short";
    return Status(Errc::kCorrupt,
                  name_ + ": cannot decompress " +
                      std::string(CompressionName(compression_)) +
                      " input: " + reason);
  }

  std::unique_ptr<ByteSource> source_;
  std::vector<char> buffer_;
  archive* archive_ = nullptr;
  bool end_checked_ = false;
  bool empty_ = false;  ///< the stream decompresses to nothing
  std::uint64_t decoded_ = 0;
  std::uint64_t max_decoded_;
};

}  // namespace

namespace {
InputLimits g_default_limits;
}  // namespace

void SetDefaultInputLimits(const InputLimits& limits) {
  g_default_limits = limits;
}

const InputLimits& DefaultInputLimits() { return g_default_limits; }

Status InputStream::SeekTo(std::uint64_t offset) {
  (void)offset;
  return Status(Errc::kUnsupported,
                name_ + ": only a plain file can be read out of order");
}

namespace {

/// FileRange's stream: pread(2) from a shared descriptor.
class RangeInput final : public InputStream {
 public:
  RangeInput(const InputStream& file, std::uint64_t offset)
      : fd_(file.plain_file_fd()), at_(offset), start_(offset) {
    name_ = file.name();
    source_size_ = file.source_size();
    max_piece_bytes_ = file.max_piece_bytes();
  }
  Result<std::size_t> Read(char* buf, std::size_t n) override {
    if (fd_ < 0) return SeekTo(at_);  // not a plain file: kUnsupported
    for (;;) {
      ssize_t got = ::pread(fd_, buf, n, static_cast<off_t>(at_));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) return Status(Errc::kIo, ErrnoMessage(name_, errno));
      at_ += static_cast<std::uint64_t>(got);
      return static_cast<std::size_t>(got);
    }
  }
  std::uint64_t source_consumed() const override { return at_ - start_; }
  int plain_file_fd() const override { return fd_; }
  Status SeekTo(std::uint64_t offset) override {
    if (fd_ < 0) return InputStream::SeekTo(offset);
    at_ = offset;
    return Status::Ok();
  }

 private:
  int fd_;
  std::uint64_t at_;
  std::uint64_t start_;
};

}  // namespace

std::unique_ptr<InputStream> FileRange(const InputStream& file,
                                       std::uint64_t offset) {
  return std::make_unique<RangeInput>(file, offset);
}

RangeReader::RangeReader(const InputStream& file, std::size_t chunk)
    : range_(FileRange(file, 0)), chunk_(chunk) {}

Result<std::string_view> RangeReader::Read(std::uint64_t offset,
                                           std::size_t size) {
  if (offset < base_ || offset + size > base_ + buffer_.size()) {
    // FileRange's pread(2) stream: kUnsupported unless a plain file.
    if (Status s = range_->SeekTo(offset); !s.ok()) return s;
    buffer_.resize(std::max(chunk_, size));
    std::size_t have = 0;
    while (have < buffer_.size()) {
      Result<std::size_t> got =
          range_->Read(buffer_.data() + have, buffer_.size() - have);
      if (!got.ok()) return got.status();
      if (*got == 0) break;
      have += *got;
    }
    buffer_.resize(have);
    base_ = offset;
    if (have < size) {
      return Status(Errc::kIo, range_->name() +
                                   ": the file is shorter than when it was "
                                   "read (was it rewritten meanwhile?)");
    }
  }
  return std::string_view(buffer_).substr(
      static_cast<std::size_t>(offset - base_), size);
}

std::string FormatByteLimit(std::uint64_t bytes) {
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB",
                                           "TiB", "PiB", "EiB"};
  if (bytes == 0 || bytes % 1024 != 0) {
    return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  }
  std::size_t unit = 0;
  bytes /= 1024;
  while (unit + 1 < std::size(kUnits) && bytes % 1024 == 0) {
    bytes /= 1024;
    ++unit;
  }
  return std::to_string(bytes) + " " + kUnits[unit];
}

std::string_view CompressionName(Compression c) {
  switch (c) {
    case Compression::kNone: return "none";
    case Compression::kGzip: return "gzip";
    case Compression::kZstd: return "zstd";
  }
  return "none";
}

Compression DetectCompression(std::string_view first_bytes) {
  std::string_view b = first_bytes;
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(b[i]); };
  if (b.size() >= 3 && byte(0) == 0x1f && byte(1) == 0x8b && byte(2) == 0x08) {
    return Compression::kGzip;
  }
  if (b.size() >= 4 && byte(0) == 0x28 && byte(1) == 0xb5 && byte(2) == 0x2f &&
      byte(3) == 0xfd) {
    return Compression::kZstd;
  }
  return Compression::kNone;
}

namespace {

Result<std::unique_ptr<InputStream>> Finish(std::unique_ptr<ByteSource> source,
                                            std::string_view peeked,
                                            const std::string& name,
                                            std::optional<std::uint64_t> size,
                                            const InputOptions& options) {
  Compression c = DetectCompression(peeked);
  if (c == Compression::kNone) {
    auto plain = std::make_unique<PlainInput>(std::move(source), name, size);
    plain->set_max_piece_bytes(options.max_piece_bytes);
    return std::unique_ptr<InputStream>(std::move(plain));
  }
  auto input = std::make_unique<DecompressingInput>(std::move(source), name,
                                                    size, c, options);
  input->set_max_piece_bytes(options.max_piece_bytes);
  Status s = input->Open();
  if (!s.ok()) return s;
  return std::unique_ptr<InputStream>(std::move(input));
}

std::string PeekFd(int fd, Status* status, const std::string& name) {
  std::string head(kPeekBytes, '\0');
  std::size_t have = 0;
  while (have < kPeekBytes) {
    ssize_t got = ::read(fd, head.data() + have, kPeekBytes - have);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      *status = Status(Errc::kIo, ErrnoMessage(name, errno));
      return {};
    }
    if (got == 0) break;
    have += static_cast<std::size_t>(got);
  }
  head.resize(have);
  return head;
}

}  // namespace

namespace {
PathResolver g_path_resolver = nullptr;
}  // namespace

void SetPathResolver(PathResolver resolver) { g_path_resolver = resolver; }

Result<std::string> ResolveInputPath(const std::string& path) {
  if (path == "-" || g_path_resolver == nullptr ||
      path.find('@') == std::string::npos) {
    return path;
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) return path;
  return g_path_resolver(path);
}

std::string InputName(const std::string& path) {
  return path == "-" ? std::string(kStdinName) : path;
}

Result<std::unique_ptr<InputStream>> OpenInput(const std::string& given,
                                               const InputOptions& options) {
  Result<std::string> resolved = ResolveInputPath(given);
  if (!resolved.ok()) return resolved.status();
  const std::string& path = *resolved;
  int fd = 0;
  bool owns = false;
  std::string name = InputName(path);
  std::optional<std::uint64_t> size;
  if (path != "-") {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      int err = errno;
      return Status(err == ENOENT ? Errc::kNotFound : Errc::kIo,
                    ErrnoMessage(path, err));
    }
    owns = true;
    struct stat st {};
    if (::fstat(fd, &st) == 0) {
      if (S_ISDIR(st.st_mode)) {
        ::close(fd);
        return Status(Errc::kInvalidArgument, path + ": is a directory");
      }
      if (S_ISREG(st.st_mode)) size = static_cast<std::uint64_t>(st.st_size);
    }
#ifdef POSIX_FADV_SEQUENTIAL
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  }
  Status status;
  std::string head = PeekFd(fd, &status, name);
  if (!status.ok()) {
    if (owns) ::close(fd);
    return status;
  }
  auto source = std::make_unique<ByteSource>(fd, owns, head);
  return Finish(std::move(source), head, name, size, options);
}

std::unique_ptr<InputStream> MemoryInput(std::string bytes,
                                         const std::string& name,
                                         const InputOptions& options) {
  std::string head = bytes.substr(0, kPeekBytes);
  auto size = static_cast<std::uint64_t>(bytes.size());
  auto source = std::make_unique<ByteSource>(std::move(bytes));
  auto result = Finish(std::move(source), head, name, size, options);
  if (result.ok()) return std::move(result).value();
  // A compressed header that libarchive rejects at open time: surface the
  // failure on first Read instead of here.
  class Failing : public InputStream {
   public:
    Failing(Status s, std::string n) : status_(std::move(s)) {
      name_ = std::move(n);
    }
    Result<std::size_t> Read(char*, std::size_t) override { return status_; }
    std::uint64_t source_consumed() const override { return 0; }

   private:
    Status status_;
  };
  return std::make_unique<Failing>(result.status(), name);
}

}  // namespace pstate::io
