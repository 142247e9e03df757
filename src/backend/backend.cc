#include "backend/backend.h"

#include <sys/stat.h>

#include <algorithm>
#include <charconv>
#include <ctime>
#include <filesystem>
#include <memory>
#include <system_error>
#include <utility>

#include "base/ascii.h"
#include "base/rfc3339.h"
#include "io/input.h"
#include "json/document.h"

namespace pstate::backend {
namespace {

namespace fs = std::filesystem;
using ascii::AllDigits;
using ascii::EqualFold;

constexpr std::string_view kBookkeeping = ".pulumi";
/// A history file is a few KiB; this bounds what a hostile one may take.
constexpr std::uint64_t kMaxHistoryFileBytes = 64u << 20;

/// The checkpoint extensions Pulumi writes (encoding.Marshalers' ".json",
/// optionally compressed: encoding.GZIPExt, encoding.ZSTDExt).
constexpr std::string_view kCheckpointExts[] = {".json", ".json.gz",
                                                ".json.zst"};

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.substr(s.size() - suffix.size()) == suffix;
}

/// The stack name of a checkpoint file name, or nullopt.
std::optional<std::string> StackNameOf(std::string_view file) {
  for (std::string_view ext : kCheckpointExts) {
    if (EndsWith(file, ext) && file.size() > ext.size()) {
      return std::string(file.substr(0, file.size() - ext.size()));
    }
  }
  return std::nullopt;
}

std::int64_t MtimeNs(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return -1;
  return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 +
         st.st_mtim.tv_nsec;
}

bool IsRegular(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool IsDirectory(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

/// The entries of a directory, sorted by name; empty when it cannot be
/// listed.
std::vector<fs::directory_entry> SortedEntries(const std::string& dir) {
  std::vector<fs::directory_entry> out;
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) return out;
  for (const fs::directory_entry& e : it) out.push_back(e);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.path().filename() < b.path().filename();
  });
  return out;
}

/// Of the checkpoint files found for one stack, the most recently modified
/// wins (pkg/backend/diy/state.go: stackPath).
void Consider(std::map<std::pair<std::string, std::string>, Stack>& stacks,
              const std::string& root, const std::string& project,
              const std::string& name, const std::string& path) {
  auto [it, inserted] = stacks.try_emplace({project, name});
  Stack& s = it->second;
  if (inserted || MtimeNs(path) > MtimeNs(s.checkpoint)) {
    s.root = root;
    s.project = project;
    s.name = name;
    s.checkpoint = path;
  }
}

std::string Join(std::string_view a, std::string_view b) {
  std::string out(a);
  if (!out.empty() && out.back() != '/') out += '/';
  out += b;
  return out;
}

/// The Unix nanoseconds of "<name>-<digits><suffix>", or nullopt.
std::optional<std::pair<std::string, std::int64_t>> SplitStamped(
    std::string_view file, std::string_view suffix, char separator) {
  if (!EndsWith(file, suffix)) return std::nullopt;
  std::string_view stem = file.substr(0, file.size() - suffix.size());
  std::size_t sep = stem.rfind(separator);
  if (sep == std::string_view::npos || sep == 0) return std::nullopt;
  std::string_view digits = stem.substr(sep + 1);
  std::int64_t nano = 0;
  auto [ptr, ec] =
      std::from_chars(digits.data(), digits.data() + digits.size(), nano);
  if (digits.empty() || ec != std::errc() ||
      ptr != digits.data() + digits.size() || !AllDigits(digits)) {
    return std::nullopt;
  }
  return std::pair{std::string(stem.substr(0, sep)), nano};
}

/// `suffix` followed by an optional compression extension: the full
/// suffix found at the end of `file`, or "".
std::string_view MatchSuffix(std::string_view file, std::string_view base) {
  for (std::string_view comp : {"", ".gz", ".zst"}) {
    std::string whole = std::string(base) + std::string(comp);
    if (EndsWith(file, whole)) {
      return file.substr(file.size() - whole.size());
    }
  }
  return {};
}

Result<std::string> ReadSmallFile(const std::string& path) {
  io::InputOptions options;
  options.max_decoded_bytes = kMaxHistoryFileBytes;
  auto input = io::OpenInput(path, options);
  if (!input.ok()) return input.status();
  std::string text;
  char buf[16384];
  for (;;) {
    Result<std::size_t> got = (*input)->Read(buf, sizeof buf);
    if (!got.ok()) return got.status();
    if (*got == 0) break;
    text.append(buf, *got);
    if (text.size() > kMaxHistoryFileBytes) {
      return Status(Errc::kLimit,
                    path + ": larger than " +
                        io::FormatByteLimit(kMaxHistoryFileBytes) +
                        "; not a history file");
    }
  }
  return text;
}

Result<std::int64_t> Int64Of(const json::Value& v, const std::string& name,
                             std::string_view field) {
  if (v.is_null()) return std::int64_t{0};  // Go leaves the field alone
  std::string_view raw = v.raw();
  std::int64_t n = 0;
  if (v.is_number()) {
    auto [ptr, ec] = std::from_chars(raw.data(), raw.data() + raw.size(), n);
    if (ec == std::errc() && ptr == raw.data() + raw.size()) return n;
  }
  return Status(Errc::kFormat, name + ": \"" + std::string(field) +
                                   "\" is not an integer (a " +
                                   std::string(json::TypeName(v.type)) + ")");
}

Result<std::string> StringOf(const json::Value& v, const std::string& name,
                             std::string_view field) {
  if (v.is_null()) return std::string();
  if (v.is_string()) return v.Str();
  return Status(Errc::kFormat, name + ": \"" + std::string(field) +
                                   "\" is not a string (a " +
                                   std::string(json::TypeName(v.type)) + ")");
}

/// The members of an object as Go fills a map from it: the last of
/// duplicate keys wins.
std::map<std::string, const json::Value*> MapOf(const json::Value& v) {
  std::map<std::string, const json::Value*> out;
  for (const json::Member& m : v.object()) out[m.key.Str()] = &m.value;
  return out;
}

std::string FormatVersionTime(const HistoryEntry& e) {
  return FormatUnixSeconds(e.unix_nano / 1000000000);
}

}  // namespace

Result<std::string> FindRoot(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    return Status(Errc::kNotFound, path + ": No such file or directory");
  }
  // Lexically first, so that paths in messages are spelled as the user
  // wrote them: the part before the last ".pulumi" component.
  fs::path given(path);
  fs::path prefix;
  std::optional<fs::path> root;
  for (const fs::path& part : given) {
    if (part == kBookkeeping) root = prefix.empty() ? fs::path(".") : prefix;
    prefix /= part;
  }
  if (root && IsDirectory((*root / kBookkeeping).string())) {
    return root->string();
  }
  if (IsDirectory(Join(path, kBookkeeping))) return path;
  fs::path p = fs::absolute(path, ec);
  if (ec) return Status(Errc::kIo, path + ": " + ec.message());
  for (fs::path at = p.parent_path();; at = at.parent_path()) {
    if (IsDirectory((at / kBookkeeping).string())) {
      return at.lexically_normal().string();
    }
    if (at == at.parent_path()) break;
  }
  return Status(Errc::kNotFound,
                path +
                    ": not inside a Pulumi DIY backend (no .pulumi directory "
                    "here or above)");
}

Result<std::vector<Stack>> ListStacks(const std::string& root) {
  std::string dir = Join(Join(root, kBookkeeping), "stacks");
  std::map<std::pair<std::string, std::string>, Stack> stacks;
  for (const fs::directory_entry& e : SortedEntries(dir)) {
    std::string file = e.path().filename().string();
    std::string path = Join(dir, file);
    if (IsDirectory(path)) {
      for (const fs::directory_entry& f : SortedEntries(path)) {
        std::string inner = f.path().filename().string();
        std::string inner_path = Join(path, inner);
        std::optional<std::string> name = StackNameOf(inner);
        if (name && IsRegular(inner_path)) {
          Consider(stacks, root, file, *name, inner_path);
        }
      }
      continue;
    }
    std::optional<std::string> name = StackNameOf(file);
    if (name && IsRegular(path)) Consider(stacks, root, "", *name, path);
  }
  std::vector<Stack> out;
  out.reserve(stacks.size());
  for (auto& [key, stack] : stacks) out.push_back(std::move(stack));
  return out;
}

Result<Stack> StackOfCheckpoint(const std::string& path) {
  Result<std::string> root = FindRoot(path);
  if (!root.ok()) return root.status();
  std::error_code ec;
  fs::path stacks = fs::absolute(fs::path(*root) / kBookkeeping / "stacks", ec)
                        .lexically_normal();
  fs::path file = fs::absolute(path, ec).lexically_normal();
  fs::path rel = file.lexically_relative(stacks);
  std::vector<std::string> parts;
  for (const fs::path& part : rel) parts.push_back(part.string());
  std::optional<std::string> name;
  std::string project;
  if (parts.size() == 1) {
    name = StackNameOf(parts[0]);
  } else if (parts.size() == 2 && parts[0] != "..") {
    project = parts[0];
    name = StackNameOf(parts[1]);
  }
  if (!name || (!parts.empty() && parts[0] == "..")) {
    return Status(Errc::kInvalidArgument,
                  path +
                      ": not a stack checkpoint (expected "
                      ".pulumi/stacks/[PROJECT/]STACK.json[.gz|.zst])");
  }
  Stack s;
  s.root = *root;
  s.project = project;
  s.name = *name;
  s.checkpoint = path;
  return s;
}

Result<UpdateInfo> ParseUpdateInfo(std::string text, const std::string& name) {
  json::DocumentError error;
  Result<json::Document> doc =
      json::Document::Parse(std::move(text), json::kDefaultMaxDepth, &error);
  if (!doc.ok()) {
    return Status(doc.status().code(),
                  name + ":" + std::to_string(error.at.line) + ":" +
                      std::to_string(error.at.column) + ": " + error.message);
  }
  const json::Value& root = doc->root();
  if (!root.is_object()) {
    return Status(Errc::kFormat, name + ": not an update record (a " +
                                     std::string(json::TypeName(root.type)) +
                                     ", expected an object)");
  }
  UpdateInfo info;
  // encoding/json: each key goes to the field it names, exactly or
  // case-insensitively; a later key for the same field overwrites.
  for (const json::Member& m : root.object()) {
    std::string key = m.key.Str();
    const json::Value& v = m.value;
    auto is = [&](std::string_view field) { return EqualFold(key, field); };
    if (is("kind")) {
      auto s = StringOf(v, name, "kind");
      if (!s.ok()) return s.status();
      info.kind = std::move(s).value();
    } else if (is("result")) {
      auto s = StringOf(v, name, "result");
      if (!s.ok()) return s.status();
      info.result = std::move(s).value();
    } else if (is("message")) {
      auto s = StringOf(v, name, "message");
      if (!s.ok()) return s.status();
      info.message = std::move(s).value();
    } else if (is("startTime") || is("endTime") || is("version")) {
      auto n = Int64Of(v, name, key);
      if (!n.ok()) return n.status();
      (is("version")     ? info.version
       : is("startTime") ? info.start_time
                         : info.end_time) = *n;
    } else if (is("resourceChanges")) {
      if (v.is_null()) continue;
      if (!v.is_object()) {
        return Status(Errc::kFormat,
                      name + ": \"resourceChanges\" is not an object");
      }
      info.resource_changes.clear();
      for (const auto& [op, count] : MapOf(v)) {
        auto n = Int64Of(*count, name, "resourceChanges/" + op);
        if (!n.ok()) return n.status();
        info.resource_changes[op] = *n;
      }
    } else if (is("environment")) {
      if (v.is_null()) continue;
      if (!v.is_object()) {
        return Status(Errc::kFormat,
                      name + ": \"environment\" is not an object");
      }
      info.environment.clear();
      for (const auto& [k, value] : MapOf(v)) {
        auto s = StringOf(*value, name, "environment/" + k);
        if (!s.ok()) return s.status();
        info.environment[k] = std::move(s).value();
      }
    }
  }
  return info;
}

Result<std::vector<HistoryEntry>> ReadHistory(const Stack& stack) {
  std::string dir = stack.HistoryDir();
  // Pair each update's two files by their common prefix.
  std::map<std::pair<std::int64_t, std::string>, HistoryEntry> by_time;
  for (const fs::directory_entry& e : SortedEntries(dir)) {
    std::string file = e.path().filename().string();
    std::string path = Join(dir, file);
    if (!IsRegular(path)) continue;
    bool history = true;
    std::string_view suffix = MatchSuffix(file, ".history.json");
    if (suffix.empty()) {
      suffix = MatchSuffix(file, ".checkpoint.json");
      history = false;
    }
    if (suffix.empty()) continue;
    auto stamped = SplitStamped(file, suffix, '-');
    if (!stamped) continue;
    HistoryEntry& entry = by_time[{stamped->second, stamped->first}];
    entry.unix_nano = stamped->second;
    entry.stack_name = stamped->first;
    if (history) {
      entry.history_path = path;
      entry.history_bytes = FileBytes(path);
    } else {
      entry.checkpoint_path = path;
      entry.checkpoint_bytes = FileBytes(path);
    }
  }
  std::vector<HistoryEntry> out;
  for (auto& [key, entry] : by_time) {
    // A checkpoint copy without its update record is not an update
    // Pulumi lists (getHistory reads only the .history files).
    if (entry.history_path.empty()) continue;
    Result<std::string> text = ReadSmallFile(entry.history_path);
    if (!text.ok()) return text.status();
    Result<UpdateInfo> info =
        ParseUpdateInfo(std::move(text).value(), entry.history_path);
    if (!info.ok()) return info.status();
    entry.info = std::move(info).value();
    entry.number = static_cast<int>(out.size()) + 1;
    out.push_back(std::move(entry));
  }
  return out;
}

std::vector<BackupFile> ListBackups(const Stack& stack) {
  std::vector<BackupFile> out;
  std::string dir = stack.BackupDir();
  for (const fs::directory_entry& e : SortedEntries(dir)) {
    std::string file = e.path().filename().string();
    std::string path = Join(dir, file);
    if (!IsRegular(path)) continue;
    std::string_view suffix = MatchSuffix(file, ".json");
    if (suffix.empty()) continue;
    auto stamped = SplitStamped(file, suffix, '.');
    if (!stamped) continue;
    out.push_back(BackupFile{path, stamped->second, FileBytes(path)});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.unix_nano < b.unix_nano;
  });
  return out;
}

std::vector<std::string> ListLocks(const Stack& stack) {
  std::vector<std::string> out;
  std::string dir = stack.LockDir();
  for (const fs::directory_entry& e : SortedEntries(dir)) {
    std::string path = Join(dir, e.path().filename().string());
    if (IsRegular(path)) out.push_back(path);
  }
  return out;
}

std::uint64_t FileBytes(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return 0;
  return static_cast<std::uint64_t>(st.st_size);
}

std::string FormatUnixSeconds(std::int64_t seconds) {
  auto t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  if (::gmtime_r(&t, &tm) == nullptr) return std::to_string(seconds);
  char buf[32];
  std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return std::string(buf, n);
}

std::optional<VersionRef> SplitVersionRef(const std::string& text) {
  std::size_t at = text.rfind('@');
  if (at == std::string::npos || at == 0 || at + 1 == text.size()) {
    return std::nullopt;
  }
  return VersionRef{text.substr(0, at), text.substr(at + 1)};
}

Result<std::string> ResolveVersion(const Stack& stack,
                                   const std::vector<HistoryEntry>& history,
                                   std::string_view version,
                                   const std::string& display) {
  auto missing = [&](const std::string& why) {
    std::string known =
        history.empty() ? "the stack has no update history"
                        : "the stack has " + std::to_string(history.size()) +
                              (history.size() == 1 ? " update" : " updates") +
                              " (1 at " + FormatVersionTime(history.front()) +
                              ", " + std::to_string(history.back().number) +
                              " at " + FormatVersionTime(history.back()) + ")";
    return Status(Errc::kNotFound, display + ": " + why + "; " + known);
  };
  auto copy_of = [&](const HistoryEntry& e) -> Result<std::string> {
    if (e.checkpoint_path.empty()) {
      return missing("update " + std::to_string(e.number) + " (" +
                     (e.info.result.empty() ? "no result" : e.info.result) +
                     ") kept no checkpoint copy");
    }
    return e.checkpoint_path;
  };
  if (version == "bak") {
    std::string bak = stack.checkpoint + ".bak";
    if (!IsRegular(bak)) {
      return Status(Errc::kNotFound, display + ": there is no " + bak +
                                         " (Pulumi writes it "
                                         "before each save)");
    }
    return bak;
  }
  if (version.size() > 1 && version[0] == '~' && AllDigits(version.substr(1))) {
    std::int64_t k = 0;
    auto [ptr, ec] =
        std::from_chars(version.data() + 1, version.data() + version.size(), k);
    if (ec != std::errc()) return missing("no such version");
    if (k == 0) return stack.checkpoint;
    auto count = static_cast<std::int64_t>(history.size());
    if (k >= count) {
      return missing("no version " + std::to_string(k) +
                     " updates before the current one");
    }
    return copy_of(history[static_cast<std::size_t>(count - k - 1)]);
  }
  if (!version.empty() && AllDigits(version)) {
    std::int64_t n = 0;
    auto [ptr, ec] =
        std::from_chars(version.data(), version.data() + version.size(), n);
    if (ec != std::errc() || n < 1 ||
        n > static_cast<std::int64_t>(history.size())) {
      return missing("no update " + std::string(version));
    }
    return copy_of(history[static_cast<std::size_t>(n - 1)]);
  }
  if (std::optional<GoTime> t = ParseRfc3339(version)) {
    std::int64_t at_ns = t->UnixSeconds() * 1000000000 + t->nanos;
    const HistoryEntry* in_force = nullptr;
    for (const HistoryEntry& e : history) {
      if (e.unix_nano <= at_ns) in_force = &e;
    }
    if (in_force == nullptr) {
      return missing("no update had finished at " + std::string(version));
    }
    return copy_of(*in_force);
  }
  return Status(Errc::kInvalidArgument,
                display + ": '" + std::string(version) +
                    "' is not a version (use ~K, N, an RFC 3339 time such "
                    "as 2026-11-20T10:00:00Z, or bak)");
}

Result<std::string> ResolveInputPath(const std::string& text) {
  std::optional<VersionRef> ref = SplitVersionRef(text);
  if (!ref || !IsRegular(ref->path)) return text;
  Result<Stack> stack = StackOfCheckpoint(ref->path);
  if (!stack.ok()) {
    if (ref->version == "bak" && IsRegular(ref->path + ".bak")) {
      return ref->path + ".bak";
    }
    return Status(stack.status().code(),
                  text + ": " + stack.status().message());
  }
  Result<std::vector<HistoryEntry>> history = ReadHistory(*stack);
  if (!history.ok()) return history.status();
  return ResolveVersion(*stack, *history, ref->version, text);
}

}  // namespace pstate::backend

// The members of the API's BackendStack and UpdateInfo (pstate/pstate.h,
// where backend::Stack and backend::UpdateInfo are defined): the layout
// of a backend, as above.
namespace pstate {

using backend::Join;
using backend::kBookkeeping;

std::string BackendStack::QualifiedName() const {
  return project.empty() ? name : "organization/" + project + "/" + name;
}

std::string BackendStack::HistoryDir() const {
  std::string dir = Join(Join(root, kBookkeeping), "history");
  if (!project.empty()) dir = Join(dir, project);
  return Join(dir, name);
}

std::string BackendStack::BackupDir() const {
  std::string dir = Join(Join(root, kBookkeeping), "backups");
  if (!project.empty()) dir = Join(dir, project);
  return Join(dir, name);
}

std::string BackendStack::LockDir() const {
  return Join(Join(Join(root, kBookkeeping), "locks"), QualifiedName());
}

std::int64_t UpdateInfo::Changes(std::string_view op) const {
  auto it = resource_changes.find(std::string(op));
  return it == resource_changes.end() ? 0 : it->second;
}

}  // namespace pstate
