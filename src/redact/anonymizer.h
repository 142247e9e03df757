// `pstate redact --anonymize`: consistent pseudonyms for what identifies a
// user or an organization in a state once its secrets are gone.
//
// Kinds, and where they are recognised:
//  - AWS account IDs: the account field of an ARN (arn:aws*:SVC:REGION:ACCT:)
//    and ECR hosts (ACCT.dkr.ecr.), and values of account-ID properties;
//  - Azure subscription, tenant and client IDs: GUIDs after /subscriptions/
//    and values of subscriptionId/tenantId/clientId properties;
//  - GCP project numbers: digits after projects/ and values of
//    projectNumber properties;
//  - e-mail addresses, IPv4 addresses (not 0.0.0.0, 127/8 or
//    255.255.255.255), hostnames under the clouds' public suffixes (every
//    label before the cloud's service suffix except regions and service
//    words), and home-directory user names (/home/U/, /Users/U/,
//    C:\Users\U\).
// Account IDs, GUIDs and project numbers recognised anywhere (a first pass,
// Learn) are replaced wherever they occur as a whole token, in every string
// of the state: URNs, IDs, references, outputs, the manifest. A pseudonym
// is keyed (HMAC-SHA256, crypto::Fingerprinter, the key of --fingerprint)
// and has the shape of what it replaces (12 digits, a GUID, 10.x.y.z, an
// e-mail address at example.com, a DNS label), so references still resolve
// and the state verifies as before; the same key gives the same pseudonyms
// across files, so diffs of two anonymized states still line up.
#ifndef PSTATE_REDACT_ANONYMIZER_H_
#define PSTATE_REDACT_ANONYMIZER_H_

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "crypto/fingerprint.h"
#include "json/value.h"

namespace pstate::redact {

enum class IdentityKind : std::uint8_t {
  kAwsAccount,
  kAzureId,
  kGcpProject,
  kEmail,
  kIpAddress,
  kHostname,
  kHomeUser,
};
inline constexpr std::size_t kIdentityKinds = 7;

/// "AWS account IDs", "e-mail addresses", ... (for the summary).
std::string_view IdentityKindName(IdentityKind kind);

/// Distinct values replaced, per kind.
struct AnonymizeStats {
  std::uint64_t distinct[kIdentityKinds] = {};
};

class Anonymizer {
 public:
  explicit Anonymizer(crypto::Fingerprinter key);

  /// First pass: the identifiers only their context shows (account IDs,
  /// GUIDs, project numbers) anywhere in `value`.
  void Learn(const json::Value& value);
  /// The same for one decoded string under the property name `key` (""
  /// when none).
  void LearnText(std::string_view text, std::string_view key);

  /// `text` with every identifying token replaced; nullopt when it holds
  /// none.
  std::optional<std::string> Apply(std::string_view text);

  const AnonymizeStats& stats() const { return stats_; }

 private:
  std::string Pseudonym(IdentityKind kind, std::string_view value);
  std::string ReplaceLearned(std::string_view text);
  std::string ReplaceEmails(std::string_view text);
  std::string ReplaceIps(std::string_view text);
  std::string ReplaceHosts(std::string_view text);
  std::string ReplaceHomes(std::string_view text);

  crypto::Fingerprinter key_;
  std::unordered_set<std::string> accounts_, guids_, projects_;
  std::unordered_map<std::string, std::string> pseudonyms_;
  AnonymizeStats stats_;
};

}  // namespace pstate::redact

#endif  // PSTATE_REDACT_ANONYMIZER_H_
