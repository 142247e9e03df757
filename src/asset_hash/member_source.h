// Content and member enumeration behind Hash(): what the engine's Blob and
// archive Reader types provide (asset.ReadWithWD, archive.OpenWithWD).
// Errors use pstate::Errc with one convention the hasher relies on:
// kNotFound = something referenced does not exist (-> "missing"), and
// kUnsupported = content cannot be had offline: an http(s) fetch, a
// hash-only placeholder, or a file outside the root that may not be read
// (-> "unverifiable"). Nothing else uses kUnsupported.
#ifndef PSTATE_ASSET_HASH_MEMBER_SOURCE_H_
#define PSTATE_ASSET_HASH_MEMBER_SOURCE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "asset_hash/run_budget.h"
#include "asset_hash/spec.h"
#include "base/result.h"

namespace pstate::asset_hash {

/// The bytes of one blob, read once, in order.
class ContentReader {
 public:
  virtual ~ContentReader() = default;
  /// Up to `size` bytes into `buffer`; 0 means the end of the content.
  virtual Result<std::size_t> Read(char* buffer, std::size_t size) = 0;
};

/// A blob: announced size (stat size, header size, ...) and its reader. The
/// engine fails when the bytes read differ from the announced size.
struct Blob {
  std::uint64_t size = 0;
  std::unique_ptr<ContentReader> content;
  /// A whole file on disk: which one (for the per-run hash cache).
  std::optional<FileIdentity> file;
  /// Read from a file outside Options::root (allowed by kReadHashHidden or
  /// kRead): a hash that covers it is not reported under kReadHashHidden.
  bool outside_root = false;
  /// A member read out of a tar, tgz or zip file (counted as expanded).
  bool expanded = false;
};

struct Member {
  std::string name;
  Blob blob;
};

/// A sequence of archive members (the engine's archive.Reader).
class MemberSource {
 public:
  virtual ~MemberSource() = default;
  /// The next member, or std::nullopt after the last. A member's reader is
  /// valid only until the next call.
  virtual Result<std::optional<Member>> Next() = 0;
};

enum class ArchiveFormat { kNone, kTar, kTarGzip, kZip };

/// Go detectArchiveFormat: a case-sensitive suffix test on the whole string
/// (.tar, .tgz, .tar.gz, .zip, .jar; a .jar is read as a zip).
ArchiveFormat DetectArchiveFormat(std::string_view path);

/// Opens a file for reading its bytes, following symlinks. Only regular
/// files are ever opened: directories, devices, FIFOs and sockets fail
/// before open(2) (opening a device can have effects: a watchdog arms, a
/// tape rewinds). With `options`, a file outside options->root is handled
/// as options->outside_root says: kRefuse fails with kUnsupported (status
/// unverifiable) without touching the file.
Result<Blob> OpenFileBlob(const std::string& path,
                          const Options* options = nullptr);

/// The kUnsupported status for a file that is not read because it lies
/// outside the root.
pstate::Status OutsideRootStatus(const std::string& path);

/// A blob over bytes that outlive it.
Blob TextBlob(std::string_view text);

/// The content of an asset as asset.ReadWithWD reads it: text, path (joined
/// to options.root) or file: URI.
Result<Blob> OpenAssetBlob(const Spec& asset, const Options& options);

/// The members of an archive as archive.OpenWithWD lists them: asset map,
/// directory walk, or tar/tgz/zip/jar file (by path or file: URI). `depth` is
/// the archive's nesting level (0 at the top).
Result<std::unique_ptr<MemberSource>> OpenArchiveMembers(const Spec& archive,
                                                         const Options& options,
                                                         int depth);

/// Directory walk (filepath.Walk order, `.pulumi` skipped, symlinks to files
/// kept, to directories skipped). `path` is already resolved.
Result<std::unique_ptr<MemberSource>> OpenDirectoryMembers(
    const std::string& path, const Options& options);

/// Entries of a tar, gzip'ed tar or zip file read with libarchive; names
/// cleaned like Go filepath.Clean, directories skipped.
Result<std::unique_ptr<MemberSource>> OpenArchiveFileMembers(
    const std::string& path, ArchiveFormat format, const Options& options);

/// The file the `file:` asset URI `raw` names (host empty or "localhost"; user
/// info, query and fragment refused instead of the engine's crash).
/// kUnsupported for http(s), kFormat for anything else.
Result<std::string> AssetUriPath(std::string_view raw);

struct ArchiveFile {
  std::string path;
  ArchiveFormat format = ArchiveFormat::kNone;
};

/// The archive file the URI `raw` names: its format comes from the URL path and
/// must be recognized (else kFormat, even for http); the host must be empty.
/// kUnsupported for http(s) archives.
Result<ArchiveFile> ArchiveUriFile(std::string_view raw);

}  // namespace pstate::asset_hash

#endif  // PSTATE_ASSET_HASH_MEMBER_SOURCE_H_
