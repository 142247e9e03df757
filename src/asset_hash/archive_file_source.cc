// The members of a tar, gzip'ed tar or zip/jar file, read with libarchive in
// the order Go's readers produce: tar entries as stored, zip entries in
// central-directory order (the seekable zip reader). Content is streamed
// from libarchive, never extracted.
#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <locale.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

#include "asset_hash/go_path.h"
#include "asset_hash/member_source.h"

namespace pstate::asset_hash {
namespace {

constexpr std::size_t kLibarchiveBlock = 1 << 20;

// libarchive converts PAX and UTF-8-flagged zip names from UTF-8 to the
// current locale's charset; in the "C" locale non-ASCII names then fail. A
// thread-local UTF-8 locale around each call keeps the bytes as stored
// (without touching the process-wide locale).
locale_t Utf8Locale() {
  static const locale_t kLocale = [] {
    locale_t loc = ::newlocale(LC_CTYPE_MASK, "C.UTF-8", locale_t{});
    if (loc == locale_t{})
      loc = ::newlocale(LC_CTYPE_MASK, "C.utf8", locale_t{});
    return loc;
  }();
  return kLocale;
}

class ScopedUtf8Locale {
 public:
  ScopedUtf8Locale() {
    if (locale_t loc = Utf8Locale(); loc != locale_t{})
      previous_ = ::uselocale(loc);
  }
  ~ScopedUtf8Locale() {
    if (previous_ != locale_t{}) ::uselocale(previous_);
  }
  ScopedUtf8Locale(const ScopedUtf8Locale&) = delete;
  ScopedUtf8Locale& operator=(const ScopedUtf8Locale&) = delete;

 private:
  locale_t previous_{};
};

std::uint16_t Le16(const unsigned char* p) {
  return static_cast<std::uint16_t>(p[0] | (p[1] << 8));
}
std::uint32_t Le32(const unsigned char* p) {
  return static_cast<std::uint32_t>(Le16(p)) |
         (static_cast<std::uint32_t>(Le16(p + 2)) << 16);
}
std::uint64_t Le64(const unsigned char* p) {
  return static_cast<std::uint64_t>(Le32(p)) |
         (static_cast<std::uint64_t>(Le32(p + 4)) << 32);
}

bool PreadAll(int fd, unsigned char* buffer, std::size_t size, off_t offset) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd, buffer + done, size - done,
                              offset + static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// How many entries a zip's central directory really holds, counted up to
// `limit` + 1. The count in the end-of-central-directory record cannot be
// trusted: libarchive's seekable reader loads every consecutive
// central-directory header from the directory's start, whatever the record
// claims, so a zip claiming 5 entries can make it hold millions in memory.
// This walks the same headers (each is 46 bytes plus its name, extra field
// and comment) and stops one past the limit; nullopt when no
// end-of-central-directory record is found (libarchive then reports the
// file as invalid).
std::optional<std::uint64_t> ZipEntryCount(int fd, std::uint64_t limit) {
  const off_t end = ::lseek(fd, 0, SEEK_END);
  if (end < 22) return std::nullopt;
  const off_t tail_size = std::min<off_t>(end, 22 + 65535);
  std::vector<unsigned char> tail(static_cast<std::size_t>(tail_size));
  if (!PreadAll(fd, tail.data(), tail.size(), end - tail_size))
    return std::nullopt;
  for (std::size_t i = tail.size() - 22 + 1; i-- > 0;) {
    if (std::memcmp(tail.data() + i, "PK\5\6", 4) != 0) continue;
    const off_t eocd_at = end - tail_size + static_cast<off_t>(i);
    std::uint64_t declared = Le16(tail.data() + i + 10);
    std::uint64_t cd_size = Le32(tail.data() + i + 12);
    std::uint64_t cd_offset = Le32(tail.data() + i + 16);
    off_t directory_end = eocd_at;
    if (i >= 20 && std::memcmp(tail.data() + i - 20, "PK\6\7", 4) == 0) {
      const unsigned char* locator = tail.data() + i - 20;
      std::array<unsigned char, 56> eocd64{};
      const auto eocd64_at = static_cast<off_t>(Le64(locator + 8));
      if (PreadAll(fd, eocd64.data(), eocd64.size(), eocd64_at) &&
          std::memcmp(eocd64.data(), "PK\6\6", 4) == 0) {
        declared = Le64(eocd64.data() + 32);
        cd_size = Le64(eocd64.data() + 40);
        cd_offset = Le64(eocd64.data() + 48);
        directory_end = eocd64_at;
      }
    }
    // Where the first header is: the recorded offset, or (data prepended
    // to the zip, as in self-extracting files) the directory's size counted
    // back from its end, as libarchive also tries.
    std::array<unsigned char, 46> header{};
    off_t at = static_cast<off_t>(cd_offset);
    auto is_header = [&](off_t pos) {
      return pos >= 0 && PreadAll(fd, header.data(), 4, pos) &&
             std::memcmp(header.data(), "PK\1\2", 4) == 0;
    };
    if (!is_header(at)) {
      at = directory_end - static_cast<off_t>(cd_size);
      if (cd_size > static_cast<std::uint64_t>(directory_end) ||
          !is_header(at)) {
        return declared;
      }
    }
    std::uint64_t count = 0;
    while (count <= limit && PreadAll(fd, header.data(), header.size(), at) &&
           std::memcmp(header.data(), "PK\1\2", 4) == 0) {
      ++count;
      at += 46 + static_cast<off_t>(Le16(header.data() + 28)) +
            Le16(header.data() + 30) + Le16(header.data() + 32);
    }
    return std::max(count, declared);
  }
  return std::nullopt;
}

/// A member's data as libarchive streams it, held to the size its header
/// announced (the Blob's size, which the hash includes): a damaged archive
/// whose local and central headers disagree can stream more or fewer
/// bytes, and is then refused as corrupt rather than hashed as a member
/// whose size and content do not match (Go's zip reader fails such a read
/// with ErrFormat or a checksum error).
class ArchiveDataReader : public ContentReader {
 public:
  ArchiveDataReader(archive* a, std::string what, std::uint64_t size)
      : archive_(a), what_(std::move(what)), size_(size) {}
  Result<std::size_t> Read(char* buffer, std::size_t size) override {
    const la_ssize_t n = archive_read_data(archive_, buffer, size);
    if (n < 0) {
      const char* reason = archive_error_string(archive_);
      return pstate::Status(Errc::kCorrupt,
                            "failed to read " + what_ + ": " +
                                (reason ? reason : "unknown error"));
    }
    read_ += static_cast<std::uint64_t>(n);
    if (read_ > size_ || (n == 0 && read_ != size_)) {
      return pstate::Status(
          Errc::kCorrupt,
          what_ + " holds " + (read_ > size_ ? "more" : "fewer") +
              " bytes than its header says (" + std::to_string(size_) + ")");
    }
    return static_cast<std::size_t>(n);
  }

 private:
  archive* archive_;
  std::string what_;
  std::uint64_t size_;
  std::uint64_t read_ = 0;
};

class ArchiveFileSource : public MemberSource {
 public:
  ArchiveFileSource(std::string path, ArchiveFormat format)
      : path_(std::move(path)), format_(format) {}
  ~ArchiveFileSource() override {
    if (archive_ != nullptr) archive_read_free(archive_);
    if (fd_ >= 0) ::close(fd_);
  }
  ArchiveFileSource(const ArchiveFileSource&) = delete;
  ArchiveFileSource& operator=(const ArchiveFileSource&) = delete;

  pstate::Status Open(const Options& options) {
    // OpenFileBlob reports missing files, refuses anything but a regular
    // file, and applies the rule for files outside the root.
    Result<Blob> probe = OpenFileBlob(path_, &options);
    if (!probe.ok()) return probe.status();
    probe->content.reset();
    outside_root_ = probe->outside_root;
    do {
      fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
    } while (fd_ < 0 && errno == EINTR);
    if (fd_ < 0) {
      return pstate::Status(
          errno == ENOENT ? Errc::kNotFound : Errc::kIo,
          "failed to open '" + path_ + "': " + std::strerror(errno));
    }
    struct stat st {};
    if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode) || !probe->file ||
        static_cast<std::uint64_t>(st.st_ino) != probe->file->inode ||
        static_cast<std::uint64_t>(st.st_dev) != probe->file->device) {
      return pstate::Status(
          Errc::kIo, "'" + path_ + "' changed while it was being opened");
    }
    if (format_ == ArchiveFormat::kZip) {
      if (std::optional<std::uint64_t> count =
              ZipEntryCount(fd_, options.max_members);
          count && *count > options.max_members) {
        return pstate::Status(Errc::kLimit,
                              "zip '" + path_ +
                                  "' has too many members (more than " +
                                  std::to_string(options.max_members) + ")");
      }
      ::lseek(fd_, 0, SEEK_SET);
    }
    ScopedUtf8Locale utf8;
    archive_ = archive_read_new();
    if (archive_ == nullptr)
      return pstate::Status(Errc::kIo, "libarchive: out of memory");
    switch (format_) {
      case ArchiveFormat::kTarGzip:
        archive_read_support_filter_gzip(archive_);
        [[fallthrough]];
      case ArchiveFormat::kTar:
        archive_read_support_format_tar(archive_);
        // Go's tar reader accepts an empty stream as an empty archive.
        archive_read_support_format_empty(archive_);
        break;
      case ArchiveFormat::kZip:
        archive_read_support_format_zip_seekable(archive_);
        break;
      case ArchiveFormat::kNone:
        return pstate::Status(Errc::kInvalidArgument, "not an archive format");
    }
    if (archive_read_open_fd(archive_, fd_, kLibarchiveBlock) != ARCHIVE_OK) {
      return Failure("cannot open");
    }
    return pstate::Status::Ok();
  }

  Result<std::optional<Member>> Next() override {
    while (true) {
      archive_entry* entry = nullptr;
      int rc;
      {
        ScopedUtf8Locale utf8;
        rc = archive_read_next_header(archive_, &entry);
      }
      if (rc == ARCHIVE_EOF) {
        if (pstate::Status gz = CheckGzip(); !gz.ok()) return gz;
        return std::optional<Member>();
      }
      // Warnings include names that could not be converted: refuse rather
      // than hash a name that may differ from the stored bytes.
      if (rc != ARCHIVE_OK) return Failure("cannot read entry of");
      if (pstate::Status gz = CheckGzip(); !gz.ok()) return gz;
      const char* raw_name = archive_entry_pathname(entry);
      if (raw_name == nullptr) {
        return pstate::Status(
            Errc::kCorrupt, "entry without a readable name in '" + path_ + "'");
      }
      const std::string name = raw_name;
      const mode_t type = archive_entry_filetype(entry);
      if (type == AE_IFDIR) continue;
      if (archive_entry_is_encrypted(entry)) {
        return pstate::Status(Errc::kFormat, "entry '" + name + "' of '" +
                                                 path_ + "' is encrypted");
      }
      Member member;
      member.name = GoClean(name);
      if (format_ == ArchiveFormat::kZip) {
        if (type == AE_IFLNK) {
          // Go's zip reader has no symlinks: the member is the link text.
          const char* target = archive_entry_symlink(entry);
          symlink_text_ = target ? target : "";
          member.blob = TextBlob(symlink_text_);
          member.blob.outside_root = outside_root_;
          return std::optional<Member>(std::move(member));
        }
      } else if (type != AE_IFREG || archive_entry_hardlink(entry) != nullptr ||
                 archive_entry_sparse_count(entry) > 0) {
        // The engine aborts (contract.Failf) on these; report instead.
        return pstate::Status(
            Errc::kFormat, "tar entry '" + name + "' in '" + path_ +
                               "' is not a regular file or directory "
                               "(symlink, hard link, device, FIFO or sparse); "
                               "the engine cannot archive it");
      }
      if (!archive_entry_size_is_set(entry) || archive_entry_size(entry) < 0) {
        return pstate::Status(Errc::kCorrupt, "entry '" + name + "' of '" +
                                                  path_ + "' has no size");
      }
      member.blob.size = static_cast<std::uint64_t>(archive_entry_size(entry));
      member.blob.expanded = true;
      member.blob.outside_root = outside_root_;
      member.blob.content = std::make_unique<ArchiveDataReader>(
          archive_, "entry '" + name + "' of '" + path_ + "'",
          member.blob.size);
      return std::optional<Member>(std::move(member));
    }
  }

 private:
  pstate::Status Failure(const std::string& what) {
    const char* reason = archive_error_string(archive_);
    return pstate::Status(
        Errc::kCorrupt,
        what + " '" + path_ + "': " + (reason ? reason : "unknown error"));
  }

  // Go gunzips .tgz/.tar.gz first: a plain tar under that name is an error.
  pstate::Status CheckGzip() {
    if (format_ != ArchiveFormat::kTarGzip ||
        archive_filter_count(archive_) < 1 ||
        archive_filter_code(archive_, 0) == ARCHIVE_FILTER_GZIP) {
      return pstate::Status::Ok();
    }
    return pstate::Status(Errc::kCorrupt,
                          "'" + path_ + "' is not gzip-compressed");
  }

  std::string path_;
  ArchiveFormat format_;
  int fd_ = -1;
  archive* archive_ = nullptr;
  std::string symlink_text_;
  bool outside_root_ = false;
};

}  // namespace

Result<std::unique_ptr<MemberSource>> OpenArchiveFileMembers(
    const std::string& path, ArchiveFormat format, const Options& options) {
  auto source = std::make_unique<ArchiveFileSource>(path, format);
  if (pstate::Status status = source->Open(options); !status.ok())
    return status;
  return std::unique_ptr<MemberSource>(std::move(source));
}

}  // namespace pstate::asset_hash
