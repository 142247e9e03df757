// Hash() and Audit(): the engine's EnsureHash for assets and archives,
// compared with what state recorded.
#include "asset_hash/hasher.h"

#include <memory>
#include <unordered_set>
#include <vector>

#include "asset_hash/go_path.h"
#include "asset_hash/member_source.h"
#include "asset_hash/run_budget.h"
#include "asset_hash/tar_stream.h"
#include "asset_hash/uri.h"
#include "base/ascii.h"
#include "base/hex.h"
#include "base/sha256.h"

namespace pstate::asset_hash {
namespace {

// Large reads keep hashing as fast as `openssl dgst` on big files.
constexpr std::size_t kReadBlock = 1 << 20;

// Per-object budget shared by every blob read for one Hash() call; the
// run's totals are in options.run.
struct Budget {
  const Options& options;
  std::uint64_t bytes = 0;
  std::uint64_t members = 0;
  /// Some content came from outside the root (read under kReadHashHidden):
  /// the computed hash must not be reported.
  bool outside_root = false;
  std::vector<char> buffer = std::vector<char>(kReadBlock);
};

pstate::Status BytesLimit(const Budget& budget) {
  return pstate::Status(Errc::kLimit,
                        "content exceeds the limit of " +
                            std::to_string(budget.options.max_expanded_bytes) +
                            " bytes (zip bomb?)");
}

// Streams a blob to `write`, failing like the engine when the bytes read
// differ from the announced size, and when the byte budget runs out.
template <typename Write>
pstate::Status CopyBlob(Blob& blob, std::string_view name, Budget& budget,
                        Write&& write) {
  if (blob.size >
      budget.options.max_expanded_bytes -
          std::min(budget.bytes, budget.options.max_expanded_bytes)) {
    return BytesLimit(budget);
  }
  budget.outside_root |= blob.outside_root;
  RunBudget& run = *budget.options.run;
  std::uint64_t total = 0;
  while (true) {
    Result<std::size_t> n =
        blob.content->Read(budget.buffer.data(), budget.buffer.size());
    if (!n.ok()) return n.status();
    if (*n == 0) break;
    total += *n;
    budget.bytes += *n;
    if (pstate::Status s = run.AddBytes(*n); !s.ok()) return s;
    if (blob.expanded) {
      if (pstate::Status s = run.AddExpandedBytes(*n); !s.ok()) return s;
    }
    if (total > blob.size) {
      return pstate::Status(Errc::kIo, "incorrect blob size for " +
                                           std::string(name) + ": expected " +
                                           std::to_string(blob.size) +
                                           ", got more");
    }
    if (budget.bytes > budget.options.max_expanded_bytes)
      return BytesLimit(budget);
    if (pstate::Status s = write(std::string_view(budget.buffer.data(), *n));
        !s.ok()) {
      return s;
    }
  }
  if (total != blob.size) {
    return pstate::Status(Errc::kIo, "incorrect blob size for " +
                                         std::string(name) + ": expected " +
                                         std::to_string(blob.size) + ", got " +
                                         std::to_string(total));
  }
  return pstate::Status::Ok();
}

Result<std::string> HashBlob(Blob blob, std::string_view name, Budget& budget) {
  // A file already hashed in this run (a state naming one file many times)
  // is not read again.
  if (blob.file) {
    if (std::optional<std::string> known =
            budget.options.run->FindFileHash(*blob.file)) {
      budget.outside_root |= blob.outside_root;
      return *known;
    }
  }
  const std::optional<FileIdentity> file = blob.file;
  Sha256 sha;
  pstate::Status s = CopyBlob(blob, name, budget, [&](std::string_view data) {
    sha.Update(data);
    return pstate::Status::Ok();
  });
  if (!s.ok()) return s;
  std::string hex = sha.FinishHex();
  if (hex.empty()) return pstate::Status(Errc::kIo, "SHA-256 failed (OpenSSL)");
  if (file) budget.options.run->StoreFileHash(*file, hex);
  return hex;
}

// Go archiveTar over the archive's members, hashed as it is produced.
Result<std::string> HashTarStream(MemberSource& source, Budget& budget) {
  Sha256 sha;
  TarStream tar([&sha](std::string_view data) { sha.Update(data); });
  // Bounded by max_members: every enumerated member is counted first.
  std::unordered_set<std::string> seen;
  while (true) {
    Result<std::optional<Member>> next = source.Next();
    if (!next.ok()) return next.status();
    if (!next->has_value()) break;
    Member& member = **next;
    if (++budget.members > budget.options.max_members) {
      return pstate::Status(
          Errc::kLimit, "too many members (more than " +
                            std::to_string(budget.options.max_members) + ")");
    }
    if (pstate::Status s = budget.options.run->AddMembers(1); !s.ok()) return s;
    // First occurrence wins; the duplicate was opened (so a missing file
    // still fails) but is not read.
    if (!seen.insert(member.name).second) continue;
    if (pstate::Status s = tar.BeginMember(member.name, member.blob.size);
        !s.ok())
      return s;
    if (!IsDirectoryEntryName(member.name)) {
      pstate::Status s =
          CopyBlob(member.blob, member.name, budget,
                   [&tar](std::string_view data) { return tar.Write(data); });
      if (!s.ok()) return s;
    }
    if (pstate::Status s = tar.EndMember(); !s.ok()) return s;
  }
  tar.Finish();
  std::string hex = sha.FinishHex();
  if (hex.empty()) return pstate::Status(Errc::kIo, "SHA-256 failed (OpenSSL)");
  return hex;
}

Result<std::string> ComputeAsset(const Spec& spec, Budget& budget) {
  Result<Blob> blob = OpenAssetBlob(spec, budget.options);
  if (!blob.ok()) return blob.status();
  return HashBlob(std::move(*blob), "asset", budget);
}

Result<std::string> ComputeArchive(const Spec& spec, Budget& budget) {
  const Source source = SourceOf(spec);
  // Go ReadSourceArchiveWithWD: archive files are hashed as raw bytes.
  if (source == Source::kPath) {
    const std::string path =
        ResolveAgainst(budget.options.root.native(), *spec.path);
    if (DetectArchiveFormat(path) != ArchiveFormat::kNone) {
      Result<Blob> blob = OpenFileBlob(path, &budget.options);
      if (!blob.ok()) return blob.status();
      return HashBlob(std::move(*blob), path, budget);
    }
  } else if (source == Source::kUri) {
    Result<ArchiveFile> file = ArchiveUriFile(*spec.uri);
    if (!file.ok()) return file.status();
    Result<Blob> blob = OpenFileBlob(file->path, &budget.options);
    if (!blob.ok()) return blob.status();
    return HashBlob(std::move(*blob), file->path, budget);
  }
  Result<std::unique_ptr<MemberSource>> members =
      OpenArchiveMembers(spec, budget.options, 0);
  if (!members.ok()) return members.status();
  return HashTarStream(**members, budget);
}

Status StatusFor(Errc code) {
  switch (code) {
    case Errc::kNotFound: return Status::kMissing;
    case Errc::kUnsupported: return Status::kUnverifiable;
    default: return Status::kError;
  }
}

Outcome HiddenOutcome(const Spec& spec, const std::string& actual,
                      Outcome outcome) {
  const std::string_view recorded =
      spec.hash ? std::string_view(*spec.hash) : std::string_view();
  const char* why = " (not shown: the content is outside --root)";
  if (recorded.empty()) {
    outcome.status = Status::kNoHash;
    outcome.message = std::string(
        "no hash recorded; the computed hash is not shown (the "
        "content is outside --root)");
  } else if (recorded == actual) {
    outcome.status = Status::kOk;
  } else {
    outcome.status = Status::kMismatch;
    outcome.message = "recorded hash " + std::string(recorded) +
                      " differs from the content's hash" + why;
  }
  return outcome;
}

}  // namespace

std::string_view StatusName(Status status) {
  switch (status) {
    case Status::kOk: return "ok";
    case Status::kMismatch: return "mismatch";
    case Status::kMissing: return "missing";
    case Status::kError: return "error";
    case Status::kUnverifiable: return "unverifiable";
    case Status::kNoHash: return "no-hash";
  }
  return "error";
}

Outcome Hash(const Spec& spec, const Options& caller_options) {
  Outcome outcome;
  outcome.source = SourceOf(spec);
  // Without a run, this call is one (its totals equal the limits).
  Options options = caller_options;
  if (!options.run) options.run = std::make_shared<RunBudget>(options);
  Budget budget{options};
  Result<std::string> actual = spec.kind == Kind::kAsset
                                   ? ComputeAsset(spec, budget)
                                   : ComputeArchive(spec, budget);
  if (!actual.ok()) {
    outcome.status = StatusFor(actual.status().code());
    outcome.message = actual.status().message();
    if (outcome.message.empty()) outcome.message = "cannot compute the hash";
    return outcome;
  }
  if (budget.outside_root &&
      options.outside_root == OutsideRoot::kReadHashHidden) {
    // Compared, never shown: a full unkeyed SHA-256 of a file outside the
    // root is an oracle for its content.
    return HiddenOutcome(spec, *actual, std::move(outcome));
  }
  outcome.actual = std::move(*actual);
  const std::string_view recorded =
      spec.hash ? std::string_view(*spec.hash) : std::string_view();
  if (recorded.empty()) {
    outcome.status = Status::kNoHash;
    outcome.message = "no hash recorded; computed " + *outcome.actual;
  } else if (recorded == *outcome.actual) {
    outcome.status = Status::kOk;
  } else {
    outcome.status = Status::kMismatch;
    outcome.message = "recorded hash " + std::string(recorded) +
                      " differs from computed " + *outcome.actual;
    if (ascii::EqualFold(recorded, *outcome.actual)) {
      outcome.message +=
          " (they differ only in letter case; the engine writes lowercase)";
    }
  }
  return outcome;
}

std::string_view NoteCodeName(NoteCode code) {
  switch (code) {
    case NoteCode::kAbsolutePath: return "asset-absolute-path";
    case NoteCode::kPathEscapesRoot: return "asset-path-escapes-root";
    case NoteCode::kBackslashPath: return "asset-backslash-path";
    case NoteCode::kHashMalformed: return "asset-hash-malformed";
  }
  return "asset-hash-malformed";
}

std::vector<AuditNote> Audit(const Spec& spec, const Options& /*options*/) {
  std::vector<AuditNote> notes;
  auto add = [&notes](NoteCode code, std::string message) {
    notes.push_back(AuditNote{code, std::move(message)});
  };
  if (spec.path && !spec.path->empty()) {
    const std::string& path = *spec.path;
    const bool windows_drive = path.size() >= 3 &&
                               ((path[0] >= 'A' && path[0] <= 'Z') ||
                                (path[0] >= 'a' && path[0] <= 'z')) &&
                               path[1] == ':' &&
                               (path[2] == '\\' || path[2] == '/');
    if (GoIsAbs(path) || windows_drive || path.starts_with("\\\\")) {
      add(kNoteAbsolutePath,
          "path '" + path + "' is absolute; it breaks on other machines");
    } else {
      const std::string cleaned = GoClean(path);
      if (cleaned == ".." || cleaned.starts_with("../")) {
        add(kNotePathEscapesRoot, "path '" + path +
                                      "' leaves the program directory (" +
                                      cleaned + ")");
      }
    }
    if (path.find('\\') != std::string::npos) {
      add(kNoteBackslashPath,
          "path '" + path +
              "' contains a backslash (a Windows separator; "
              "on Linux it is part of the name)");
    }
  }
  if (spec.uri && !spec.uri->empty()) {
    const std::string& uri = *spec.uri;
    Result<ParsedUri> parsed = ParseUri(uri);
    if (parsed.ok() && parsed->scheme == "file") {
      add(kNoteAbsolutePath,
          "file URI '" + RedactUserinfo(uri) +
              "' names an absolute path; it breaks on other machines");
    }
    if (uri.find('\\') != std::string::npos) {
      add(kNoteBackslashPath,
          "uri '" + RedactUserinfo(uri) + "' contains a backslash");
    }
  }
  if (spec.kind == Kind::kArchive) {
    for (const auto& [name, member] : spec.assets) {
      if (name.find('\\') != std::string::npos) {
        add(kNoteBackslashPath,
            "member name '" + name +
                "' contains a backslash (a Windows separator; "
                "archives use '/')");
      }
    }
  }
  if (spec.hash && !spec.hash->empty() && !IsLowerHex(*spec.hash, 64)) {
    add(kNoteHashMalformed,
        "recorded hash '" + *spec.hash + "' is not 64 lowercase hex digits");
  }
  return notes;
}

}  // namespace pstate::asset_hash

namespace pstate {

std::string_view AssetStatusName(AssetStatus status) {
  return asset_hash::StatusName(status);
}

}  // namespace pstate
