// Well-known credential formats found anywhere inside a string, by small
// hand-written matchers (no regular expressions): one left-to-right pass,
// linear in the length of the string, so multi-megabyte values are cheap.
//
// Formats (kind: what is matched; every token needs a non-word character or
// the string edge on both sides):
//  aws-access-key-id       AKIA or ASIA + 16 [A-Z0-9]
//  pem-private-key         "-----BEGIN <label>PRIVATE KEY-----" (RSA, EC, DSA,
//                          ENCRYPTED, none) followed within 512 bytes by at
//                          least 32 base64 characters; the match runs to the
//                          end of the next "-----END ...-----" line if any
//  private-ssh-key         the same with label "OPENSSH PRIVATE KEY"
//  pgp-private-key         the same with label "PGP PRIVATE KEY BLOCK"
//  github-token            ghp_ gho_ ghu_ ghs_ ghr_ + 36 [A-Za-z0-9], or
//                          github_pat_ + at least 60 [A-Za-z0-9_]
//  gitlab-token            glpat- glptt- gldt- glrt- + at least 20
//  [A-Za-z0-9_-] npm-token               npm_ + 36 [A-Za-z0-9] slack-token
//  xoxb- xoxa- xoxp- xoxr- xoxs- + at least 10 [A-Za-z0-9-] slack-webhook-url
//  https://hooks.slack.com/services/ + at least 20
//                          [A-Za-z0-9/]
//  google-api-key          AIza + 35 [A-Za-z0-9_-]
//  stripe-secret-key       sk_live_ or rk_live_ + at least 20 [A-Za-z0-9]
//                          (test-mode keys are not reported)
//  jwt                     three '.'-separated base64url segments whose first
//                          segment (at least 10 characters, starting "eyJ")
//                          decodes to a JSON object text containing "alg"
//  azure-storage-connection-string
//                          AccountKey= + at least 40 base64 characters
//  azure-shared-access-key SharedAccessKey= + at least 40 base64 characters
//  azure-sas-token         ?sig= or &sig= + at least 40 [A-Za-z0-9%+/=]
//  url-with-password       <scheme>://<user>:<password>@ with a non-empty
//                          password that is not a run of '*'
#ifndef PSTATE_DETECT_CREDENTIAL_FORMATS_H_
#define PSTATE_DETECT_CREDENTIAL_FORMATS_H_

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace pstate::detect {

namespace kinds {
inline constexpr std::string_view kAwsAccessKeyId = "aws-access-key-id";
inline constexpr std::string_view kPemPrivateKey = "pem-private-key";
inline constexpr std::string_view kPrivateSshKey = "private-ssh-key";
inline constexpr std::string_view kPgpPrivateKey = "pgp-private-key";
inline constexpr std::string_view kGithubToken = "github-token";
inline constexpr std::string_view kGitlabToken = "gitlab-token";
inline constexpr std::string_view kNpmToken = "npm-token";
inline constexpr std::string_view kSlackToken = "slack-token";
inline constexpr std::string_view kSlackWebhookUrl = "slack-webhook-url";
inline constexpr std::string_view kGoogleApiKey = "google-api-key";
inline constexpr std::string_view kStripeSecretKey = "stripe-secret-key";
inline constexpr std::string_view kJwt = "jwt";
inline constexpr std::string_view kAzureStorageConnectionString =
    "azure-storage-connection-string";
inline constexpr std::string_view kAzureSharedAccessKey =
    "azure-shared-access-key";
inline constexpr std::string_view kAzureSasToken = "azure-sas-token";
inline constexpr std::string_view kUrlWithPassword = "url-with-password";
}  // namespace kinds

/// One occurrence: `kind` is one of the kinds:: constants (static storage);
/// [offset, offset + length) is the matched span of the scanned string.
struct FormatMatch {
  std::string_view kind;
  std::size_t offset = 0;
  std::size_t length = 0;
};

/// The leftmost credential format in `value`, if any.
std::optional<FormatMatch> DetectCredentialFormat(std::string_view value);

/// The leftmost match starting at or after `from` (context before `from` is
/// still used for boundary checks).
std::optional<FormatMatch> FindCredentialFormat(std::string_view value,
                                                std::size_t from);

/// All non-overlapping matches, left to right (for redaction).
std::vector<FormatMatch> FindAllCredentialFormats(std::string_view value);

}  // namespace pstate::detect

#endif  // PSTATE_DETECT_CREDENTIAL_FORMATS_H_
