#include "diff/differ.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <thread>
#include <tuple>
#include <utility>

#include "crypto/provider_crypter.h"
#include "diag/failure.h"
#include "diag/report.h"
#include "diff/index.h"
#include "diff/order.h"
#include "engine/executor.h"
#include "io/input.h"
#include "io/spool.h"
#include "json/document.h"
#include "json/equal.h"
#include "json/string_codec.h"
#include "state/property.h"
#include "state/provider.h"
#include "state/reader.h"
#include "state/resource.h"
#include "state/schema.h"
#include "state/urn.h"

namespace pstate::diff {
namespace {

class CrypterOpener : public SecretOpener {
 public:
  explicit CrypterOpener(crypto::SecretsCrypter crypter)
      : crypter_(std::move(crypter)) {}
  Result<std::string> Open(std::string_view ciphertext) const override {
    return crypter_.Decrypt(ciphertext);
  }

 private:
  crypto::SecretsCrypter crypter_;
};

/// What one side holds once read: its envelope values (cloned: they are
/// small) and, for A, the index.
struct Side {
  std::string name;
  std::optional<io::Replayable> input;
  std::function<void(std::uint64_t, std::uint64_t)>
      on_progress;  ///< B's only: A is read on another thread
  std::string_view bytes;
  json::Arena arena;
  std::map<std::string, json::Value> envelope;  ///< by Pulumi field name
  std::vector<json::Value> pending;
  std::vector<json::Value> snippets;
  std::map<std::string, json::Value> extensions;
  std::uint64_t resources = 0;
  bool has_deployment = true;
  std::unique_ptr<SecretOpener> opener;
  /// Whether the resources come in an order Pulumi accepts (order.h).
  OrderChecker order;
  /// The stack and project of the resources' URNs: the root stack's, else
  /// the first resource's (as `edit rename-stack` finds them), and the
  /// root stack's URN.
  std::optional<state::StackProject> stack;
  std::string root_urn;
  /// bytes is a file mapping whose pages ReadResource gives back.
  bool drop_after_read = false;
  /// Pages re-read and not given back yet: [drop_from, drop_to) addresses
  /// (page-aligned, inside the mapping), empty when equal.
  std::uintptr_t drop_from = 0, drop_to = 0;

  /// Forgets what a read of the input filled in (every field above that
  /// IndexPass sets), for a read that starts over (a parallel read that
  /// fell back).
  void Restart() {
    resources = 0;
    order = OrderChecker();
    stack.reset();
    root_urn.clear();
    envelope.clear();
    pending.clear();
    snippets.clear();
    extensions.clear();
    has_deployment = true;
  }
};

void Capture(state::Leaf& leaf, Side& side) {
  switch (leaf.role) {
    case state::Role::kVersion:
      side.envelope["version"] = json::Clone(leaf.value, side.arena);
      break;
    case state::Role::kFeatures:
      side.envelope["features"] = json::Clone(leaf.value, side.arena);
      break;
    case state::Role::kManifest:
      side.envelope["manifest"] = json::Clone(leaf.value, side.arena);
      break;
    case state::Role::kSecretsProviders:
      side.envelope["secrets_providers"] = json::Clone(leaf.value, side.arena);
      break;
    case state::Role::kMetadata:
      side.envelope["metadata"] = json::Clone(leaf.value, side.arena);
      break;
    case state::Role::kPendingOperation:
      side.pending.push_back(json::Clone(leaf.value, side.arena));
      break;
    case state::Role::kSnippet:
      side.snippets.push_back(json::Clone(leaf.value, side.arena));
      break;
    case state::Role::kExtension:
      side.extensions[std::string(leaf.key)] =
          json::Clone(leaf.value, side.arena);
      break;
    default: break;
  }
}

struct Identity {
  ResourceKey key;
  std::uint64_t type_id = 0;
};

/// A string field's decoded text: a view of the input when it has no
/// escapes (the common case: no copy), else decoded into `buffer`.
std::string_view TextOf(const json::Value* v, std::string* buffer) {
  if (v == nullptr || !v->is_string()) return {};
  if (!v->has_escapes) return v->raw();
  *buffer = v->Str();
  return *buffer;
}

Identity IdentityOf(const state::ResourceView& view) {
  bool deleted = state::ResourceView::Flag(view.del);
  std::string urn_buffer, id_buffer, type_buffer;
  std::string_view id = TextOf(view.id, &id_buffer);
  return {KeyOf(TextOf(view.urn, &urn_buffer), deleted, id),
          deleted ? 0 : TypeIdHash(TextOf(view.type, &type_buffer), id)};
}

/// One resource as the index keeps it, made on any thread.
struct Indexed {
  IndexEntry entry;
  OrderRefs order;
  /// Of the root stack's type.
  bool root = false;
  /// The URN when it parses as one: a candidate for the side's stack.
  std::string urn;
};

/// The read of one side as an engine pass: A's entries go to `index`, to
/// be looked up; B's only to `in_order`. The per-resource work (identity,
/// digest of the bytes, the order check's fingerprints) is pure; the fold
/// adds them in state order. Read sequentially, OnLeaf does both at once
/// without the partial.
class IndexPass final : public engine::Pass<Indexed> {
 public:
  IndexPass(Side& side, ResourceIndex* index, std::vector<IndexEntry>* in_order)
      : side_(side), index_(index), in_order_(in_order) {}

  class Indexer final : public engine::Worker<Indexed> {
   public:
    void PerResource(state::Leaf& leaf, state::Context&,
                     Indexed& out) override {
      state::ResourceView view = state::ResourceView::Of(leaf.value);
      out.entry = EntryOf(leaf, view);
      OrderChecker::RefsOf(view, &out.order);
      std::string type_buffer, urn_buffer;
      out.root = TextOf(view.type, &type_buffer) == state::kRootStackType;
      std::string_view urn = TextOf(view.urn, &urn_buffer);
      if (state::ParseUrn(urn)) out.urn = std::string(urn);
    }
  };

  std::unique_ptr<engine::Worker<Indexed>> NewWorker() override {
    return std::make_unique<Indexer>();
  }

  state::Flow Fold(Indexed&& r, state::Context&) override {
    ++side_.resources;
    side_.order.Add(r.order);
    NoteStack(r.root, r.urn);
    Keep(r.entry);
    return state::Flow::kContinue;
  }

  Result<state::Flow> OnLeaf(state::Leaf& leaf, state::Context&) override {
    if (leaf.role != state::Role::kResource) {
      Capture(leaf, side_);
      return state::Flow::kContinue;
    }
    ++side_.resources;
    state::ResourceView view = state::ResourceView::Of(leaf.value);
    side_.order.Add(view);
    if (side_.root_urn.empty()) {
      std::string type_buffer, urn_buffer;
      NoteStack(TextOf(view.type, &type_buffer) == state::kRootStackType,
                TextOf(view.urn, &urn_buffer));
    }
    Keep(EntryOf(leaf, view));
    return state::Flow::kContinue;
  }
  Status OnFinish(const state::Envelope& e, state::Context&) override {
    side_.has_deployment = e.has_deployment;
    return Status::Ok();
  }

 private:
  static IndexEntry EntryOf(const state::Leaf& leaf,
                            const state::ResourceView& view) {
    Identity identity = IdentityOf(view);
    IndexEntry entry;
    entry.key = identity.key;
    entry.type_id = identity.type_id;
    entry.digest = BytesDigest(leaf.bytes);
    entry.range = {leaf.value.offset, leaf.end_offset};
    return entry;
  }

  void Keep(const IndexEntry& entry) {
    if (index_ != nullptr) {
      index_->Add(entry);
    } else {
      in_order_->push_back(entry);
    }
  }

  /// The side's stack: the root stack's URN, else the first URN that
  /// parses.
  void NoteStack(bool root, std::string_view urn) {
    if (!side_.root_urn.empty()) return;
    if (side_.stack && !root) return;
    auto u = state::ParseUrn(urn);
    if (!u) return;
    side_.stack =
        state::StackProject{std::string(u->stack), std::string(u->project)};
    if (root) side_.root_urn = std::string(urn);
  }

  Side& side_;
  ResourceIndex* index_;
  std::vector<IndexEntry>* in_order_;
};

struct Located {
  std::uint32_t position = 0;  ///< in B's order
  std::uint64_t offset = 0, end = 0;
};

struct MatchState {
  /// Matched pairs in B's order: A's position and B's bytes.
  std::vector<std::uint32_t> a_of_match;
  std::vector<Located> b_of_match;
  std::vector<bool> digest_differs;
  /// Resources only in B.
  std::vector<Located> added;
  std::vector<std::uint64_t> added_type_id;
};

/// Reads `side` through a fresh IndexPass (on `jobs` threads when it is a
/// plain file), explained as engine::Explain does.
Status ReadSide(Side& side, ResourceIndex* index,
                std::vector<IndexEntry>* in_order, int jobs, bool* parallel) {
  engine::Options options;
  options.jobs = jobs;
  options.on_progress = side.on_progress;
  // A parallel read that falls back starts again from a fresh pass: the
  // side's state goes back to what it was before.
  auto make = [&side, index, in_order] {
    side.Restart();
    if (index != nullptr) index->Clear();
    if (in_order != nullptr) in_order->clear();
    return std::make_unique<IndexPass>(side, index, in_order);
  };
  engine::Executor executor = engine::Executor::kSequential;
  auto ran = engine::RunOrExplain<IndexPass>(
      engine::Opener([&side] { return side.input->Open(); }), side.name, make,
      options, &executor);
  *parallel = executor == engine::Executor::kParallel;
  return ran.ok() ? Status::Ok() : ran.status();
}

}  // namespace

namespace {

/// True when `p` lies in a file-backed mapping (/proc/self/maps names an
/// inode), where MADV_DONTNEED only drops pages the kernel reads again from
/// the file when they are touched again; never for a heap copy, whose
/// bytes it would zero.
bool InFileMapping(const void* p) {
  std::ifstream maps("/proc/self/maps");
  auto address = reinterpret_cast<std::uintptr_t>(p);
  for (std::string line; std::getline(maps, line);) {
    unsigned long lo = 0, hi = 0, offset = 0, inode = 0;
    char perms[8], device[32];
    if (std::sscanf(line.c_str(), "%lx-%lx %7s %lx %31s %lu", &lo, &hi, perms,
                    &offset, device, &inode) != 6) {
      continue;
    }
    if (address >= lo && address < hi) return inode != 0;
  }
  return false;
}

/// Gives back the pages of `side` that re-reads touched since the last
/// call (see ReadResource).
void DropReadPages(Side& side) {
  if (side.drop_to > side.drop_from) {
    // Page arithmetic on the mapping's own addresses.
    ::madvise(reinterpret_cast<void*>(  // NOLINT(performance-no-int-to-ptr)
                  side.drop_from),
              side.drop_to - side.drop_from, MADV_DONTNEED);
  }
  side.drop_from = side.drop_to = 0;
}

Result<json::Document> ReadResource(Side& side, std::uint64_t offset,
                                    std::uint64_t end) {
  if (end > side.bytes.size() || offset > end) {
    return Status(Errc::kIo, side.name + ": changed while it was read");
  }
  std::string text(side.bytes.substr(static_cast<std::size_t>(offset),
                                     static_cast<std::size_t>(end - offset)));
  if (side.drop_after_read) {
    // The changed resources are scattered over the file: each read would
    // keep its pages resident, and the neighbours the kernel maps with
    // them (fault-around maps up to 64 KiB of cached pages per fault; a
    // 1% change of a 1 GB state kept 340 MB resident). Copied: the
    // resource's pages and the 256 KiB-aligned window around them are
    // given back, together with those of the reads before it while they
    // all lie within 32 MiB: one madvise per resource flushed the TLB
    // each time (12% of diff's CPU on a 1 GB state with 1% changed), and
    // the reads come mostly in file order.
    constexpr std::uintptr_t kWindow = std::uintptr_t{1} << 18;
    constexpr std::uintptr_t kSpan = std::uintptr_t{32} << 20;
    auto base = reinterpret_cast<std::uintptr_t>(side.bytes.data());
    std::uintptr_t from = (base + offset) / kWindow * kWindow;
    std::uintptr_t to = (base + end + kWindow - 1) / kWindow * kWindow;
    static const auto page =
        static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    // Inside the mapping: its first page and the page after its last byte.
    from = std::max(from, base / page * page);
    to = std::min(to, (base + side.bytes.size() + page - 1) / page * page);
    if (side.drop_to > side.drop_from &&
        std::max(to, side.drop_to) - std::min(from, side.drop_from) > kSpan) {
      DropReadPages(side);
    }
    if (to > from) {
      if (side.drop_to > side.drop_from) {
        side.drop_from = std::min(from, side.drop_from);
        side.drop_to = std::max(to, side.drop_to);
      } else {
        side.drop_from = from;
        side.drop_to = to;
      }
    }
  }
  auto doc = json::Document::Parse(std::move(text));
  if (!doc.ok()) {
    return Status(Errc::kIo, side.name + ": changed while it was read");
  }
  return doc;
}

/// A resource's changes into its entry.
void Take(ResourceChanges&& changes, ResourceEntry* e) {
  e->properties = std::move(changes.properties);
  e->fields = std::move(changes.fields);
}

ResourceEntry EntryOf(ResourceChangeKind kind, const json::Value& resource) {
  state::ResourceView view = state::ResourceView::Of(resource);
  ResourceEntry e;
  e.kind = kind;
  e.urn = view.Urn();
  e.type = view.Type();
  e.id = view.Id();
  e.deleted = state::ResourceView::Flag(view.del);
  return e;
}

/// A stack (or project) rename between the two sides: A's resources of
/// `from` are B's of `to`, URNs rewritten as state::RestackUrn does.
struct Restack {
  state::StackProject from, to;
  std::string from_root;  ///< A's root stack URN ("" when none)
};

/// `resource` (A's) with its URN and every reference `restack` rewrites
/// (the fields of state::kReferenceFields and resource references in
/// property values, what Pulumi's stack rename rewrites) in B's terms, so that
/// DiffResource reports what changed besides the rename. Secrets are not looked
/// into.
json::Value RestackResource(const json::Value& resource, const Restack& restack,
                            json::Arena& arena) {
  if (!resource.is_object()) return resource;
  auto urn = [&](const json::Value& v) {
    if (!v.is_string()) return v;
    auto now = state::RestackUrn(v.Str(), restack.from, restack.to);
    return now ? arena.MakeString(*now, v.offset) : v;
  };
  auto list = [&](const json::Value& v) {
    if (!v.is_array()) return v;
    std::vector<json::Value> out;
    for (const json::Value& e : v.array()) out.push_back(urn(e));
    return arena.MakeArray(out, v.offset);
  };
  std::vector<json::Member> out;
  std::string scratch;
  for (const json::Member& m : resource.object()) {
    json::Member copy = m;
    scratch = m.key.Str();
    std::string_view field = state::MatchField(scratch, state::kResourceFields);
    if (field == "urn") {
      copy.value = urn(m.value);
    } else if (field == "inputs" || field == "outputs" ||
               field == "replacementTrigger") {
      bool changed = false;
      copy.value = state::MapResourceReferences(
          m.value, arena,
          [&](const json::Value& u) -> std::optional<json::Value> {
            if (!u.is_string()) return std::nullopt;
            auto now = state::RestackUrn(u.Str(), restack.from, restack.to);
            if (!now) return std::nullopt;
            return arena.MakeString(*now, u.offset);
          },
          &changed);
    } else if (const state::ReferenceField* f =
                   state::FindReferenceField(field)) {
      switch (f->shape) {
        case state::RefShape::kUrn: copy.value = urn(m.value); break;
        case state::RefShape::kUrnList: copy.value = list(m.value); break;
        case state::RefShape::kUrnListMap:
          if (m.value.is_object()) {
            std::vector<json::Member> lists(m.value.object().begin(),
                                            m.value.object().end());
            for (json::Member& l : lists) l.value = list(l.value);
            copy.value = arena.MakeObject(lists, m.value.offset);
          }
          break;
        case state::RefShape::kProviderReference:
          if (m.value.is_string()) {
            std::string text = m.value.Str();
            std::size_t cut = text.rfind("::");
            auto now = cut == std::string::npos
                           ? std::nullopt
                           : state::RestackUrn(text.substr(0, cut),
                                               restack.from, restack.to);
            if (now) {
              copy.value =
                  arena.MakeString(*now + text.substr(cut), m.value.offset);
            }
          }
          break;
      }
    }
    out.push_back(copy);
  }
  return arena.MakeObject(out, resource.offset);
}

/// Positions (in `seq`) on one longest strictly increasing subsequence.
std::vector<bool> OnLongestIncreasing(const std::vector<std::uint32_t>& seq) {
  std::vector<std::uint32_t> tails;  // positions in seq
  std::vector<std::uint32_t> prev(seq.size(), ResourceIndex::kNone);
  for (std::uint32_t i = 0; i < seq.size(); ++i) {
    auto it = std::lower_bound(
        tails.begin(), tails.end(), seq[i],
        [&](std::uint32_t t, std::uint32_t v) { return seq[t] < v; });
    if (it != tails.begin()) prev[i] = *(it - 1);
    if (it == tails.end()) {
      tails.push_back(i);
    } else {
      *it = i;
    }
  }
  std::vector<bool> on(seq.size(), false);
  std::uint32_t i = tails.empty() ? ResourceIndex::kNone : tails.back();
  while (i != ResourceIndex::kNone) {
    on[i] = true;
    i = prev[i];
  }
  return on;
}

// ---- envelope ---------------------------------------------------------------

bool IsEmptyValue(const json::Value* v) {
  return v == nullptr || v->is_null() ||
         ((v->is_array() || v->is_object() || v->is_string()) && v->size == 0);
}

const json::Value* Get(const std::map<std::string, json::Value>& m,
                       const std::string& key) {
  auto it = m.find(key);
  return it == m.end() ? nullptr : &it->second;
}

const json::Value* Member(const json::Value* object, std::string_view key) {
  return object != nullptr && object->is_object() ? object->Find(key) : nullptr;
}

struct EnvelopeDiff {
  std::vector<EnvelopeEntry>* out;

  void Add(std::string field, const json::Value* a, const json::Value* b,
           std::optional<Value> before = {}, std::optional<Value> after = {}) {
    EnvelopeEntry e;
    e.field = std::move(field);
    e.kind = IsEmptyValue(a)   ? ChangeKind::kAdd
             : IsEmptyValue(b) ? ChangeKind::kDelete
                               : ChangeKind::kUpdate;
    e.before = before            ? std::move(before)
               : IsEmptyValue(a) ? std::nullopt
                                 : std::optional<Value>(DisplayValue(*a));
    e.after = after             ? std::move(after)
              : IsEmptyValue(b) ? std::nullopt
                                : std::optional<Value>(DisplayValue(*b));
    out->push_back(std::move(e));
  }

  void Plain(std::string field, const json::Value* a, const json::Value* b) {
    if (IsEmptyValue(a) && IsEmptyValue(b)) return;
    if (!IsEmptyValue(a) && !IsEmptyValue(b) && json::Equal(*a, *b)) return;
    Add(std::move(field), a, b);
  }

  /// Arrays compared as multisets of values.
  void Multiset(const std::string& field, const json::Value* a,
                const json::Value* b) {
    auto hashes = [](const json::Value* v) {
      std::vector<std::uint64_t> h;
      if (v != nullptr && v->is_array()) {
        for (const json::Value& e : v->array()) h.push_back(json::Hash(e));
      }
      std::sort(h.begin(), h.end());
      return h;
    };
    if (hashes(a) != hashes(b)) Add(field, a, b);
  }

  void Time(const std::string& field, const json::Value* a,
            const json::Value* b) {
    if (a != nullptr && b != nullptr && a->is_string() && b->is_string()) {
      auto ta = ParseTimestamp(a->Str());
      auto tb = ParseTimestamp(b->Str());
      if (ta && tb && *ta == *tb) return;
    }
    Plain(field, a, b);
  }
};

/// A string value made here (decoded text; kept as JSON text, escaped as
/// Go's encoder escapes it).
Value StringValue(std::string_view decoded) {
  Value v;
  v.kind = ValueKind::kString;
  json::AppendEscaped(decoded, &v.text);
  return v;
}

/// {"name": DisplayValue(value) or null, ...}.
Value DisplayObject(
    std::initializer_list<std::pair<std::string_view, const json::Value*>>
        members) {
  Value out;
  out.kind = ValueKind::kObject;
  for (const auto& [name, value] : members) {
    out.members.push_back(
        {std::string(name), value != nullptr ? DisplayValue(*value) : Value()});
  }
  return out;
}

/// metadata.integrity_error for display. What it records of the CLI's run
/// is plaintext whatever the secrets provider: members whose
/// state::Exposure is not plain (every env_vars value, the argv past its
/// subcommand) are hidden secrets (the argv's shown part followed by
/// "[secret]"), as redact and verify hide them, and --show-secrets does
/// not reveal them (no key opens them; they are never meant to be shown).
/// Two states whose records differ only there still differ, as two
/// secrets do.
std::optional<Value> IntegrityErrorDisplay(const json::Value* error) {
  if (IsEmptyValue(error)) return std::nullopt;
  // A malformed record (not an object) is not known to be harmless.
  if (!error->is_object()) return HiddenSecret();
  Value out;
  out.kind = ValueKind::kObject;
  for (const json::Member& m : error->object()) {
    Value shown;
    switch (state::ExposureOf(m.key.Str(), state::kIntegrityErrorFields)) {
      case state::Exposure::kPlain: shown = DisplayValue(m.value); break;
      case state::Exposure::kValues:
        if (!m.value.is_object()) {
          if (!m.value.is_null()) shown = HiddenSecret();
          break;
        }
        shown.kind = ValueKind::kObject;
        for (const json::Member& e : m.value.object()) {
          shown.members.push_back(
              {StringValue(e.key.Str()).text, HiddenSecret()});
        }
        break;
      case state::Exposure::kCommandLine: {
        if (!m.value.is_string()) {
          if (!m.value.is_null()) shown = HiddenSecret();
          break;
        }
        state::CommandHead head = state::SplitCommandLine(m.value.Str());
        shown = StringValue(head.rest
                                ? head.shown + (head.shown.empty() ? "" : " ") +
                                      "[secret]"
                                : head.shown);
        break;
      }
    }
    out.members.push_back({StringValue(m.key.Str()).text, std::move(shown)});
  }
  return out;
}

std::optional<Value> ProviderDisplay(const json::Value* sp) {
  const json::Value* type = Member(sp, "type");
  if (type == nullptr) return std::nullopt;
  return DisplayObject({{"type", type}});
}

Value PendingDisplay(const json::Value& op) {
  const json::Value* resource = Member(&op, "resource");
  return DisplayObject(
      {{"type", Member(&op, "type")}, {"urn", Member(resource, "urn")}});
}

void DiffEnvelope(const Side& a, const Side& b, const DiffOptions& options,
                  const Restack* restack, std::vector<EnvelopeEntry>* out) {
  EnvelopeDiff d{out};
  d.Plain("version", Get(a.envelope, "version"), Get(b.envelope, "version"));
  d.Multiset("features", Get(a.envelope, "features"),
             Get(b.envelope, "features"));
  const json::Value* ma = Get(a.envelope, "manifest");
  const json::Value* mb = Get(b.envelope, "manifest");
  // A checkpoint without a deployment is an empty stack: it has no
  // manifest to compare.
  if (a.has_deployment && b.has_deployment) {
    d.Time("manifest.time", Member(ma, "time"), Member(mb, "time"));
    d.Plain("manifest.magic", Member(ma, "magic"), Member(mb, "magic"));
    d.Plain("manifest.version", Member(ma, "version"), Member(mb, "version"));
    d.Multiset("manifest.plugins", Member(ma, "plugins"),
               Member(mb, "plugins"));
  }
  const json::Value* sa = Get(a.envelope, "secrets_providers");
  const json::Value* sb = Get(b.envelope, "secrets_providers");
  if (!(IsEmptyValue(sa) && IsEmptyValue(sb)) &&
      (IsEmptyValue(sa) || IsEmptyValue(sb) || !json::Equal(*sa, *sb))) {
    // Only the provider's type is shown: its state holds wrapped keys.
    d.Add("secrets_providers", sa, sb, ProviderDisplay(sa),
          ProviderDisplay(sb));
  }
  const json::Value* ea =
      Member(Get(a.envelope, "metadata"), "integrity_error");
  const json::Value* eb =
      Member(Get(b.envelope, "metadata"), "integrity_error");
  if (!(IsEmptyValue(ea) && IsEmptyValue(eb)) &&
      (IsEmptyValue(ea) || IsEmptyValue(eb) || !json::Equal(*ea, *eb))) {
    d.Add("metadata.integrity_error", ea, eb, IntegrityErrorDisplay(ea),
          IntegrityErrorDisplay(eb));
  }
  // Pending operations, snippets: multisets.
  auto unmatched = [](const std::vector<json::Value>& x,
                      const std::vector<json::Value>& y) {
    std::multimap<std::uint64_t, std::size_t> in_y;
    for (std::size_t i = 0; i < y.size(); ++i) {
      in_y.emplace(json::Hash(y[i]), i);
    }
    std::vector<std::size_t> only_x;
    for (std::size_t i = 0; i < x.size(); ++i) {
      auto [lo, hi] = in_y.equal_range(json::Hash(x[i]));
      auto it = std::find_if(lo, hi, [&](const auto& p) {
        return json::Equal(x[i], y[p.second]);
      });
      if (it == hi) {
        only_x.push_back(i);
      } else {
        in_y.erase(it);
      }
    }
    return only_x;
  };
  // Pending operations pair by operation type and URN (in order, for
  // repeats); a pair differs only when its resources differ as DiffResource
  // sees them (a re-encrypted secret is no change when it can be opened).
  // Across a stack rename, A's operations are compared in B's terms.
  auto op_key = [](const json::Value& op) { return PendingDisplay(op); };
  std::vector<bool> used(b.pending.size(), false);
  json::Arena arena;
  for (const json::Value& a_op : a.pending) {
    json::Value op = a_op;
    if (restack != nullptr && op.is_object()) {
      std::vector<json::Member> members(op.object().begin(), op.object().end());
      for (json::Member& m : members) {
        if (m.key.StrEquals("resource")) {
          m.value = RestackResource(m.value, *restack, arena);
        }
      }
      op = arena.MakeObject(members, op.offset);
    }
    Value key = op_key(op);
    std::size_t j = 0;
    while (j < b.pending.size() && (used[j] || op_key(b.pending[j]) != key)) {
      ++j;
    }
    if (j == b.pending.size()) {
      out->push_back(
          {"pending_operations", ChangeKind::kDelete, op_key(a_op), {}});
      continue;
    }
    used[j] = true;
    if (json::Equal(op, b.pending[j])) continue;
    const json::Value* ra = Member(&op, "resource");
    const json::Value* rb = Member(&b.pending[j], "resource");
    if (ra != nullptr && rb != nullptr &&
        DiffResource(*ra, *rb, options).empty()) {
      continue;
    }
    out->push_back({"pending_operations", ChangeKind::kUpdate, key, key});
  }
  for (std::size_t j = 0; j < b.pending.size(); ++j) {
    if (!used[j]) {
      out->push_back(
          {"pending_operations", ChangeKind::kAdd, {}, op_key(b.pending[j])});
    }
  }
  for (std::size_t i : unmatched(a.snippets, b.snippets)) {
    out->push_back(
        {"snippets", ChangeKind::kDelete, DisplayValue(a.snippets[i]), {}});
  }
  for (std::size_t i : unmatched(b.snippets, a.snippets)) {
    out->push_back(
        {"snippets", ChangeKind::kAdd, {}, DisplayValue(b.snippets[i])});
  }
  std::map<std::string, bool> keys;
  for (const auto& [k, v] : a.extensions) keys[k] = true;
  for (const auto& [k, v] : b.extensions) keys[k] = true;
  for (const auto& [k, unused] : keys) {
    d.Plain("extensions." + k, Get(a.extensions, k), Get(b.extensions, k));
  }
}

/// B's order breaks that A did not have (the same referrer needing the
/// same target), attached to the entries of the resources that come too
/// early; an unchanged resource (or one only moved) gets an entry of its
/// own, "order-broken".
Status AttachOrderBreaks(
    Side& a, Side& b, const MatchState& match,
    std::vector<std::pair<std::uint64_t, ResourceEntry>>* entries) {
  std::vector<OrderBreak> breaks = b.order.Finish();
  std::vector<OrderBreak> before = a.order.Finish();
  if (breaks.empty()) return Status::Ok();
  std::vector<std::uint64_t> old_pairs;
  old_pairs.reserve(before.size());
  for (const OrderBreak& x : before) old_pairs.push_back(x.PairKey());
  std::sort(old_pairs.begin(), old_pairs.end());
  std::map<std::uint64_t, std::size_t> entry_at;  // B position -> entry
  for (std::size_t i = 0; i < entries->size(); ++i) {
    if ((*entries)[i].first < (std::uint64_t{1} << 40)) {
      entry_at.emplace((*entries)[i].first, i);
    }
  }
  std::optional<json::Document> doc;  // the resource of the current position
  std::uint32_t doc_position = ResourceIndex::kNone;
  for (const OrderBreak& x : breaks) {
    if (std::binary_search(old_pairs.begin(), old_pairs.end(), x.PairKey())) {
      continue;
    }
    if (doc_position != x.position) {
      // Where the resource's bytes are: a matched one, or an added one.
      auto by_position = [&](const std::vector<Located>& v) {
        auto it = std::lower_bound(
            v.begin(), v.end(), x.position,
            [](const Located& l, std::uint32_t p) { return l.position < p; });
        return it != v.end() && it->position == x.position ? &*it : nullptr;
      };
      const Located* at = by_position(match.b_of_match);
      if (at == nullptr) at = by_position(match.added);
      if (at == nullptr) continue;
      auto read = ReadResource(b, at->offset, at->end);
      if (!read.ok()) return read.status();
      doc.emplace(std::move(read).value());
      doc_position = x.position;
    }
    auto it = entry_at.find(x.position);
    if (it == entry_at.end()) {
      entries->emplace_back(
          x.position, EntryOf(ResourceChangeKind::kOrderBroken, doc->root()));
      it = entry_at.emplace(x.position, entries->size() - 1).first;
    }
    ResourceEntry& e = (*entries)[it->second].second;
    if (e.kind == ResourceChangeKind::kOrderOnly) {
      e.kind = ResourceChangeKind::kOrderBroken;
    }
    OrderNote note{std::string(state::RefKindName(x.field)),
                   OrderTargetText(doc->root(), x.field, x.target)};
    bool seen = std::any_of(e.order.begin(), e.order.end(), [&](const auto& n) {
      return n.field == note.field && n.target == note.target;
    });
    if (!seen) e.order.push_back(std::move(note));
  }
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<SecretOpener>> MakeSecretOpener(
    const json::Value* secrets_providers,
    const std::function<Result<std::string>()>& passphrase,
    const std::string& name) {
  std::unique_ptr<SecretOpener> none;
  if (secrets_providers == nullptr) return none;
  crypto::Unlocked unlocked = crypto::Unlock(
      state::ParseSecretsProvider(*secrets_providers), passphrase);
  if (unlocked.crypter) {
    return std::unique_ptr<SecretOpener>(
        std::make_unique<CrypterOpener>(std::move(*unlocked.crypter)));
  }
  switch (unlocked.failure) {
    case crypto::UnlockFailure::kNoPassphrase:
      // kInvalidArgument: none was given, and the secrets stay closed.
      if (unlocked.status.code() == Errc::kInvalidArgument) return none;
      return unlocked.status;
    case crypto::UnlockFailure::kBadSalt:
      return Status(unlocked.status.code(),
                    name + ": " + unlocked.status.message());
    case crypto::UnlockFailure::kNone:
    case crypto::UnlockFailure::kNoSalt:  // nothing can open them
    case crypto::UnlockFailure::kOffline:
    case crypto::UnlockFailure::kUnknown: break;
  }
  return none;
}

std::string_view ResourceChangeKindName(ResourceChangeKind kind) {
  switch (kind) {
    case ResourceChangeKind::kAdded: return "added";
    case ResourceChangeKind::kRemoved: return "removed";
    case ResourceChangeKind::kRenamed: return "renamed";
    case ResourceChangeKind::kChanged: return "changed";
    case ResourceChangeKind::kOrderOnly: return "order-only";
    case ResourceChangeKind::kOrderBroken: return "order-broken";
  }
  return "changed";
}

Result<DiffResult> Run(const DiffConfig& config) {
  Side a, b;
  io::SpoolOptions spool;
  spool.directory = config.spool_directory;
  if (config.before == "-" && config.after == "-") {
    return Status(Errc::kInvalidArgument,
                  "only one side can be read from standard input");
  }
  for (auto [side, path] :
       {std::pair{&a, &config.before}, std::pair{&b, &config.after}}) {
    side->name = io::InputName(*path);
    auto input = io::OpenReplayable(*path, spool);
    if (!input.ok()) return input.status();
    side->input.emplace(std::move(input).value());
  }
  b.on_progress = config.on_progress;

  // One pass over each side, both at once (one thread each): A's builds
  // the index, B's lists its entries in order; then B's entries, in B's
  // order, are looked up in A's index. The threads halve the wall time on
  // an idle machine and cost no CPU: the readers read through their own
  // buffers, so neither pass unmaps pages the other thread's CPU caches.
  ResourceIndex index;
  std::vector<IndexEntry> entries_b;
  // Room for the entries a file of this size likely holds (one per 4 KiB;
  // a 1 GB state has one per 6.5 KiB): growing by doubling copied the
  // entries and touched fresh pages each time (page faults were most of
  // diff's system time). Untouched room costs address space, not memory.
  auto expected = [](const std::string& path) -> std::size_t {
    std::error_code ec;
    std::uintmax_t size =
        path == "-" ? 0 : std::filesystem::file_size(path, ec);
    if (ec) return 0;
    return static_cast<std::size_t>(
        std::min<std::uintmax_t>(size / 4096, std::uintmax_t{1} << 24));
  };
  index.Reserve(expected(config.before));
  entries_b.reserve(expected(config.after));
  Status status_a;
  bool parallel_a = false, parallel_b = false;
  {
    std::thread pass_a([&] {
      status_a = ReadSide(a, &index, nullptr, config.jobs, &parallel_a);
    });
    Status status_b =
        ReadSide(b, nullptr, &entries_b, config.jobs, &parallel_b);
    pass_a.join();
    if (!status_a.ok()) return status_a;
    if (!status_b.ok()) return status_b;
  }
  MatchState match;
  for (std::uint32_t position = 0; position < entries_b.size(); ++position) {
    const IndexEntry& eb = entries_b[position];
    Located here{position, eb.range.begin, eb.range.end};
    std::uint32_t found = index.FindUnmatched(eb.key);
    if (found == ResourceIndex::kNone) {
      match.added.push_back(here);
      match.added_type_id.push_back(eb.type_id);
      continue;
    }
    index.set_matched(found);
    state::ByteRange ra = index.range(found);
    match.a_of_match.push_back(found);
    match.b_of_match.push_back(here);
    match.digest_differs.push_back(index.digest(found) != eb.digest ||
                                   ra.end - ra.begin !=
                                       eb.range.end - eb.range.begin);
  }
  entries_b = std::vector<IndexEntry>();

  for (Side* side : {&a, &b}) {
    auto bytes = side->input->bytes();
    if (!bytes.ok()) return bytes.status();
    side->bytes = *bytes;
    side->drop_after_read = side->bytes.size() >= (std::size_t{1} << 20) &&
                            InFileMapping(side->bytes.data());
  }
  for (Side* side : {&a, &b}) {
    auto opener = MakeSecretOpener(Get(side->envelope, "secrets_providers"),
                                   config.passphrase, side->name);
    if (!opener.ok()) return opener.status();
    side->opener = std::move(opener).value();
  }
  DiffOptions options;
  options.before_secrets = a.opener.get();
  options.after_secrets = b.opener.get();
  options.show_secrets = config.show_secrets;

  DiffResult result;
  result.read_in_parallel = int{parallel_a} + int{parallel_b};
  result.summary.before_resources = a.resources;
  result.summary.after_resources = b.resources;
  // (B position, entry); removals sort after every B position.
  std::vector<std::pair<std::uint64_t, ResourceEntry>> entries;
  const std::uint64_t kAfterB = std::uint64_t{1} << 40;

  // Matched resources whose bytes differ: compared by meaning (a state
  // rewritten with other key order, number spellings or indentation has
  // every resource here, and still no change).
  std::vector<bool> changed(match.a_of_match.size(), false);
  for (std::size_t i = 0; i < match.a_of_match.size(); ++i) {
    if (!match.digest_differs[i]) continue;
    state::ByteRange ra = index.range(match.a_of_match[i]);
    const Located& lb = match.b_of_match[i];
    auto da = ReadResource(a, ra.begin, ra.end);
    if (!da.ok()) return da.status();
    auto db = ReadResource(b, lb.offset, lb.end);
    if (!db.ok()) return db.status();
    // Equal JSON (another layout, key order, escapes or number spelling):
    // DiffResource, which compares by a coarser meaning, would find
    // nothing, at several times the cost.
    if (json::Equal(da->root(), db->root())) continue;
    ResourceChanges changes = DiffResource(da->root(), db->root(), options);
    if (changes.empty()) continue;
    changed[i] = true;
    ResourceEntry e = EntryOf(ResourceChangeKind::kChanged, db->root());
    Take(std::move(changes), &e);
    entries.emplace_back(lb.position, std::move(e));
  }

  // A stack (or project) rename: a resource only in B whose URN, taken
  // back to A's stack and project (state::RestackUrn), names a resource
  // only in A is that resource, renamed with its stack; components match
  // too (they have no ID). Its references are compared in B's terms.
  std::optional<Restack> restack;
  if (a.stack && b.stack && *a.stack != *b.stack) {
    restack = Restack{*a.stack, *b.stack, a.root_urn};
    // Where the renames come from, ahead of the envelope's own changes.
    for (auto [field, before, after] :
         {std::tuple{"stack", &a.stack->stack, &b.stack->stack},
          std::tuple{"project", &a.stack->project, &b.stack->project}}) {
      if (*before == *after) continue;
      result.envelope.push_back({field, ChangeKind::kUpdate,
                                 StringValue(*before), StringValue(*after)});
    }
  }
  std::vector<bool> renamed(index.size(), false);
  std::vector<bool> added_done(match.added.size(), false);
  for (std::size_t k = 0; restack && k < match.added.size(); ++k) {
    const Located& lb = match.added[k];
    auto db = ReadResource(b, lb.offset, lb.end);
    if (!db.ok()) return db.status();
    state::ResourceView vb = state::ResourceView::Of(db->root());
    std::string urn_b = vb.Urn();
    std::optional<std::string> urn_a;
    if (vb.Type() == state::kRootStackType && !restack->from_root.empty()) {
      urn_a = restack->from_root;
    } else {
      urn_a = state::RestackUrn(urn_b, restack->to, restack->from);
    }
    if (!urn_a) continue;
    bool deleted = state::ResourceView::Flag(vb.del);
    std::uint32_t found = index.FindUnmatched(KeyOf(*urn_a, deleted, vb.Id()));
    if (found == ResourceIndex::kNone) continue;
    state::ByteRange ra = index.range(found);
    auto da = ReadResource(a, ra.begin, ra.end);
    if (!da.ok()) return da.status();
    if (state::ResourceView::Of(da->root()).Urn() != *urn_a) continue;
    index.set_matched(found);
    renamed[found] = true;
    added_done[k] = true;
    ResourceEntry e = EntryOf(ResourceChangeKind::kRenamed, db->root());
    e.from = *urn_a;
    e.rename = RenameKind::kStack;
    json::Arena arena;
    Take(DiffResource(RestackResource(da->root(), *restack, arena), db->root(),
                      options),
         &e);
    entries.emplace_back(lb.position, std::move(e));
  }

  // Renames: only-in-B against only-in-A with the same type and ID.
  std::multimap<std::uint64_t, std::uint32_t> removed_by_type_id;
  for (std::uint32_t i = 0; i < index.size(); ++i) {
    if (!index.matched(i) && index.type_id(i) != 0) {
      removed_by_type_id.emplace(index.type_id(i), i);
    }
  }
  for (std::size_t k = 0; k < match.added.size(); ++k) {
    if (added_done[k]) continue;
    const Located& lb = match.added[k];
    auto db = ReadResource(b, lb.offset, lb.end);
    if (!db.ok()) return db.status();
    ResourceEntry e = EntryOf(ResourceChangeKind::kAdded, db->root());
    if (match.added_type_id[k] != 0) {
      auto [lo, hi] = removed_by_type_id.equal_range(match.added_type_id[k]);
      for (auto it = lo; it != hi; ++it) {
        state::ByteRange ra = index.range(it->second);
        auto da = ReadResource(a, ra.begin, ra.end);
        if (!da.ok()) return da.status();
        state::ResourceView va = state::ResourceView::Of(da->root());
        if (va.Type() != e.type || va.Id() != e.id) continue;
        e.kind = ResourceChangeKind::kRenamed;
        e.from = va.Urn();
        Take(DiffResource(da->root(), db->root(), options), &e);
        renamed[it->second] = true;
        removed_by_type_id.erase(it);
        break;
      }
    }
    entries.emplace_back(lb.position, std::move(e));
  }
  for (std::uint32_t i = 0; i < index.size(); ++i) {
    if (index.matched(i) || renamed[i]) continue;
    state::ByteRange ra = index.range(i);
    auto da = ReadResource(a, ra.begin, ra.end);
    if (!da.ok()) return da.status();
    entries.emplace_back(kAfterB + i,
                         EntryOf(ResourceChangeKind::kRemoved, da->root()));
  }

  // Moves of otherwise unchanged resources.
  std::vector<bool> in_order = OnLongestIncreasing(match.a_of_match);
  for (std::size_t i = 0; i < match.a_of_match.size(); ++i) {
    if (in_order[i] || changed[i]) continue;
    const Located& lb = match.b_of_match[i];
    auto db = ReadResource(b, lb.offset, lb.end);
    if (!db.ok()) return db.status();
    entries.emplace_back(lb.position,
                         EntryOf(ResourceChangeKind::kOrderOnly, db->root()));
  }
  if (Status s = AttachOrderBreaks(a, b, match, &entries); !s.ok()) return s;
  DropReadPages(a);
  DropReadPages(b);
  if (Status s = a.input->bytes_status(); !s.ok()) return s;
  if (Status s = b.input->bytes_status(); !s.ok()) return s;

  std::stable_sort(
      entries.begin(), entries.end(),
      [](const auto& x, const auto& y) { return x.first < y.first; });
  DiffSummary& sum = result.summary;
  for (auto& [position, e] : entries) {
    switch (e.kind) {
      case ResourceChangeKind::kAdded: ++sum.added; break;
      case ResourceChangeKind::kRemoved: ++sum.removed; break;
      case ResourceChangeKind::kRenamed: ++sum.renamed; break;
      case ResourceChangeKind::kChanged: ++sum.changed; break;
      case ResourceChangeKind::kOrderOnly: ++sum.order_only; break;
      case ResourceChangeKind::kOrderBroken: ++sum.order_broken; break;
    }
    result.resources.push_back(std::move(e));
  }
  sum.unchanged =
      match.a_of_match.size() - sum.changed - sum.order_only - sum.order_broken;
  DiffEnvelope(a, b, options, restack ? &*restack : nullptr, &result.envelope);
  sum.envelope = result.envelope.size();
  return result;
}

}  // namespace pstate::diff
