#include "state/state_writer.h"

#include <algorithm>

namespace pstate::state {
namespace {

using Fn = RewriteFn;

/// Returns true and sets *out when something under `v` changed.
bool Rewrite(const json::Value& v, const json::Value* key, json::Arena& arena,
             const Fn& fn, json::Value* out) {
  if (std::optional<json::Value> replacement = fn(v, key)) {
    *out = *replacement;
    return true;
  }
  if (v.is_array()) {
    json::Value* copy = nullptr;
    for (std::size_t i = 0; i < v.size; ++i) {
      json::Value changed;
      bool did = Rewrite(v.elements[i], nullptr, arena, fn, &changed);
      if (!did) continue;
      if (!copy) {
        copy = arena.Allocate<json::Value>(v.size);
        std::copy(v.elements, v.elements + v.size, copy);
      }
      copy[i] = changed;
    }
    if (!copy) return false;
    *out = v;
    out->elements = copy;
    return true;
  }
  if (v.is_object()) {
    json::Member* copy = nullptr;
    for (std::size_t i = 0; i < v.size; ++i) {
      const json::Member& m = v.members[i];
      json::Value changed;
      bool did = Rewrite(m.value, &m.key, arena, fn, &changed);
      if (!did) continue;
      if (!copy) {
        copy = arena.Allocate<json::Member>(v.size);
        std::copy(v.members, v.members + v.size, copy);
      }
      copy[i].value = changed;
    }
    if (!copy) return false;
    *out = v;
    out->members = copy;
    return true;
  }
  return false;
}

}  // namespace

json::Value RewriteValue(const json::Value& root, json::Arena& arena,
                         const Fn& fn) {
  json::Value out;
  return Rewrite(root, nullptr, arena, fn, &out) ? out : root;
}

}  // namespace pstate::state
