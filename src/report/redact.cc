#include "report/redact.h"

#include <cstdint>
#include <string>
#include <string_view>

#include "report/normalize.h"

namespace pstate::report {
namespace {

std::string Count(std::uint64_t n, std::string_view one,
                  std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

}  // namespace

void RenderRedactSummary(const ::pstate::RedactResult& s,
                         const RedactSummaryOptions& options,
                         std::ostream& out) {
  out << "pstate redact: replaced " << Count(s.secrets, "secret", "secrets")
      << ", "
      << Count(s.config_values, "secure config value", "secure config values")
      << ", "
      << Count(s.provider_values, "secrets provider value",
               "secrets provider values")
      << ", " << Count(s.env_vars, "env var", "env vars");
  if (options.also) {
    out << ", " << Count(s.also_values, "--also value", "--also values");
  }
  if (s.commands > 0) {
    out << ", " << Count(s.commands, "recorded command", "recorded commands");
  }
  if (!options.keep_leaks) {
    out << ", "
        << Count(s.leak_values, "plaintext credential",
                 "plaintext credentials");
  }
  if (options.anonymize) {
    out << "; anonymized:";
    bool any = false;
    for (const auto& [kind, n] : options.anonymized) {
      if (n == 0) continue;
      out << (any ? ", " : " ") << kind << " " << n;
      any = true;
    }
    if (!any) out << " nothing found";
  }
  out << "; kept: ";
  if (options.keep_leaks) {
    out << Count(s.kept_leaks, "plaintext credential (--keep-leaks)",
                 "plaintext credentials (--keep-leaks)")
        << ", ";
  }
  // What redact never rewrites (docs/secrets.md, "What can still identify
  // you").
  if (options.anonymize) {
    out << "resource names and other free text, stack and project names "
           "(review before publishing)\n";
  } else {
    out << "resource names, URNs and IDs, cloud account and subscription "
           "IDs, e-mail addresses, IP addresses, hostnames, home-directory "
           "paths (--anonymize replaces most)\n";
  }
  RenderInexactStrings(s.inexact_strings, out);
  if (s.reference_leaks > 0) {
    // Rewriting a URN or an ID would break the state (Pulumi refuses it):
    // say so, so nobody shares the output believing it clean.
    out << "pstate: warning: " << s.reference_leaks
        << " known secret(s) sit inside resource names, URNs or IDs and were "
           "left in place (run `pstate scan` to see where)\n";
  }
}

}  // namespace pstate::report
