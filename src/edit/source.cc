#include "pstate/edit/source.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

namespace pstate::edit {
namespace {

std::string ErrnoText(const std::string& name, int error) {
  return name + ": " + std::strerror(error);
}

/// Decodes `path` into a new temporary file; returns its path.
Result<std::string> Spool(const std::string& path, io::Compression* found,
                          std::string* name) {
  auto input = io::OpenInput(path);
  if (!input.ok()) return input.status();
  *found = (*input)->compression();
  *name = (*input)->name();
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
  if (ec) dir = "/tmp";
  std::string temp = (dir / "pstate-edit-XXXXXX").string();
  std::vector<char> buf(temp.begin(), temp.end());
  buf.push_back('\0');
  int fd = ::mkstemp(buf.data());
  if (fd < 0) return Status(Errc::kIo, ErrnoText(temp, errno));
  temp.assign(buf.data());
  std::vector<char> chunk(1 << 20);
  for (;;) {
    auto got = (*input)->Read(chunk.data(), chunk.size());
    if (!got.ok()) {
      ::close(fd);
      ::unlink(temp.c_str());
      return got.status();
    }
    if (*got == 0) break;
    std::size_t done = 0;
    while (done < *got) {
      ssize_t w = ::write(fd, chunk.data() + done, *got - done);
      if (w < 0) {
        if (errno == EINTR) continue;
        int error = errno;
        ::close(fd);
        ::unlink(temp.c_str());
        return Status(Errc::kIo, ErrnoText(temp, error));
      }
      done += static_cast<std::size_t>(w);
    }
  }
  ::close(fd);
  return temp;
}

}  // namespace

Result<std::unique_ptr<Source>> Source::Open(const std::string& path) {
  std::unique_ptr<Source> source(new Source());
  // Probe the first bytes: only a plain regular file is mapped as it is.
  bool plain = false;
  if (path != "-") {
    auto probe = io::OpenInput(path);
    if (!probe.ok()) return probe.status();
    source->name_ = (*probe)->name();
    char head[4] = {};
    auto got = (*probe)->Read(head, sizeof head);
    if (!got.ok()) return got.status();
    struct stat st {};
    plain = (*probe)->compression() == io::Compression::kNone &&
            ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  }
  if (plain) {
    source->path_ = path;
  } else {
    auto spooled = Spool(path, &source->compression_, &source->name_);
    if (!spooled.ok()) return spooled.status();
    source->path_ = *spooled;
    source->spooled_ = true;
  }
  int fd = ::open(source->path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status(Errc::kIo, ErrnoText(source->name_, errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int error = errno;
    ::close(fd);
    return Status(Errc::kIo, ErrnoText(source->name_, error));
  }
  source->size_ = static_cast<std::size_t>(st.st_size);
  if (source->size_ > 0) {
    void* p = ::mmap(nullptr, source->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      int error = errno;
      ::close(fd);
      return Status(Errc::kIo, ErrnoText(source->name_, error));
    }
    source->data_ = static_cast<const char*>(p);
    source->mapped_size_ = source->size_;
  } else {
    source->data_ = "";
  }
  ::close(fd);
  return source;
}

Source::~Source() {
  if (mapped_size_ > 0) {
    ::munmap(const_cast<char*>(data_), mapped_size_);
  }
  if (spooled_) ::unlink(path_.c_str());
}

void Source::Release(std::uint64_t begin, std::uint64_t end) const {
  if (mapped_size_ == 0) return;
  auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  std::uint64_t from = (begin + page - 1) / page * page;
  std::uint64_t to = std::min<std::uint64_t>(end, mapped_size_) / page * page;
  if (to <= from) return;
  ::madvise(const_cast<char*>(data_) + from,
            static_cast<std::size_t>(to - from), MADV_DONTNEED);
}

Result<std::unique_ptr<io::InputStream>> Source::Reopen() const {
  auto input = io::OpenInput(path_);
  if (!input.ok()) return input.status();
  // Messages name the user's file, not the spool file.
  if (spooled_) {
    class Renamed : public io::InputStream {
     public:
      Renamed(std::unique_ptr<io::InputStream> inner, std::string name)
          : inner_(std::move(inner)) {
        name_ = std::move(name);
        source_size_ = inner_->source_size();
      }
      Result<std::size_t> Read(char* buf, std::size_t n) override {
        return inner_->Read(buf, n);
      }
      std::uint64_t source_consumed() const override {
        return inner_->source_consumed();
      }

     private:
      std::unique_ptr<io::InputStream> inner_;
    };
    return std::unique_ptr<io::InputStream>(
        new Renamed(std::move(*input), name_));
  }
  return std::move(*input);
}

namespace {

class Compressing : public io::Output {
 public:
  Compressing(std::unique_ptr<io::Output> inner, archive* a)
      : inner_(std::move(inner)), archive_(a) {
    name_ = inner_->name();
  }
  ~Compressing() override {
    if (archive_ != nullptr) archive_write_free(archive_);
  }
  Status Commit() override {
    Flush();
    if (failed_) return Fail();
    if (archive_write_close(archive_) != ARCHIVE_OK) return Fail();
    archive_write_free(archive_);
    archive_ = nullptr;
    return inner_->Commit();
  }
  void Abandon() override {
    DiscardBuffer();
    inner_->Abandon();
  }
  static la_ssize_t WriteCallback(archive*, void* self, const void* buffer,
                                  size_t length) {
    static_cast<Compressing*>(self)->inner_->Write(
        std::string_view(static_cast<const char*>(buffer), length));
    return static_cast<la_ssize_t>(length);
  }

 protected:
  void WriteOut(std::string_view bytes) override {
    if (failed_) return;
    if (archive_write_data(archive_, bytes.data(), bytes.size()) < 0) {
      failed_ = true;
    }
  }

 private:
  Status Fail() {
    std::string why = archive_ != nullptr && archive_error_string(archive_)
                          ? archive_error_string(archive_)
                          : "compression failed";
    inner_->Abandon();
    return Status(Errc::kIo, name_ + ": " + why);
  }
  std::unique_ptr<io::Output> inner_;
  archive* archive_;
  bool failed_ = false;
};

}  // namespace

Result<std::unique_ptr<io::Output>> CompressingOutput(
    std::unique_ptr<io::Output> inner, io::Compression compression) {
  if (compression == io::Compression::kNone) {
    return Result<std::unique_ptr<io::Output>>(std::move(inner));
  }
  archive* a = archive_write_new();
  if (a == nullptr) return Status(Errc::kIo, "cannot start compression");
  int r = compression == io::Compression::kGzip
              ? archive_write_add_filter_gzip(a)
              : archive_write_add_filter_zstd(a);
  if (r == ARCHIVE_OK && compression == io::Compression::kGzip) {
    r = archive_write_set_filter_option(a, "gzip", "timestamp", nullptr);
  }
  if (r == ARCHIVE_OK) r = archive_write_set_format_raw(a);
  if (r == ARCHIVE_OK) r = archive_write_set_bytes_in_last_block(a, 1);
  auto* out = new Compressing(std::move(inner), a);
  std::unique_ptr<io::Output> owned(out);
  if (r == ARCHIVE_OK) {
    r = archive_write_open(a, out, nullptr, &Compressing::WriteCallback,
                           nullptr);
  }
  if (r == ARCHIVE_OK) {
    archive_entry* entry = archive_entry_new();
    archive_entry_set_filetype(entry, AE_IFREG);
    archive_entry_set_pathname(entry, "state");
    r = archive_write_header(a, entry);
    archive_entry_free(entry);
  }
  if (r != ARCHIVE_OK) {
    std::string why = archive_error_string(a) ? archive_error_string(a)
                                              : "unsupported compression";
    owned->Abandon();
    return Status(Errc::kUnsupported, "cannot compress output: " + why);
  }
  return owned;
}

}  // namespace pstate::edit
