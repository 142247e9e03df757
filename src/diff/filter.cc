#include "diff/filter.h"

#include <algorithm>

#include "base/glob.h"
#include "base/rfc3339.h"

namespace pstate::diff {
namespace {

bool AnyMatch(const std::vector<std::string>& globs, std::string_view text) {
  return std::any_of(globs.begin(), globs.end(),
                     [&](const std::string& g) { return GlobMatch(g, text); });
}

/// A string holding an RFC 3339 time, as Go's time.Time.UnmarshalJSON
/// reads it. Times in states are plain strings without escapes, so the
/// stored text is the time.
bool IsTime(const std::optional<Value>& v) {
  return v && v->kind == ValueKind::kString &&
         v->text.find('\\') == std::string::npos &&
         ParseRfc3339(v->text).has_value();
}

bool TimeUpdate(ChangeKind kind, const std::optional<Value>& before,
                const std::optional<Value>& after) {
  return kind == ChangeKind::kUpdate && IsTime(before) && IsTime(after);
}

void Count(DiffSummary* s, ResourceChangeKind kind, int delta) {
  std::uint64_t* n = nullptr;
  switch (kind) {
    case ResourceChangeKind::kAdded: n = &s->added; break;
    case ResourceChangeKind::kRemoved: n = &s->removed; break;
    case ResourceChangeKind::kRenamed: n = &s->renamed; break;
    case ResourceChangeKind::kChanged: n = &s->changed; break;
    case ResourceChangeKind::kOrderOnly: n = &s->order_only; break;
    case ResourceChangeKind::kOrderBroken: n = &s->order_broken; break;
  }
  if (delta < 0 && *n > 0) --*n;
  if (delta > 0) ++*n;
}

}  // namespace

Status AddIgnoreKind(std::string_view kind, DiffFilter* filter) {
  if (kind == "timestamps") {
    filter->ignore_timestamps = true;
    return Status::Ok();
  }
  return Status(Errc::kInvalidArgument, "--ignore: unknown kind \"" +
                                            std::string(kind) +
                                            "\"; expected timestamps");
}

void ApplyFilter(const DiffFilter& filter, DiffResult* result) {
  if (filter.empty()) return;
  std::vector<ResourceEntry> kept;
  kept.reserve(result->resources.size());
  for (ResourceEntry& e : result->resources) {
    bool match = (filter.types.empty() || AnyMatch(filter.types, e.type)) &&
                 (filter.urns.empty() || AnyMatch(filter.urns, e.urn) ||
                  (!e.from.empty() && AnyMatch(filter.urns, e.from)));
    if (!match) {
      Count(&result->summary, e.kind, -1);
      continue;
    }
    if (filter.ignore_timestamps && e.kind == ResourceChangeKind::kChanged) {
      std::erase_if(e.properties, [](const PropertyChange& c) {
        return TimeUpdate(c.kind, c.before, c.after);
      });
      std::erase_if(e.fields, [](const FieldChange& c) {
        return (c.name == "created" || c.name == "modified") &&
               TimeUpdate(c.kind, c.before, c.after);
      });
      if (e.properties.empty() && e.fields.empty() && e.order.empty()) {
        Count(&result->summary, e.kind, -1);
        ++result->summary.unchanged;
        continue;
      }
    }
    kept.push_back(std::move(e));
  }
  result->resources = std::move(kept);
  if (filter.ignore_timestamps) {
    std::erase_if(result->envelope, [](const EnvelopeEntry& e) {
      return TimeUpdate(e.kind, e.before, e.after);
    });
    result->summary.envelope = result->envelope.size();
  }
}

}  // namespace pstate::diff
