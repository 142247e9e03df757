// The part of Go's net/url.Parse the engine's asset URIs depend on: scheme,
// user info presence, host, decoded path, query and fragment.
#ifndef PSTATE_ASSET_HASH_URI_H_
#define PSTATE_ASSET_HASH_URI_H_

#include <string>
#include <string_view>

#include "base/result.h"

namespace pstate::asset_hash {

struct ParsedUri {
  std::string scheme;     ///< lowercased, "" when absent
  bool has_user = false;  ///< an '@' in the authority (Go: User != nil)
  std::string host;       ///< decoded host[:port]
  std::string path;       ///< percent-decoded path (Go url.Path)
  std::string opaque;     ///< "scheme:rest" without a leading '/'
  std::string raw_query;  ///< after '?', "" for none or a bare trailing '?'
  std::string fragment;   ///< decoded, after '#'
};

/// Parses like Go url.Parse; fails (kFormat) where Go fails: control bytes,
/// "missing protocol scheme", bad percent escapes, an invalid port or host
/// character, a colon in the first segment of a scheme-less relative path.
Result<ParsedUri> ParseUri(std::string_view raw);

/// `raw` fit to print: user information in the authority
/// ("https://user:pass@host/...") becomes "***" ("https://***@host/...").
/// Credentials in a URL are secrets that `pstate scan` reports; no message
/// may echo them.
std::string RedactUserinfo(std::string_view raw);

}  // namespace pstate::asset_hash

#endif  // PSTATE_ASSET_HASH_URI_H_
