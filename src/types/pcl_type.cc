// PCL types: construction, the textual syntax, and the model's type-level
// operations (conversion kinds, assignability, unification).
//
// The rules follow Pulumi's pkg/codegen/hcl2/model: type.go
// (conversionFrom, assignableFrom, unify, UnifyTypes), type_opaque.go,
// type_none.go, type_list.go, type_set.go, type_map.go, type_object.go,
// type_tuple.go, type_union.go, type_output.go, type_promise.go,
// type_enum.go and type_const.go.
#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json/string_codec.h"
#include "types/name_index.h"
#include "types/pcl.h"
#include "types/pcl_number.h"
#include "types/state_value.h"

namespace pstate::types::pcl {
namespace {

using CK = ConversionKind;

CK Min(CK a, CK b) { return a < b ? a : b; }

bool IsIdentifier(std::string_view s) {
  if (s.empty()) return false;
  auto start = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  };
  if (!start(s[0])) return false;
  for (char c : s) {
    if (!start(c) && !(c >= '0' && c <= '9') && c != '-') return false;
  }
  return true;
}

void AppendLiteral(const Literal& literal, std::string* out) {
  if (literal.kind == Literal::Kind::kString) {
    out->push_back('"');
    json::AppendEscaped(literal.text, out);
    out->push_back('"');
  } else {
    out->append(literal.text);
  }
}

std::shared_ptr<PclType> NewType(Kind kind) {
  auto t = std::make_shared<PclType>();
  t->kind = kind;
  return t;
}

bool IsOpaque(Kind kind) {
  switch (kind) {
    case Kind::kString:
    case Kind::kNumber:
    case Kind::kInt:
    case Kind::kBool:
    case Kind::kAsset:
    case Kind::kArchive: return true;
    default: return false;
  }
}

// Replaces output(U) and promise(U) inside `t` by U (`ResolveOutputs`), or
// only promise(U) (`ResolvePromises`).
TypePtr Resolve(const TypePtr& t, bool outputs_too) {
  switch (t->kind) {
    case Kind::kOutput: return outputs_too ? Resolve(t->elements[0], true) : t;
    case Kind::kPromise: return Resolve(t->elements[0], outputs_too);
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMap: {
      TypePtr e = Resolve(t->elements[0], outputs_too);
      return e == t->elements[0] ? t : ListOf(t->kind, e);
    }
    case Kind::kTuple:
    case Kind::kUnion: {
      std::vector<TypePtr> members;
      bool changed = false;
      for (const TypePtr& m : t->elements) {
        members.push_back(Resolve(m, outputs_too));
        changed = changed || members.back() != m;
      }
      if (!changed) return t;
      return t->kind == Kind::kTuple ? TupleOf(std::move(members))
                                     : UnionOf(std::move(members));
    }
    case Kind::kObject: {
      std::vector<std::pair<std::string, TypePtr>> props;
      bool changed = false;
      for (const auto& [name, pt] : t->properties) {
        props.emplace_back(name, Resolve(pt, outputs_too));
        changed = changed || props.back().second != pt;
      }
      return changed ? ObjectOf(std::move(props)) : t;
    }
    default: return t;
  }
}

}  // namespace

// ---------------------------------------------------------------------------
// Factories

TypePtr Primitive(Kind kind) {
  static const TypePtr kTypes[] = {
      [] {
        auto t = NewType(Kind::kAny);
        t->text = "any";
        return t;
      }(),
      [] {
        auto t = NewType(Kind::kNone);
        t->text = "none";
        return t;
      }(),
      [] {
        auto t = NewType(Kind::kString);
        t->text = "string";
        return t;
      }(),
      [] {
        auto t = NewType(Kind::kNumber);
        t->text = "number";
        return t;
      }(),
      [] {
        auto t = NewType(Kind::kInt);
        t->text = "int";
        return t;
      }(),
      [] {
        auto t = NewType(Kind::kBool);
        t->text = "bool";
        return t;
      }(),
      [] {
        auto t = NewType(Kind::kAsset);
        t->text = "Asset";
        return t;
      }(),
      [] {
        auto t = NewType(Kind::kArchive);
        t->text = "Archive";
        return t;
      }(),
  };
  auto index = static_cast<std::size_t>(kind);
  return index < std::size(kTypes) ? kTypes[index] : kTypes[0];
}

TypePtr ListOf(Kind kind, TypePtr element) {
  auto t = NewType(kind);
  t->text = kind == Kind::kList  ? "list("
            : kind == Kind::kSet ? "set("
                                 : "map(";
  t->text += element->text;
  t->text += ')';
  t->elements.push_back(std::move(element));
  return t;
}

TypePtr OutputOf(TypePtr element) {
  auto t = NewType(Kind::kOutput);
  element = Resolve(element, /*outputs_too=*/true);
  t->text = "output(" + element->text + ")";
  t->elements.push_back(std::move(element));
  return t;
}

TypePtr PromiseOf(TypePtr element) {
  auto t = NewType(Kind::kPromise);
  element = Resolve(element, /*outputs_too=*/false);
  t->text = "promise(" + element->text + ")";
  t->elements.push_back(std::move(element));
  return t;
}

TypePtr OptionalOf(TypePtr element) {
  return UnionOf({std::move(element), Primitive(Kind::kNone)});
}

TypePtr UnionOf(std::vector<TypePtr> members) {
  std::vector<TypePtr> flat;
  for (TypePtr& m : members) {
    if (m->kind == Kind::kUnion) {
      flat.insert(flat.end(), m->elements.begin(), m->elements.end());
    } else {
      flat.push_back(std::move(m));
    }
  }
  std::stable_sort(
      flat.begin(), flat.end(),
      [](const TypePtr& a, const TypePtr& b) { return a->text < b->text; });
  std::vector<TypePtr> unique;
  for (TypePtr& m : flat) {
    if (!unique.empty() && Equal(*unique.back(), *m)) continue;
    unique.push_back(std::move(m));
  }
  if (unique.size() == 1) return unique[0];
  auto t = NewType(Kind::kUnion);
  t->text = "union(";
  for (std::size_t i = 0; i < unique.size(); ++i) {
    if (i > 0) t->text += ", ";
    t->text += unique[i]->text;
  }
  t->text += ')';
  t->elements = std::move(unique);
  return t;
}

TypePtr TupleOf(std::vector<TypePtr> elements) {
  auto t = NewType(Kind::kTuple);
  t->text = "tuple([";
  for (std::size_t i = 0; i < elements.size(); ++i) {
    if (i > 0) t->text += ", ";
    t->text += elements[i]->text;
  }
  t->text += "])";
  t->elements = std::move(elements);
  return t;
}

TypePtr ObjectOf(std::vector<std::pair<std::string, TypePtr>> properties) {
  std::stable_sort(
      properties.begin(), properties.end(),
      [](const auto& a, const auto& b) { return a.first < b.first; });
  auto t = NewType(Kind::kObject);
  t->text = "object({";
  for (std::size_t i = 0; i < properties.size(); ++i) {
    if (i > 0) t->text += ", ";
    if (IsIdentifier(properties[i].first)) {
      t->text += properties[i].first;
    } else {
      t->text += '"';
      json::AppendEscaped(properties[i].first, &t->text);
      t->text += '"';
    }
    t->text += " = ";
    t->text += properties[i].second->text;
  }
  t->text += "})";
  t->properties = std::move(properties);
  return t;
}

TypePtr EnumOf(TypePtr underlying, std::vector<Literal> members) {
  auto t = NewType(Kind::kEnum);
  t->text = "enum(" + underlying->text + ":";
  for (std::size_t i = 0; i < members.size(); ++i) {
    t->text += i > 0 ? ", " : " ";
    AppendLiteral(members[i], &t->text);
  }
  t->text += ')';
  t->elements.push_back(std::move(underlying));
  t->literals = std::move(members);
  return t;
}

TypePtr ConstOf(TypePtr underlying, Literal value) {
  auto t = NewType(Kind::kConst);
  t->text = "const(" + underlying->text + ", ";
  AppendLiteral(value, &t->text);
  t->text += ')';
  t->elements.push_back(std::move(underlying));
  t->literals.push_back(std::move(value));
  return t;
}

// ---------------------------------------------------------------------------
// Equality

namespace {

bool LiteralsEqual(const Literal& a, const Literal& b) {
  // Exact (RawEquals): the number texts of one type's literals are compared
  // as written; the checker compares values by number (pcl.cc).
  return a.kind == b.kind && a.text == b.text;
}

}  // namespace

bool Equal(const PclType& a, const PclType& b) {
  if (&a == &b) return true;
  if (a.kind != b.kind) return false;
  if (a.elements.size() != b.elements.size() ||
      a.properties.size() != b.properties.size() ||
      a.literals.size() != b.literals.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.elements.size(); ++i) {
    if (!Equal(*a.elements[i], *b.elements[i])) return false;
  }
  for (std::size_t i = 0; i < a.properties.size(); ++i) {
    if (a.properties[i].first != b.properties[i].first ||
        !Equal(*a.properties[i].second, *b.properties[i].second)) {
      return false;
    }
  }
  for (std::size_t i = 0; i < a.literals.size(); ++i) {
    if (!LiteralsEqual(a.literals[i], b.literals[i])) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// Conversion kinds

namespace {

CK Conv(const PclType& dest, const PclType& src, bool unifying);
Unified UnifyImpl(const TypePtr& a, const TypePtr& b);

const PclType* FindProperty(const PclType& object, std::string_view name) {
  auto it = std::lower_bound(
      object.properties.begin(), object.properties.end(), name,
      [](const auto& p, std::string_view n) { return p.first < n; });
  if (it == object.properties.end() || it->first != name) return nullptr;
  return it->second.get();
}

// `type_opaque.go conversionFromImpl`, with the generic rules of
// `type.go conversionFrom` applied first.
CK Opaque(const PclType& dest, const PclType& src, bool unifying,
          bool check_unsafe) {
  if (Equal(dest, src) || dest.kind == Kind::kAny) return CK::kSafe;
  if (src.kind == Kind::kUnion) {
    // conversionTo: safe if all members convert safely, unsafe if some
    // member converts, none if no member does.
    CK kind = CK::kSafe;
    bool exists = false;
    for (const TypePtr& m : src.elements) {
      CK k = Opaque(dest, *m, unifying, check_unsafe);
      if (k == CK::kSafe) {
        exists = true;
      } else {
        kind = CK::kUnsafe;
        exists = exists || k == CK::kUnsafe;
      }
    }
    return exists ? kind : CK::kNone;
  }
  if (src.kind == Kind::kConst) {
    return Opaque(dest, *src.elements[0], unifying, check_unsafe);
  }
  if (src.kind == Kind::kAny) return CK::kUnsafe;
  // The opaque table of the reference (§4.3, type_opaque.go): number <- int
  // is Safe; number, int and bool <- string and int <- number are Unsafe;
  // string <- bool, number and int is Safe. Nothing else converts to bool
  // or number (the model's detour through string for bool <- number is not
  // part of pstate's contract, and cty could not run it anyway).
  (void)unifying;
  (void)check_unsafe;
  const Kind s = src.kind;
  switch (dest.kind) {
    case Kind::kNumber:
      if (s == Kind::kInt) return CK::kSafe;
      return s == Kind::kString ? CK::kUnsafe : CK::kNone;
    case Kind::kInt:
      return s == Kind::kNumber || s == Kind::kString ? CK::kUnsafe : CK::kNone;
    case Kind::kBool: return s == Kind::kString ? CK::kUnsafe : CK::kNone;
    case Kind::kString:
      return s == Kind::kBool || s == Kind::kNumber || s == Kind::kInt
                 ? CK::kSafe
                 : CK::kNone;
    default: return CK::kNone;
  }
}

// objectTypeUnifier / tupleElementUnifier: the kind of unifying the common
// properties (or positions) of two objects (or tuples).
CK UnifierKind(const PclType& a, const PclType& b) {
  CK kind = CK::kSafe;
  if (a.kind == Kind::kObject) {
    for (const auto& [name, pt] : a.properties) {
      for (const auto& [bn, bt] : b.properties) {
        if (bn == name) kind = Min(kind, UnifyImpl(pt, bt).kind);
      }
    }
    return kind;
  }
  std::size_t n = std::min(a.elements.size(), b.elements.size());
  for (std::size_t i = 0; i < n; ++i) {
    kind = Min(kind, UnifyImpl(a.elements[i], b.elements[i]).kind);
  }
  return kind;
}

CK Conv(const PclType& dest, const PclType& src, bool unifying) {
  if (IsOpaque(dest.kind) || dest.kind == Kind::kAny) {
    return Opaque(dest, src, unifying, true);
  }
  // type.go conversionFrom: the rules every type applies first.
  if (Equal(dest, src)) return CK::kSafe;
  if (src.kind == Kind::kUnion) {
    CK kind = CK::kSafe;
    bool exists = false;
    for (const TypePtr& m : src.elements) {
      CK k = Conv(dest, *m, unifying);
      if (k == CK::kSafe) {
        exists = true;
      } else {
        kind = CK::kUnsafe;
        exists = exists || k == CK::kUnsafe;
      }
    }
    return exists ? kind : CK::kNone;
  }
  if (src.kind == Kind::kConst && dest.kind != Kind::kEnum) {
    return Conv(dest, *src.elements[0], unifying);
  }
  if (src.kind == Kind::kAny) return CK::kUnsafe;

  switch (dest.kind) {
    case Kind::kNone: return CK::kNone;
    case Kind::kList: {
      const PclType& e = *dest.elements[0];
      if (src.kind == Kind::kList || src.kind == Kind::kSet) {
        return Conv(e, *src.elements[0], unifying);
      }
      if (src.kind == Kind::kTuple) {
        CK kind = CK::kSafe;
        for (const TypePtr& s : src.elements) {
          kind = Min(kind, Conv(e, *s, unifying));
        }
        return kind;
      }
      return CK::kNone;
    }
    case Kind::kSet: {
      const PclType& e = *dest.elements[0];
      if (src.kind == Kind::kSet) return Conv(e, *src.elements[0], unifying);
      if (src.kind == Kind::kList) {
        return Conv(e, *src.elements[0], unifying) == CK::kNone ? CK::kNone
                                                                : CK::kUnsafe;
      }
      if (src.kind == Kind::kTuple) {
        CK kind = CK::kSafe;
        for (const TypePtr& s : src.elements) {
          kind = Min(kind, Conv(e, *s, unifying));
        }
        return kind == CK::kNone ? CK::kNone : CK::kUnsafe;
      }
      return CK::kNone;
    }
    case Kind::kMap: {
      const PclType& e = *dest.elements[0];
      if (src.kind == Kind::kMap) return Conv(e, *src.elements[0], unifying);
      if (src.kind == Kind::kObject) {
        CK kind = CK::kSafe;
        for (const auto& [name, pt] : src.properties) {
          kind = Min(kind, Conv(e, *pt, unifying));
        }
        return kind;
      }
      return CK::kNone;
    }
    case Kind::kObject: {
      if (src.kind == Kind::kObject) {
        if (unifying) return UnifierKind(dest, src);
        CK kind = CK::kSafe;
        for (const auto& [name, pt] : dest.properties) {
          const PclType* s = FindProperty(src, name);
          kind =
              Min(kind, Conv(*pt, s ? *s : *Primitive(Kind::kNone), unifying));
          if (kind == CK::kNone) break;
        }
        return kind;
      }
      if (src.kind == Kind::kMap) {
        CK kind = CK::kUnsafe;
        for (const auto& [name, pt] : dest.properties) {
          kind = Min(kind, Conv(*pt, *src.elements[0], unifying));
        }
        return kind;
      }
      return CK::kNone;
    }
    case Kind::kTuple: {
      if (src.kind == Kind::kTuple) {
        if (unifying) return UnifierKind(dest, src);
        if (dest.elements.size() != src.elements.size()) return CK::kNone;
        CK kind = CK::kSafe;
        for (std::size_t i = 0; i < dest.elements.size(); ++i) {
          kind = Min(kind, Conv(*dest.elements[i], *src.elements[i], unifying));
        }
        return kind;
      }
      if (src.kind == Kind::kList || src.kind == Kind::kSet) {
        CK kind = CK::kUnsafe;
        for (const TypePtr& d : dest.elements) {
          kind = Min(kind, Conv(*d, *src.elements[0], unifying));
        }
        return kind;
      }
      return CK::kNone;
    }
    case Kind::kUnion: {
      CK kind = CK::kNone;
      for (const TypePtr& m : dest.elements) {
        CK k = Conv(*m, src, unifying);
        if (k > kind) kind = k;
      }
      return kind;
    }
    case Kind::kOutput:
      if (src.kind == Kind::kOutput || src.kind == Kind::kPromise) {
        return Conv(*dest.elements[0], *src.elements[0], unifying);
      }
      return Conv(*dest.elements[0], src, unifying);
    case Kind::kPromise:
      if (src.kind == Kind::kPromise) {
        return Conv(*dest.elements[0], *src.elements[0], unifying);
      }
      if (src.kind == Kind::kOutput) return CK::kNone;
      return Conv(*dest.elements[0], src, unifying);
    case Kind::kEnum: {
      const PclType& under = *dest.elements[0];
      if (src.kind == Kind::kConst && !Equal(under, *src.elements[0])) {
        for (const Literal& m : dest.literals) {
          if (LiteralsEqual(m, src.literals[0])) return CK::kSafe;
        }
      }
      return Conv(under, src, unifying) == CK::kNone ? CK::kNone : CK::kUnsafe;
    }
    case Kind::kConst:
      return Conv(*dest.elements[0], src, false) == CK::kNone ? CK::kNone
                                                              : CK::kUnsafe;
    default: return CK::kNone;
  }
}

// ---------------------------------------------------------------------------
// Unification

// Folds `start` with every type in `others` (the list/map/set preferences
// of the type-specific unify functions).
Unified Fold(TypePtr start, CK kind, const std::vector<TypePtr>& others) {
  for (const TypePtr& o : others) {
    Unified u = UnifyImpl(start, o);
    kind = Min(kind, u.kind);
    start = u.type;
  }
  return {std::move(start), kind};
}

std::vector<TypePtr> PropertyTypes(const PclType& object) {
  std::vector<TypePtr> out;
  for (const auto& [name, pt] : object.properties) out.push_back(pt);
  return out;
}

Unified UnionUnifyTo(const TypePtr& u, const TypePtr& other) {
  if (other->kind == Kind::kUnion) {
    std::vector<TypePtr> all = u->elements;
    all.insert(all.end(), other->elements.begin(), other->elements.end());
    return {UnionOf(std::move(all)), CK::kSafe};
  }
  std::vector<TypePtr> members;
  CK kind = CK::kSafe;
  for (const TypePtr& m : u->elements) {
    Unified r = UnifyImpl(m, other);
    kind = Min(kind, r.kind);
    if (r.type) members.push_back(r.type);
  }
  return {UnionOf(std::move(members)), kind};
}

Unified Specific(const TypePtr& t, const TypePtr& other) {
  const Kind k = t->kind;
  const Kind ok = other->kind;
  if (IsOpaque(k)) {
    // string > number > int > bool (type_opaque.go opaquePrecedence).
    for (Kind goal : {Kind::kString, Kind::kNumber, Kind::kInt, Kind::kBool}) {
      if (k == goal) return {t, Conv(*t, *other, true)};
      if (ok == goal) return {other, Conv(*other, *t, true)};
    }
    return {Primitive(Kind::kAny), CK::kSafe};
  }
  switch (k) {
    case Kind::kNone: return {t, Conv(*other, *t, false)};
    case Kind::kList:
      if (ok == Kind::kTuple) {
        Unified u = Fold(t->elements[0], CK::kSafe, other->elements);
        return {ListOf(Kind::kList, u.type), u.kind};
      }
      if (ok == Kind::kSet || ok == Kind::kList) {
        Unified u = UnifyImpl(t->elements[0], other->elements[0]);
        return {ListOf(Kind::kList, u.type), u.kind};
      }
      return {t, Conv(*t, *other, true)};
    case Kind::kSet:
      if (ok == Kind::kSet || ok == Kind::kList) {
        Unified u = UnifyImpl(t->elements[0], other->elements[0]);
        return {ListOf(ok, u.type), u.kind};
      }
      if (ok == Kind::kTuple) {
        Unified u = Fold(t->elements[0], CK::kUnsafe, other->elements);
        return {ListOf(Kind::kSet, u.type), u.kind};
      }
      return {t, Conv(*t, *other, true)};
    case Kind::kMap:
      if (ok == Kind::kMap) {
        Unified u = UnifyImpl(t->elements[0], other->elements[0]);
        return {ListOf(Kind::kMap, u.type), u.kind};
      }
      if (ok == Kind::kObject) {
        Unified u = Fold(t->elements[0], CK::kSafe, PropertyTypes(*other));
        return {ListOf(Kind::kMap, u.type), u.kind};
      }
      return {t, Conv(*t, *other, true)};
    case Kind::kObject:
      if (ok == Kind::kMap) {
        Unified u = Fold(other->elements[0], CK::kSafe, PropertyTypes(*t));
        return {ListOf(Kind::kMap, u.type), u.kind};
      }
      if (ok == Kind::kObject) {
        // Keys on both sides are unified; keys on one side are optional.
        std::vector<std::pair<std::string, TypePtr>> props;
        CK kind = CK::kSafe;
        for (const auto& [name, pt] : t->properties) {
          const TypePtr* match = nullptr;
          for (const auto& [on, ot] : other->properties) {
            if (on == name) match = &ot;
          }
          if (match) {
            Unified u = UnifyImpl(pt, *match);
            kind = Min(kind, u.kind);
            props.emplace_back(name, u.type);
          } else {
            props.emplace_back(name, OptionalOf(pt));
          }
        }
        for (const auto& [on, ot] : other->properties) {
          if (!FindProperty(*t, on)) props.emplace_back(on, OptionalOf(ot));
        }
        return {ObjectOf(std::move(props)), kind};
      }
      return {t, Conv(*t, *other, true)};
    case Kind::kTuple:
      if (ok == Kind::kTuple) {
        std::vector<TypePtr> elements;
        CK kind = CK::kSafe;
        std::size_t n = std::min(t->elements.size(), other->elements.size());
        for (std::size_t i = 0; i < n; ++i) {
          Unified u = UnifyImpl(t->elements[i], other->elements[i]);
          kind = Min(kind, u.kind);
          elements.push_back(u.type);
        }
        const auto& longer =
            t->elements.size() > n ? t->elements : other->elements;
        for (std::size_t i = n; i < longer.size(); ++i) {
          elements.push_back(OptionalOf(longer[i]));
        }
        return {TupleOf(std::move(elements)), kind};
      }
      if (ok == Kind::kList) {
        Unified u = Fold(other->elements[0], CK::kSafe, t->elements);
        return {ListOf(Kind::kList, u.type), u.kind};
      }
      if (ok == Kind::kSet) {
        Unified u = Fold(other->elements[0], CK::kUnsafe, t->elements);
        return {ListOf(Kind::kSet, u.type), u.kind};
      }
      return {t, Conv(*t, *other, true)};
    case Kind::kUnion: return UnionUnifyTo(t, other);
    case Kind::kOutput:
      if (ok == Kind::kOutput || ok == Kind::kPromise) {
        Unified u = UnifyImpl(t->elements[0], other->elements[0]);
        return {OutputOf(u.type), u.kind};
      }
      return {t, Conv(*t, *other, true)};
    case Kind::kPromise:
      if (ok == Kind::kPromise) {
        Unified u = UnifyImpl(t->elements[0], other->elements[0]);
        return {PromiseOf(u.type), u.kind};
      }
      if (ok == Kind::kOutput) {
        Unified u = UnifyImpl(t->elements[0], other->elements[0]);
        return {OutputOf(u.type), u.kind};
      }
      return {t, Conv(*t, *other, true)};
    case Kind::kConst: return {t, Conv(*other, *t, false)};
    case Kind::kEnum:
    default: return {nullptr, CK::kNone};  // enums unify with nothing
  }
}

Unified UnifyImpl(const TypePtr& a, const TypePtr& b) {
  TypePtr t0 = a;
  TypePtr t1 = b;
  if (t0->kind == Kind::kAny) std::swap(t0, t1);  // any on the right
  if (Equal(*t0, *t1)) return {t0, CK::kSafe};
  if (t1->kind == Kind::kAny) return {t0, CK::kUnsafe};
  CK from = Conv(*t0, *t1, true);
  CK to = Conv(*t1, *t0, true);
  if (from < to) return {t1, to};
  if (from > to) return {t0, from};
  if (from == CK::kNone) return {UnionOf({t0, t1}), CK::kSafe};
  if (t1->kind == Kind::kUnion) return UnionUnifyTo(t1, t0);
  return Specific(t0, t1);
}

// ---------------------------------------------------------------------------
// Assignability

bool Assignable(const PclType& dest, const PclType& src) {
  if (Equal(dest, src) || dest.kind == Kind::kAny) return true;
  if (src.kind == Kind::kConst) return Assignable(dest, *src.elements[0]);
  const PclType& none = *Primitive(Kind::kNone);
  switch (dest.kind) {
    case Kind::kList:
      if (src.kind == Kind::kList) {
        return Assignable(*dest.elements[0], *src.elements[0]);
      }
      if (src.kind == Kind::kTuple) {
        for (const TypePtr& s : src.elements) {
          if (!Assignable(*dest.elements[0], *s)) return false;
        }
        return true;
      }
      return false;
    case Kind::kSet:
      return src.kind == Kind::kSet &&
             Assignable(*dest.elements[0], *src.elements[0]);
    case Kind::kMap:
      if (src.kind == Kind::kMap) {
        return Assignable(*dest.elements[0], *src.elements[0]);
      }
      if (src.kind == Kind::kObject) {
        for (const auto& [name, pt] : src.properties) {
          if (!Assignable(*dest.elements[0], *pt)) return false;
        }
        return true;
      }
      return false;
    case Kind::kObject:
      if (src.kind != Kind::kObject) return false;
      for (const auto& [name, pt] : dest.properties) {
        const PclType* s = FindProperty(src, name);
        if (!Assignable(*pt, s ? *s : none)) return false;
      }
      return true;
    case Kind::kTuple:
      if (src.kind != Kind::kTuple) return false;
      for (std::size_t i = 0; i < dest.elements.size(); ++i) {
        const PclType& s = i < src.elements.size() ? *src.elements[i] : none;
        if (!Assignable(*dest.elements[i], s)) return false;
      }
      return true;
    case Kind::kUnion:
      for (const TypePtr& m : dest.elements) {
        if (Assignable(*m, src)) return true;
      }
      return false;
    case Kind::kOutput:
      if (src.kind == Kind::kOutput || src.kind == Kind::kPromise) {
        return Assignable(*dest.elements[0], *src.elements[0]);
      }
      return Assignable(*dest.elements[0], src);
    case Kind::kPromise:
      if (src.kind == Kind::kPromise) {
        return Assignable(*dest.elements[0], *src.elements[0]);
      }
      return Assignable(*dest.elements[0], src);
    default: return false;  // opaque types, none and enums: only themselves
  }
}

}  // namespace

ConversionKind ConversionFrom(const PclType& dest, const PclType& src) {
  return Conv(dest, src, false);
}

bool AssignableFrom(const PclType& dest, const PclType& src) {
  return Assignable(dest, src);
}

Unified Unify(const TypePtr& t0, const TypePtr& t1) {
  return UnifyImpl(t0, t1);
}

std::pair<TypePtr, TypePtr> UnifyTypes(std::span<const TypePtr> types) {
  TypePtr safe;
  TypePtr unsafe;
  for (const TypePtr& t : types) {
    if (!safe) {
      safe = t;
    } else {
      Unified u = UnifyImpl(safe, t);
      safe = u.kind >= CK::kSafe && u.type ? u.type : UnionOf({safe, t});
    }
    if (!unsafe) {
      unsafe = t;
    } else {
      Unified u = UnifyImpl(unsafe, t);
      unsafe = u.kind >= CK::kUnsafe && u.type ? u.type : UnionOf({unsafe, t});
    }
  }
  if (!safe) safe = Primitive(Kind::kNone);
  if (!unsafe) unsafe = Primitive(Kind::kNone);
  return {safe, unsafe};
}

// ---------------------------------------------------------------------------
// The textual syntax

namespace {

constexpr int kMaxDepth = 64;

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Result<TypePtr> Run() {
    TypePtr t = ParseType(0);
    if (t) {
      SkipSpace();
      if (pos_ < text_.size()) Fail("unexpected text after the type");
    }
    if (!error_.empty()) return Status(Errc::kSyntax, error_);
    return t;
  }

 private:
  void Fail(std::string_view what) { FailAt(pos_, what); }
  void FailAt(std::size_t offset, std::string_view what) {
    if (!error_.empty()) return;
    error_ = "at offset " + std::to_string(offset) + " of the type: ";
    error_ += what;
  }

  void SkipSpace() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' ||
            text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  bool Expect(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    std::string what = "expected '";
    what += c;
    what += '\'';
    if (pos_ >= text_.size()) what += " before the end of the type";
    Fail(what);
    return false;
  }

  bool Peek(char c) {
    SkipSpace();
    return pos_ < text_.size() && text_[pos_] == c;
  }

  std::string_view Identifier() {
    SkipSpace();
    std::size_t start = pos_;
    auto first = [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    };
    if (pos_ < text_.size() && first(text_[pos_])) {
      ++pos_;
      while (pos_ < text_.size() &&
             (first(text_[pos_]) ||
              (text_[pos_] >= '0' && text_[pos_] <= '9') ||
              text_[pos_] == '-')) {
        ++pos_;
      }
    }
    return text_.substr(start, pos_ - start);
  }

  // A double-quoted string with JSON escapes; returns false on error.
  bool QuotedString(std::string* out) {
    std::size_t start = pos_;
    ++pos_;  // the opening quote
    std::string raw;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      if (text_[pos_] == '\\') {
        raw += text_[pos_++];
        if (pos_ >= text_.size()) break;
        char e = text_[pos_];
        if (e != '"' && e != '\\' && e != '/' && e != 'b' && e != 'f' &&
            e != 'n' && e != 'r' && e != 't' && e != 'u') {
          FailAt(pos_, "invalid escape in a string literal");
          return false;
        }
        if (e == 'u') {
          for (int i = 1; i <= 4; ++i) {
            std::size_t at = pos_ + static_cast<std::size_t>(i);
            char h = at < text_.size() ? text_[at] : '\0';
            bool hex = (h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') ||
                       (h >= 'A' && h <= 'F');
            if (!hex) {
              FailAt(pos_, "invalid \\u escape in a string literal");
              return false;
            }
          }
        }
      } else if (static_cast<unsigned char>(text_[pos_]) < 0x20) {
        FailAt(pos_, "control character in a string literal");
        return false;
      }
      raw += text_[pos_++];
    }
    if (pos_ >= text_.size()) {
      FailAt(start, "unterminated string literal");
      return false;
    }
    ++pos_;  // the closing quote
    *out = json::Unescape(raw);
    return true;
  }

  bool NumberLiteral(std::string* out) {
    // JSON number syntax.
    std::size_t start = pos_;
    auto digit = [&](std::size_t i) {
      return i < text_.size() && text_[i] >= '0' && text_[i] <= '9';
    };
    if (pos_ < text_.size() && text_[pos_] == '-') ++pos_;
    if (!digit(pos_)) {
      FailAt(start, "expected a number");
      return false;
    }
    if (text_[pos_] == '0') {
      ++pos_;
    } else {
      while (digit(pos_)) ++pos_;
    }
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      if (!digit(pos_)) {
        FailAt(pos_, "expected a digit after '.'");
        return false;
      }
      while (digit(pos_)) ++pos_;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) {
        ++pos_;
      }
      if (!digit(pos_)) {
        FailAt(pos_, "expected a digit in the exponent");
        return false;
      }
      while (digit(pos_)) ++pos_;
    }
    *out = std::string(text_.substr(start, pos_ - start));
    return true;
  }

  bool ParseLiteral(Kind underlying, Literal* out) {
    SkipSpace();
    std::size_t start = pos_;
    if (pos_ >= text_.size()) {
      Fail("expected an enum value before the end of the type");
      return false;
    }
    char c = text_[pos_];
    if (c == '"') {
      out->kind = Literal::Kind::kString;
      if (!QuotedString(&out->text)) return false;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      out->kind = Literal::Kind::kNumber;
      if (!NumberLiteral(&out->text)) return false;
    } else {
      std::string_view word = Identifier();
      if (word == "true" || word == "false") {
        out->kind = Literal::Kind::kBool;
        out->text = std::string(word);
      } else {
        FailAt(start, "expected an enum value (a string, number or bool)");
        return false;
      }
    }
    bool fits =
        (underlying == Kind::kString && out->kind == Literal::Kind::kString) ||
        ((underlying == Kind::kNumber || underlying == Kind::kInt) &&
         out->kind == Literal::Kind::kNumber) ||
        (underlying == Kind::kBool && out->kind == Literal::Kind::kBool);
    if (!fits) {
      FailAt(start, "the enum value does not have the enum's type");
      return false;
    }
    return true;
  }

  TypePtr ParseType(int depth) {
    if (depth > kMaxDepth) {
      Fail("the type is nested too deeply");
      return nullptr;
    }
    SkipSpace();
    std::size_t start = pos_;
    std::string_view name = Identifier();
    if (name.empty()) {
      Fail(pos_ >= text_.size() ? "expected a type before the end"
                                : "expected a type name");
      return nullptr;
    }
    static constexpr std::pair<std::string_view, Kind> kPrimitives[] = {
        {"any", Kind::kAny},       {"none", Kind::kNone},
        {"string", Kind::kString}, {"number", Kind::kNumber},
        {"int", Kind::kInt},       {"bool", Kind::kBool},
        {"Asset", Kind::kAsset},   {"Archive", Kind::kArchive},
    };
    for (const auto& [n, k] : kPrimitives) {
      if (name == n) return Primitive(k);
    }
    if (name == "list" || name == "set" || name == "map" ||
        name == "optional" || name == "output" || name == "promise") {
      if (!Expect('(')) return nullptr;
      TypePtr e = ParseType(depth + 1);
      if (!e || !Expect(')')) return nullptr;
      if (name == "list") return ListOf(Kind::kList, e);
      if (name == "set") return ListOf(Kind::kSet, e);
      if (name == "map") return ListOf(Kind::kMap, e);
      if (name == "optional") return OptionalOf(e);
      if (name == "output") return OutputOf(e);
      return PromiseOf(e);
    }
    if (name == "union") {
      if (!Expect('(')) return nullptr;
      std::vector<TypePtr> members;
      do {
        TypePtr m = ParseType(depth + 1);
        if (!m) return nullptr;
        members.push_back(std::move(m));
      } while (Peek(',') && ++pos_);
      if (!Expect(')')) return nullptr;
      return UnionOf(std::move(members));
    }
    if (name == "tuple") {
      if (!Expect('(') || !Expect('[')) return nullptr;
      std::vector<TypePtr> elements;
      if (!Peek(']')) {
        do {
          TypePtr e = ParseType(depth + 1);
          if (!e) return nullptr;
          elements.push_back(std::move(e));
        } while (Peek(',') && ++pos_);
      }
      if (!Expect(']') || !Expect(')')) return nullptr;
      return TupleOf(std::move(elements));
    }
    if (name == "object") {
      if (!Expect('(') || !Expect('{')) return nullptr;
      std::vector<std::pair<std::string, TypePtr>> props;
      NameIndex seen;
      while (!Peek('}')) {
        SkipSpace();
        std::size_t key_at = pos_;
        std::string key;
        if (pos_ < text_.size() && text_[pos_] == '"') {
          if (!QuotedString(&key)) return nullptr;
        } else {
          key = std::string(Identifier());
          if (key.empty()) {
            Fail("expected a property name");
            return nullptr;
          }
        }
        if (seen.Insert(key, props.size())) {
          FailAt(key_at, "duplicate property name");
          return nullptr;
        }
        SkipSpace();
        if (pos_ < text_.size() && (text_[pos_] == '=' || text_[pos_] == ':')) {
          ++pos_;
        } else {
          Fail("expected '=' or ':' after the property name");
          return nullptr;
        }
        TypePtr pt = ParseType(depth + 1);
        if (!pt) return nullptr;
        props.emplace_back(std::move(key), std::move(pt));
        if (!Peek(',')) break;
        ++pos_;
      }
      if (!Expect('}') || !Expect(')')) return nullptr;
      return ObjectOf(std::move(props));
    }
    if (name == "enum") {
      if (!Expect('(')) return nullptr;
      SkipSpace();
      std::size_t under_at = pos_;
      TypePtr under = ParseType(depth + 1);
      if (!under) return nullptr;
      if (under->kind != Kind::kString && under->kind != Kind::kNumber &&
          under->kind != Kind::kInt && under->kind != Kind::kBool) {
        FailAt(under_at, "an enum's type must be string, number, int or bool");
        return nullptr;
      }
      if (!Expect(':')) return nullptr;
      std::vector<Literal> members;
      do {
        Literal l;
        if (!ParseLiteral(under->kind, &l)) return nullptr;
        members.push_back(std::move(l));
      } while (Peek(',') && ++pos_);
      if (!Expect(')')) return nullptr;
      return EnumOf(std::move(under), std::move(members));
    }
    FailAt(start, "unknown type '" + std::string(name) + "'");
    return nullptr;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::string error_;
};

TypePtr TypeOf(const json::Value& value, json::Arena& arena, int depth) {
  if (depth > 512) return Primitive(Kind::kAny);
  Node node = Decode(value, arena);
  switch (node.kind) {
    case PropertyKind::kNull: return Primitive(Kind::kNone);
    case PropertyKind::kBool:
      return ConstOf(Primitive(Kind::kBool),
                     {Literal::Kind::kBool,
                      value.type == json::Type::kTrue ? "true" : "false"});
    case PropertyKind::kNumber: {
      std::string text(value.raw());
      Kind k = IsInt32Text(text) ? Kind::kInt : Kind::kNumber;
      return ConstOf(Primitive(k), {Literal::Kind::kNumber, std::move(text)});
    }
    case PropertyKind::kSpecialFloat: return Primitive(Kind::kNumber);
    case PropertyKind::kString:
      return ConstOf(Primitive(Kind::kString),
                     {Literal::Kind::kString, value.Str()});
    case PropertyKind::kByteString: return Primitive(Kind::kString);
    case PropertyKind::kUnknown: return Primitive(Kind::kAny);
    case PropertyKind::kArray: {
      std::vector<TypePtr> elements;
      for (const json::Value& e : value.array()) {
        TypePtr t = TypeOf(e, arena, depth + 1);
        if (!t) return nullptr;
        elements.push_back(std::move(t));
      }
      return TupleOf(std::move(elements));
    }
    case PropertyKind::kObject:
    case PropertyKind::kResourceReference: {
      std::vector<std::pair<std::string, TypePtr>> props;
      NameIndex seen;
      for (const json::Member& m : value.object()) {
        std::string key = m.key.Str();
        TypePtr t = TypeOf(m.value, arena, depth + 1);
        if (!t) return nullptr;
        if (std::optional<std::size_t> at = seen.Insert(key, props.size())) {
          props[*at].second = std::move(t);  // the last duplicate wins
        } else {
          props.emplace_back(std::move(key), std::move(t));
        }
      }
      return ObjectOf(std::move(props));
    }
    case PropertyKind::kAsset: return Primitive(Kind::kAsset);
    case PropertyKind::kArchive: return Primitive(Kind::kArchive);
    case PropertyKind::kSecret: {
      if (!node.secret_inner) return OutputOf(Primitive(Kind::kAny));
      TypePtr inner = TypeOf(*node.secret_inner, arena, depth + 1);
      return inner ? OutputOf(inner) : nullptr;
    }
    case PropertyKind::kOutputValue:
    case PropertyKind::kUnrecognized: return nullptr;
  }
  return nullptr;
}

}  // namespace

Result<TypePtr> ParseType(std::string_view text) { return Parser(text).Run(); }

TypePtr TypeOfValue(const json::Value& value) {
  json::Arena arena;
  return TypeOf(value, arena, 0);
}

}  // namespace pstate::types::pcl
