// What `pstate edit` keeps of a state after its first pass: per resource
// and pending operation, the fields an edit is planned on and the byte
// range the reader found it at. Memory grows with the resource count
// (a few hundred bytes per resource), never with the size of property
// values: the bytes stay in the file until the output is spliced.
#ifndef PSTATE_EDIT_INDEX_H_
#define PSTATE_EDIT_INDEX_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "pstate/state/reader.h"

namespace pstate::edit {

/// [begin, end) of the decoded input.
struct ByteRange {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};

/// The reference fields of ResourceV3 (state/schema.h kReferenceFields):
/// the ones Pulumi's dependency graph follows come first.
enum class RefKind {
  kParent,
  kDependency,
  kPropertyDependency,
  kDeletedWith,
  kReplaceWith,
  kProvider,  ///< the URN part of the provider reference
  kAlias,
  kViewOf,
};

/// "parent", "dependencies", ... (the JSON field).
std::string_view RefKindField(RefKind kind);

struct ResourceEntry {
  std::string urn, type, id, parent;
  /// The provider reference as written (`<URN>::<ID>`).
  std::string provider;
  std::vector<std::string> dependencies;
  std::vector<std::pair<std::string, std::vector<std::string>>>
      property_dependencies;
  std::string deleted_with;
  std::vector<std::string> replace_with;
  std::vector<std::string> aliases;
  std::string view_of;
  bool custom = false;
  bool del = false;  ///< "delete": an old copy awaiting deletion
  bool protect = false;
  bool taint = false;
  bool pending_replacement = false;
  ByteRange range;
};

struct PendingEntry {
  std::string urn;   ///< of its resource
  std::string type;  ///< creating, updating, deleting, reading, importing
  ByteRange range;
};

/// Calls `fn(kind, urn)` for every URN `r` refers to; for kProvider the
/// URN part of its provider reference (when it parses).
template <typename Fn>
void ForEachReference(const ResourceEntry& r, Fn&& fn);

/// An envelope member the edit may rewrite (version, features) or remove.
struct MemberPlace {
  bool present = false;
  std::uint64_t key_offset = 0;
  ByteRange value;
};

struct Index {
  state::Envelope envelope;
  MemberPlace version;
  MemberPlace features;
  MemberPlace resources;  ///< value: the array (begin at '[' once known)
  MemberPlace pending_operations;
  std::vector<ResourceEntry> resources_list;
  std::vector<PendingEntry> pending;
  /// The JSON pointer of the resources array ("/deployment/resources").
  std::string resources_pointer;
  /// URN -> positions in resources_list (several for duplicates).
  std::unordered_map<std::string, std::vector<std::size_t>> by_urn;

  /// Positions of `urn` (empty when absent).
  const std::vector<std::size_t>& Find(const std::string& urn) const;
  /// The live (not pending-delete) copies of `urn`.
  std::vector<std::size_t> Live(const std::string& urn) const;
};

/// The first pass's handler: fills an Index. Run it in a state::Tee with
/// verify::Verifier so the input's findings come from the same pass.
class Indexer : public state::Handler {
 public:
  explicit Indexer(Index& index) : index_(index) {}
  void OnEnvelopeMember(const state::EnvelopeMember& member,
                        state::Context& context) override;
  Result<state::Flow> OnLeaf(state::Leaf& leaf,
                             state::Context& context) override;
  Status OnFinish(const state::Envelope& envelope,
                  state::Context& context) override;

 private:
  Index& index_;
  MemberPlace* pending_member_ = nullptr;
};

/// Reads a ResourceEntry's fields from a resource object.
ResourceEntry EntryOf(const json::Value& resource);

/// Up to three URNs of `index` close to `urn` (case-insensitive Levenshtein
/// distance at most max(2, len/4)), nearest first, as Pulumi suggests them.
std::vector<std::string> Suggest(const Index& index, const std::string& urn);

// Implementation of the template.
template <typename Fn>
void ForEachReference(const ResourceEntry& r, Fn&& fn) {
  if (!r.parent.empty()) fn(RefKind::kParent, r.parent);
  for (const std::string& d : r.dependencies) {
    if (!d.empty()) fn(RefKind::kDependency, d);
  }
  for (const auto& [key, list] : r.property_dependencies) {
    for (const std::string& d : list) {
      if (!d.empty()) fn(RefKind::kPropertyDependency, d);
    }
  }
  if (!r.deleted_with.empty()) fn(RefKind::kDeletedWith, r.deleted_with);
  for (const std::string& d : r.replace_with) {
    if (!d.empty()) fn(RefKind::kReplaceWith, d);
  }
  if (!r.provider.empty()) {
    std::size_t cut = r.provider.rfind("::");
    if (cut != std::string::npos) {
      fn(RefKind::kProvider, r.provider.substr(0, cut));
    }
  }
  for (const std::string& a : r.aliases) fn(RefKind::kAlias, a);
  if (!r.view_of.empty()) fn(RefKind::kViewOf, r.view_of);
}

}  // namespace pstate::edit

#endif  // PSTATE_EDIT_INDEX_H_
