#include "redact/anonymizer.h"

#include <array>
#include <cstring>
#include <utility>
#include <vector>

#include "base/ascii.h"

namespace pstate::redact {
namespace {

bool IsHex(char c) { return ascii::IsHexDigit(c); }
bool IsHostChar(char c) { return ascii::IsAlnum(c) || c == '-' || c == '.'; }
bool IsEmailLocal(char c) {
  return ascii::IsAlnum(c) || c == '.' || c == '_' || c == '%' || c == '+' ||
         c == '-';
}

/// 8-4-4-4-12 hex digits.
bool IsGuid(std::string_view s) {
  if (s.size() != 36) return false;
  for (std::size_t i = 0; i < 36; ++i) {
    bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? s[i] != '-' : !IsHex(s[i])) return false;
  }
  return true;
}

bool OneOfFold(std::string_view key,
               std::initializer_list<std::string_view> l) {
  for (std::string_view k : l) {
    if (ascii::EqualFold(key, k)) return true;
  }
  return false;
}

/// The cloud suffixes whose hosts name a customer's resources.
constexpr std::array<std::string_view, 19> kCloudSuffixes = {
    ".amazonaws.com",
    ".amazonaws.com.cn",
    ".cloudfront.net",
    ".elasticbeanstalk.com",
    ".awsapps.com",
    ".azure.com",
    ".windows.net",
    ".azurewebsites.net",
    ".cloudapp.net",
    ".azurecr.io",
    ".azmk8s.io",
    ".azure-api.net",
    ".azureedge.net",
    ".appspot.com",
    ".run.app",
    ".cloudfunctions.net",
    ".googleusercontent.com",
    ".firebaseio.com",
    ".web.app"};

/// Labels that name a cloud's service or region, not a customer's resource.
bool IsServiceLabel(std::string_view label) {
  static constexpr std::array<std::string_view, 30> kWords = {
      "s3",          "ec2",       "sts",      "iam",       "eks",
      "rds",         "elb",       "dkr",      "ecr",       "execute-api",
      "lambda-url",  "blob",      "core",     "file",      "queue",
      "table",       "dfs",       "web",      "vault",     "database",
      "servicebus",  "documents", "redis",    "cache",     "scm",
      "privatelink", "compute",   "internal", "dualstack", "www"};
  for (std::string_view w : kWords) {
    if (ascii::EqualFold(label, w)) return true;
  }
  // Regions: us-west-2, eu-central-1, us-gov-west-1, cn-north-1.
  std::size_t last = label.rfind('-');
  if (last != std::string_view::npos && last + 1 < label.size() &&
      ascii::AllDigits(label.substr(last + 1)) && label.find('-') != last) {
    return true;
  }
  return false;
}

}  // namespace

std::string_view IdentityKindName(IdentityKind kind) {
  switch (kind) {
    case IdentityKind::kAwsAccount: return "AWS account IDs";
    case IdentityKind::kAzureId: return "Azure subscription/tenant IDs";
    case IdentityKind::kGcpProject: return "GCP project numbers";
    case IdentityKind::kEmail: return "e-mail addresses";
    case IdentityKind::kIpAddress: return "IP addresses";
    case IdentityKind::kHostname: return "hostname labels";
    case IdentityKind::kHomeUser: return "home-directory user names";
  }
  return "";
}

Anonymizer::Anonymizer(crypto::Fingerprinter key) : key_(std::move(key)) {}

void Anonymizer::Learn(const json::Value& value) {
  struct Item {
    const json::Value* v;
    std::string key;
  };
  std::vector<Item> stack{{&value, ""}};
  while (!stack.empty()) {
    Item item = std::move(stack.back());
    stack.pop_back();
    const json::Value& v = *item.v;
    if (v.is_string()) {
      LearnText(v.Str(), item.key);
    } else if (v.is_object()) {
      for (const json::Member& m : v.object()) {
        stack.push_back({&m.value, m.key.Str()});
      }
    } else if (v.is_array()) {
      for (const json::Value& e : v.array()) stack.push_back({&e, item.key});
    }
  }
}

void Anonymizer::LearnText(std::string_view text, std::string_view key) {
  if (!key.empty()) {
    if (OneOfFold(key, {"accountId", "account_id", "awsAccountId", "ownerId",
                        "owner_id"}) &&
        text.size() == 12 && ascii::AllDigits(text)) {
      accounts_.emplace(text);
    }
    if (OneOfFold(key, {"subscriptionId", "subscription_id", "tenantId",
                        "tenant_id", "clientId", "client_id"}) &&
        IsGuid(text)) {
      guids_.insert(ascii::ToLower(text));
    }
    if (OneOfFold(key, {"projectNumber", "project_number"}) && !text.empty() &&
        text.size() <= 20 && ascii::AllDigits(text)) {
      projects_.emplace(text);
    }
  }
  // ARNs: arn:PARTITION:SERVICE:REGION:ACCOUNT:...
  for (std::size_t at = text.find("arn:aws"); at != std::string_view::npos;
       at = text.find("arn:aws", at + 1)) {
    std::size_t p = at;
    for (int colons = 0; colons < 4 && p != std::string_view::npos; ++colons) {
      p = text.find(':', p + 1);
    }
    if (p == std::string_view::npos) continue;
    std::string_view account = text.substr(p + 1, 12);
    if (account.size() == 12 && ascii::AllDigits(account) &&
        (p + 13 == text.size() || text[p + 13] == ':')) {
      accounts_.emplace(account);
    }
  }
  for (std::size_t at = text.find(".dkr.ecr."); at != std::string_view::npos;
       at = text.find(".dkr.ecr.", at + 1)) {
    if (at >= 12) {
      std::string_view account = text.substr(at - 12, 12);
      if (ascii::AllDigits(account) &&
          (at == 12 || !ascii::IsAlnum(text[at - 13]))) {
        accounts_.emplace(account);
      }
    }
  }
  std::string lower = ascii::ToLower(text);
  for (std::size_t at = lower.find("/subscriptions/"); at != std::string::npos;
       at = lower.find("/subscriptions/", at + 1)) {
    std::string_view guid = std::string_view(lower).substr(at + 15, 36);
    if (IsGuid(guid)) guids_.emplace(guid);
  }
  for (std::size_t at = text.find("projects/"); at != std::string_view::npos;
       at = text.find("projects/", at + 1)) {
    std::size_t b = at + 9, e = b;
    while (e < text.size() && ascii::IsDigit(text[e])) ++e;
    if (e - b >= 6 && e - b <= 20 && (e == text.size() || text[e] == '/')) {
      projects_.emplace(text.substr(b, e - b));
    }
  }
}

std::string Anonymizer::Pseudonym(IdentityKind kind, std::string_view value) {
  std::string id = std::to_string(static_cast<int>(kind)) + ":";
  id += value;
  auto it = pseudonyms_.find(id);
  if (it != pseudonyms_.end()) return it->second;
  std::string fp = key_.Fingerprint(id);
  std::string_view hex =
      std::string_view(fp).substr(std::strlen(crypto::kFingerprintPrefix));
  std::string out;
  switch (kind) {
    case IdentityKind::kAwsAccount:
    case IdentityKind::kGcpProject:
      // As many digits as the original (an account ID stays 12 digits).
      for (std::size_t i = 0; i < value.size(); ++i) {
        out.push_back(
            static_cast<char>('0' + ascii::HexValue(hex[i % hex.size()]) % 10));
      }
      break;
    case IdentityKind::kAzureId:
      out = std::string(hex.substr(0, 8)) + "-" +
            std::string(hex.substr(8, 4)) + "-" +
            std::string(hex.substr(12, 4)) + "-" +
            std::string(hex.substr(16, 4)) + "-" +
            std::string(hex.substr(20, 12));
      break;
    case IdentityKind::kEmail:
      out = "user-" + std::string(hex.substr(0, 8)) + "@example.com";
      break;
    case IdentityKind::kIpAddress: {
      auto byte = [&](std::size_t i) {
        return std::to_string(ascii::HexValue(hex[2 * i]) * 16 +
                              ascii::HexValue(hex[2 * i + 1]));
      };
      out = "10." + byte(0) + "." + byte(1) + "." + byte(2);
      break;
    }
    case IdentityKind::kHostname:
      out = "h" + std::string(hex.substr(0, 10));
      break;
    case IdentityKind::kHomeUser:
      out = "user-" + std::string(hex.substr(0, 6));
      break;
  }
  ++stats_.distinct[static_cast<std::size_t>(kind)];
  pseudonyms_.emplace(std::move(id), out);
  return out;
}

std::string Anonymizer::ReplaceLearned(std::string_view text) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    bool boundary = i == 0 || !ascii::IsAlnum(text[i - 1]);
    if (boundary && IsHex(c) && i + 36 <= text.size() &&
        IsGuid(text.substr(i, 36)) &&
        (i + 36 == text.size() || !ascii::IsAlnum(text[i + 36]))) {
      std::string lower = ascii::ToLower(text.substr(i, 36));
      if (guids_.count(lower)) {
        out += Pseudonym(IdentityKind::kAzureId, lower);
        i += 36;
        continue;
      }
    }
    if (boundary && ascii::IsDigit(c)) {
      std::size_t e = i;
      while (e < text.size() && ascii::IsDigit(text[e])) ++e;
      std::string_view run = text.substr(i, e - i);
      if (e == text.size() || !ascii::IsAlnum(text[e])) {
        if (accounts_.count(std::string(run))) {
          out += Pseudonym(IdentityKind::kAwsAccount, run);
          i = e;
          continue;
        }
        if (projects_.count(std::string(run))) {
          out += Pseudonym(IdentityKind::kGcpProject, run);
          i = e;
          continue;
        }
      }
      out += run;
      i = e;
      continue;
    }
    out.push_back(c);
    ++i;
  }
  return out;
}

std::string Anonymizer::ReplaceEmails(std::string_view text) {
  std::string out;
  std::size_t copied = 0;
  for (std::size_t at = text.find('@'); at != std::string_view::npos;
       at = text.find('@', at + 1)) {
    if (at < copied) continue;
    std::size_t b = at;
    while (b > copied && IsEmailLocal(text[b - 1])) --b;
    std::size_t e = at + 1;
    while (e < text.size() && IsHostChar(text[e])) ++e;
    while (e > at + 1 && (text[e - 1] == '.' || text[e - 1] == '-')) --e;
    std::string_view domain = text.substr(at + 1, e - at - 1);
    std::size_t dot = domain.rfind('.');
    if (b == at || dot == std::string_view::npos || dot + 3 > domain.size()) {
      continue;
    }
    bool tld = true;
    for (char ch : domain.substr(dot + 1)) tld = tld && ascii::IsAlpha(ch);
    if (!tld) continue;
    out += text.substr(copied, b - copied);
    out +=
        Pseudonym(IdentityKind::kEmail, ascii::ToLower(text.substr(b, e - b)));
    copied = e;
  }
  out += text.substr(copied);
  return out;
}

std::string Anonymizer::ReplaceIps(std::string_view text) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (ascii::IsDigit(text[i]) &&
        (i == 0 || !(ascii::IsAlnum(text[i - 1]) || text[i - 1] == '.'))) {
      std::size_t p = i;
      int octets[4] = {0, 0, 0, 0};
      bool ok = true;
      for (int k = 0; k < 4 && ok; ++k) {
        std::size_t b = p;
        int n = 0;
        while (p < text.size() && ascii::IsDigit(text[p]) && p - b < 3) {
          n = n * 10 + (text[p] - '0');
          ++p;
        }
        ok = p > b && n <= 255;
        octets[k] = n;
        if (ok && k < 3) {
          ok = p < text.size() && text[p] == '.';
          ++p;
        }
      }
      ok =
          ok && (p == text.size() || !(ascii::IsAlnum(text[p]) ||
                                       (text[p] == '.' && p + 1 < text.size() &&
                                        ascii::IsDigit(text[p + 1]))));
      if (ok) {
        std::string_view ip = text.substr(i, p - i);
        bool keep = octets[0] == 127 || octets[0] == 0 ||
                    (octets[0] == 255 && octets[1] == 255 && octets[2] == 255 &&
                     octets[3] == 255);
        out += keep ? std::string(ip) : Pseudonym(IdentityKind::kIpAddress, ip);
        i = p;
        continue;
      }
    }
    out.push_back(text[i]);
    ++i;
  }
  return out;
}

std::string Anonymizer::ReplaceHosts(std::string_view text) {
  std::string lower = ascii::ToLower(text);
  std::string out;
  std::size_t copied = 0;
  // Each host once: find its end at a suffix, then its start.
  for (std::size_t i = 0; i < lower.size();) {
    std::size_t best = std::string::npos, len = 0;
    for (std::string_view suffix : kCloudSuffixes) {
      std::size_t at = lower.find(suffix, i);
      if (at == std::string::npos) continue;
      std::size_t end = at + suffix.size();
      if (end < lower.size() && IsHostChar(lower[end]) && lower[end] != '.') {
        continue;  // part of a longer name; look for a later one
      }
      if (at < best || (at == best && suffix.size() > len)) {
        best = at;
        len = suffix.size();
      }
    }
    if (best == std::string::npos) break;
    std::size_t b = best;
    while (b > copied && IsHostChar(text[b - 1])) --b;
    // The labels before the suffix.
    std::string_view labels = text.substr(b, best - b);
    std::string host;
    std::size_t pos = 0;
    bool changed = false;
    while (pos <= labels.size() && !labels.empty()) {
      std::size_t dot = labels.find('.', pos);
      if (dot == std::string_view::npos) dot = labels.size();
      std::string_view label = labels.substr(pos, dot - pos);
      if (!host.empty() || pos > 0) host += '.';
      if (!label.empty() && !IsServiceLabel(label)) {
        host += Pseudonym(IdentityKind::kHostname, ascii::ToLower(label));
        changed = true;
      } else {
        host += label;
      }
      pos = dot + 1;
    }
    if (changed) {
      out += text.substr(copied, b - copied);
      out += host;
      copied = best;
    }
    i = best + len;
  }
  out += text.substr(copied);
  return out;
}

std::string Anonymizer::ReplaceHomes(std::string_view text) {
  std::string out;
  std::size_t copied = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t at = std::string_view::npos, plen = 0;
    char sep = '/';
    for (auto [prefix, s] : {std::pair<std::string_view, char>{"/home/", '/'},
                             {"/Users/", '/'},
                             {"\\Users\\", '\\'}}) {
      std::size_t f = text.find(prefix, i);
      if (f < at) {
        at = f;
        plen = prefix.size();
        sep = s;
      }
    }
    if (at == std::string_view::npos) break;
    std::size_t b = at + plen, e = b;
    while (e < text.size() && text[e] != sep && text[e] != '"' &&
           !ascii::IsSpace(text[e]) && text[e] != ':') {
      ++e;
    }
    if (e > b && (e == text.size() || text[e] == sep)) {
      out += text.substr(copied, b - copied);
      out += Pseudonym(IdentityKind::kHomeUser, text.substr(b, e - b));
      copied = e;
    }
    i = e > b ? e : b;
  }
  out += text.substr(copied);
  return out;
}

std::optional<std::string> Anonymizer::Apply(std::string_view text) {
  std::string s(text);
  if (!accounts_.empty() || !guids_.empty() || !projects_.empty()) {
    s = ReplaceLearned(s);
  }
  if (s.find('@') != std::string::npos) s = ReplaceEmails(s);
  if (s.find('.') != std::string::npos) {
    s = ReplaceIps(s);
    s = ReplaceHosts(s);
  }
  if (s.find("/home/") != std::string::npos ||
      s.find("Users") != std::string::npos) {
    s = ReplaceHomes(s);
  }
  if (s == text) return std::nullopt;
  return s;
}

}  // namespace pstate::redact
