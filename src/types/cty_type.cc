// cty types: construction, equality, names and the JSON type encoding
// (zclconf/go-cty cty/type.go, cty/object_type.go, cty/json.go).
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "json/pointer.h"
#include "json/string_codec.h"
#include "types/cty.h"

namespace pstate::types::cty {
namespace {

const Type kBool{Kind::kBool, 0, nullptr, nullptr, nullptr};
const Type kNumber{Kind::kNumber, 0, nullptr, nullptr, nullptr};
const Type kString{Kind::kString, 0, nullptr, nullptr, nullptr};
const Type kDynamic{Kind::kDynamic, 0, nullptr, nullptr, nullptr};

bool Equal(const Type* a, const Type* b, bool ignore_optional) {
  if (a == b) return true;
  if (a->kind != b->kind || a->count != b->count) return false;
  switch (a->kind) {
    case Kind::kBool:
    case Kind::kNumber:
    case Kind::kString:
    case Kind::kDynamic: return true;
    case Kind::kList:
    case Kind::kMap:
    case Kind::kSet: return Equal(a->elem, b->elem, ignore_optional);
    case Kind::kObject:
      for (std::uint32_t i = 0; i < a->count; ++i) {
        const Attr& x = a->attrs[i];
        const Attr& y = b->attrs[i];
        if (x.name != y.name) return false;
        if (ignore_optional ? x.optional : x.optional != y.optional) {
          return false;
        }
        if (!Equal(x.type, y.type, ignore_optional)) return false;
      }
      return true;
    case Kind::kTuple:
      for (std::uint32_t i = 0; i < a->count; ++i) {
        if (!Equal(a->elems[i], b->elems[i], ignore_optional)) return false;
      }
      return true;
  }
  return false;
}

void AppendTypeString(const Type* t, std::string* out) {
  switch (t->kind) {
    case Kind::kBool: *out += "bool"; return;
    case Kind::kNumber: *out += "number"; return;
    case Kind::kString: *out += "string"; return;
    case Kind::kDynamic: *out += "any"; return;
    case Kind::kList:
    case Kind::kMap:
    case Kind::kSet:
      *out += t->kind == Kind::kList  ? "list("
              : t->kind == Kind::kMap ? "map("
                                      : "set(";
      AppendTypeString(t->elem, out);
      *out += ')';
      return;
    case Kind::kObject:
      *out += "object({";
      for (std::uint32_t i = 0; i < t->count; ++i) {
        if (i > 0) *out += ',';
        out->append(t->attrs[i].name);
        *out += '=';
        if (t->attrs[i].optional) *out += "optional(";
        AppendTypeString(t->attrs[i].type, out);
        if (t->attrs[i].optional) *out += ')';
      }
      *out += "})";
      return;
    case Kind::kTuple:
      *out += "tuple([";
      for (std::uint32_t i = 0; i < t->count; ++i) {
        if (i > 0) *out += ',';
        AppendTypeString(t->elems[i], out);
      }
      *out += "])";
      return;
  }
}

Status TypeError(const std::string& where, const std::string& message) {
  return Status(Errc::kSyntax, "at " +
                                   (where.empty() ? std::string("/") : where) +
                                   " of the type: " + message);
}

// Recursive reader of the JSON type encoding. `where` is the pointer of
// `spec` inside the type document.
Result<const Type*> ReadJsonType(const json::Value& spec, TypeBuilder& tb,
                                 std::string& where, int depth) {
  if (depth > 256) return TypeError(where, "type nested too deeply");
  if (spec.is_string()) {
    std::string name = spec.Str();
    if (name == "bool") return BoolType();
    if (name == "number") return NumberType();
    if (name == "string") return StringType();
    if (name == "dynamic") return DynamicType();
    std::string quoted;
    json::AppendEscaped(name, &quoted);
    return TypeError(where, "invalid primitive type name \"" + quoted + "\"");
  }
  if (!spec.is_array()) {
    return TypeError(where,
                     "invalid type description: a type is a string "
                     "or an array, not " +
                         std::string(json::TypeName(spec.type)));
  }
  auto items = spec.array();
  if (items.empty() || !items[0].is_string()) {
    return TypeError(where, "invalid complex type kind name");
  }
  std::string kind = items[0].Str();
  auto expect_count = [&](std::size_t n) -> Status {
    if (items.size() < n) {
      return TypeError(
          where, "incomplete \"" + kind + "\" type description: it needs " +
                     std::to_string(n - 1) + " argument" + (n == 2 ? "" : "s"));
    }
    return Status::Ok();
  };
  std::size_t used = 0;
  const Type* result = nullptr;
  if (kind == "list" || kind == "map" || kind == "set") {
    Status st = expect_count(2);
    if (!st.ok()) return st;
    std::size_t n = where.size();
    json::AppendPointerIndex(&where, 1);
    auto elem = ReadJsonType(items[1], tb, where, depth + 1);
    if (!elem.ok()) return elem.status();
    where.resize(n);
    Kind k = kind == "list"  ? Kind::kList
             : kind == "map" ? Kind::kMap
                             : Kind::kSet;
    result = tb.Collection(k, *elem);
    used = 2;
  } else if (kind == "object") {
    Status st = expect_count(2);
    if (!st.ok()) return st;
    std::size_t n = where.size();
    json::AppendPointerIndex(&where, 1);
    if (!items[1].is_object()) {
      return TypeError(where, "object attribute types must be a JSON object");
    }
    std::vector<Attr> attrs;
    attrs.reserve(items[1].size);
    for (const json::Member& m : items[1].object()) {
      std::string name = m.key.Str();
      std::size_t k = where.size();
      json::AppendPointerToken(&where, name);
      auto aty = ReadJsonType(m.value, tb, where, depth + 1);
      if (!aty.ok()) return aty.status();
      where.resize(k);
      attrs.push_back(Attr{tb.arena().Copy(name), *aty, false});
    }
    where.resize(n);
    used = 2;
    if (items.size() > 2) {
      json::AppendPointerIndex(&where, 2);
      if (!items[2].is_array()) {
        return TypeError(where,
                         "optional attribute names must be an array "
                         "of strings");
      }
      for (std::size_t i = 0; i < items[2].size; ++i) {
        const json::Value& opt = items[2].array()[i];
        if (!opt.is_string()) {
          json::AppendPointerIndex(&where, i);
          return TypeError(where,
                           "an optional attribute name must be a "
                           "string");
        }
        std::string name = opt.Str();
        bool found = false;
        // Go's decoder keeps the last duplicate key, and so does Object().
        for (auto it = attrs.rbegin(); it != attrs.rend(); ++it) {
          if (it->name == name) {
            it->optional = true;
            found = true;
            break;
          }
        }
        if (!found) {
          // cty.ObjectWithOptionalAttrs panics on an unknown name.
          json::AppendPointerIndex(&where, i);
          std::string quoted;
          json::AppendEscaped(name, &quoted);
          return TypeError(where, "optional attribute \"" + quoted +
                                      "\" is not an attribute of the object");
        }
      }
      where.resize(n);
      used = 3;
    }
    result = tb.Object(attrs);
  } else if (kind == "tuple") {
    Status st = expect_count(2);
    if (!st.ok()) return st;
    std::size_t n = where.size();
    json::AppendPointerIndex(&where, 1);
    if (!items[1].is_array()) {
      return TypeError(where, "tuple element types must be a JSON array");
    }
    std::vector<const Type*> elems;
    elems.reserve(items[1].size);
    for (std::size_t i = 0; i < items[1].size; ++i) {
      std::size_t k = where.size();
      json::AppendPointerIndex(&where, i);
      auto ety = ReadJsonType(items[1].array()[i], tb, where, depth + 1);
      if (!ety.ok()) return ety.status();
      where.resize(k);
      elems.push_back(*ety);
    }
    where.resize(n);
    result = tb.Tuple(elems);
    used = 2;
  } else {
    std::size_t n = where.size();
    json::AppendPointerIndex(&where, 0);
    Status st = TypeError(where, "invalid complex type kind name");
    where.resize(n);
    return st;
  }
  if (items.size() > used) {
    json::AppendPointerIndex(&where, used);
    return TypeError(where, "unexpected extra data in type description");
  }
  return result;
}

}  // namespace

const Type* BoolType() { return &kBool; }
const Type* NumberType() { return &kNumber; }
const Type* StringType() { return &kString; }
const Type* DynamicType() { return &kDynamic; }

const Attr* Type::FindAttr(std::string_view name) const {
  const Attr* begin = attrs;
  const Attr* end = attrs + count;
  const Attr* it = std::lower_bound(
      begin, end, name,
      [](const Attr& a, std::string_view n) { return a.name < n; });
  return it != end && it->name == name ? it : nullptr;
}

bool Type::HasOptionalAttrsDeep() const {
  switch (kind) {
    case Kind::kList:
    case Kind::kMap:
    case Kind::kSet: return elem->HasOptionalAttrsDeep();
    case Kind::kObject:
      for (const Attr& a : attributes()) {
        if (a.optional || a.type->HasOptionalAttrsDeep()) return true;
      }
      return false;
    case Kind::kTuple:
      for (const Type* e : elements()) {
        if (e->HasOptionalAttrsDeep()) return true;
      }
      return false;
    default: return false;
  }
}

bool TypesEqual(const Type* a, const Type* b) { return Equal(a, b, false); }

bool TypesEqualIgnoringOptional(const Type* a, const Type* b) {
  // With ignore_optional, Equal requires `a` to have no optional markers
  // and ignores those of `b`.
  return Equal(a, b, true);
}

const Type* TypeBuilder::Collection(Kind kind, const Type* elem) {
  Type* t = arena_.Allocate<Type>(1);
  *t = Type{kind, 0, elem, nullptr, nullptr};
  return t;
}

const Type* TypeBuilder::Object(std::span<const Attr> attrs) {
  Attr* copy = arena_.Allocate<Attr>(attrs.size());
  std::uint32_t n = 0;
  for (const Attr& a : attrs) copy[n++] = a;
  // Stable, so among duplicates the last stays last; then keep the last.
  SmallStableSort(copy, copy + n,
                  [](const Attr& x, const Attr& y) { return x.name < y.name; });
  std::uint32_t out = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (i + 1 < n && copy[i + 1].name == copy[i].name) continue;
    copy[out++] = copy[i];
  }
  Type* t = arena_.Allocate<Type>(1);
  *t = Type{Kind::kObject, out, nullptr, copy, nullptr};
  return t;
}

const Type* TypeBuilder::Tuple(std::span<const Type* const> elems) {
  const Type** copy = arena_.Allocate<const Type*>(elems.size());
  std::uint32_t n = 0;
  for (const Type* e : elems) copy[n++] = e;
  Type* t = arena_.Allocate<Type>(1);
  *t = Type{Kind::kTuple, n, nullptr, nullptr, copy};
  return t;
}

const Type* TypeBuilder::WithoutOptionalDeep(const Type* type) {
  if (!type->HasOptionalAttrsDeep()) return type;
  switch (type->kind) {
    case Kind::kList:
    case Kind::kMap:
    case Kind::kSet:
      return Collection(type->kind, WithoutOptionalDeep(type->elem));
    case Kind::kObject: {
      Attr* copy = arena_.Allocate<Attr>(type->count);
      for (std::uint32_t i = 0; i < type->count; ++i) {
        copy[i] = Attr{type->attrs[i].name,
                       WithoutOptionalDeep(type->attrs[i].type), false};
      }
      Type* t = arena_.Allocate<Type>(1);
      *t = Type{Kind::kObject, type->count, nullptr, copy, nullptr};
      return t;
    }
    case Kind::kTuple: {
      const Type** copy = arena_.Allocate<const Type*>(type->count);
      for (std::uint32_t i = 0; i < type->count; ++i) {
        copy[i] = WithoutOptionalDeep(type->elems[i]);
      }
      Type* t = arena_.Allocate<Type>(1);
      *t = Type{Kind::kTuple, type->count, nullptr, nullptr, copy};
      return t;
    }
    default: return type;
  }
}

std::string FriendlyName(const Type* type, bool for_constraint) {
  switch (type->kind) {
    case Kind::kBool: return "bool";
    case Kind::kNumber: return "number";
    case Kind::kString: return "string";
    case Kind::kDynamic: return for_constraint ? "any type" : "dynamic";
    case Kind::kList:
    case Kind::kMap:
    case Kind::kSet: {
      std::string prefix = type->kind == Kind::kList  ? "list of "
                           : type->kind == Kind::kMap ? "map of "
                                                      : "set of ";
      if (for_constraint && type->elem->kind == Kind::kDynamic) {
        return prefix + "any single type";
      }
      return prefix + FriendlyName(type->elem, for_constraint);
    }
    case Kind::kObject: return "object";
    case Kind::kTuple: return "tuple";
  }
  return "dynamic";
}

std::string TypeString(const Type* type) {
  std::string out;
  AppendTypeString(type, &out);
  return out;
}

namespace {

std::string QuoteName(std::string_view name) {
  std::string out = "\"";
  json::AppendEscaped(name, &out);
  out += '"';
  return out;
}

void Conformance(const Type* given, const Type* want, std::string& path,
                 std::vector<Failure>* errs) {
  if (want->kind == Kind::kDynamic || TypesEqual(given, want)) return;
  if (given->kind == Kind::kObject && want->kind == Kind::kObject) {
    for (const Attr& g : given->attributes()) {
      if (want->FindAttr(g.name) == nullptr) {
        errs->push_back({path, "unsupported attribute " + QuoteName(g.name)});
      }
    }
    for (const Attr& w : want->attributes()) {
      if (given->FindAttr(w.name) == nullptr) {
        errs->push_back(
            {path, "missing required attribute " + QuoteName(w.name)});
      }
    }
    for (const Attr& w : want->attributes()) {
      const Attr* g = given->FindAttr(w.name);
      if (g == nullptr) continue;
      std::size_t n = path.size();
      json::AppendPointerToken(&path, w.name);
      Conformance(g->type, w.type, path, errs);
      path.resize(n);
    }
    return;
  }
  if (given->kind == Kind::kTuple && want->kind == Kind::kTuple) {
    if (given->count != want->count) {
      errs->push_back({path, std::to_string(want->count) +
                                 " elements are required, but got " +
                                 std::to_string(given->count)});
      return;
    }
    for (std::uint32_t i = 0; i < want->count; ++i) {
      std::size_t n = path.size();
      json::AppendPointerIndex(&path, i);
      Conformance(given->elems[i], want->elems[i], path, errs);
      path.resize(n);
    }
    return;
  }
  if (given->kind == want->kind && given->is_collection()) {
    std::size_t n = path.size();
    path += "/*";
    Conformance(given->elem, want->elem, path, errs);
    path.resize(n);
    return;
  }
  errs->push_back({path, FriendlyName(want) + " required, but received " +
                             FriendlyName(given)});
}

}  // namespace

std::vector<Failure> TestConformance(const Type* given, const Type* want) {
  std::vector<Failure> errs;
  std::string path;
  Conformance(given, want, path, &errs);
  return errs;
}

Result<const Type*> ParseJsonType(const json::Value& spec, TypeBuilder& tb) {
  std::string where;
  return ReadJsonType(spec, tb, where, 0);
}

}  // namespace pstate::types::cty
