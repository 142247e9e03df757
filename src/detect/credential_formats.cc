#include "detect/credential_formats.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "base/ascii.h"
#include "base/base64.h"

namespace pstate::detect {
namespace {

using ascii::IsAlnum;

bool IsUpperOrDigit(char c) { return ascii::IsUpper(c) || ascii::IsDigit(c); }
bool IsWord(char c) { return IsAlnum(c) || c == '_'; }
bool IsBase64Url(char c) { return IsAlnum(c) || c == '_' || c == '-'; }
bool IsBase64Std(char c) {
  return IsAlnum(c) || c == '+' || c == '/' || c == '=';
}
bool IsSlackChar(char c) { return IsAlnum(c) || c == '-'; }
bool IsGitlabChar(char c) { return IsAlnum(c) || c == '_' || c == '-'; }
bool IsSasChar(char c) {
  return IsAlnum(c) || c == '%' || c == '+' || c == '/' || c == '=';
}
bool IsWebhookChar(char c) { return IsAlnum(c) || c == '/'; }
bool IsUserinfoChar(char c) {
  if (IsAlnum(c)) return true;
  switch (c) {
    case '-':
    case '.':
    case '_':
    case '~':
    case '%':
    case '!':
    case '$':
    case '&':
    case '\'':
    case '(':
    case ')':
    case '*':
    case '+':
    case ',':
    case ';':
    case '=':
    case ':': return true;
    default: return false;
  }
}
bool IsSchemeChar(char c) {
  return IsAlnum(c) || c == '+' || c == '-' || c == '.';
}

// Length of the run of `pred` characters starting at `pos`.
template <typename Pred>
std::size_t RunLength(std::string_view s, std::size_t pos, Pred pred) {
  std::size_t end = pos;
  while (end < s.size() && pred(s[end])) ++end;
  return end - pos;
}

// Like RunLength but stops counting at `cap` (for fixed-length tokens).
template <typename Pred>
std::size_t RunLengthCapped(std::string_view s, std::size_t pos,
                            std::size_t cap, Pred pred) {
  std::size_t end = pos;
  while (end < s.size() && end - pos < cap && pred(s[end])) ++end;
  return end - pos;
}

bool At(std::string_view s, std::size_t pos, std::string_view literal) {
  return s.substr(pos, literal.size()) == literal;
}

class Scanner {
 public:
  explicit Scanner(std::string_view s) : s_(s) {}

  std::optional<FormatMatch> Next(std::size_t from) {
    for (std::size_t i = from; i < s_.size(); ++i) {
      std::optional<FormatMatch> m;
      switch (s_[i]) {
        case 'A': m = MatchA(i); break;
        case 'S':
          m = MatchPrefixedBase64(
              i, "SharedAccessKey=", kinds::kAzureSharedAccessKey);
          break;
        case '-': m = MatchPem(i); break;
        case 'g': m = MatchG(i); break;
        case 'e': m = MatchJwt(i); break;
        case 'x': m = MatchSlack(i); break;
        case 'h': m = MatchSlackWebhook(i); break;
        case 's':
        case 'r': m = MatchStripe(i); break;
        case 'n': m = MatchNpm(i); break;
        case ':': m = MatchUrlPassword(i); break;
        case '?':
        case '&': m = MatchSas(i); break;
        default: break;
      }
      if (m) return m;
    }
    return std::nullopt;
  }

 private:
  bool WordBoundaryBefore(std::size_t pos) const {
    return pos == 0 || !IsAlnum(s_[pos - 1]);
  }
  bool WordBoundaryAfter(std::size_t end) const {
    return end >= s_.size() || !IsAlnum(s_[end]);
  }

  // A prefix followed by exactly `count` characters of `pred`, then a
  // boundary (no further `pred` character).
  template <typename Pred>
  std::optional<FormatMatch> FixedToken(std::size_t pos,
                                        std::string_view prefix,
                                        std::size_t count, Pred pred,
                                        std::string_view kind) const {
    if (!At(s_, pos, prefix)) return std::nullopt;
    const std::size_t body = pos + prefix.size();
    if (RunLengthCapped(s_, body, count + 1, pred) != count)
      return std::nullopt;
    return FormatMatch{kind, pos, prefix.size() + count};
  }

  // A prefix followed by at least `min` characters of `pred` (greedy).
  template <typename Pred>
  std::optional<FormatMatch> OpenToken(std::size_t pos, std::string_view prefix,
                                       std::size_t min, Pred pred,
                                       std::string_view kind) const {
    if (!At(s_, pos, prefix)) return std::nullopt;
    const std::size_t run = RunLength(s_, pos + prefix.size(), pred);
    if (run < min) return std::nullopt;
    return FormatMatch{kind, pos, prefix.size() + run};
  }

  std::optional<FormatMatch> MatchA(std::size_t i) const {
    if (!WordBoundaryBefore(i)) {
      // "AccountKey=" usually follows ';' but may follow anything.
      return MatchPrefixedBase64(
          i, "AccountKey=", kinds::kAzureStorageConnectionString);
    }
    if (At(s_, i, "AKIA") || At(s_, i, "ASIA")) {
      if (auto m = FixedToken(i, s_.substr(i, 4), 16, IsUpperOrDigit,
                              kinds::kAwsAccessKeyId)) {
        if (WordBoundaryAfter(m->offset + m->length)) return m;
      }
    }
    if (auto m = FixedToken(i, "AIza", 35, IsBase64Url, kinds::kGoogleApiKey))
      return m;
    return MatchPrefixedBase64(
        i, "AccountKey=", kinds::kAzureStorageConnectionString);
  }

  std::optional<FormatMatch> MatchPrefixedBase64(std::size_t i,
                                                 std::string_view prefix,
                                                 std::string_view kind) const {
    return OpenToken(i, prefix, 40, IsBase64Std, kind);
  }

  std::optional<FormatMatch> MatchG(std::size_t i) const {
    if (!WordBoundaryBefore(i) || (i > 0 && s_[i - 1] == '_'))
      return std::nullopt;
    if (At(s_, i, "gh") && i + 4 <= s_.size() && s_[i + 3] == '_' &&
        std::string_view("pousr").find(s_[i + 2]) != std::string_view::npos) {
      auto m = FixedToken(i, s_.substr(i, 4), 36, IsAlnum, kinds::kGithubToken);
      if (m && (m->offset + m->length >= s_.size() ||
                !IsWord(s_[m->offset + m->length]))) {
        return m;
      }
      return std::nullopt;
    }
    if (auto m = OpenToken(i, "github_pat_", 60, IsWord, kinds::kGithubToken))
      return m;
    for (std::string_view prefix : {"glpat-", "glptt-", "gldt-", "glrt-"}) {
      if (auto m = OpenToken(i, prefix, 20, IsGitlabChar, kinds::kGitlabToken))
        return m;
    }
    return std::nullopt;
  }

  std::optional<FormatMatch> MatchNpm(std::size_t i) const {
    if (!WordBoundaryBefore(i)) return std::nullopt;
    auto m = FixedToken(i, "npm_", 36, IsAlnum, kinds::kNpmToken);
    if (m && WordBoundaryAfter(m->offset + m->length)) return m;
    return std::nullopt;
  }

  std::optional<FormatMatch> MatchSlack(std::size_t i) const {
    if (!WordBoundaryBefore(i) || !At(s_, i, "xox") || i + 5 > s_.size() ||
        s_[i + 4] != '-' ||
        std::string_view("baprs").find(s_[i + 3]) == std::string_view::npos) {
      return std::nullopt;
    }
    return OpenToken(i, s_.substr(i, 5), 10, IsSlackChar, kinds::kSlackToken);
  }

  std::optional<FormatMatch> MatchSlackWebhook(std::size_t i) const {
    return OpenToken(i, "https://hooks.slack.com/services/", 20, IsWebhookChar,
                     kinds::kSlackWebhookUrl);
  }

  std::optional<FormatMatch> MatchStripe(std::size_t i) const {
    if (!WordBoundaryBefore(i) || (i > 0 && s_[i - 1] == '_'))
      return std::nullopt;
    if (auto m = OpenToken(i, "sk_live_", 20, IsAlnum, kinds::kStripeSecretKey))
      return m;
    return OpenToken(i, "rk_live_", 20, IsAlnum, kinds::kStripeSecretKey);
  }

  std::optional<FormatMatch> MatchSas(std::size_t i) const {
    return OpenToken(i, s_[i] == '?' ? "?sig=" : "&sig=", 40, IsSasChar,
                     kinds::kAzureSasToken);
  }

  // JWTs are only tried at the start of a base64url run, so each character
  // is examined by at most a few candidates: linear overall.
  std::optional<FormatMatch> MatchJwt(std::size_t i) const {
    if (!At(s_, i, "eyJ") ||
        (i > 0 && (IsBase64Url(s_[i - 1]) || s_[i - 1] == '.'))) {
      return std::nullopt;
    }
    const std::size_t header_len = RunLength(s_, i, IsBase64Url);
    std::size_t pos = i + header_len;
    if (header_len < 10 || pos >= s_.size() || s_[pos] != '.')
      return std::nullopt;
    const std::size_t payload_len = RunLength(s_, pos + 1, IsBase64Url);
    pos += 1 + payload_len;
    if (payload_len < 2 || pos >= s_.size() || s_[pos] != '.')
      return std::nullopt;
    const std::size_t signature_len = RunLength(s_, pos + 1, IsBase64Url);
    pos += 1 + signature_len;
    // The header names the algorithm: {"alg":...} (any key order).
    // A JWT's parts are base64url without padding (RFC 7515 section 2).
    Result<std::string> decoded =
        Base64Decode(s_.substr(i, std::min<std::size_t>(header_len, 4096)),
                     Base64Encoding::kRawUrl);
    if (!decoded.ok()) return std::nullopt;
    const std::string& header = *decoded;
    const std::size_t first = header.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || header[first] != '{' ||
        header.find("\"alg\"") == std::string::npos) {
      return std::nullopt;
    }
    return FormatMatch{kinds::kJwt, i, pos - i};
  }

  std::optional<FormatMatch> MatchUrlPassword(std::size_t i) const {
    if (!At(s_, i, "://")) return std::nullopt;
    // Scheme: a letter then scheme characters, right before "://".
    std::size_t scheme = i;
    while (scheme > 0 && i - scheme < 32 && IsSchemeChar(s_[scheme - 1]))
      --scheme;
    while (scheme < i && !((s_[scheme] >= 'a' && s_[scheme] <= 'z') ||
                           (s_[scheme] >= 'A' && s_[scheme] <= 'Z'))) {
      ++scheme;
    }
    if (scheme == i) return std::nullopt;
    const std::size_t user = i + 3;
    const std::size_t userinfo_len = RunLength(s_, user, IsUserinfoChar);
    const std::size_t at = user + userinfo_len;
    if (at >= s_.size() || s_[at] != '@') return std::nullopt;
    const std::string_view userinfo = s_.substr(user, userinfo_len);
    const std::size_t colon = userinfo.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    const std::string_view password = userinfo.substr(colon + 1);
    if (password.empty() || std::all_of(password.begin(), password.end(),
                                        [](char c) { return c == '*'; })) {
      return std::nullopt;
    }
    return FormatMatch{kinds::kUrlWithPassword, scheme, at + 1 - scheme};
  }

  std::optional<FormatMatch> MatchPem(std::size_t i) {
    static constexpr std::string_view kBegin = "-----BEGIN ";
    static constexpr std::string_view kDashes = "-----";
    if (!At(s_, i, kBegin)) return std::nullopt;
    const std::size_t label_start = i + kBegin.size();
    const std::size_t label_len =
        RunLengthCapped(s_, label_start, 64,
                        [](char c) { return IsUpperOrDigit(c) || c == ' '; });
    const std::string_view label = s_.substr(label_start, label_len);
    const std::size_t header_end = label_start + label_len + kDashes.size();
    if (!At(s_, label_start + label_len, kDashes)) return std::nullopt;
    std::string_view kind;
    if (label == "OPENSSH PRIVATE KEY") {
      kind = kinds::kPrivateSshKey;
    } else if (label == "PGP PRIVATE KEY BLOCK") {
      kind = kinds::kPgpPrivateKey;
    } else if (label == "PRIVATE KEY" ||
               (label.size() > 12 &&
                label.substr(label.size() - 12) == " PRIVATE KEY")) {
      kind = kinds::kPemPrivateKey;
    } else {
      return std::nullopt;
    }
    // A real key has a body: 32+ base64 characters soon after the header
    // (headers such as "Proc-Type:" in between are skipped).
    std::size_t body_chars = 0;
    std::size_t pos = header_end;
    for (; pos < s_.size() && pos < header_end + 512 && body_chars < 32;
         ++pos) {
      if (At(s_, pos, kDashes)) break;
      if (IsBase64Std(s_[pos])) ++body_chars;
    }
    if (body_chars < 32) return std::nullopt;
    const std::size_t end_marker = FindEndMarker(header_end);
    std::size_t match_end;
    if (end_marker != std::string_view::npos) {
      const std::size_t close = s_.substr(end_marker + 9, 80).find(kDashes);
      match_end = close == std::string_view::npos
                      ? end_marker + 9
                      : end_marker + 9 + close + kDashes.size();
    } else {
      match_end = pos + RunLength(s_, pos, [](char c) {
                    return IsBase64Std(c) || c == '\n' || c == '\r';
                  });
    }
    return FormatMatch{kind, i, match_end - i};
  }

  // The first "-----END " at or after `from`, cached so that many headers
  // sharing one (or no) END marker cost one search in all.
  std::size_t FindEndMarker(std::size_t from) {
    if (end_cache_valid_ &&
        (end_cache_ == std::string_view::npos || end_cache_ >= from) &&
        end_cache_from_ <= from) {
      return end_cache_;
    }
    end_cache_ = s_.find("-----END ", from);
    end_cache_from_ = from;
    end_cache_valid_ = true;
    return end_cache_;
  }

  std::string_view s_;
  bool end_cache_valid_ = false;
  std::size_t end_cache_ = 0;
  std::size_t end_cache_from_ = 0;
};

}  // namespace

std::optional<FormatMatch> DetectCredentialFormat(std::string_view value) {
  return FindCredentialFormat(value, 0);
}

std::optional<FormatMatch> FindCredentialFormat(std::string_view value,
                                                std::size_t from) {
  return Scanner(value).Next(from);
}

std::vector<FormatMatch> FindAllCredentialFormats(std::string_view value) {
  std::vector<FormatMatch> matches;
  Scanner scanner(value);
  std::size_t pos = 0;
  while (auto m = scanner.Next(pos)) {
    matches.push_back(*m);
    pos = m->offset + std::max<std::size_t>(m->length, 1);
  }
  return matches;
}

}  // namespace pstate::detect
