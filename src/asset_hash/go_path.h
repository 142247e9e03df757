// Go's slash-separated path functions (package `path`, and `path/filepath`
// on Linux, which behaves identically), reproduced byte for byte because the
// engine's member names and file locations are built with them.
#ifndef PSTATE_ASSET_HASH_GO_PATH_H_
#define PSTATE_ASSET_HASH_GO_PATH_H_

#include <string>
#include <string_view>
#include <utility>

namespace pstate::asset_hash {

/// Go path.Clean: collapses `//`, drops `.` segments, resolves `..` lexically
/// (never above `/` for rooted paths), removes a trailing `/`; "" becomes ".".
std::string GoClean(std::string_view path);

/// Go path.Join: joins the non-empty elements with `/` and cleans the result;
/// returns "" when every element is empty.
std::string GoJoin(std::string_view a, std::string_view b);
std::string GoJoin(std::string_view a, std::string_view b, std::string_view c);

/// Go path.Split: everything up to and including the last `/`, and the rest.
std::pair<std::string_view, std::string_view> GoSplit(std::string_view path);

/// Go filepath.IsAbs on Unix: starts with `/`.
inline bool GoIsAbs(std::string_view path) {
  return !path.empty() && path.front() == '/';
}

/// Where the engine looks for a `path` value: absolute paths as they are
/// (not cleaned), relative ones filepath.Join'ed to the working directory.
std::string ResolveAgainst(std::string_view root, std::string_view path);

}  // namespace pstate::asset_hash

#endif  // PSTATE_ASSET_HASH_GO_PATH_H_
