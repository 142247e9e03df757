#include "state/urn.h"

namespace pstate::state {
namespace {
constexpr std::string_view kPrefix = "urn:pulumi:";
constexpr std::string_view kSep = "::";
}  // namespace

std::string_view Urn::type() const {
  std::size_t dollar = qualified_type.rfind('$');
  return dollar == std::string_view::npos ? qualified_type
                                          : qualified_type.substr(dollar + 1);
}

std::string_view Urn::parent_chain() const {
  std::size_t dollar = qualified_type.rfind('$');
  return dollar == std::string_view::npos ? std::string_view()
                                          : qualified_type.substr(0, dollar);
}

std::optional<Urn> ParseUrn(std::string_view text) {
  if (text.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  std::string_view rest = text.substr(kPrefix.size());
  std::size_t a = rest.find(kSep);
  if (a == std::string_view::npos) return std::nullopt;
  std::size_t b = rest.find(kSep, a + 2);
  if (b == std::string_view::npos) return std::nullopt;
  std::size_t c = rest.find(kSep, b + 2);
  if (c == std::string_view::npos) return std::nullopt;
  Urn urn;
  urn.stack = rest.substr(0, a);
  urn.project = rest.substr(a + 2, b - a - 2);
  urn.qualified_type = rest.substr(b + 2, c - b - 2);
  urn.name = rest.substr(c + 2);
  return urn;
}

std::string FormatUrn(std::string_view stack, std::string_view project,
                      std::string_view qualified_type, std::string_view name) {
  std::string out;
  out.reserve(kPrefix.size() + stack.size() + project.size() +
              qualified_type.size() + name.size() + 3 * kSep.size());
  out.append(kPrefix).append(stack).append(kSep).append(project);
  out.append(kSep).append(qualified_type).append(kSep).append(name);
  return out;
}

std::string FormatUrn(const Urn& urn) {
  return FormatUrn(urn.stack, urn.project, urn.qualified_type, urn.name);
}

std::optional<std::string> RestackUrn(std::string_view urn,
                                      const StackProject& from,
                                      const StackProject& to) {
  auto u = ParseUrn(urn);
  if (!u || u->stack != from.stack || u->project != from.project) {
    return std::nullopt;
  }
  std::string root_name;
  std::string_view name = u->name;
  if (u->qualified_type == kRootStackType) {
    root_name = to.project + "-" + to.stack;
    name = root_name;
  }
  std::string now = FormatUrn(to.stack, to.project, u->qualified_type, name);
  if (now == urn) return std::nullopt;
  return now;
}

std::string FormatProviderReference(std::string_view urn, std::string_view id) {
  if (id.empty()) id = kUnknownId;
  std::string out;
  out.reserve(urn.size() + kSep.size() + id.size());
  out.append(urn).append(kSep).append(id);
  return out;
}

bool IsProviderType(std::string_view type) {
  constexpr std::string_view kProviders = "pulumi:providers:";
  return type.size() > kProviders.size() &&
         type.substr(0, kProviders.size()) == kProviders &&
         type.find(':', kProviders.size()) == std::string_view::npos;
}

std::optional<ProviderReference> ParseProviderReference(std::string_view text,
                                                        std::string_view* why) {
  std::size_t sep = text.rfind(kSep);
  if (sep == std::string_view::npos) {
    *why = "it has no \"::\" between the provider URN and its id";
    return std::nullopt;
  }
  ProviderReference ref{text.substr(0, sep), text.substr(sep + 2)};
  std::optional<Urn> urn = ParseUrn(ref.urn);
  if (!urn) {
    *why = "its URN part is not a valid URN";
    return std::nullopt;
  }
  if (!IsProviderType(urn->type())) {
    *why = "its URN does not name a provider type (pulumi:providers:<package>)";
    return std::nullopt;
  }
  return ref;
}

}  // namespace pstate::state
