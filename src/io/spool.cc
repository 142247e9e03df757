#include "io/spool.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

namespace pstate::io {
namespace {

std::string ErrnoText(int err) { return std::strerror(err); }

std::string ProcFdPath(int fd) { return "/proc/self/fd/" + std::to_string(fd); }

/// Forwards to another stream under the input's own name: a stream opened
/// through /proc/self/fd/N would otherwise name itself by that path.
class NamedStream : public InputStream {
 public:
  NamedStream(std::unique_ptr<InputStream> inner, std::string name)
      : inner_(std::move(inner)) {
    name_ = std::move(name);
    compression_ = inner_->compression();
    source_size_ = inner_->source_size();
    max_piece_bytes_ = inner_->max_piece_bytes();
  }
  Result<std::size_t> Read(char* buf, std::size_t n) override {
    Result<std::size_t> got = inner_->Read(buf, n);
    if (!got.ok()) return Rename(got.status());
    return got;
  }
  std::uint64_t source_consumed() const override {
    return inner_->source_consumed();
  }
  std::optional<Mapping> Map() override { return inner_->Map(); }
  void Release(std::uint64_t upto) override { inner_->Release(upto); }
  void ReleaseRange(std::uint64_t begin, std::uint64_t end) override {
    inner_->ReleaseRange(begin, end);
  }
  // The parallel executor's reader skips a resources array its workers
  // read: without this, every such read gave up and was read again.
  Status SeekTo(std::uint64_t offset) override {
    Status s = inner_->SeekTo(offset);
    return s.ok() ? s : Rename(s);
  }
  int plain_file_fd() const override { return inner_->plain_file_fd(); }
  Status mapping_status() const override {
    Status s = inner_->mapping_status();
    return s.ok() ? s : Rename(s);
  }

 private:
  /// The inner stream's messages start with its own name; the user knows
  /// the input by name_.
  Status Rename(const Status& s) const {
    const std::string& inner_name = inner_->name();
    if (inner_name == name_ || s.message().rfind(inner_name, 0) != 0) {
      return s;
    }
    return Status(s.code(), name_ + s.message().substr(inner_name.size()));
  }

  std::unique_ptr<InputStream> inner_;
};

}  // namespace

/// A spool file mapped once, read-only, with at least one page of zero
/// bytes after its end (the padding the JSON scanners need).
struct Replayable::Mapped {
  const char* data = nullptr;
  std::uint64_t size = 0;
  void* base = nullptr;
  std::size_t length = 0;

  Mapped() = default;
  Mapped(const Mapped&) = delete;
  Mapped& operator=(const Mapped&) = delete;
  ~Mapped() {
    if (base != nullptr) ::munmap(base, length);
  }
};

namespace {

/// Zero bytes standing in for the mapping of an empty spool file.
alignas(64) const char kEmpty[4096] = {};

/// Reads a spooled input through the shared mapping: Map() hands out the
/// mapping itself, Read() copies from it.
class SpoolStream : public InputStream {
 public:
  using Mapped = Replayable::Mapped;
  SpoolStream(std::shared_ptr<const Mapped> map, std::string name,
              std::size_t page)
      : map_(std::move(map)), page_(page) {
    name_ = std::move(name);
    source_size_ = map_->size;
  }
  Result<std::size_t> Read(char* buf, std::size_t n) override {
    std::uint64_t left = map_->size - pos_;
    std::size_t take = static_cast<std::size_t>(
        std::min<std::uint64_t>(left, static_cast<std::uint64_t>(n)));
    if (take > 0) std::memcpy(buf, map_->data + pos_, take);
    pos_ += take;
    return take;
  }
  std::uint64_t source_consumed() const override {
    return mapped_ ? released_ : pos_;
  }
  std::optional<Mapping> Map() override {
    if (mapped_ || pos_ != 0) return std::nullopt;
    mapped_ = true;
    return Mapping{map_->data, static_cast<std::size_t>(map_->size)};
  }
  void Release(std::uint64_t upto) override {
    // The pages come back from the spool file (in the page cache) if
    // another pass or bytes() touches them again.
    if (!mapped_ || map_->base == nullptr) return;
    std::uint64_t end = std::min(upto, map_->size) / page_ * page_;
    if (end <= released_) return;
    ::madvise(static_cast<char*>(map_->base) + released_,
              static_cast<std::size_t>(end - released_), MADV_DONTNEED);
    released_ = end;
  }
  void ReleaseRange(std::uint64_t begin, std::uint64_t end) override {
    if (!mapped_ || map_->base == nullptr) return;
    std::uint64_t from = (begin + page_ - 1) / page_ * page_;
    std::uint64_t to = std::min(end, map_->size) / page_ * page_;
    if (to <= from) return;
    ::madvise(static_cast<char*>(map_->base) + from,
              static_cast<std::size_t>(to - from), MADV_DONTNEED);
  }

 private:
  std::shared_ptr<const Mapped> map_;
  std::size_t page_;
  std::uint64_t pos_ = 0;
  std::uint64_t released_ = 0;
  bool mapped_ = false;
};

/// Writes all of `bytes` to `fd`; false with errno set on failure.
bool WriteAll(int fd, const char* bytes, std::size_t n) {
  while (n > 0) {
    ssize_t put = ::write(fd, bytes, n);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) {
      if (put == 0) errno = EIO;
      return false;
    }
    bytes += put;
    n -= static_cast<std::size_t>(put);
  }
  return true;
}

std::string SpoolDirectory(const SpoolOptions& options) {
  if (!options.directory.empty()) return options.directory;
  const char* tmp = std::getenv("TMPDIR");
  if (tmp != nullptr && *tmp != '\0') return tmp;
  return "/tmp";
}

}  // namespace

/// The spool: the decoder the first pass reads through, and the unlinked
/// file everything it decoded was copied to. Shared by the Replayable and
/// its tee stream (which may outlive it).
struct Replayable::Spool {
  std::string name;                     ///< the input's name, for messages
  std::string directory;                ///< where the spool file is
  std::unique_ptr<InputStream> source;  ///< null once at its end
  int fd = -1;                          ///< the spool file
  std::uint64_t written = 0;            ///< decoded bytes in the file
  std::uint64_t source_consumed = 0;    ///< of the source, for progress
  bool complete = false;                ///< the source reached its end
  Status failed;  ///< why the source cannot be read to its end

  Spool() = default;
  Spool(const Spool&) = delete;
  Spool& operator=(const Spool&) = delete;
  ~Spool() {
    if (fd >= 0) ::close(fd);
  }

  /// Decodes up to `n` more bytes into `buf` and appends them to the file.
  /// 0 at the end of the input.
  Result<std::size_t> Pull(char* buf, std::size_t n) {
    if (!failed.ok()) return failed;
    if (complete) return std::size_t{0};
    Result<std::size_t> got = source->Read(buf, n);
    source_consumed = source->source_consumed();
    if (!got.ok()) {
      failed = got.status();
      source.reset();
      return failed;
    }
    if (*got == 0) {
      complete = true;
      source.reset();
      return got;
    }
    if (!WriteAll(fd, buf, *got)) {
      int err = errno;
      failed = Status(Errc::kIo,
                      name + ": cannot write a temporary copy in " + directory +
                          " to read the input twice: " + ErrnoText(err));
      source.reset();
      return failed;
    }
    written += *got;
    return got;
  }

  /// Decodes what is left; ok once the whole input is in the file.
  Status Drain() {
    std::vector<char> buf(1 << 20);
    while (!complete) {
      Result<std::size_t> got = Pull(buf.data(), buf.size());
      if (!got.ok()) return got.status();
    }
    return Status::Ok();
  }

  /// Reads spooled bytes at `pos` (pos < written).
  Result<std::size_t> ReadBack(std::uint64_t pos, char* buf, std::size_t n) {
    auto take = static_cast<std::size_t>(
        std::min<std::uint64_t>(written - pos, static_cast<std::uint64_t>(n)));
    for (;;) {
      ssize_t got = ::pread(fd, buf, take, static_cast<off_t>(pos));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        int err = got == 0 ? EIO : errno;
        return Status(Errc::kIo, name + ": cannot read the temporary copy: " +
                                     ErrnoText(err));
      }
      return static_cast<std::size_t>(got);
    }
  }
};

namespace {

/// The first pass over a spooled input: reads the decoder and copies what
/// it reads to the spool file. Bytes already in the file (another Open()
/// decoded ahead of this stream) are read back from it, so every pass sees
/// the same bytes.
class TeeStream : public InputStream {
 public:
  using Spool = Replayable::Spool;
  TeeStream(std::shared_ptr<Spool> spool, Compression compression,
            std::optional<std::uint64_t> source_size)
      : spool_(std::move(spool)) {
    name_ = spool_->name;
    compression_ = compression;
    source_size_ = source_size;
  }
  Result<std::size_t> Read(char* buf, std::size_t n) override {
    if (n == 0) return std::size_t{0};
    Result<std::size_t> got = pos_ < spool_->written
                                  ? spool_->ReadBack(pos_, buf, n)
                                  : spool_->Pull(buf, n);
    if (got.ok()) pos_ += *got;
    return got;
  }
  std::uint64_t source_consumed() const override {
    return spool_->source_consumed;
  }

 private:
  std::shared_ptr<Spool> spool_;
  std::uint64_t pos_ = 0;
};

}  // namespace

Replayable::Replayable(Replayable&& other) noexcept {
  *this = std::move(other);
}

Replayable& Replayable::operator=(Replayable&& other) noexcept {
  if (this == &other) return *this;
  Reset();
  name_ = std::move(other.name_);
  path_ = std::move(other.path_);
  compression_ = other.compression_;
  spooled_ = other.spooled_;
  fd_ = other.fd_;
  other.fd_ = -1;
  input_options_ = other.input_options_;
  spool_ = std::move(other.spool_);
  spool_map_ = std::move(other.spool_map_);
  tee_taken_ = other.tee_taken_;
  bytes_stream_ = std::move(other.bytes_stream_);
  bytes_copy_ = std::move(other.bytes_copy_);
  bytes_view_ = other.bytes_view_;
  return *this;
}

Replayable::~Replayable() { Reset(); }

void Replayable::Reset() {
  bytes_stream_.reset();
  bytes_copy_.reset();
  spool_map_.reset();
  spool_.reset();
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

std::uint64_t Replayable::spooled_bytes() const {
  return spool_ ? spool_->written : 0;
}

Status Replayable::Complete() const {
  if (spool_map_) return Status::Ok();
  Spool& spool = *spool_;
  if (Status s = spool.Drain(); !s.ok()) return s;
  auto map = std::make_shared<Replayable::Mapped>();
  const std::uint64_t total = spool.written;
  if (total == 0) {
    map->data = kEmpty;
  } else {
    auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    auto size = static_cast<std::size_t>(total);
    std::size_t file_pages = (size + page - 1) / page * page;
    // Reserve the file's pages plus a zero page, then map the file over the
    // front, as io::OpenInput maps plain files.
    std::size_t length = file_pages + page;
    void* base =
        ::mmap(nullptr, length, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) {
      int err = errno;
      return Status(Errc::kIo, name_ + ": cannot map the temporary copy: " +
                                   ErrnoText(err));
    }
    map->base = base;
    map->length = length;
    void* file =
        ::mmap(base, size, PROT_READ, MAP_PRIVATE | MAP_FIXED, spool.fd, 0);
    if (file == MAP_FAILED) {
      int err = errno;
      return Status(Errc::kIo, name_ + ": cannot map the temporary copy: " +
                                   ErrnoText(err));
    }
    map->data = static_cast<const char*>(base);
  }
  map->size = total;
  spool_map_ = std::move(map);
  return Status::Ok();
}

Result<std::unique_ptr<InputStream>> Replayable::Open() const {
  if (spooled_) {
    if (!tee_taken_ && !spool_map_) {
      tee_taken_ = true;
      Spool& spool = *spool_;
      std::optional<std::uint64_t> source_size =
          spool.source ? spool.source->source_size() : std::nullopt;
      auto tee = std::make_unique<TeeStream>(spool_, compression_, source_size);
      tee->set_max_piece_bytes(input_options_.max_piece_bytes);
      return std::unique_ptr<InputStream>(std::move(tee));
    }
    if (Status s = Complete(); !s.ok()) return s;
    auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    auto stream = std::make_unique<SpoolStream>(spool_map_, name_, page);
    stream->set_max_piece_bytes(input_options_.max_piece_bytes);
    return std::unique_ptr<InputStream>(std::move(stream));
  }
  Result<std::unique_ptr<InputStream>> in = Reopen();
  if (!in.ok()) return in.status();
  if ((*in)->compression() != Compression::kNone) {
    // Only possible when the file was rewritten in place between passes.
    return Status(Errc::kIo, name_ +
                                 ": the file changed between two reads of "
                                 "it; read it again once it is complete");
  }
  return std::unique_ptr<InputStream>(
      new NamedStream(std::move(in).value(), name_));
}

Result<std::unique_ptr<InputStream>> Replayable::Reopen(bool again) const {
  // A new open file description of the same inode: its own offset, and
  // immune to the path being renamed or replaced since the first pass.
  std::string reopen = ProcFdPath(fd_);
  if (::access(reopen.c_str(), R_OK) != 0) reopen = path_;
  Result<std::unique_ptr<InputStream>> in = OpenInput(reopen, input_options_);
  if (in.ok()) return in;
  Status failed = in.status();  // by value: message() refers into it
  const std::string& m = failed.message();
  std::string why =
      m.rfind(reopen + ": ", 0) == 0 ? m.substr(reopen.size() + 2) : m;
  return Status(
      failed.code(),
      name_ + (again ? ": cannot open the input again: " : ": ") + why);
}

Result<std::string_view> Replayable::bytes() {
  if (spooled_) {
    if (Status s = Complete(); !s.ok()) return s;
    return std::string_view(spool_map_->data,
                            static_cast<std::size_t>(spool_map_->size));
  }
  if (bytes_stream_ || bytes_copy_) return bytes_view_;
  Result<std::unique_ptr<InputStream>> in = Open();
  if (!in.ok()) return in.status();
  if (std::optional<InputStream::Mapping> m = (*in)->Map()) {
    bytes_stream_ = std::move(in).value();
    bytes_view_ = std::string_view(m->data, m->size);
    return bytes_view_;
  }
  auto copy = std::make_unique<std::string>();
  std::vector<char> buf(1 << 16);
  for (;;) {
    Result<std::size_t> got = (*in)->Read(buf.data(), buf.size());
    if (!got.ok()) return got.status();
    if (*got == 0) break;
    copy->append(buf.data(), *got);
  }
  bytes_copy_ = std::move(copy);
  bytes_view_ = std::string_view(*bytes_copy_);
  return bytes_view_;
}

Status Replayable::bytes_status() const {
  return bytes_stream_ ? bytes_stream_->mapping_status() : Status::Ok();
}

Result<int> CreateUnlinkedTempFile(const std::string& directory) {
  SpoolOptions where;
  where.directory = directory;
  std::string dir = SpoolDirectory(where);
  std::string pattern = dir + "/pstate-spool-XXXXXX";
  int fd = ::mkostemp(pattern.data(), O_CLOEXEC);  // mode 0600
  if (fd < 0) {
    int err = errno;
    return Status(Errc::kIo, "cannot create a temporary file in " + dir + ": " +
                                 ErrnoText(err));
  }
  ::unlink(pattern.c_str());  // gone from the directory whatever happens next
  return fd;
}

TempPath::~TempPath() {
  if (!path_.empty()) ::unlink(path_.c_str());
}

Status TempPath::Create(std::string_view what) {
  std::string dir = SpoolDirectory(SpoolOptions());
  std::string pattern = dir + "/pstate-" + std::string(what) + "-XXXXXX";
  int fd = ::mkostemp(pattern.data(), O_CLOEXEC);  // mode 0600
  if (fd < 0) {
    int err = errno;
    return Status(Errc::kIo, "cannot create a temporary file in " + dir + ": " +
                                 ErrnoText(err));
  }
  ::close(fd);
  path_ = std::move(pattern);
  return Status::Ok();
}

Result<Replayable> OpenReplayable(const std::string& given,
                                  const SpoolOptions& options) {
  Result<std::string> resolved = ResolveInputPath(given);
  if (!resolved.ok()) return resolved.status();
  const std::string& path = *resolved;
  Replayable r;
  r.name_ = InputName(path);
  r.path_ = path;
  r.input_options_ = options.input;

  if (path != "-") {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      int err = errno;
      return Status(err == ENOENT ? Errc::kNotFound : Errc::kIo,
                    path + ": " + ErrnoText(err));
    }
    r.fd_ = fd;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
      return Status(Errc::kInvalidArgument, path + ": is a directory");
    }
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
      Result<std::unique_ptr<InputStream>> probe = r.Reopen(/*again=*/false);
      if (!probe.ok()) return probe.status();
      if ((*probe)->compression() == Compression::kNone) return r;
      // A compressed file: spooled as it is decoded.
    }
  }

  Result<std::unique_ptr<InputStream>> in = OpenInput(path, options.input);
  if (!in.ok()) return in.status();
  r.compression_ = (*in)->compression();
  if (r.fd_ >= 0) ::close(r.fd_);
  r.fd_ = -1;

  std::string dir = SpoolDirectory(options);
  Result<int> temp = CreateUnlinkedTempFile(dir);
  if (!temp.ok()) {
    return Status(Errc::kIo, r.name_ + ": cannot read the input twice: " +
                                 temp.status().message());
  }
  auto spool = std::make_shared<Replayable::Spool>();
  spool->name = r.name_;
  spool->directory = dir;
  spool->fd = *temp;
  spool->source = std::move(in).value();
  r.spool_ = std::move(spool);
  r.spooled_ = true;
  return r;
}

}  // namespace pstate::io
