// The members of a directory archive, in the order Go's filepath.Walk visits
// them: depth first, each directory's entries sorted bytewise, a
// subdirectory's contents where its name sorts. The walk is lazy (one sorted
// listing per open level), so memory grows with depth and directory width,
// never with file sizes.
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "asset_hash/go_path.h"
#include "asset_hash/member_source.h"

namespace pstate::asset_hash {
namespace {

constexpr std::string_view kBookkeepingDir = ".pulumi";

pstate::Status ErrnoStatus(int err, const std::string& what) {
  const Errc code =
      (err == ENOENT || err == ENOTDIR) ? Errc::kNotFound : Errc::kIo;
  std::string reason = std::strerror(err);
  if (err == ELOOP) reason += " (symlink loop)";
  return pstate::Status(code, what + ": " + reason);
}

// Go Readdirnames + sort.Strings: every name but "." and "..", bytewise.
Result<std::vector<std::string>> ReadSortedNames(const std::string& dir,
                                                 std::uint64_t max_entries) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr)
    return ErrnoStatus(errno, "cannot read directory '" + dir + "'");
  std::vector<std::string> names;
  while (true) {
    errno = 0;
    const dirent* entry = ::readdir(d);
    if (entry == nullptr) break;
    const std::string_view name = entry->d_name;
    if (name == "." || name == "..") continue;
    if (names.size() >= max_entries) {
      ::closedir(d);
      return pstate::Status(Errc::kLimit, "directory '" + dir +
                                              "' has too many entries (more "
                                              "than " +
                                              std::to_string(max_entries) +
                                              ")");
    }
    names.emplace_back(name);
  }
  const int err = errno;
  ::closedir(d);
  if (err != 0) return ErrnoStatus(err, "cannot read directory '" + dir + "'");
  std::sort(names.begin(), names.end());  // char_traits<char>: unsigned bytes
  return names;
}

// Go's FileInfo.Name() of the root: the last element, trailing slashes
// ignored.
std::string_view BaseName(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

class DirectorySource : public MemberSource {
 public:
  explicit DirectorySource(const Options& options) : options_(options) {}

  // Go readPath + the walk's first step on the root.
  pstate::Status Start(const std::string& root) {
    if (options_.outside_root == OutsideRoot::kRefuse) {
      const std::string canonical = options_.run
                                        ? options_.run->canonical_root()
                                        : RunBudget(options_).canonical_root();
      // Not even listed: the names in a directory can be secrets too.
      if (!InsideRoot(root, canonical)) return OutsideRootStatus(root);
    }
    struct stat st {};
    if (::stat(root.c_str(), &st) != 0) {
      return ErrnoStatus(errno, "couldn't read archive path '" + root + "'");
    }
    if (!S_ISDIR(st.st_mode)) {
      return pstate::Status(Errc::kFormat,
                            "'" + root +
                                "' is neither a recognized archive type nor a "
                                "directory");
    }
    if (::lstat(root.c_str(), &st) != 0) {
      return ErrnoStatus(errno, "cannot stat '" + root + "'");
    }
    // A symlinked root is a symlink to a directory for Walk: skipped, so the
    // archive is empty. So is a root named .pulumi (after its listing was
    // read, which can still fail).
    if (S_ISLNK(st.st_mode)) return pstate::Status::Ok();
    Result<std::vector<std::string>> names =
        ReadSortedNames(root, options_.max_members);
    if (!names.ok()) return names.status();
    if (BaseName(root) == kBookkeepingDir) return pstate::Status::Ok();
    stack_.push_back(Level{root, "", std::move(*names), 0});
    return pstate::Status::Ok();
  }

  Result<std::optional<Member>> Next() override {
    while (!stack_.empty()) {
      Level& level = stack_.back();
      if (level.next == level.names.size()) {
        stack_.pop_back();
        continue;
      }
      const std::string& name = level.names[level.next++];
      std::string full = GoJoin(level.dir, name);
      std::string rel = level.rel.empty() ? name : level.rel + "/" + name;
      struct stat st {};
      if (::lstat(full.c_str(), &st) != 0) {
        return ErrnoStatus(errno, "cannot stat '" + full + "'");
      }
      if (S_ISDIR(st.st_mode)) {
        // Go reads a directory's listing before deciding to skip it.
        Result<std::vector<std::string>> names =
            ReadSortedNames(full, options_.max_members);
        if (!names.ok()) return names.status();
        if (name == kBookkeepingDir) continue;
        stack_.push_back(
            Level{std::move(full), std::move(rel), std::move(*names), 0});
        continue;
      }
      if (name == kBookkeepingDir) continue;
      if (S_ISLNK(st.st_mode)) {
        struct stat target {};
        if (::stat(full.c_str(), &target) != 0) {
          const int err = errno;
          return ErrnoStatus(err, err == ENOENT
                                      ? "dangling symlink '" + full + "'"
                                      : "cannot follow symlink '" + full + "'");
        }
        if (S_ISDIR(target.st_mode)) continue;
      }
      Result<Blob> blob = OpenFileBlob(full, &options_);
      if (!blob.ok()) return blob.status();
      return std::optional<Member>(Member{std::move(rel), std::move(*blob)});
    }
    return std::optional<Member>();
  }

 private:
  struct Level {
    std::string dir;  // path used to open entries (Go: filepath.Join'ed)
    std::string rel;  // member-name prefix, "" at the root
    std::vector<std::string> names;
    std::size_t next = 0;
  };

  const Options& options_;
  std::vector<Level> stack_;
};

}  // namespace

Result<std::unique_ptr<MemberSource>> OpenDirectoryMembers(
    const std::string& path, const Options& options) {
  auto source = std::make_unique<DirectorySource>(options);
  if (pstate::Status status = source->Start(path); !status.ok()) return status;
  return std::unique_ptr<MemberSource>(std::move(source));
}

}  // namespace pstate::asset_hash
