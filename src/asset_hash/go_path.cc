#include "asset_hash/go_path.h"

#include <initializer_list>

namespace pstate::asset_hash {

std::string GoClean(std::string_view path) {
  if (path.empty()) return ".";
  const bool rooted = path.front() == '/';
  const std::size_t n = path.size();
  // `out` plays the role of Go's lazybuf: only the written prefix matters.
  std::string out;
  out.reserve(n);
  std::size_t r = 0;
  std::size_t dotdot = 0;  // out.size() below which `..` cannot backtrack
  if (rooted) {
    out.push_back('/');
    r = 1;
    dotdot = 1;
  }
  while (r < n) {
    if (path[r] == '/') {
      ++r;
    } else if (path[r] == '.' && (r + 1 == n || path[r + 1] == '/')) {
      ++r;
    } else if (path[r] == '.' && path[r + 1] == '.' &&
               (r + 2 == n || path[r + 2] == '/')) {
      r += 2;
      if (out.size() > dotdot) {
        // Back up to the last separator after `dotdot` (the separator is
        // dropped too), exactly as Go's lazybuf index walk does.
        std::size_t w = out.size() - 1;
        while (w > dotdot && out[w] != '/') --w;
        out.resize(w);
      } else if (!rooted) {
        if (!out.empty()) out.push_back('/');
        out.append("..");
        dotdot = out.size();
      }
    } else {
      if ((rooted && out.size() != 1) || (!rooted && !out.empty())) {
        out.push_back('/');
      }
      for (; r < n && path[r] != '/'; ++r) out.push_back(path[r]);
    }
  }
  if (out.empty()) return ".";
  return out;
}

namespace {

std::string JoinList(std::initializer_list<std::string_view> elems) {
  std::string buf;
  for (std::string_view e : elems) {
    if (!buf.empty() || !e.empty()) {
      if (!buf.empty()) buf.push_back('/');
      buf.append(e);
    }
  }
  if (buf.empty()) return "";
  return GoClean(buf);
}

}  // namespace

std::string GoJoin(std::string_view a, std::string_view b) {
  return JoinList({a, b});
}

std::string GoJoin(std::string_view a, std::string_view b, std::string_view c) {
  return JoinList({a, b, c});
}

std::pair<std::string_view, std::string_view> GoSplit(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return {std::string_view(), path};
  return {path.substr(0, slash + 1), path.substr(slash + 1)};
}

std::string ResolveAgainst(std::string_view root, std::string_view path) {
  if (GoIsAbs(path)) return std::string(path);
  return GoJoin(root, path);
}

}  // namespace pstate::asset_hash
