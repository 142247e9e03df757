#include "io/rewrite_guard.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace pstate::io {
namespace {

std::int64_t MtimeNs(const struct stat& st) {
  return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 +
         static_cast<std::int64_t>(st.st_mtim.tv_nsec);
}

FileIdentity IdentityOf(const struct stat& st) {
  FileIdentity id;
  id.dev = st.st_dev;
  id.ino = st.st_ino;
  id.size = static_cast<std::int64_t>(st.st_size);
  id.mtime_ns = MtimeNs(st);
  return id;
}

/// A run that waited behind another finds its file renamed away and starts
/// over on the new one; this many new files in a row means something keeps
/// replacing it faster than it can be locked.
constexpr int kMaxAttempts = 1000;

Status Changed(const std::string& path, const char* what) {
  return Status(Errc::kRefused,
                path + ": " + what +
                    " since it was read (another program wrote it); "
                    "nothing was written: run the command again");
}

}  // namespace

RewriteGuard::~RewriteGuard() { Release(); }

RewriteGuard::RewriteGuard(RewriteGuard&& other) noexcept
    : held_(std::exchange(other.held_, {})) {}

RewriteGuard& RewriteGuard::operator=(RewriteGuard&& other) noexcept {
  if (this != &other) {
    Release();
    held_ = std::exchange(other.held_, {});
  }
  return *this;
}

void RewriteGuard::Release() {
  // Closing the last descriptor of a file releases its flock.
  for (Held& h : held_) {
    if (h.fd >= 0) ::close(h.fd);
    h.fd = -1;
  }
  held_.clear();
}

Result<RewriteGuard> RewriteGuard::Acquire(
    const std::vector<std::string>& paths) {
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    RewriteGuard guard;
    for (const std::string& path : paths) {
      int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
      if (fd < 0) continue;  // the reader reports it
      struct stat st {};
      if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        continue;
      }
      auto same = std::find_if(
          guard.held_.begin(), guard.held_.end(), [&](const Held& h) {
            return h.identity.dev == st.st_dev && h.identity.ino == st.st_ino;
          });
      if (same != guard.held_.end()) {
        same->paths.push_back(path);
        ::close(fd);
        continue;
      }
      Held held;
      held.paths.push_back(path);
      held.fd = fd;
      held.identity = IdentityOf(st);
      guard.held_.push_back(std::move(held));
    }
    std::sort(guard.held_.begin(), guard.held_.end(),
              [](const Held& a, const Held& b) {
                return std::pair(a.identity.dev, a.identity.ino) <
                       std::pair(b.identity.dev, b.identity.ino);
              });
    bool stale = false;
    for (Held& h : guard.held_) {
      int rc;
      do {
        rc = ::flock(h.fd, LOCK_EX);
      } while (rc != 0 && errno == EINTR);
      // No flock on this file system (ENOLCK, EOPNOTSUPP, an NFS mount
      // that wants a writable descriptor: EBADF): only Check() guards it.
      struct stat st {};
      if (::fstat(h.fd, &st) != 0) {
        return Status(Errc::kIo, h.paths.front() + ": " + std::strerror(errno));
      }
      // The identity as locked: a run that waited saw the file change.
      h.identity = IdentityOf(st);
      for (const std::string& path : h.paths) {
        struct stat now {};
        if (::stat(path.c_str(), &now) != 0 || now.st_dev != st.st_dev ||
            now.st_ino != st.st_ino) {
          stale = true;  // renamed over while this run waited
        }
      }
      if (stale) break;
    }
    if (!stale) return guard;
  }
  return Status(Errc::kIo, (paths.empty() ? std::string() : paths.front()) +
                               ": the file keeps being replaced; it cannot "
                               "be locked for rewriting");
}

Status RewriteGuard::Check() const {
  for (const Held& h : held_) {
    for (const std::string& path : h.paths) {
      Result<int> fd = LockedFileAt(path);
      if (!fd.ok()) return fd.status();
    }
  }
  return Status::Ok();
}

Result<int> RewriteGuard::LockedFileAt(const std::string& path) const {
  if (held_.empty()) return -1;
  struct stat now {};
  if (::stat(path.c_str(), &now) != 0) {
    return Changed(path, "was removed or renamed");
  }
  for (const Held& h : held_) {
    if (h.identity.dev != now.st_dev || h.identity.ino != now.st_ino) {
      continue;
    }
    if (IdentityOf(now).size != h.identity.size ||
        MtimeNs(now) != h.identity.mtime_ns) {
      return Changed(path, "was modified");
    }
    return h.fd;
  }
  return Changed(path, "was replaced");
}

}  // namespace pstate::io
