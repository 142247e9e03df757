// Which source the engine reads for an asset or archive, and the asset-map
// archive reader (keys sorted bytewise, nested archives flattened under
// path.Join(key, inner)).
#include "asset_hash/member_source.h"

#include <algorithm>
#include <vector>

#include "asset_hash/go_path.h"
#include "asset_hash/hasher.h"
#include "asset_hash/uri.h"
#include "base/sha256.h"

namespace pstate::asset_hash {
namespace {

bool NonEmpty(const std::optional<std::string>& s) { return s && !s->empty(); }

std::string_view HashOf(const Spec& spec) {
  return spec.hash ? std::string_view(*spec.hash) : std::string_view();
}

// Go Asset.IsText.
bool IsText(const Spec& a) {
  if (NonEmpty(a.path) || NonEmpty(a.uri)) return false;
  if (NonEmpty(a.text)) return true;
  return HashOf(a).empty() || HashOf(a) == kEmptyAssetHash;
}

// Go Archive.IsAssets (an absent `assets` key is an empty map).
bool IsAssets(const Spec& a) {
  if (NonEmpty(a.path) || NonEmpty(a.uri)) return false;
  if (!a.assets.empty()) return true;
  return HashOf(a).empty() || HashOf(a) == kEmptyArchiveHash;
}

pstate::Status Unverifiable(std::string message) {
  return pstate::Status(Errc::kUnsupported, std::move(message));
}

bool IsHttp(const ParsedUri& uri) {
  return uri.scheme == "http" || uri.scheme == "https";
}

// The engine asserts (crashes) on these; they are plain errors here.
pstate::Status CheckFileUriParts(const ParsedUri& uri, std::string_view raw) {
  std::string what;
  if (uri.has_user)
    what = "a user";
  else if (!uri.raw_query.empty())
    what = "a query string";
  else if (!uri.fragment.empty())
    what = "a fragment";
  if (what.empty()) return pstate::Status::Ok();
  return pstate::Status(Errc::kFormat, "file:// URIs cannot have " + what +
                                           ": " + RedactUserinfo(raw));
}

// Go archive.readAssets + assetsArchiveReader.
class AssetMapSource : public MemberSource {
 public:
  AssetMapSource(const Spec& spec, const Options& options, int depth)
      : options_(options), depth_(depth) {
    for (const auto& entry : spec.assets) entries_.push_back(&entry);
    std::stable_sort(
        entries_.begin(), entries_.end(),
        [](const Entry* a, const Entry* b) { return a->first < b->first; });
    // A repeated key: the last occurrence in file order wins, as when Go
    // decodes the JSON object into a map.
    std::vector<const Entry*> unique;
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      if (i + 1 < entries_.size() &&
          entries_[i + 1]->first == entries_[i]->first)
        continue;
      unique.push_back(entries_[i]);
    }
    entries_ = std::move(unique);
  }

  Result<std::optional<Member>> Next() override {
    while (true) {
      if (inner_ != nullptr) {
        Result<std::optional<Member>> member = inner_->Next();
        if (!member.ok()) return member.status();
        if (member->has_value()) {
          (*member)->name = GoJoin(inner_root_, (*member)->name);
          return member;
        }
        inner_.reset();
      }
      if (next_ == entries_.size()) return std::optional<Member>();
      const Entry& entry = *entries_[next_++];
      if (entry.second.kind == Kind::kAsset) {
        Result<Blob> blob = OpenAssetBlob(entry.second, options_);
        if (!blob.ok()) {
          return pstate::Status(blob.status().code(),
                                "failed to expand archive asset '" +
                                    entry.first +
                                    "': " + blob.status().message());
        }
        return std::optional<Member>(Member{entry.first, std::move(*blob)});
      }
      if (depth_ + 1 > options_.max_nesting) {
        return pstate::Status(Errc::kLimit,
                              "archives nested more than " +
                                  std::to_string(options_.max_nesting) +
                                  " levels deep");
      }
      Result<std::unique_ptr<MemberSource>> inner =
          OpenArchiveMembers(entry.second, options_, depth_ + 1);
      if (!inner.ok()) {
        return pstate::Status(inner.status().code(),
                              "failed to expand sub-archive '" + entry.first +
                                  "': " + inner.status().message());
      }
      inner_ = std::move(*inner);
      inner_root_ = entry.first;
    }
  }

 private:
  using Entry = std::pair<std::string, Spec>;

  const Options& options_;
  int depth_;
  std::vector<const Entry*> entries_;
  std::size_t next_ = 0;
  std::unique_ptr<MemberSource> inner_;
  std::string inner_root_;
};

}  // namespace

Source SourceOf(const Spec& spec) {
  if (NonEmpty(spec.path)) return Source::kPath;
  if (NonEmpty(spec.uri)) return Source::kUri;
  if (spec.kind == Kind::kAsset)
    return IsText(spec) ? Source::kText : Source::kNone;
  return IsAssets(spec) ? Source::kAssets : Source::kNone;
}

ArchiveFormat DetectArchiveFormat(std::string_view path) {
  if (path.ends_with(".tar")) return ArchiveFormat::kTar;
  if (path.ends_with(".tgz") || path.ends_with(".tar.gz"))
    return ArchiveFormat::kTarGzip;
  if (path.ends_with(".zip") || path.ends_with(".jar"))
    return ArchiveFormat::kZip;
  return ArchiveFormat::kNone;
}

Result<std::string> AssetUriPath(std::string_view raw) {
  Result<ParsedUri> uri = ParseUri(raw);
  if (!uri.ok()) return uri.status();
  if (IsHttp(*uri)) {
    return Unverifiable("content at '" + RedactUserinfo(raw) +
                        "' needs a network fetch (never done)");
  }
  if (uri->scheme != "file") {
    return pstate::Status(
        Errc::kFormat,
        "unrecognized or unsupported URI scheme '" + uri->scheme + "'");
  }
  if (pstate::Status parts = CheckFileUriParts(*uri, raw); !parts.ok())
    return parts;
  if (!uri->host.empty() && uri->host != "localhost") {
    return pstate::Status(
        Errc::kFormat,
        "file:// host '" + uri->host + "' not supported (only localhost)");
  }
  return std::move(uri->path);
}

Result<ArchiveFile> ArchiveUriFile(std::string_view raw) {
  Result<ParsedUri> uri = ParseUri(raw);
  if (!uri.ok()) return uri.status();
  ArchiveFile file{uri->path, DetectArchiveFormat(uri->path)};
  if (file.format == ArchiveFormat::kNone) {
    return pstate::Status(Errc::kFormat,
                          "file at URL '" + RedactUserinfo(raw) +
                              "' is not a recognized archive format");
  }
  if (IsHttp(*uri)) {
    return Unverifiable("archive at '" + RedactUserinfo(raw) +
                        "' needs a network fetch (never done)");
  }
  if (uri->scheme != "file") {
    return pstate::Status(
        Errc::kFormat,
        "unrecognized or unsupported URI scheme '" + uri->scheme + "'");
  }
  if (pstate::Status parts = CheckFileUriParts(*uri, raw); !parts.ok())
    return parts;
  if (!uri->host.empty()) {
    return pstate::Status(
        Errc::kFormat,
        "file:// archive URIs cannot have a host: " + RedactUserinfo(raw));
  }
  return file;
}

Result<Blob> OpenAssetBlob(const Spec& asset, const Options& options) {
  switch (SourceOf(asset)) {
    case Source::kText:
      return TextBlob(asset.text ? std::string_view(*asset.text)
                                 : std::string_view());
    case Source::kPath:
      return OpenFileBlob(ResolveAgainst(options.root.native(), *asset.path),
                          &options);
    case Source::kUri: {
      Result<std::string> path = AssetUriPath(*asset.uri);
      if (!path.ok()) return path.status();
      return OpenFileBlob(*path, &options);
    }
    case Source::kAssets:
    case Source::kNone: break;
  }
  return Unverifiable("asset placeholder: a hash with no text, path or uri");
}

Result<std::unique_ptr<MemberSource>> OpenArchiveMembers(const Spec& archive,
                                                         const Options& options,
                                                         int depth) {
  switch (SourceOf(archive)) {
    case Source::kAssets:
      return std::unique_ptr<MemberSource>(
          std::make_unique<AssetMapSource>(archive, options, depth));
    case Source::kPath: {
      const std::string path =
          ResolveAgainst(options.root.native(), *archive.path);
      const ArchiveFormat format = DetectArchiveFormat(path);
      if (format == ArchiveFormat::kNone)
        return OpenDirectoryMembers(path, options);
      return OpenArchiveFileMembers(path, format, options);
    }
    case Source::kUri: {
      Result<ArchiveFile> file = ArchiveUriFile(*archive.uri);
      if (!file.ok()) return file.status();
      return OpenArchiveFileMembers(file->path, file->format, options);
    }
    case Source::kText:
    case Source::kNone: break;
  }
  return Unverifiable(
      "archive placeholder: a hash with no assets, path or uri");
}

}  // namespace pstate::asset_hash
