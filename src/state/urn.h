// Pulumi URNs and provider references (pulumi-state-format.md §6).
#ifndef PSTATE_STATE_URN_H_
#define PSTATE_STATE_URN_H_

#include <optional>
#include <string>
#include <string_view>

#include "state/signature.h"

namespace pstate::state {

/// The parts of `urn:pulumi:<stack>::<project>::<qualified type>::<name>`.
/// Views into the parsed text.
struct Urn {
  std::string_view stack;
  std::string_view project;
  std::string_view qualified_type;  ///< parent chain joined by '$'
  std::string_view name;            ///< everything after the third "::"

  /// The resource's own type: the text after the last '$'.
  std::string_view type() const;
  /// The qualified type without the last segment ("" when there is none).
  std::string_view parent_chain() const;
};

/// Parses `text` as Pulumi does: the "urn:pulumi:" prefix and at least three
/// "::" separators; nothing else is validated.
std::optional<Urn> ParseUrn(std::string_view text);

/// `urn:pulumi:<stack>::<project>::<qualified type>::<name>`, as Pulumi's
/// resource.NewURN (sdk/go/common/resource/urn.go) writes it. The parts
/// are not validated.
std::string FormatUrn(std::string_view stack, std::string_view project,
                      std::string_view qualified_type, std::string_view name);
std::string FormatUrn(const Urn& urn);

/// A stack and its project, as URNs name them.
struct StackProject {
  std::string stack;
  std::string project;
  friend bool operator==(const StackProject&, const StackProject&) = default;
};

/// `urn` as Pulumi's `stack rename` rewrites it from `from` to `to`
/// (edit.RenameStack's URN rewrite, pkg/resource/edit/operations.go): a
/// URN of `from`'s stack and project takes `to`'s, and the root stack
/// resource is named `<project>-<stack>` of `to`. nullopt for a URN of
/// another stack or project (Pulumi leaves it alone), for text that is not
/// a URN, and when nothing would change.
std::optional<std::string> RestackUrn(std::string_view urn,
                                      const StackProject& from,
                                      const StackProject& to);

/// `pulumi:providers:<package>` with a non-empty package.
bool IsProviderType(std::string_view type);

inline constexpr std::string_view kRootStackType = "pulumi:pulumi:Stack";
/// The ID of a provider reference whose provider's ID is not known yet:
/// the computed sentinel (signature.h).
inline constexpr std::string_view kUnknownId = kUnknownValue;

/// A provider reference `<provider URN>::<id>`, split at the last "::".
struct ProviderReference {
  std::string_view urn;
  std::string_view id;
};

/// The provider reference `<urn>::<id>` that a provider resource answers
/// to (providers.NewReference(...).String(), sdk/go/common/providers/
/// reference.go). An empty `id` is written as kUnknownId, as the snapshot
/// integrity check does for a provider without an ID
/// (pkg/resource/deploy/snapshot.go, VerifyIntegrity).
std::string FormatProviderReference(std::string_view urn, std::string_view id);

/// Parses a provider reference; the URN part must be a valid URN whose own
/// type is a provider type. Returns nullopt with `why` set otherwise.
std::optional<ProviderReference> ParseProviderReference(std::string_view text,
                                                        std::string_view* why);

}  // namespace pstate::state

#endif  // PSTATE_STATE_URN_H_
