#include "history/history.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include <algorithm>
#include <charconv>
#include <memory>
#include <system_error>
#include <utility>

#include "convert/convert.h"
#include "diag/report.h"
#include "inspect/inspect.h"
#include "io/output.h"
#include "io/rewrite_guard.h"
#include "verify/run.h"

namespace pstate::history {
namespace {

/// Secrets stay closed: a passphrase is never asked for.
Result<std::string> NoPassphrase() {
  return Status(Errc::kInvalidArgument, "no passphrase");
}

/// The verification of one state: its error count, or the reason it
/// cannot be read (a fatal finding counts as an error).
diag::Summary VerifySummary(const std::string& path) {
  diag::Report report(path);
  verify::VerifyInput(path, verify::Config{}, report);
  return report.summary();
}

Result<std::uint64_t> CountResources(const std::string& path) {
  std::uint64_t n = 0;
  inspect::ListConfig config;
  config.path = path;
  Status s = inspect::List(
      config,
      [&](const inspect::ResourceRow&) {
        ++n;
        return true;
      },
      [](const inspect::PendingRow&) { return true; });
  if (!s.ok()) return s;
  return n;
}

bool Contains(const std::string& path, const std::string& urn) {
  bool found = false;
  inspect::ListConfig config;
  config.path = path;
  Status s = inspect::List(
      config,
      [&](const inspect::ResourceRow& row) {
        found = row.urn == urn;
        return !found;
      },
      [](const inspect::PendingRow&) { return true; });
  return s.ok() && found;
}

Status Refuse(const std::string& what, const backend::Stack& stack,
              const std::vector<std::string>& locks) {
  return Status(Errc::kRefused,
                what + ": the stack " + stack.QualifiedName() + " is locked (" +
                    locks.front() +
                    "): an update may be running; wait for it, or remove the "
                    "lock with `pulumi cancel` if none is");
}

/// Copies `from` (bytes as they are) over the stack's checkpoint through
/// an atomic output that keeps the old file as `.bak`.
Status CopyInPlace(const std::string& from, const std::string& to,
                   const io::RewriteGuard& guard) {
  int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) {
    return Status(Errc::kIo,
                  from + ": " + std::generic_category().message(errno));
  }
  io::OutputOptions options;
  options.keep_backup = true;
  options.guard = &guard;
  auto out = io::OpenOutput(to, options);
  if (!out.ok()) {
    ::close(in);
    return out.status();
  }
  std::uint64_t size = backend::FileBytes(from);
  Status s = (*out)->CopyRange(in, 0, size);
  ::close(in);
  if (!s.ok()) {
    (*out)->Abandon();
    return s;
  }
  return (*out)->Commit();
}

bool PathCovers(std::string_view change, std::string_view asked) {
  auto under = [](std::string_view longer, std::string_view prefix) {
    return longer.size() > prefix.size() &&
           longer.substr(0, prefix.size()) == prefix &&
           (longer[prefix.size()] == '.' || longer[prefix.size()] == '[');
  };
  return change == asked || under(change, asked) || under(asked, change);
}

}  // namespace

Result<std::vector<StackSummary>> SummarizeBackend(const std::string& dir) {
  Result<std::string> root = backend::FindRoot(dir);
  if (!root.ok()) return root.status();
  Result<std::vector<backend::Stack>> stacks = backend::ListStacks(*root);
  if (!stacks.ok()) return stacks.status();
  std::vector<StackSummary> out;
  for (backend::Stack& stack : *stacks) {
    StackSummary s;
    Result<std::vector<backend::HistoryEntry>> history =
        backend::ReadHistory(stack);
    if (history.ok()) {
      s.updates = history->size();
      if (!history->empty()) s.last = history->back();
      for (const backend::HistoryEntry& e : *history) {
        s.history_bytes += e.history_bytes + e.checkpoint_bytes;
      }
    } else {
      s.error = history.status().message();
    }
    for (const backend::BackupFile& b : backend::ListBackups(stack)) {
      s.backup_bytes += b.bytes;
    }
    s.locked = !backend::ListLocks(stack).empty();
    Result<std::uint64_t> count = CountResources(stack.checkpoint);
    if (count.ok()) {
      s.resources = *count;
    } else if (s.error.empty()) {
      s.error = count.status().message();
    }
    s.stack = std::move(stack);
    out.push_back(std::move(s));
  }
  return out;
}

Result<Target> OpenTarget(const std::string& path) {
  Result<backend::Stack> stack = backend::StackOfCheckpoint(path);
  if (!stack.ok()) return stack.status();
  Result<std::vector<backend::HistoryEntry>> history =
      backend::ReadHistory(*stack);
  if (!history.ok()) return history.status();
  return Target{std::move(stack).value(), std::move(history).value()};
}

std::string_view CopyStateName(CopyState state) {
  switch (state) {
    case CopyState::kMissing: return "missing";
    case CopyState::kPresent: return "present";
    case CopyState::kVerified: return "verified";
    case CopyState::kInvalid: return "invalid";
  }
  return "missing";
}

std::vector<UpdateRow> ListUpdates(const Target& target, bool verify) {
  std::vector<UpdateRow> rows;
  for (auto it = target.history.rbegin(); it != target.history.rend(); ++it) {
    UpdateRow row;
    row.entry = *it;
    if (!it->checkpoint_path.empty()) {
      row.copy = CopyState::kPresent;
      if (verify) {
        diag::Summary s = VerifySummary(it->checkpoint_path);
        row.errors = s.errors;
        row.copy = s.errors == 0 ? CopyState::kVerified : CopyState::kInvalid;
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

Result<RestoreResult> Restore(const RestoreConfig& config) {
  std::optional<backend::VersionRef> ref = backend::SplitVersionRef(config.ref);
  if (!ref) {
    return Status(Errc::kInvalidArgument,
                  config.ref +
                      ": name a version (CHECKPOINT@~1, @N, @TIME or "
                      "@bak)");
  }
  Result<Target> target = OpenTarget(ref->path);
  if (!target.ok()) return target.status();
  const backend::Stack& stack = target->stack;
  Result<std::string> file =
      backend::ResolveVersion(stack, target->history, ref->version, config.ref);
  if (!file.ok()) return file.status();
  RestoreResult result;
  result.version_file = *file;

  std::vector<std::string> locks = backend::ListLocks(stack);
  if (config.in_place && !locks.empty()) {
    return Refuse("restore --in-place", stack, locks);
  }
  diag::Summary verified = VerifySummary(*file);
  if (verified.errors > 0) {
    return Status(Errc::kRefused,
                  *file + ": this version has " +
                      std::to_string(verified.errors) +
                      " error(s); run `pstate verify` on it; nothing written");
  }
  diff::DiffConfig dc;
  dc.before = stack.checkpoint;
  dc.after = *file;
  dc.passphrase = NoPassphrase;
  Result<diff::DiffResult> changes = diff::Run(dc);
  if (!changes.ok()) return changes.status();
  result.changes = changes->summary;

  if (config.in_place) {
    Result<io::RewriteGuard> guard =
        io::RewriteGuard::Acquire({stack.checkpoint});
    if (!guard.ok()) return guard.status();
    Status s = CopyInPlace(*file, stack.checkpoint, *guard);
    if (!s.ok()) return s;
    result.written = stack.checkpoint;
    result.backup = stack.checkpoint + ".bak";
    return result;
  }
  convert::Config cc;
  cc.input = *file;
  cc.output = config.output;
  cc.to = convert::Target::kExport;
  Result<convert::Outcome> converted = convert::Run(cc);
  if (!converted.ok()) return converted.status();
  result.written = config.output;
  return result;
}

std::optional<std::int64_t> ParseDuration(std::string_view text) {
  if (text.size() < 2) return std::nullopt;
  std::int64_t unit = 0;
  switch (text.back()) {
    case 's': unit = 1; break;
    case 'm': unit = 60; break;
    case 'h': unit = 3600; break;
    case 'd': unit = 86400; break;
    case 'w': unit = 7 * 86400; break;
    default: return std::nullopt;
  }
  std::string_view digits = text.substr(0, text.size() - 1);
  std::int64_t n = 0;
  auto [ptr, ec] =
      std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || ptr != digits.data() + digits.size() || n < 0 ||
      n > INT64_MAX / unit / 1000000000) {
    return std::nullopt;
  }
  return n * unit;
}

Result<PruneResult> Prune(const PruneConfig& config) {
  std::vector<backend::Stack> stacks;
  bool named = false;
  if (backend::StackOfCheckpoint(config.target).ok() &&
      backend::SplitVersionRef(config.target) == std::nullopt) {
    Result<backend::Stack> stack = backend::StackOfCheckpoint(config.target);
    stacks.push_back(std::move(stack).value());
    named = true;
  } else {
    Result<std::string> root = backend::FindRoot(config.target);
    if (!root.ok()) return root.status();
    Result<std::vector<backend::Stack>> all = backend::ListStacks(*root);
    if (!all.ok()) return all.status();
    stacks = std::move(all).value();
  }
  const std::int64_t cutoff =
      config.older_than_s
          ? config.now_unix_nano - *config.older_than_s * 1000000000
          : 0;
  auto beyond = [&](std::size_t newest_index, std::int64_t nano) {
    bool by_count = !config.keep || newest_index >= *config.keep;
    bool by_age = !config.older_than_s || nano < cutoff;
    return by_count && by_age;
  };
  PruneResult result;
  for (const backend::Stack& stack : stacks) {
    std::vector<std::string> locks = backend::ListLocks(stack);
    if (!locks.empty()) {
      if (named) return Refuse("prune", stack, locks);
      result.locked.push_back(stack.QualifiedName());
      continue;
    }
    Result<std::vector<backend::HistoryEntry>> history =
        backend::ReadHistory(stack);
    if (!history.ok()) return history.status();
    const std::string current = stack.checkpoint;
    const std::string bak = stack.checkpoint + ".bak";
    auto add = [&](std::string kind, const std::string& path,
                   std::uint64_t bytes, std::int64_t nano) {
      if (path.empty() || path == current || path == bak) return;
      result.files.push_back(
          PruneFile{stack.QualifiedName(), std::move(kind), path, bytes, nano});
      result.bytes += bytes;
    };
    std::size_t i = 0;
    for (auto it = history->rbegin(); it != history->rend(); ++it, ++i) {
      if (!beyond(i, it->unix_nano)) continue;
      add("history", it->history_path, it->history_bytes, it->unix_nano);
      add("checkpoint-copy", it->checkpoint_path, it->checkpoint_bytes,
          it->unix_nano);
    }
    std::vector<backend::BackupFile> backups = backend::ListBackups(stack);
    i = 0;
    for (auto it = backups.rbegin(); it != backups.rend(); ++it, ++i) {
      if (beyond(i, it->unix_nano)) {
        add("backup", it->path, it->bytes, it->unix_nano);
      }
    }
  }
  if (config.yes) {
    for (const PruneFile& f : result.files) {
      if (::unlink(f.path.c_str()) != 0 && errno != ENOENT) {
        return Status(Errc::kIo, f.path + ": cannot delete: " +
                                     std::generic_category().message(errno));
      }
    }
    result.deleted = true;
  }
  return result;
}

Result<BlameResult> Blame(const BlameConfig& config) {
  Result<Target> target = OpenTarget(config.ref);
  if (!target.ok()) return target.status();
  std::string_view asked = config.path;
  std::optional<diff::Section> section;
  for (auto [prefix, s] :
       {std::pair{std::string_view("inputs."), diff::Section::kInputs},
        std::pair{std::string_view("outputs."), diff::Section::kOutputs}}) {
    if (asked.substr(0, prefix.size()) == prefix) {
      asked.remove_prefix(prefix.size());
      section = s;
    }
  }
  BlameResult result;
  std::string urn = config.urn;
  const backend::HistoryEntry* previous = nullptr;
  std::vector<int> skipped;
  for (const backend::HistoryEntry& e : target->history) {
    if (e.checkpoint_path.empty()) {
      if (previous != nullptr) skipped.push_back(e.number);
      continue;
    }
    ++result.versions;
    if (previous == nullptr) {
      previous = &e;
      if (Contains(e.checkpoint_path, urn)) {
        BlameEvent ev;
        ev.kind = e.number == 1 ? BlameKind::kCreated : BlameKind::kPresent;
        ev.entry = e;
        ev.urn = urn;
        result.events.push_back(std::move(ev));
      }
      continue;
    }
    diff::DiffConfig dc;
    dc.before = previous->checkpoint_path;
    dc.after = e.checkpoint_path;
    dc.passphrase = NoPassphrase;
    Result<diff::DiffResult> d = diff::Run(dc);
    if (!d.ok()) return d.status();
    for (const diff::ResourceEntry& r : d->resources) {
      bool ours = r.kind == diff::ResourceChangeKind::kRenamed ? r.from == urn
                                                               : r.urn == urn;
      if (!ours || r.kind == diff::ResourceChangeKind::kOrderOnly ||
          r.kind == diff::ResourceChangeKind::kOrderBroken) {
        continue;
      }
      BlameEvent ev;
      ev.entry = e;
      ev.uncertain = skipped;
      ev.urn = r.urn;
      switch (r.kind) {
        case diff::ResourceChangeKind::kAdded:
          ev.kind = BlameKind::kCreated;
          break;
        case diff::ResourceChangeKind::kRemoved:
          ev.kind = BlameKind::kDeleted;
          break;
        case diff::ResourceChangeKind::kRenamed:
          ev.kind = BlameKind::kRenamed;
          ev.from = r.from;
          urn = r.urn;
          break;
        default: ev.kind = BlameKind::kChanged; break;
      }
      for (const diff::PropertyChange& p : r.properties) {
        if (!config.path.empty() && ((section && p.section != *section) ||
                                     !PathCovers(p.path, asked))) {
          continue;
        }
        ev.properties.push_back(p);
      }
      if (config.path.empty()) ev.fields = r.fields;
      bool relevant = config.path.empty() || !ev.properties.empty() ||
                      ev.kind != BlameKind::kChanged;
      if (relevant) result.events.push_back(std::move(ev));
    }
    skipped.clear();
    previous = &e;
  }
  return result;
}

}  // namespace pstate::history

namespace pstate {

std::string_view BlameKindName(BlameKind kind) {
  switch (kind) {
    case BlameKind::kPresent: return "present";
    case BlameKind::kCreated: return "created";
    case BlameKind::kChanged: return "changed";
    case BlameKind::kRenamed: return "renamed";
    case BlameKind::kDeleted: return "deleted";
  }
  return "changed";
}

}  // namespace pstate
