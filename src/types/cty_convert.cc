// go-cty's conversion engine over pstate's cty values: the dispatch of
// cty/convert/conversion.go, the collection, object, tuple and primitive
// conversions (conversion_*.go), unification (unify.go, sort_types.go,
// compare_types.go), dynamicReplace (conversion_dynamic.go) and the
// mismatch messages (mismatch_msg.go). The structure follows go-cty so the
// same inputs take the same paths; messages are pstate's wording of the
// same facts, with the failing place as a JSON pointer.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "json/pointer.h"
#include "json/string_codec.h"
#include "types/cty.h"

namespace pstate::types::cty {

namespace {

bool HasDynamicTypes(const Type* t) {
  switch (t->kind) {
    case Kind::kDynamic: return true;
    case Kind::kList:
    case Kind::kMap:
    case Kind::kSet: return HasDynamicTypes(t->elem);
    case Kind::kObject:
      for (const Attr& a : t->attributes()) {
        if (HasDynamicTypes(a.type)) return true;
      }
      return false;
    case Kind::kTuple:
      for (const Type* e : t->elements()) {
        if (HasDynamicTypes(e)) return true;
      }
      return false;
    default: return false;
  }
}

std::string Quote(std::string_view name) {
  std::string out = "\"";
  json::AppendEscaped(name, &out);
  out += '"';
  return out;
}

// The element type cty.ListVal/SetVal/MapVal give a list of values: the
// first non-dynamic element type. False when two differ (CanListVal).
bool CommonElementType(std::span<const Val> vals, const Type** ety) {
  const Type* t = DynamicType();
  for (const Val& v : vals) {
    if (v.type->kind == Kind::kDynamic) continue;
    if (t->kind == Kind::kDynamic) {
      t = v.type;
    } else if (!TypesEqual(t, v.type)) {
      return false;
    }
  }
  *ety = t;
  return true;
}

bool HasMarksDeep(const Val& v) {
  if (v.marked) return true;
  if (!v.is_known() || v.is_null()) return false;
  for (const Val& e : v.elements()) {
    if (HasMarksDeep(e)) return true;
  }
  return false;
}

}  // namespace

struct ConvImpl {
  // ---- pointers -----------------------------------------------------------

  static std::size_t PushIndex(Converter& c, std::size_t i) {
    std::size_t n = c.pointer_.size();
    json::AppendPointerIndex(&c.pointer_, i);
    return n;
  }
  static std::size_t PushKey(Converter& c, std::string_view key) {
    std::size_t n = c.pointer_.size();
    json::AppendPointerToken(&c.pointer_, c.secret_depth_ > 0 ? "*" : key);
    return n;
  }
  static void Pop(Converter& c, std::size_t n) { c.pointer_.resize(n); }

  // Inside a secret the message says so (the convention of every pstate
  // type language) and never quotes the value.
  static bool Fail(Converter& c, std::string message) {
    if (c.failure_ != nullptr) {
      c.failure_->pointer = c.pointer_;
      c.failure_->message = c.secret_depth_ > 0 ? "inside a secret: " + message
                                                : std::move(message);
    }
    return false;
  }

  // ---- type comparison and unification ----------------------------------

  // compare_types.go compareTypes: < 0 when `a` is preferred.
  static int CompareTypes(const Type* a, const Type* b) {
    bool ad = a->kind == Kind::kDynamic, bd = b->kind == Kind::kDynamic;
    if (ad || bd) {
      if (!ad) return -1;
      if (!bd) return 1;
      return 0;
    }
    if (a->is_primitive() && b->is_primitive()) {
      bool as = a->kind == Kind::kString, bs = b->kind == Kind::kString;
      if (as || bs) {
        if (!as) return 1;
        if (!bs) return -1;
        return 0;
      }
    }
    if (a->kind == b->kind && a->is_collection()) {
      return CompareTypes(a->elem, b->elem);
    }
    int swap = 1;
    if ((a->kind == Kind::kTuple && b->kind == Kind::kList) ||
        (a->kind == Kind::kObject && b->kind == Kind::kMap) ||
        (a->kind == Kind::kSet && b->kind == Kind::kTuple) ||
        (a->kind == Kind::kSet && b->kind == Kind::kList)) {
      std::swap(a, b);
      swap = -1;
    }
    if (b->kind == Kind::kSet &&
        (a->kind == Kind::kTuple || a->kind == Kind::kList)) {
      return -1 * swap;
    }
    if (a->kind == Kind::kList && b->kind == Kind::kTuple) return -1 * swap;
    if (a->kind == Kind::kMap && b->kind == Kind::kObject) return -1 * swap;
    bool objects = a->kind == Kind::kObject && b->kind == Kind::kObject;
    bool tuples = a->kind == Kind::kTuple && b->kind == Kind::kTuple;
    if (objects || tuples) {
      if (a->count != b->count) return 0;
      bool a_super = false, b_super = false;
      for (std::uint32_t i = 0; i < a->count; ++i) {
        const Type* x;
        const Type* y;
        if (objects) {
          const Attr* other = b->FindAttr(a->attrs[i].name);
          if (other == nullptr) return 0;
          x = a->attrs[i].type;
          y = other->type;
        } else {
          x = a->elems[i];
          y = b->elems[i];
        }
        int cmp = CompareTypes(x, y);
        if (cmp < 0) a_super = true;
        if (cmp > 0) b_super = true;
      }
      if (a_super && b_super) return 0;
      if (a_super) return -1 * swap;
      if (b_super) return 1 * swap;
      return 0;
    }
    return 0;
  }

  // sort_types.go sortTypes: a topological order of preference.
  static std::vector<std::size_t> SortTypes(std::span<const Type* const> t) {
    std::size_t n = t.size();
    std::vector<std::vector<std::size_t>> edges(n);
    for (std::size_t i = 0; i + 1 < n; ++i) {
      for (std::size_t j = i + 1; j < n; ++j) {
        int cmp = CompareTypes(t[i], t[j]);
        if (cmp < 0) edges[i].push_back(j);
        if (cmp > 0) edges[j].push_back(i);
      }
    }
    std::vector<std::size_t> in_degree(n, 0);
    for (const auto& outs : edges) {
      for (std::size_t j : outs) ++in_degree[j];
    }
    std::vector<std::size_t> result;
    result.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      if (in_degree[i] == 0) result.push_back(i);
    }
    for (std::size_t q = 0; q < result.size(); ++q) {
      for (std::size_t j : edges[result[q]]) {
        if (--in_degree[j] == 0) result.push_back(j);
      }
    }
    return result;
  }

  static bool ConvertibleAll(Converter& c, std::span<const Type* const> types,
                             const Type* to, bool unsafe) {
    for (const Type* t : types) {
      if (TypesEqual(t, to)) continue;
      if (!Has(c, t, to, unsafe)) return false;
    }
    return true;
  }

  static const Type* UnifyCollections(Converter& c, Kind kind,
                                      std::span<const Type* const> types,
                                      bool unsafe, bool has_dynamic) {
    if (has_dynamic) return DynamicType();  // unifyAllAsDynamic
    std::vector<const Type*> elems;
    elems.reserve(types.size());
    for (const Type* t : types) elems.push_back(t->elem);
    const Type* e = Unify(c, elems, unsafe);
    if (e == nullptr) return nullptr;
    const Type* ret = c.tb_.Collection(kind, e);
    return ConvertibleAll(c, types, ret, unsafe) ? ret : nullptr;
  }

  static const Type* UnifyObjectsToMap(Converter& c,
                                       std::span<const Type* const> types,
                                       bool unsafe) {
    std::vector<const Type*> atys;
    for (const Type* t : types) {
      for (const Attr& a : t->attributes()) atys.push_back(a.type);
    }
    const Type* e = Unify(c, atys, unsafe);
    if (e == nullptr) return nullptr;
    const Type* ret = c.tb_.Collection(Kind::kMap, e);
    return ConvertibleAll(c, types, ret, unsafe) ? ret : nullptr;
  }

  static const Type* UnifyTuplesToList(Converter& c,
                                       std::span<const Type* const> types,
                                       bool unsafe) {
    std::vector<const Type*> etys;
    for (const Type* t : types) {
      for (const Type* e : t->elements()) etys.push_back(e);
    }
    const Type* e = Unify(c, etys, unsafe);
    if (e == nullptr) return nullptr;
    const Type* ret = c.tb_.Collection(Kind::kList, e);
    return ConvertibleAll(c, types, ret, unsafe) ? ret : nullptr;
  }

  static const Type* UnifyObjects(Converter& c,
                                  std::span<const Type* const> types,
                                  bool unsafe, bool has_dynamic) {
    if (has_dynamic) return DynamicType();
    const Type* first = types[0];
    for (const Type* t : types.subspan(1)) {
      if (t->count != first->count) return UnifyObjectsToMap(c, types, unsafe);
      for (const Attr& a : t->attributes()) {
        if (first->FindAttr(a.name) == nullptr) {
          return UnifyObjectsToMap(c, types, unsafe);
        }
      }
    }
    std::vector<Attr> attrs;
    std::vector<const Type*> across(types.size());
    for (const Attr& a : first->attributes()) {
      for (std::size_t i = 0; i < types.size(); ++i) {
        across[i] = types[i]->FindAttr(a.name)->type;
      }
      const Type* u = Unify(c, across, unsafe);
      if (u == nullptr) return nullptr;
      attrs.push_back(Attr{a.name, u, false});
    }
    const Type* ret = c.tb_.Object(attrs);
    if (!ConvertibleAll(c, types, ret, unsafe)) {
      return UnifyObjectsToMap(c, types, unsafe);
    }
    return ret;
  }

  static const Type* UnifyTuples(Converter& c,
                                 std::span<const Type* const> types,
                                 bool unsafe, bool has_dynamic) {
    if (has_dynamic) return DynamicType();
    const Type* first = types[0];
    for (const Type* t : types.subspan(1)) {
      if (t->count != first->count) return UnifyTuplesToList(c, types, unsafe);
    }
    std::vector<const Type*> elems;
    std::vector<const Type*> across(types.size());
    for (std::uint32_t k = 0; k < first->count; ++k) {
      for (std::size_t i = 0; i < types.size(); ++i) {
        across[i] = types[i]->elems[k];
      }
      const Type* u = Unify(c, across, unsafe);
      if (u == nullptr) return nullptr;
      elems.push_back(u);
    }
    const Type* ret = c.tb_.Tuple(elems);
    if (!ConvertibleAll(c, types, ret, unsafe)) {
      return UnifyTuplesToList(c, types, unsafe);
    }
    return ret;
  }

  // unifyObjectsAsMaps / unifyTuplesAsList: the structural types as the
  // collection first, then everything together.
  static const Type* UnifyAsCollection(Converter& c,
                                       std::span<const Type* const> types,
                                       bool unsafe, Kind structural) {
    std::vector<const Type*> parts;
    for (const Type* t : types) {
      if (t->kind == structural) parts.push_back(t);
    }
    const Type* as = structural == Kind::kObject
                         ? UnifyObjectsToMap(c, parts, unsafe)
                         : UnifyTuplesToList(c, parts, unsafe);
    Kind want = structural == Kind::kObject ? Kind::kMap : Kind::kList;
    if (as == nullptr || as->kind != want) return nullptr;
    std::vector<const Type*> replaced(types.begin(), types.end());
    for (const Type*& t : replaced) {
      if (t->kind == structural) t = as;
    }
    const Type* ret = Unify(c, replaced, unsafe);
    if (ret == nullptr || ret->kind != want) return nullptr;
    return ret;
  }

  static const Type* Unify(Converter& c, std::span<const Type* const> types,
                           bool unsafe) {
    if (types.empty()) return nullptr;
    bool all_equal = true;
    for (const Type* t : types.subspan(1)) {
      if (!TypesEqual(t, types[0])) {
        all_equal = false;
        break;
      }
    }
    if (all_equal) return types[0];
    // Repeated types change nothing but the cost (sortTypes compares every
    // pair): unify the distinct ones, in order of first appearance.
    std::vector<const Type*> distinct;
    for (const Type* t : types) {
      bool seen = false;
      for (const Type* d : distinct) {
        if (TypesEqual(d, t)) {
          seen = true;
          break;
        }
      }
      if (!seen) distinct.push_back(t);
      if (distinct.size() > 64) break;  // many shapes: no saving to expect
    }
    if (distinct.size() <= 64 && distinct.size() < types.size()) {
      return Unify(c, distinct, unsafe);
    }
    std::size_t maps = 0, lists = 0, sets = 0, objects = 0, tuples = 0,
                dyns = 0, n = types.size();
    for (const Type* t : types) {
      switch (t->kind) {
        case Kind::kMap: ++maps; break;
        case Kind::kList: ++lists; break;
        case Kind::kSet: ++sets; break;
        case Kind::kObject: ++objects; break;
        case Kind::kTuple: ++tuples; break;
        case Kind::kDynamic: ++dyns; break;
        default: break;
      }
    }
    if (maps > 0 && maps + dyns == n) {
      return UnifyCollections(c, Kind::kMap, types, unsafe, dyns > 0);
    } else if (maps > 0 && maps + objects + dyns == n) {
      const Type* t = UnifyAsCollection(c, types, unsafe, Kind::kObject);
      if (t != nullptr) return t;
    } else if (lists > 0 && lists + dyns == n) {
      return UnifyCollections(c, Kind::kList, types, unsafe, dyns > 0);
    } else if (lists > 0 && lists + tuples + dyns == n) {
      const Type* t = UnifyAsCollection(c, types, unsafe, Kind::kTuple);
      if (t != nullptr) return t;
    } else if (sets > 0 && sets + dyns == n) {
      return UnifyCollections(c, Kind::kSet, types, unsafe, dyns > 0);
    } else if (objects > 0 && objects + dyns == n) {
      return UnifyObjects(c, types, unsafe, dyns > 0);
    } else if (tuples > 0 && tuples + dyns == n) {
      return UnifyTuples(c, types, unsafe, dyns > 0);
    } else if (objects > 0 && tuples > 0) {
      return nullptr;
    }
    for (std::size_t want : SortTypes(types)) {
      bool fits = true;
      for (std::size_t i = 0; i < n && fits; ++i) {
        if (i == want || TypesEqual(types[i], types[want])) continue;
        fits = Has(c, types[i], types[want], unsafe);
      }
      if (fits) return types[want];
    }
    return nullptr;
  }

  // ---- type-level conversion availability (getConversionKnown) ----------

  static bool HasElems(Converter& c, std::span<const Type* const> etys,
                       const Type* to, bool unsafe) {
    return ConvertibleAll(c, etys, to, unsafe);
  }

  static bool HasFromStructural(Converter& c, const Type* in, Kind out_kind,
                                const Type* ety, bool unsafe) {
    if (in->count == 0) return true;
    std::span<const Type* const> etys = in->elements();
    if (in->kind == Kind::kObject) {
      const Type** atys = c.arena().Allocate<const Type*>(in->count);
      for (std::uint32_t i = 0; i < in->count; ++i) atys[i] = in->attrs[i].type;
      etys = {atys, in->count};
    }
    if (ety->kind == Kind::kDynamic) {
      ety = Unify(c, etys, unsafe);
      if (ety == nullptr) return false;
      if (ety->kind == Kind::kDynamic && out_kind != Kind::kMap) {
        for (const Type* e : etys) {
          if (e->kind != Kind::kDynamic) return false;
        }
      }
    }
    return HasElems(c, etys, ety, unsafe);
  }

  static bool Has(Converter& c, const Type* in, const Type* out, bool unsafe) {
    if (out->kind == Kind::kDynamic) return true;
    if (unsafe && in->kind == Kind::kDynamic) return true;
    if (in->is_primitive() && out->is_primitive()) {
      if (out->kind == Kind::kString) {
        return in->kind == Kind::kNumber || in->kind == Kind::kBool;
      }
      return unsafe && in->kind == Kind::kString;
    }
    if (in->kind == Kind::kObject && out->kind == Kind::kObject) {
      for (const Attr& oa : out->attributes()) {
        const Attr* ia = in->FindAttr(oa.name);
        if (ia == nullptr) {
          if (oa.optional) continue;
          return false;
        }
        if (TypesEqual(ia->type, oa.type)) continue;
        if (!Has(c, ia->type, oa.type, unsafe)) return false;
      }
      return true;
    }
    if (in->kind == Kind::kTuple && out->kind == Kind::kTuple) {
      if (in->count != out->count) return false;
      for (std::uint32_t i = 0; i < in->count; ++i) {
        if (TypesEqual(in->elems[i], out->elems[i])) continue;
        if (!Has(c, in->elems[i], out->elems[i], unsafe)) return false;
      }
      return true;
    }
    bool in_seq = in->kind == Kind::kList || in->kind == Kind::kSet;
    if (out->kind == Kind::kList && in_seq) {
      return TypesEqual(in->elem, out->elem) ||
             Has(c, in->elem, out->elem, unsafe);
    }
    if (out->kind == Kind::kSet && in_seq) {
      if (in->kind == Kind::kList && !unsafe) return false;
      return TypesEqual(in->elem, out->elem) ||
             Has(c, in->elem, out->elem, unsafe);
    }
    if (out->kind == Kind::kMap && in->kind == Kind::kMap) {
      return Has(c, in->elem, out->elem, unsafe);
    }
    if ((out->kind == Kind::kList || out->kind == Kind::kSet) &&
        in->kind == Kind::kTuple) {
      return HasFromStructural(c, in, out->kind, out->elem, unsafe);
    }
    if (out->kind == Kind::kMap && in->kind == Kind::kObject) {
      return HasFromStructural(c, in, out->kind, out->elem, unsafe);
    }
    if (out->kind == Kind::kObject && in->kind == Kind::kMap) {
      if (!unsafe) return false;
      for (const Attr& oa : out->attributes()) {
        if (TypesEqual(oa.type, in->elem)) continue;
        if (Has(c, in->elem, oa.type, unsafe)) continue;
        if (oa.optional) continue;
        return false;
      }
      return true;
    }
    return false;
  }

  // conversion_dynamic.go dynamicReplace.
  static const Type* DynamicReplace(Converter& c, const Type* in,
                                    const Type* out) {
    if (in == nullptr || in->kind == Kind::kDynamic) return out;
    TypeBuilder& tb = c.tb_;
    switch (out->kind) {
      case Kind::kDynamic: return in;
      case Kind::kBool:
      case Kind::kNumber:
      case Kind::kString: return out;
      case Kind::kMap:
        if (in->kind == Kind::kMap) {
          return tb.Collection(Kind::kMap,
                               DynamicReplace(c, in->elem, out->elem));
        }
        if (in->kind == Kind::kObject) {
          std::vector<const Type*> atys;
          for (const Attr& a : in->attributes()) atys.push_back(a.type);
          return tb.Collection(
              Kind::kMap, DynamicReplace(c, Unify(c, atys, true), out->elem));
        }
        return out;
      case Kind::kObject: {
        std::vector<Attr> attrs;
        for (const Attr& oa : out->attributes()) {
          const Type* t = oa.type;
          if (in->kind == Kind::kMap) {
            t = DynamicReplace(c, in->elem, oa.type);
          } else if (in->kind == Kind::kObject) {
            const Attr* ia = in->FindAttr(oa.name);
            if (ia != nullptr) t = DynamicReplace(c, ia->type, oa.type);
          } else {
            // go-cty builds an object with no attributes here.
            continue;
          }
          attrs.push_back(Attr{oa.name, t, false});
        }
        return tb.Object(attrs);
      }
      case Kind::kSet:
      case Kind::kList:
        if (in->kind == Kind::kSet || in->kind == Kind::kList) {
          return tb.Collection(out->kind,
                               DynamicReplace(c, in->elem, out->elem));
        }
        if (in->kind == Kind::kTuple) {
          return tb.Collection(
              out->kind,
              DynamicReplace(c, Unify(c, in->elements(), true), out->elem));
        }
        return out;
      case Kind::kTuple: {
        std::vector<const Type*> elems;
        for (std::uint32_t i = 0; i < out->count; ++i) {
          const Type* it = in->kind == Kind::kTuple && i < in->count
                               ? in->elems[i]
                               : nullptr;
          elems.push_back(DynamicReplace(c, it, out->elems[i]));
        }
        return tb.Tuple(elems);
      }
    }
    return out;
  }

  // ---- mismatch messages (mismatch_msg.go) -------------------------------

  static bool LikelyConfusing(const Type* got, const Type* want) {
    if (got->is_primitive() != want->is_primitive()) return false;
    if (want->kind == Kind::kString) return false;
    if ((want->kind == Kind::kBool && got->kind == Kind::kNumber) ||
        (got->kind == Kind::kBool && want->kind == Kind::kNumber)) {
      return false;
    }
    if (got->is_collection() && want->is_collection() &&
        !HasDynamicTypes(got->elem) && HasDynamicTypes(want->elem)) {
      return false;
    }
    if (got->kind == Kind::kTuple && want->kind == Kind::kObject) {
      return false;
    }
    return true;
  }

  static std::string Required(const Type* want) {
    return FriendlyName(want, true) + " required";
  }

  static std::string MissingAttrs(Converter& c, const Type* got,
                                  const Type* want) {
    (void)c;
    std::vector<std::string_view> missing;
    for (const Attr& wa : want->attributes()) {
      if (got->FindAttr(wa.name) == nullptr && !wa.optional) {
        missing.push_back(wa.name);
      }
    }
    if (missing.empty()) return {};
    if (missing.size() == 1) {
      return "attribute " + Quote(missing[0]) + " is required";
    }
    if (missing.size() == 2) {
      return "attributes " + Quote(missing[0]) + " and " + Quote(missing[1]) +
             " are required";
    }
    std::string list;
    for (std::size_t i = 0; i + 1 < missing.size(); ++i) {
      list += Quote(missing[i]) + ", ";
    }
    list += "and " + Quote(missing.back());
    return "attributes " + list + " are required";
  }

  static std::string Mismatch(Converter& c, const Type* got, const Type* want) {
    if (got->kind == Kind::kObject && want->kind == Kind::kObject) {
      std::string missing = MissingAttrs(c, got, want);
      if (!missing.empty()) return missing;
      for (const Attr& wa : want->attributes()) {
        const Attr* ga = got->FindAttr(wa.name);
        if (ga == nullptr || TypesEqual(ga->type, wa.type)) continue;
        if (!Has(c, ga->type, wa.type, true)) {
          return "attribute " + Quote(wa.name) + ": " +
                 Mismatch(c, ga->type, wa.type);
        }
      }
      return "incorrect object attributes";
    }
    bool want_dyn_elem =
        want->is_collection() && want->elem->kind == Kind::kDynamic;
    if (got->kind == Kind::kTuple && want->kind == Kind::kList &&
        want_dyn_elem) {
      return "all list elements must have the same type";
    }
    if (got->kind == Kind::kTuple && want->kind == Kind::kSet &&
        want_dyn_elem) {
      return "all set elements must have the same type";
    }
    if (got->kind == Kind::kObject && want->kind == Kind::kMap &&
        want_dyn_elem) {
      return "all map elements must have the same type";
    }
    if ((got->kind == Kind::kTuple || got->kind == Kind::kObject) &&
        want->is_collection()) {
      if (want->kind != Kind::kMap && got->kind != Kind::kTuple) {
        return Required(want);
      }
      if (want->kind == Kind::kMap && got->kind != Kind::kObject) {
        return Required(want);
      }
      if (got->kind == Kind::kTuple) {
        for (std::uint32_t i = 0; i < got->count; ++i) {
          const Type* e = got->elems[i];
          if (TypesEqual(e, want->elem) || Has(c, e, want->elem, true)) {
            continue;
          }
          return "element " + std::to_string(i) + ": " +
                 Mismatch(c, e, want->elem);
        }
      } else {
        for (const Attr& a : got->attributes()) {
          if (TypesEqual(a.type, want->elem) ||
              Has(c, a.type, want->elem, true)) {
            continue;
          }
          return "element " + Quote(a.name) + ": " +
                 Mismatch(c, a.type, want->elem);
        }
      }
      return "all elements must be " + FriendlyName(want->elem, true);
    }
    if (got->is_collection() && want->is_collection()) {
      bool got_seq = got->kind == Kind::kList || got->kind == Kind::kSet;
      if ((want->kind == Kind::kList || want->kind == Kind::kSet) && !got_seq) {
        return Required(want);
      }
      if (want->kind == Kind::kMap && got->kind != Kind::kMap) {
        return Required(want);
      }
      std::string noun = want->kind == Kind::kList  ? "list element type"
                         : want->kind == Kind::kSet ? "set element type"
                                                    : "map element type";
      return "incorrect " + noun + ": " + Mismatch(c, got->elem, want->elem);
    }
    if (got->kind == Kind::kTuple && want->kind == Kind::kTuple &&
        got->count != want->count) {
      return std::to_string(want->count) + " elements are required, but got " +
             std::to_string(got->count);
    }
    if (!LikelyConfusing(got, want)) {
      return FriendlyName(want) + " required, but have " + FriendlyName(got);
    }
    return Required(want);
  }

  // Finds the deepest place of `v` where no conversion to `want` exists and
  // reports it (the located form of MismatchMessage).
  static bool Locate(Converter& c, const Val& v, const Type* want) {
    if (v.marked) {
      Val u = v;
      u.marked = false;
      u.src = v.inner_src;
      ++c.secret_depth_;
      bool r = Locate(c, u, want);
      --c.secret_depth_;
      return r;
    }
    const Type* got = v.type;
    bool known = v.is_known() && !v.is_null();
    if (known && got->kind == Kind::kObject && want->kind == Kind::kObject) {
      std::string missing = MissingAttrs(c, got, want);
      if (!missing.empty()) return Fail(c, missing);
      for (const Attr& wa : want->attributes()) {
        const Attr* ga = got->FindAttr(wa.name);
        if (ga == nullptr || TypesEqual(ga->type, wa.type) ||
            Has(c, ga->type, wa.type, true)) {
          continue;
        }
        std::size_t mark = PushKey(c, wa.name);
        const Val& child = v.elems[static_cast<std::size_t>(ga - got->attrs)];
        bool r = Locate(c, child, wa.type);
        Pop(c, mark);
        return r;
      }
    }
    bool want_seq = want->kind == Kind::kList || want->kind == Kind::kSet;
    if (known && got->kind == Kind::kTuple &&
        ((want_seq && want->elem->kind != Kind::kDynamic) ||
         want->kind == Kind::kTuple)) {
      if (want->kind != Kind::kTuple || want->count == got->count) {
        for (std::uint32_t i = 0; i < got->count; ++i) {
          const Type* w =
              want->kind == Kind::kTuple ? want->elems[i] : want->elem;
          const Type* e = got->elems[i];
          if (TypesEqual(e, w) || Has(c, e, w, true)) continue;
          std::size_t mark = PushIndex(c, i);
          bool r = Locate(c, v.elems[i], w);
          Pop(c, mark);
          return r;
        }
      }
    }
    if (known && got->kind == Kind::kObject && want->kind == Kind::kMap &&
        want->elem->kind != Kind::kDynamic) {
      for (std::uint32_t i = 0; i < got->count; ++i) {
        const Type* e = got->attrs[i].type;
        if (TypesEqual(e, want->elem) || Has(c, e, want->elem, true)) {
          continue;
        }
        std::size_t mark = PushKey(c, got->attrs[i].name);
        bool r = Locate(c, v.elems[i], want->elem);
        Pop(c, mark);
        return r;
      }
    }
    return Fail(c, Mismatch(c, got, want));
  }

  // ---- values -------------------------------------------------------------

  static Val* Alloc(Converter& c, std::size_t n) {
    Val* p = c.arena().Allocate<Val>(n);
    for (std::size_t i = 0; i < n; ++i) new (&p[i]) Val();
    return p;
  }

  static Val Empty(const Type* type, const json::Value* src) {
    Val v;
    v.type = type;
    v.src = src;
    return v;
  }

  static bool AllSame(const Val* a, const Val* b, std::uint32_t n) {
    for (std::uint32_t i = 0; i < n; ++i) {
      if (a[i].src == nullptr || a[i].src != b[i].src) return false;
    }
    return true;
  }

  static Val UnmarkDeep(Converter& c, const Val& v, bool* had) {
    if (!HasMarksDeep(v)) return v;
    *had = true;
    Val r = v;
    if (r.marked) {
      r.marked = false;
      r.src = v.inner_src;
      r.inner_src = nullptr;
    }
    if (r.is_known() && !r.is_null() && r.count > 0) {
      Val* elems = Alloc(c, r.count);
      bool changed = false;
      for (std::uint32_t i = 0; i < r.count; ++i) {
        bool sub = false;
        elems[i] = UnmarkDeep(c, r.elems[i], &sub);
        changed = changed || sub;
      }
      r.elems = elems;
      if (changed) r.src = nullptr;
    }
    return r;
  }

  // cty.SetVal: marks of the elements move to the set; equal elements
  // merge; the order is set_internals.go's. The set is unchanged (kOk) when
  // no element changed, merged or gave up a mark: a set's order carries no
  // meaning (type-systems §0), so an input in another order is still `ok`,
  // and a converted set is written in cty's order.
  static Val MakeSet(Converter& c, Val* elems, std::uint32_t n, const Type* ety,
                     const json::Value* in_src, const Val* originals) {
    bool marked = false;
    for (std::uint32_t i = 0; i < n; ++i) {
      elems[i] = UnmarkDeep(c, elems[i], &marked);
    }
    bool unchanged =
        in_src != nullptr && !marked && AllSame(elems, originals, n);
    std::uint32_t m = CanonicalizeSet(elems, n);
    Val r;
    r.type = c.tb_.Collection(Kind::kSet, ety);
    r.count = m;
    r.elems = elems;
    if (marked) {
      r.marked = true;
      r.inner_src = nullptr;
    } else if (unchanged && m == n) {
      r.src = in_src;
    }
    return r;
  }

  // ---- conversion ---------------------------------------------------------

  // getConversion's wrapper: marks, dynamic destinations, nulls and
  // unknowns; then the known-value conversions.
  static bool Conv(Converter& c, const Val& in, const Type* out, bool unsafe,
                   Val* res) {
    if (in.marked) {
      Val u = in;
      u.marked = false;
      u.src = in.inner_src;
      u.inner_src = nullptr;
      ++c.secret_depth_;
      bool ok = Conv(c, u, out, unsafe, res);
      --c.secret_depth_;
      if (!ok) return false;
      bool unchanged = res->src != nullptr && res->src == in.inner_src;
      if (res->marked) {
        // Already marked (e.g. a set that took its elements' marks).
        unchanged = false;
        res->src = nullptr;
        return true;
      }
      res->marked = true;
      res->inner_src = res->src;
      res->src = unchanged ? in.src : nullptr;
      return true;
    }
    if (out->kind == Kind::kDynamic) {
      *res = in;
      return true;
    }
    if (!in.is_known() || in.is_null()) {
      const Type* t =
          DynamicReplace(c, in.type, c.tb_.WithoutOptionalDeep(out));
      *res = in;
      res->type = t;
      res->count = 0;
      res->elems = nullptr;
      return true;
    }
    return ConvKnown(c, in, out, unsafe, res);
  }

  // A child conversion that go-cty skips when the types are equal.
  static bool Child(Converter& c, const Val& v, const Type* want, bool unsafe,
                    Val* res) {
    if (TypesEqual(v.type, want)) {
      *res = v;
      return true;
    }
    return Conv(c, v, want, unsafe, res);
  }

  static void RetypeNull(Converter& c, Val* v) {
    if (v->is_null()) v->type = c.tb_.WithoutOptionalDeep(v->type);
  }

  static bool Primitive(Converter& c, const Val& in, const Type* out,
                        Val* res) {
    Kind from = in.type->kind;
    Kind to = out->kind;
    if (to == Kind::kString) {
      std::string text;
      if (from == Kind::kBool) {
        *res = c.MakeString(in.b ? "true" : "false");
        return true;
      }
      if (in.inf != 0) {
        *res = c.MakeString(in.inf > 0 ? "+Inf" : "-Inf");
        return true;
      }
      if (!NumberToString(in.str, &text)) {
        return Fail(c, "the number is too large to write as a string");
      }
      *res = c.MakeString(text);
      return true;
    }
    if (to == Kind::kNumber) {
      std::string text;
      int inf = 0;
      if (!ParseNumberString(in.str, &text, &inf)) {
        return Fail(c, "a number is required");
      }
      if (inf != 0) {
        *res = c.MakeNumber("0");
        res->inf = static_cast<std::int8_t>(inf);
        return true;
      }
      *res = c.MakeNumber(text);
      return true;
    }
    // string -> bool
    std::string_view s = in.str;
    if (s == "true" || s == "1") {
      *res = c.MakeBool(true);
      return true;
    }
    if (s == "false" || s == "0") {
      *res = c.MakeBool(false);
      return true;
    }
    if (c.secret_depth_ == 0) {
      // The casing hint would describe a secret's text, so only outside
      // secrets.
      std::string lower(s);
      for (char& ch : lower) {
        if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
      }
      if (lower == "true" || lower == "false") {
        return Fail(c,
                    "a bool is required; to convert from string, use "
                    "lowercase \"" +
                        lower + "\"");
      }
    }
    return Fail(c, "a bool is required");
  }

  static bool ObjectToObject(Converter& c, const Val& in, const Type* out,
                             bool unsafe, Val* res) {
    // Arena arrays: at most every input attribute plus every optional one.
    std::size_t cap = std::size_t{in.count} + out->count;
    auto* names = c.arena().Allocate<std::string_view>(cap);
    Val* vals = Alloc(c, cap);
    std::uint32_t n = 0;
    bool unchanged = true;
    for (std::uint32_t i = 0; i < in.count; ++i) {
      const Attr& ia = in.type->attrs[i];
      const Attr* oa = out->FindAttr(ia.name);
      if (oa == nullptr) {
        unchanged = false;  // dropped (structural typing)
        continue;
      }
      std::size_t mark = PushKey(c, ia.name);
      Val r;
      bool ok = Child(c, in.elems[i], oa->type, unsafe, &r);
      Pop(c, mark);
      if (!ok) return false;
      RetypeNull(c, &r);
      if (r.src == nullptr || r.src != in.elems[i].src) unchanged = false;
      names[n] = ia.name;
      vals[n++] = r;
    }
    for (const Attr& oa : out->attributes()) {
      if (!oa.optional || in.type->FindAttr(oa.name) != nullptr) continue;
      names[n] = oa.name;
      vals[n++] = c.MakeNull(c.tb_.WithoutOptionalDeep(oa.type));
      unchanged = false;
    }
    *res = c.MakeObject({names, n}, {vals, n});
    if (unchanged) res->src = in.src;
    return true;
  }

  static bool TupleToTuple(Converter& c, const Val& in, const Type* out,
                           bool unsafe, Val* res) {
    Val* elems = Alloc(c, in.count);
    bool unchanged = true;
    for (std::uint32_t i = 0; i < in.count; ++i) {
      std::size_t mark = PushIndex(c, i);
      bool ok = Child(c, in.elems[i], out->elems[i], unsafe, &elems[i]);
      Pop(c, mark);
      if (!ok) return false;
      if (elems[i].src == nullptr || elems[i].src != in.elems[i].src) {
        unchanged = false;
      }
    }
    *res = c.MakeTuple({elems, in.count});
    if (unchanged) res->src = in.src;
    return true;
  }

  // Converts the elements of a list, set or tuple to `ety` (nullptr = keep
  // as they are), collecting them in a new array. `retype_nulls` as
  // conversionCollectionTo*/TupleToSet do.
  static bool ConvertElems(Converter& c, const Val& in, const Type* ety,
                           bool unsafe, bool retype_nulls, Val** out_elems,
                           bool* unchanged) {
    Val* elems = Alloc(c, in.count);
    *unchanged = true;
    for (std::uint32_t i = 0; i < in.count; ++i) {
      std::size_t mark = PushIndex(c, i);
      bool ok = ety == nullptr ? (elems[i] = in.elems[i], true)
                               : Child(c, in.elems[i], ety, unsafe, &elems[i]);
      Pop(c, mark);
      if (!ok) return false;
      if (retype_nulls) RetypeNull(c, &elems[i]);
      if (elems[i].src == nullptr || elems[i].src != in.elems[i].src) {
        *unchanged = false;
      }
    }
    *out_elems = elems;
    return true;
  }

  static Val MakeList(Converter& c, Val* elems, std::uint32_t n,
                      const Type* ety) {
    Val r;
    r.type = c.tb_.Collection(Kind::kList, ety);
    r.count = n;
    r.elems = elems;
    return r;
  }

  // conversionUnifyListElements: after element conversion, the elements'
  // own types are unified and converted again.
  static bool UnifyElements(Converter& c, Val* elems, std::uint32_t n,
                            bool unsafe, const std::string_view* keys) {
    const Type** types = c.arena().Allocate<const Type*>(n);
    for (std::uint32_t i = 0; i < n; ++i) types[i] = elems[i].type;
    const Type* u = Unify(c, {types, n}, unsafe);
    if (u == nullptr) {
      return Fail(c, "cannot find a common base type for all elements");
    }
    for (std::uint32_t i = 0; i < n; ++i) {
      if (TypesEqual(elems[i].type, u)) continue;
      std::size_t mark = keys ? PushKey(c, keys[i]) : PushIndex(c, i);
      if (!Has(c, elems[i].type, u, unsafe)) {
        Fail(c, "cannot find a common base type for all elements");
        Pop(c, mark);
        return false;
      }
      Val r;
      bool ok = Conv(c, elems[i], u, unsafe, &r);
      Pop(c, mark);
      if (!ok) return false;
      elems[i] = r;
    }
    return true;
  }

  static bool SeqToList(Converter& c, const Val& in, const Type* out,
                        bool unsafe, Val* res) {
    const Type* ety = out->elem;
    if (in.type->kind == Kind::kSet) {
      for (const Val& e : in.elements()) {
        if (!e.is_known()) {
          *res = c.MakeUnknown(c.tb_.Collection(Kind::kList, in.type->elem));
          return true;
        }
      }
    }
    bool conv = !TypesEqual(in.type->elem, ety);
    Val* elems;
    bool unchanged;
    if (!ConvertElems(c, in, conv ? ety : nullptr, unsafe, true, &elems,
                      &unchanged)) {
      return false;
    }
    if (in.count == 0) {
      const Type* t = ety->kind == Kind::kDynamic
                          ? in.type->elem
                          : c.tb_.WithoutOptionalDeep(ety);
      *res = Empty(c.tb_.Collection(Kind::kList, t), in.src);
      return true;
    }
    const Type* common;
    if (!CommonElementType({elems, in.count}, &common)) {
      return Fail(c, "element types must all match for conversion to list");
    }
    *res = MakeList(c, elems, in.count, common);
    if (unchanged) res->src = in.src;
    return true;
  }

  static bool SeqToSet(Converter& c, const Val& in, const Type* out,
                       bool unsafe, Val* res) {
    const Type* ety = out->elem;
    bool conv = !TypesEqual(in.type->elem, ety);
    Val* elems;
    bool unchanged;
    if (!ConvertElems(c, in, conv ? ety : nullptr, unsafe, true, &elems,
                      &unchanged)) {
      return false;
    }
    if (in.count == 0) {
      const Type* t = ety->kind == Kind::kDynamic
                          ? in.type->elem
                          : c.tb_.WithoutOptionalDeep(ety);
      *res = Empty(c.tb_.Collection(Kind::kSet, t), in.src);
      return true;
    }
    const Type* common;
    if (!CommonElementType({elems, in.count}, &common)) {
      return Fail(c, "element types must all match for conversion to set");
    }
    *res = MakeSet(c, elems, in.count, common, unchanged ? in.src : nullptr,
                   in.elems);
    return true;
  }

  static Val MakeMap(Converter& c, const std::string_view* keys, Val* elems,
                     std::uint32_t n, const Type* ety) {
    Val r;
    r.type = c.tb_.Collection(Kind::kMap, ety);
    r.count = n;
    r.elems = elems;
    r.keys = keys;
    return r;
  }

  static bool MapToMap(Converter& c, const Val& in, const Type* out,
                       bool unsafe, Val* res) {
    const Type* ety = out->elem;
    Val* elems = Alloc(c, in.count);
    bool unchanged = true;
    for (std::uint32_t i = 0; i < in.count; ++i) {
      std::size_t mark = PushKey(c, in.keys[i]);
      bool ok = Child(c, in.elems[i], ety, unsafe, &elems[i]);
      Pop(c, mark);
      if (!ok) return false;
      if (elems[i].src == nullptr || elems[i].src != in.elems[i].src) {
        unchanged = false;
      }
    }
    if (in.count == 0) {
      const Type* t = ety->kind == Kind::kDynamic
                          ? in.type->elem
                          : c.tb_.WithoutOptionalDeep(ety);
      *res = Empty(c.tb_.Collection(Kind::kMap, t), in.src);
      return true;
    }
    if (ety->is_collection() || ety->kind == Kind::kObject) {
      // conversionCollectionToMap unifies in safe mode.
      if (!UnifyElements(c, elems, in.count, false, in.keys)) return false;
      unchanged = unchanged && AllSame(elems, in.elems, in.count);
    }
    const Type* common;
    if (!CommonElementType({elems, in.count}, &common)) {
      return Fail(c, "element types must all match for conversion to map");
    }
    *res = MakeMap(c, in.keys, elems, in.count, common);
    if (unchanged) res->src = in.src;
    return true;
  }

  static bool TupleToSeq(Converter& c, const Val& in, const Type* out,
                         bool unsafe, Val* res) {
    bool to_list = out->kind == Kind::kList;
    const Type* ety = out->elem;
    if (in.count == 0) {
      *res = Empty(c.tb_.Collection(out->kind, c.tb_.WithoutOptionalDeep(ety)),
                   in.src);
      return true;
    }
    if (ety->kind == Kind::kDynamic) {
      ety = Unify(c, in.type->elements(), unsafe);
      if (ety == nullptr) {
        return Fail(c, to_list ? "all list elements must have the same type"
                               : "all set elements must have the same type");
      }
    }
    Val* elems = Alloc(c, in.count);
    for (std::uint32_t i = 0; i < in.count; ++i) {
      std::size_t mark = PushIndex(c, i);
      bool ok = Child(c, in.elems[i], ety, unsafe, &elems[i]);
      Pop(c, mark);
      if (!ok) return false;
      if (!to_list) RetypeNull(c, &elems[i]);
    }
    if (to_list && !UnifyElements(c, elems, in.count, unsafe, nullptr)) {
      return false;
    }
    bool unchanged = AllSame(elems, in.elems, in.count);
    const Type* common;
    if (!CommonElementType({elems, in.count}, &common)) {
      return Fail(
          c, to_list ? "element types must all match for conversion to list"
                     : "element types must all match for conversion to set");
    }
    if (to_list) {
      *res = MakeList(c, elems, in.count, common);
      if (unchanged) res->src = in.src;
    } else {
      *res = MakeSet(c, elems, in.count, common, unchanged ? in.src : nullptr,
                     in.elems);
    }
    return true;
  }

  static bool ObjectToMap(Converter& c, const Val& in, const Type* out,
                          bool unsafe, Val* res) {
    const Type* ety = out->elem;
    if (in.count == 0) {
      *res = Empty(c.tb_.Collection(Kind::kMap, c.tb_.WithoutOptionalDeep(ety)),
                   in.src);
      return true;
    }
    if (ety->kind == Kind::kDynamic) {
      std::vector<const Type*> atys;
      for (const Attr& a : in.type->attributes()) atys.push_back(a.type);
      ety = Unify(c, atys, unsafe);
      if (ety == nullptr) {
        return Fail(c, "all map elements must have the same type");
      }
    }
    Val* elems = Alloc(c, in.count);
    std::string_view* keys = c.arena().Allocate<std::string_view>(in.count);
    for (std::uint32_t i = 0; i < in.count; ++i) {
      keys[i] = in.type->attrs[i].name;
      std::size_t mark = PushKey(c, keys[i]);
      bool ok = Child(c, in.elems[i], ety, unsafe, &elems[i]);
      Pop(c, mark);
      if (!ok) return false;
    }
    if (ety->is_collection() || ety->kind == Kind::kObject) {
      if (!UnifyElements(c, elems, in.count, unsafe, keys)) return false;
    }
    bool unchanged = AllSame(elems, in.elems, in.count);
    const Type* common;
    if (!CommonElementType({elems, in.count}, &common)) {
      return Fail(c, "attribute types must all match for conversion to map");
    }
    *res = MakeMap(c, keys, elems, in.count, common);
    if (unchanged) res->src = in.src;
    return true;
  }

  static bool MapToObject(Converter& c, const Val& in, const Type* out,
                          bool unsafe, Val* res) {
    std::vector<std::string_view> names;
    std::vector<Val> vals;
    const Type* mety = in.type->elem;
    bool unchanged = true;
    for (std::uint32_t i = 0; i < in.count; ++i) {
      const Attr* oa = out->FindAttr(in.keys[i]);
      if (oa == nullptr) {
        unchanged = false;
        continue;
      }
      std::size_t mark = PushKey(c, in.keys[i]);
      Val r = in.elems[i];
      if (!TypesEqual(oa->type, mety)) {
        if (!Has(c, mety, oa->type, unsafe)) {
          std::string msg =
              "map element type is incompatible with "
              "attribute " +
              Quote(oa->name) + ": " + Mismatch(c, r.type, oa->type);
          Fail(c, msg);
          Pop(c, mark);
          return false;
        }
        if (!Conv(c, in.elems[i], oa->type, unsafe, &r)) {
          Pop(c, mark);
          return false;
        }
      }
      Pop(c, mark);
      RetypeNull(c, &r);
      if (r.src == nullptr || r.src != in.elems[i].src) unchanged = false;
      names.push_back(in.keys[i]);
      vals.push_back(r);
    }
    for (const Attr& oa : out->attributes()) {
      bool present =
          std::find(names.begin(), names.end(), oa.name) != names.end();
      if (present) continue;
      if (!oa.optional) {
        return Fail(
            c, "map has no element for required attribute " + Quote(oa.name));
      }
      names.push_back(oa.name);
      vals.push_back(c.MakeNull(oa.type));
      unchanged = false;
    }
    *res = c.MakeObject(names, vals);
    if (unchanged) res->src = in.src;
    return true;
  }

  static bool ConvKnown(Converter& c, const Val& in, const Type* out,
                        bool unsafe, Val* res) {
    const Type* it = in.type;
    if (it->kind == Kind::kDynamic) {  // dynamicFixup
      *res = in;
      return true;
    }
    if (it->is_primitive() && out->is_primitive()) {
      return Primitive(c, in, out, res);
    }
    bool in_seq = it->kind == Kind::kList || it->kind == Kind::kSet;
    switch (out->kind) {
      case Kind::kObject:
        if (it->kind == Kind::kObject) {
          return ObjectToObject(c, in, out, unsafe, res);
        }
        if (it->kind == Kind::kMap) return MapToObject(c, in, out, unsafe, res);
        break;
      case Kind::kTuple:
        if (it->kind == Kind::kTuple) {
          return TupleToTuple(c, in, out, unsafe, res);
        }
        break;
      case Kind::kList:
        if (in_seq) return SeqToList(c, in, out, unsafe, res);
        if (it->kind == Kind::kTuple)
          return TupleToSeq(c, in, out, unsafe, res);
        break;
      case Kind::kSet:
        if (in_seq) return SeqToSet(c, in, out, unsafe, res);
        if (it->kind == Kind::kTuple)
          return TupleToSeq(c, in, out, unsafe, res);
        break;
      case Kind::kMap:
        if (it->kind == Kind::kMap) return MapToMap(c, in, out, unsafe, res);
        if (it->kind == Kind::kObject) {
          return ObjectToMap(c, in, out, unsafe, res);
        }
        break;
      default: break;
    }
    return Fail(c, Mismatch(c, it, out));
  }
};

bool Converter::Convert(const Val& in, const Type* want, Val* out,
                        Failure* failure) {
  pointer_.clear();
  secret_depth_ = 0;
  failure_ = failure;
  if (TypesEqualIgnoringOptional(in.type, want)) {
    *out = in;
    return true;
  }
  if (!ConvImpl::Has(*this, in.type, want, true)) {
    ConvImpl::Locate(*this, in, want);
    return false;
  }
  return ConvImpl::Conv(*this, in, want, true, out);
}

bool Converter::ConvertKnownToExist(const Val& in, const Type* want,
                                    std::string_view pointer, Val* out,
                                    Failure* failure) {
  pointer_.assign(pointer);
  secret_depth_ = 0;
  failure_ = failure;
  if (!ConvImpl::Has(*this, in.type, want, true)) {
    ConvImpl::Locate(*this, in, want);
    return false;
  }
  return ConvImpl::Conv(*this, in, want, true, out);
}

const Type* Converter::Unify(std::span<const Type* const> types, bool unsafe) {
  return ConvImpl::Unify(*this, types, unsafe);
}

bool Converter::HasConversion(const Type* in, const Type* out, bool unsafe) {
  return ConvImpl::Has(*this, in, out, unsafe);
}

Val Converter::MakeNull(const Type* type) const {
  Val v;
  v.type = type;
  v.state = State::kNull;
  return v;
}

Val Converter::MakeUnknown(const Type* type) const {
  Val v;
  v.type = type;
  v.state = State::kUnknown;
  return v;
}

Val Converter::MakeString(std::string_view text) {
  Val v;
  v.type = StringType();
  v.str = tb_.arena().Copy(text);
  return v;
}

Val Converter::MakeNumber(std::string_view json_text) {
  Val v;
  v.type = NumberType();
  v.str = tb_.arena().Copy(json_text);
  return v;
}

Val Converter::MakeBool(bool b) const {
  Val v;
  v.type = BoolType();
  v.b = b;
  return v;
}

Val Converter::MakeTuple(std::span<const Val> elems) {
  std::uint32_t n = static_cast<std::uint32_t>(elems.size());
  Val* copy = ConvImpl::Alloc(*this, n);
  const Type** types = arena().Allocate<const Type*>(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    copy[i] = elems[i];
    types[i] = elems[i].type;
  }
  Val v;
  v.type = tb_.Tuple({types, n});
  v.count = n;
  v.elems = copy;
  return v;
}

Val Converter::MakeObject(std::span<const std::string_view> names,
                          std::span<const Val> values) {
  std::uint32_t n = static_cast<std::uint32_t>(names.size());
  std::uint32_t* order = arena().Allocate<std::uint32_t>(n);
  for (std::uint32_t i = 0; i < n; ++i) order[i] = i;
  SmallStableSort(order, order + n, [&](std::uint32_t a, std::uint32_t b) {
    return names[a] < names[b];
  });
  Attr* attrs = arena().Allocate<Attr>(n);
  Val* vals = ConvImpl::Alloc(*this, n);
  std::uint32_t m = 0;
  for (std::uint32_t k = 0; k < n; ++k) {
    std::uint32_t i = order[k];
    if (m > 0 && attrs[m - 1].name == names[i]) {
      attrs[m - 1].type = values[i].type;  // the last one wins
      vals[m - 1] = values[i];
      continue;
    }
    attrs[m] = Attr{names[i], values[i].type, false};
    vals[m] = values[i];
    ++m;
  }
  Type* t = arena().Allocate<Type>(1);
  *t = Type{Kind::kObject, m, nullptr, attrs, nullptr};
  Val v;
  v.type = t;
  v.count = m;
  v.elems = vals;
  return v;
}

}  // namespace pstate::types::cty
