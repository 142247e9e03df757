#include "cli/select_options.h"

#include "report/terminal.h"

namespace pstate::cli {

void AddSelectOptions(CLI::App& app, SelectFlags& flags,
                      bool with_type_and_urn) {
  if (with_type_and_urn) {
    app.add_option("--type", flags.type,
                   "Only resources whose type matches GLOB");
  }
  app.add_option(
      "--name", flags.name,
      "Only resources whose name (the URN's last part) matches GLOB");
  if (with_type_and_urn) {
    app.add_option("--urn", flags.urn, "Only resources whose URN matches GLOB");
  }
  app.add_option("--provider", flags.provider,
                 "Only resources whose provider reference matches GLOB");
  app.add_option("--parent", flags.parent, "Only children of this URN");
  std::vector<std::string> names;
  for (ResourceFlag f : kResourceFlags) {
    names.emplace_back(ResourceFlagName(f));
  }
  app.add_option("--flag", flags.flags,
                 "Only resources with this flag (repeatable): protect, taint, "
                 "delete, external, pending-replacement, retain-on-delete")
      ->check(CLI::IsMember(names));
}

ResourceFilter ToSelector(const SelectFlags& flags) {
  ResourceFilter s;
  if (!flags.type.empty()) s.type = flags.type;
  if (!flags.name.empty()) s.name = flags.name;
  if (!flags.urn.empty()) s.urn = flags.urn;
  if (!flags.provider.empty()) s.provider = flags.provider;
  if (!flags.parent.empty()) s.parent = flags.parent;
  for (const std::string& name : flags.flags) {
    if (auto f = ResourceFlagNamed(name)) s.flags.push_back(*f);
  }
  return s;
}

void PrintSelection(std::ostream& os, std::string_view who,
                    const std::vector<std::string>& urns) {
  if (urns.empty()) return;
  os << "pstate: " << who << ": selected " << urns.size()
     << (urns.size() == 1 ? " resource:\n" : " resources:\n");
  for (const std::string& u : urns)
    os << "  " << report::TerminalSafe(u) << "\n";
}

}  // namespace pstate::cli
