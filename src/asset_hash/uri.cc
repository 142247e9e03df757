#include "asset_hash/uri.h"

#include <algorithm>

#include "base/ascii.h"

namespace pstate::asset_hash {
namespace {

using ascii::IsAlpha;
using ascii::IsDigit;
constexpr auto Unhex = ascii::HexValue;

pstate::Status Bad(std::string message) {
  return pstate::Status(Errc::kFormat, std::move(message));
}

// Go's shouldEscape(c, encodeHost) for ASCII bytes: characters a host may
// contain unescaped.
bool HostByteAllowed(char c) {
  if (IsAlpha(c) || IsDigit(c)) return true;
  return std::string_view("!$&'()*+,;=:[]<>\"-_.~").find(c) !=
         std::string_view::npos;
}

// Go unescape() in path, fragment or host mode (no '+' translation).
Result<std::string> Unescape(std::string_view s, bool host) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '%') {
      if (i + 2 >= s.size() || Unhex(s[i + 1]) < 0 || Unhex(s[i + 2]) < 0) {
        return Bad("invalid URL escape in '" + std::string(s) + "'");
      }
      const int hi = Unhex(s[i + 1]);
      if (host && hi < 8 && s.substr(i, 3) != "%25") {
        return Bad("invalid URL escape in host '" + std::string(s) + "'");
      }
      out.push_back(static_cast<char>(hi * 16 + Unhex(s[i + 2])));
      i += 2;
      continue;
    }
    if (host && static_cast<unsigned char>(c) < 0x80 && !HostByteAllowed(c)) {
      return Bad("invalid character in host name '" + std::string(s) + "'");
    }
    out.push_back(c);
  }
  return out;
}

Result<std::string> ParseHost(std::string_view host) {
  if (!host.empty() && host.front() == '[') {
    const std::size_t close = host.rfind(']');
    if (close == std::string_view::npos) {
      return Bad("missing ']' in host '" + std::string(host) + "'");
    }
    std::string_view port = host.substr(close + 1);
    if (!port.empty() && port.front() != ':') {
      return Bad("invalid port after host '" + std::string(host) + "'");
    }
    if (!std::all_of(port.begin() + (port.empty() ? 0 : 1), port.end(),
                     IsDigit)) {
      return Bad("invalid port in host '" + std::string(host) + "'");
    }
  } else if (std::size_t colon = host.rfind(':');
             colon != std::string_view::npos) {
    std::string_view port = host.substr(colon + 1);
    if (!std::all_of(port.begin(), port.end(), IsDigit)) {
      return Bad("invalid port in host '" + std::string(host) + "'");
    }
  }
  return Unescape(host, /*host=*/true);
}

}  // namespace

Result<ParsedUri> ParseUri(std::string_view raw) {
  ParsedUri uri;
  if (std::any_of(raw.begin(), raw.end(), [](char c) {
        return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
      })) {
    return Bad("invalid control character in URL");
  }
  std::string_view rest = raw;
  if (std::size_t hash = rest.find('#'); hash != std::string_view::npos) {
    Result<std::string> fragment =
        Unescape(rest.substr(hash + 1), /*host=*/false);
    if (!fragment.ok()) return fragment.status();
    uri.fragment = std::move(*fragment);
    rest = rest.substr(0, hash);
  }
  if (rest == "*") {
    uri.path = "*";
    return uri;
  }
  // Go getScheme.
  for (std::size_t i = 0; i < rest.size(); ++i) {
    const char c = rest[i];
    if (IsAlpha(c)) continue;
    if (IsDigit(c) || c == '+' || c == '-' || c == '.') {
      if (i == 0) break;
      continue;
    }
    if (c == ':') {
      if (i == 0) return Bad("missing protocol scheme");
      uri.scheme = std::string(rest.substr(0, i));
      uri.scheme = ascii::ToLower(uri.scheme);
      rest = rest.substr(i + 1);
    }
    break;
  }
  if (!rest.empty() && rest.back() == '?' &&
      std::count(rest.begin(), rest.end(), '?') == 1) {
    rest.remove_suffix(1);
  } else if (std::size_t q = rest.find('?'); q != std::string_view::npos) {
    uri.raw_query = std::string(rest.substr(q + 1));
    rest = rest.substr(0, q);
  }
  if (rest.empty() || rest.front() != '/') {
    if (!uri.scheme.empty()) {
      uri.opaque = std::string(rest);
      return uri;
    }
    const std::size_t colon = rest.find(':');
    if (colon != std::string_view::npos && colon < rest.find('/')) {
      return Bad("first path segment in URL cannot contain colon");
    }
  }
  const bool has_authority =
      rest.substr(0, 2) == "//" &&
      (!uri.scheme.empty() || rest.substr(0, 3) != "///");
  if (has_authority) {
    std::string_view authority = rest.substr(2);
    rest = std::string_view();
    if (std::size_t slash = authority.find('/');
        slash != std::string_view::npos) {
      rest = authority.substr(slash);
      authority = authority.substr(0, slash);
    }
    std::string_view host = authority;
    if (std::size_t at = authority.rfind('@'); at != std::string_view::npos) {
      uri.has_user = true;
      host = authority.substr(at + 1);
    }
    Result<std::string> decoded = ParseHost(host);
    if (!decoded.ok()) return decoded.status();
    uri.host = std::move(*decoded);
  }
  Result<std::string> path = Unescape(rest, /*host=*/false);
  if (!path.ok()) return path.status();
  uri.path = std::move(*path);
  return uri;
}

std::string RedactUserinfo(std::string_view raw) {
  const std::size_t slashes = raw.find("//");
  if (slashes == std::string_view::npos) return std::string(raw);
  const std::size_t start = slashes + 2;
  std::size_t end = raw.find_first_of("/?#", start);
  if (end == std::string_view::npos) end = raw.size();
  // The last '@' ends the user information, as in Go's url.Parse.
  const std::size_t at = raw.substr(start, end - start).rfind('@');
  if (at == std::string_view::npos) return std::string(raw);
  return std::string(raw.substr(0, start)) + "***" +
         std::string(raw.substr(start + at));
}

}  // namespace pstate::asset_hash
