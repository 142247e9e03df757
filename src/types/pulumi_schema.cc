// Checking state values against Pulumi package-schema type specs
// (docs/types.md, "pulumi-schema").
//
// The grammar is Pulumi's pkg/codegen/schema/pulumi.json ($defs/typeSpec)
// as pkg/codegen/schema/bind.go binds it; how a value is read into a type
// follows sdk/go/pulumi/rpc.go unmarshalOutput, with the tightenings
// docs/types.md lists (int32 integers, no nulls inside arrays and maps,
// strict enum membership).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "json/compact.h"
#include "json/number.h"
#include "json/parser.h"
#include "json/pointer.h"
#include "state/signature.h"
#include "state/urn.h"
#include "types/check_walk.h"
#include "types/encode.h"
#include "types/pulumi_schema.h"
#include "types/schema_set.h"
#include "types/state_value.h"

namespace pstate::types {
namespace {

constexpr int kMaxSpecDepth = 256;

bool IsTrue(const json::Value* v) { return v && v->type == json::Type::kTrue; }

std::string Str(const json::Value& v) {
  return v.has_escapes ? v.Str() : std::string(v.raw());
}

// URL-path unescaping of a ref's token (bind.go parseTypeSpecRef uses
// url.PathUnescape). Invalid escapes are kept as written.
std::string PathUnescape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) >= 0 &&
        hex(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2])));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

// What a `$ref` names.
struct Target {
  enum class Kind {
    kAny,          ///< pulumi.json#/Any and #/Json
    kAsset,        ///< pulumi.json#/Asset: an asset or an archive
    kArchive,      ///< pulumi.json#/Archive
    kAnyResource,  ///< pulumi.json#/AnyResource: any resource reference
    kObject,       ///< an object type of #/types/
    kEnum,         ///< an enum type of #/types/
    kToken,        ///< another #/types/ entry: its "type", if any
    kResource,     ///< #/resources/<token> or #/provider
    kMissing,      ///< `error` says why
  };
  Kind kind = Kind::kMissing;
  const json::Value* def = nullptr;
  const PackageSchema* package = nullptr;
  std::string token;
  std::string error;
};

// The package a ref path such as "/aws/v4.0.0/schema.json" or
// "https://host/aws/v4.0.0/schema.json" names: the path segment before the
// version segment, else the first segment.
std::string PackageFromPath(std::string_view path) {
  std::size_t scheme = path.find("://");
  if (scheme != std::string_view::npos) {
    std::size_t slash = path.find('/', scheme + 3);
    path = slash == std::string_view::npos ? std::string_view()
                                           : path.substr(slash);
  }
  std::vector<std::string_view> segs;
  while (!path.empty()) {
    std::size_t slash = path.find('/');
    std::string_view seg = path.substr(0, slash);
    if (!seg.empty()) segs.push_back(seg);
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  for (std::size_t i = 1; i < segs.size(); ++i) {
    if (segs[i].size() > 1 && segs[i][0] == 'v' && segs[i][1] >= '0' &&
        segs[i][1] <= '9') {
      return std::string(segs[i - 1]);
    }
  }
  return segs.empty() ? std::string() : std::string(segs[0]);
}

Target Resolve(const SchemaSet& set, std::string_view ref,
               const PackageSchema* context) {
  Target t;
  std::size_t hash = ref.find('#');
  if (hash == std::string_view::npos) {
    t.error = "a $ref must contain '#'";
    return t;
  }
  std::string_view path = ref.substr(0, hash);
  std::string_view fragment = ref.substr(hash + 1);
  if (path == "pulumi.json") {
    if (fragment == "/Any" || fragment == "/Json") {
      t.kind = Target::Kind::kAny;
    } else if (fragment == "/Asset") {
      t.kind = Target::Kind::kAsset;
    } else if (fragment == "/Archive") {
      t.kind = Target::Kind::kArchive;
    } else if (fragment == "/AnyResource" || fragment == "/ResourceReference") {
      t.kind = Target::Kind::kAnyResource;
    } else {
      t.error = "unknown built-in type '" + std::string(ref) + "'";
    }
    return t;
  }
  auto package_of = [&](const std::string& token) -> const PackageSchema* {
    std::size_t colon = token.find(':');
    if (colon != std::string::npos) {
      // A token of the package being checked resolves in that very
      // version of it; another package's in its newest version.
      if (context &&
          context->name() == std::string_view(token).substr(0, colon)) {
        return context;
      }
      if (const PackageSchema* p = set.FindPackage(token.substr(0, colon))) {
        return p;
      }
      t.error = "no loaded package schema is named '" + token.substr(0, colon) +
                "' (load it with --schema)";
      return nullptr;
    }
    if (context) return context;
    t.error = "the token '" + token + "' names no package";
    return nullptr;
  };
  if (fragment.starts_with("/types/")) {
    t.token = PathUnescape(fragment.substr(7));
    t.package = package_of(t.token);
    if (!t.package) return t;
    t.def = t.package->Type(t.token);
    if (!t.def) {
      t.error = "package schema '" + t.package->name() + "' has no type '" +
                t.token + "'";
      return t;
    }
    if (!t.def->is_object()) {
      t.error = "type '" + t.token + "' is not a JSON object";
    } else if (t.def->Find("enum")) {
      t.kind = Target::Kind::kEnum;
    } else if (const json::Value* type = t.def->Find("type");
               t.def->Find("properties") ||
               (type && type->StrEquals("object"))) {
      t.kind = Target::Kind::kObject;
    } else {
      t.kind = Target::Kind::kToken;
    }
    return t;
  }
  if (fragment.starts_with("/resources/")) {
    t.token = PathUnescape(fragment.substr(11));
    t.package = package_of(t.token);
    if (!t.package) return t;
    t.def = t.package->Resource(t.token);
    if (!t.def) {
      t.error = "package schema '" + t.package->name() + "' has no resource '" +
                t.token + "'";
      return t;
    }
    t.kind = Target::Kind::kResource;
    return t;
  }
  if (fragment == "/provider") {
    const PackageSchema* p = nullptr;
    if (!path.empty()) {
      std::string name = PackageFromPath(path);
      p = set.FindPackage(name);
      if (!p) {
        t.error = "no loaded package schema is named '" + name +
                  "' (load it with --schema)";
        return t;
      }
    } else {
      p = context ? context : set.OnlyPackage();
      if (!p) {
        t.error =
            "#/provider needs its package: load exactly one schema, or "
            "write /<package>/v<version>/schema.json#/provider";
        return t;
      }
    }
    t.def = p->Provider();
    if (!t.def) {
      t.error = "package schema '" + p->name() + "' has no provider";
      return t;
    }
    t.package = p;
    t.token = "pulumi:providers:" + p->name();
    t.kind = Target::Kind::kResource;
    return t;
  }
  t.error = "unsupported $ref '" + std::string(ref) + "'";
  return t;
}

// ------------------------------------------------------------ validation

// Checks a spec written as a case's type against the typeSpec grammar
// (pulumi.json $defs/typeSpec) and resolves its refs. Returns an error
// message located by a pointer into the spec, or "".
class SpecValidator {
 public:
  explicit SpecValidator(const SchemaSet& set) : set_(set) {}

  std::string Run(const json::Value& spec) {
    Validate(spec, 0);
    return error_;
  }

 private:
  bool Fail(const std::string& message) {
    if (error_.empty()) {
      error_ = "at " +
               (pointer_.str().empty() ? std::string("/") : pointer_.str()) +
               " of the type: " + message;
    }
    return false;
  }
  bool Key(const char* key, const json::Value& v, int depth) {
    std::size_t mark = pointer_.PushKey(key);
    bool ok = Validate(v, depth + 1);
    pointer_.Pop(mark);
    return ok;
  }
  bool Ref(const json::Value& ref, const char* key) {
    std::size_t mark = pointer_.PushKey(key);
    bool ok = true;
    if (!ref.is_string()) {
      ok = Fail("a $ref must be a string");
    } else {
      Target t = Resolve(set_, ref.Str(), nullptr);
      if (t.kind == Target::Kind::kMissing) ok = Fail(t.error);
    }
    pointer_.Pop(mark);
    return ok;
  }

  bool Validate(const json::Value& spec, int depth) {
    if (depth > kMaxSpecDepth) return Fail("type nested too deeply");
    if (!spec.is_object()) {
      return Fail("a type spec is a JSON object, not " +
                  std::string(json::TypeName(spec.type)));
    }
    if (const json::Value* plain = spec.Find("plain");
        plain && !plain->is_bool()) {
      std::size_t mark = pointer_.PushKey("plain");
      Fail("plain must be true or false");
      pointer_.Pop(mark);
      return false;
    }
    if (const json::Value* ref = spec.Find("$ref")) return Ref(*ref, "$ref");
    if (const json::Value* one_of = spec.Find("oneOf")) {
      std::size_t mark = pointer_.PushKey("oneOf");
      if (!one_of->is_array() || one_of->size < 2) {
        Fail("oneOf must be an array of at least 2 type specs");
        pointer_.Pop(mark);
        return false;
      }
      for (std::size_t i = 0; i < one_of->size; ++i) {
        std::size_t m = pointer_.PushIndex(i);
        bool ok = Validate(one_of->elements[i], depth + 1);
        pointer_.Pop(m);
        if (!ok) return false;
      }
      pointer_.Pop(mark);
      if (const json::Value* d = spec.Find("discriminator")) {
        mark = pointer_.PushKey("discriminator");
        const json::Value* name =
            d->is_object() ? d->Find("propertyName") : nullptr;
        if (!name || !name->is_string()) {
          Fail("a discriminator needs a string propertyName");
          pointer_.Pop(mark);
          return false;
        }
        if (const json::Value* mapping = d->Find("mapping")) {
          std::size_t mm = pointer_.PushKey("mapping");
          if (!mapping->is_object()) {
            Fail("mapping must be an object of refs");
            return false;
          }
          for (const json::Member& m : mapping->object()) {
            std::size_t km = pointer_.PushKey(m.key.Str());
            if (!m.value.is_string()) {
              Fail("a mapping value must be a $ref string");
              return false;
            }
            Target t = Resolve(set_, m.value.Str(), nullptr);
            if (t.kind == Target::Kind::kMissing) return Fail(t.error);
            pointer_.Pop(km);
          }
          pointer_.Pop(mm);
        }
        pointer_.Pop(mark);
      }
      return true;
    }
    const json::Value* type = spec.Find("type");
    if (!type) return Fail("a type spec needs \"type\", \"$ref\" or \"oneOf\"");
    std::size_t mark = pointer_.PushKey("type");
    if (!type->is_string()) {
      Fail("type must be a string");
      pointer_.Pop(mark);
      return false;
    }
    std::string name = type->Str();
    pointer_.Pop(mark);
    if (name == "boolean" || name == "integer" || name == "number" ||
        name == "string") {
      return true;
    }
    if (name == "array") {
      const json::Value* items = spec.Find("items");
      if (!items) return Fail("an array type needs \"items\"");
      return Key("items", *items, depth);
    }
    if (name == "object") {
      const json::Value* ap = spec.Find("additionalProperties");
      return ap ? Key("additionalProperties", *ap, depth) : true;
    }
    mark = pointer_.PushKey("type");
    Fail("unknown type '" + name +
         "' (boolean, integer, number, string, array or object)");
    pointer_.Pop(mark);
    return false;
  }

  const SchemaSet& set_;
  json::PointerBuilder pointer_;
  std::string error_;
};

// --------------------------------------------------------------- checking

// Specs are compiled once before values are checked against them (the hot
// loop of `verify --schema` checks the same few types over and over):
// a CSpec says what a typeSpec/propertySpec is (its kind, flags, const,
// element and union members), a Named is a resolved `$ref` with its schema
// location spelled once, a CObject is an object type's (or a resource
// side's) properties with their compiled specs and a by-name index. Checking
// a value then does no member search in the spec, no ref resolution and no
// string building. All of it lives in a SchemaCache; refs compile lazily
// (types may refer to themselves).
struct CObject;
struct Named;

struct CSpec {
  enum class Kind : std::uint8_t {
    kBoolean,
    kInteger,
    kNumber,
    kString,
    kArray,      ///< element: items
    kMap,        ///< element: additionalProperties (nullptr: string)
    kRef,        ///< named
    kUnion,      ///< members, discriminator
    kInvalid,    ///< message: fails every value that gets this far
    kNotObject,  ///< the spec is not a JSON object
  };
  Kind kind = Kind::kInvalid;
  bool plain = false;   ///< "plain": true
  bool secret = false;  ///< "secret": true
  const json::Value* const_value = nullptr;
  const CSpec* element = nullptr;
  Named* named = nullptr;
  /// kRef: where this occurrence's "$ref" value is in its schema (a Named
  /// is shared by every occurrence of the same ref text).
  std::uint64_t ref_offset = 0;
  std::vector<const CSpec*> members;
  /// kUnion with a discriminator object: its propertyName ("" when
  /// missing) and its mapping (an object) or nullptr.
  bool discriminated = false;
  std::string property_name;
  const json::Value* mapping = nullptr;
  const PackageSchema* ctx = nullptr;  ///< resolves the refs below
  std::string message;
  /// Where the spec is in its schema, spelled once at compile time
  /// ("#/types/<token>/properties/host/items"): a spec sits in one place,
  /// whichever way a check reaches it.
  std::string location;
};

// An object type's declared properties, or a resource side's.
struct CObject {
  struct Field {
    const json::Value* key = nullptr;  ///< the property's key (escaped)
    std::string_view name;             ///< decoded
    bool required = false;
    bool secret = false;  ///< the spec's "secret"
    /// The spec is a bare boolean, integer, number or string (no const,
    /// not plain): a value of the right JSON kind fits without a call.
    bool simple = false;
    CSpec::Kind kind = CSpec::Kind::kInvalid;
    const CSpec* spec = nullptr;
  };
  std::string_view properties_key;  ///< "properties" / "inputProperties"
  std::vector<Field> fields;        ///< in the schema's order
  const std::unordered_map<std::string_view, std::uint32_t>* by_name = nullptr;
  PackageSchema::PropertyIndex own;  ///< when no package keeps the index
  /// The field the i-th member of the last object checked had (kNoField
  /// for none): states write each type's keys in the same (sorted) order,
  /// so the guess usually saves the hash lookup.
  mutable std::vector<std::uint32_t> guess;
};

constexpr std::uint32_t kNoField = 0xffffffffu;

struct Named {
  Target target;
  std::string ref;  ///< as written (decoded)
  const PackageSchema* ctx = nullptr;
  std::string location;  ///< "#/types/<token>", "#/resources/..."
  bool compiled = false;
  const CObject* object = nullptr;   ///< kObject
  const CObject* outputs = nullptr;  ///< kResource, its outputs object
  /// kToken: the definition's "type" (nullptr when it has none), and the
  /// text for "expected a <type>".
  const CSpec* typed = nullptr;
  std::string expected;
  /// kEnum: the underlying primitive and the values.
  CSpec::Kind enum_kind = CSpec::Kind::kString;
  std::vector<const json::Value*> enum_values;
};

}  // namespace

struct SchemaCache::Impl {
  explicit Impl(const SchemaSet& s) : set(s) {}
  const SchemaSet& set;
  std::deque<CSpec> specs;
  std::deque<Named> named;
  std::deque<CObject> objects;
  std::deque<std::string> names;
  std::map<std::pair<const PackageSchema*, std::string>, Named*> by_ref;
  std::unordered_map<const json::Value*, CObject*> inputs;   ///< by def
  std::unordered_map<const json::Value*, CObject*> outputs;  ///< by def
  std::unordered_map<const json::Value*, CObject*> types;    ///< by def

  const CSpec& Compile(const json::Value& spec, const PackageSchema* ctx,
                       int depth, std::string location) {
    CSpec& c = specs.emplace_back();
    c.ctx = ctx;
    c.location = std::move(location);
    if (depth > kMaxSpecDepth) {
      c.message = "type nested too deeply";
      return c;
    }
    if (!spec.is_object()) {
      c.kind = CSpec::Kind::kNotObject;
      return c;
    }
    c.plain = IsTrue(spec.Find("plain"));
    c.secret = IsTrue(spec.Find("secret"));
    c.const_value = spec.Find("const");
    if (const json::Value* ref = spec.Find("$ref")) {
      if (!ref->is_string()) {
        c.message = "a $ref must be a string";
        return c;
      }
      c.kind = CSpec::Kind::kRef;
      c.named = Ref(Str(*ref), ctx);
      c.ref_offset = ref->offset;
      return c;
    }
    if (const json::Value* one_of = spec.Find("oneOf")) {
      if (!one_of->is_array()) {
        c.message = "oneOf must be an array";
        return c;
      }
      c.kind = CSpec::Kind::kUnion;
      std::size_t i = 0;
      for (const json::Value& m : one_of->array()) {
        std::string at = c.location + "/oneOf";
        json::AppendPointerIndex(&at, i++);
        c.members.push_back(&Compile(m, ctx, depth + 1, std::move(at)));
      }
      const json::Value* d = spec.Find("discriminator");
      if (d && d->is_object()) {
        c.discriminated = true;
        const json::Value* pname = d->Find("propertyName");
        if (pname && pname->is_string()) c.property_name = Str(*pname);
        const json::Value* mapping = d->Find("mapping");
        if (mapping && mapping->is_object()) c.mapping = mapping;
      }
      return c;
    }
    CompileTyped(spec, ctx, depth, &c);
    return c;
  }

  // The "type" part of a spec (also a #/types/ entry's own type).
  void CompileTyped(const json::Value& spec, const PackageSchema* ctx,
                    int depth, CSpec* c) {
    const json::Value* type = spec.Find("type");
    if (!type || !type->is_string()) {
      c->message = "a type spec needs \"type\", \"$ref\" or \"oneOf\"";
      return;
    }
    std::string name = Str(*type);
    if (name == "array") {
      const json::Value* items = spec.Find("items");
      if (!items) {
        c->message = "an array type needs \"items\"";
        return;
      }
      c->kind = CSpec::Kind::kArray;
      c->element = &Compile(*items, ctx, depth + 1, c->location + "/items");
    } else if (name == "object") {
      // bind.go: the element type defaults to string; "properties" here is
      // ignored.
      c->kind = CSpec::Kind::kMap;
      std::string at = c->location + "/additionalProperties";
      if (const json::Value* ap = spec.Find("additionalProperties")) {
        c->element = &Compile(*ap, ctx, depth + 1, std::move(at));
      } else {
        CSpec& string = specs.emplace_back();  // the default element type
        string.kind = CSpec::Kind::kString;
        string.ctx = ctx;
        string.location = std::move(at);
        c->element = &string;
      }
    } else if (name == "boolean") {
      c->kind = CSpec::Kind::kBoolean;
    } else if (name == "integer") {
      c->kind = CSpec::Kind::kInteger;
    } else if (name == "number") {
      c->kind = CSpec::Kind::kNumber;
    } else if (name == "string") {
      c->kind = CSpec::Kind::kString;
    } else {
      c->message = "unknown type '" + name + "'";
    }
  }

  Named* Ref(std::string ref, const PackageSchema* ctx) {
    auto key = std::make_pair(ctx, ref);
    auto it = by_ref.find(key);
    if (it != by_ref.end()) return it->second;
    Named& n = named.emplace_back();
    n.ref = std::move(ref);
    n.ctx = ctx;
    by_ref.emplace(std::move(key), &n);
    return &n;
  }

  // Resolves a ref on its first use.
  // Resolves a ref on its first use, and follows the chain of types that
  // are only a `$ref` to another (aliases) without recursing: a cycle of
  // them has no type at all, which is the schema's error (every member of
  // the cycle then points nowhere), never "anything goes".
  const Named& Ready(Named& n) {
    if (n.compiled) return n;
    ReadyOne(n);
    std::vector<Named*> chain{&n};
    for (Named* at = &n; at->typed && at->typed->kind == CSpec::Kind::kRef;) {
      Named* next = at->typed->named;
      auto seen = std::find(chain.begin(), chain.end(), next);
      if (seen != chain.end()) {
        std::string path;
        for (auto it = seen; it != chain.end(); ++it) {
          path += (*it)->location + " → ";
        }
        path += next->location;
        for (auto it = seen; it != chain.end(); ++it) {
          (*it)->target.kind = Target::Kind::kMissing;
          (*it)->target.error =
              "the $ref cycle " + path + " has no type to check against";
        }
        break;
      }
      ReadyOne(*next);
      chain.push_back(next);
      at = next;
    }
    return n;
  }

  // Resolves and compiles one ref (not the refs it leads to).
  void ReadyOne(Named& n) {
    if (n.compiled) return;
    n.compiled = true;
    n.target = Resolve(set, n.ref, n.ctx);
    const Target& t = n.target;
    if (t.kind == Target::Kind::kResource) {
      n.location = t.token.starts_with("pulumi:providers:")
                       ? std::string("#/provider")
                       : "#/resources/" + t.token;
    } else {
      n.location = "#/types/" + t.token;
    }
    switch (t.kind) {
      case Target::Kind::kObject:
        n.object = &Object(*t.def, t.package, types, "properties", "required",
                           n.location);
        break;
      case Target::Kind::kEnum: {
        const json::Value* type = t.def->Find("type");
        std::string name = type && type->is_string() ? Str(*type) : "string";
        n.enum_kind = name == "boolean"  ? CSpec::Kind::kBoolean
                      : name == "string" ? CSpec::Kind::kString
                      : name == "number" ? CSpec::Kind::kNumber
                                         : CSpec::Kind::kInteger;
        if (const json::Value* values = t.def->Find("enum");
            values && values->is_array()) {
          for (const json::Value& e : values->array()) {
            const json::Value* value = e.is_object() ? e.Find("value") : &e;
            if (value) n.enum_values.push_back(value);
          }
        }
        break;
      }
      case Target::Kind::kToken: {
        const json::Value* type = t.def->Find("type");
        if (type && type->is_string()) {
          CSpec& c = specs.emplace_back();
          c.ctx = t.package;
          c.location = n.location;
          CompileTyped(*t.def, t.package, 0, &c);
          n.typed = &c;
          n.expected = "a " + Str(*type);
        } else if (const json::Value* alias = t.def->Find("$ref");
                   alias && alias->is_string()) {
          // Only a $ref: an alias, checked as its target.
          n.typed = &Compile(*t.def, t.package, 0, n.location);
        }
        break;
      }
      case Target::Kind::kResource:
        n.outputs =
            &Resource(*t.def, t.package, ResourceSide::kOutputs, n.location);
        n.expected = "a reference to a " + t.token + " resource";
        break;
      default: break;
    }
  }

  // `location`: the resource's ("#/resources/<token>", "#/provider").
  const CObject& Resource(const json::Value& def, const PackageSchema* pkg,
                          ResourceSide side, const std::string& location) {
    return side == ResourceSide::kOutputs
               ? Object(def, pkg, outputs, "properties", "required", location)
               : Object(def, pkg, inputs, "inputProperties", "requiredInputs",
                        location);
  }

  // The properties of `def` (an object type or a resource) under
  // `properties_key`, required as `required_key` lists, kept in `map`.
  const CObject& Object(const json::Value& def, const PackageSchema* pkg,
                        std::unordered_map<const json::Value*, CObject*>& map,
                        std::string_view properties_key,
                        std::string_view required_key,
                        const std::string& location) {
    CObject*& slot = map[&def];
    if (slot) return *slot;
    CObject& o = objects.emplace_back();
    slot = &o;
    o.properties_key = properties_key;
    const json::Value* props = def.Find(properties_key);
    const json::Value* required = def.Find(required_key);
    if (props && !props->is_object()) props = nullptr;
    const PackageSchema::PropertyIndex* index = &o.own;
    if (pkg) {
      index = &pkg->Properties(props, required);
    } else {
      PackageSchema::BuildIndex(props, required, arena, &o.own);
    }
    o.by_name = &index->by_name;
    o.fields.reserve(index->entries.size());
    for (const PackageSchema::PropertyIndex::Entry& e : index->entries) {
      CObject::Field f;
      f.key = &e.property->key;
      f.name = e.property->key.has_escapes
                   ? std::string_view(names.emplace_back(f.key->Str()))
                   : f.key->raw();
      f.required = e.required;
      std::string at = location;
      json::AppendPointerToken(&at, properties_key);
      json::AppendPointerToken(&at, f.name);
      f.spec = &Compile(e.property->value, pkg, 0, std::move(at));
      f.secret = f.spec->secret;
      f.kind = f.spec->kind;
      f.simple =
          !f.spec->plain && !f.spec->const_value &&
          (f.kind == CSpec::Kind::kBoolean || f.kind == CSpec::Kind::kInteger ||
           f.kind == CSpec::Kind::kNumber || f.kind == CSpec::Kind::kString);
      o.fields.push_back(f);
    }
    return o;
  }

  json::Arena arena;
};

namespace {

// Checks values against compiled specs. By default the first error wins and
// the check stops there (typecheck's verdict). In collecting mode (Collect)
// it goes on after an error and records every problem as a SchemaIssue,
// each at its deepest place, together with the notes verify wants
// (undeclared keys, plaintext secrets); a `$ref` that resolves nowhere then
// makes its values pass and is recorded instead of failing them. Union
// members are tried without collecting: only the union's own verdict
// counts.
class SchemaChecker {
 public:
  explicit SchemaChecker(SchemaCache::Impl& cache) : cache_(cache) {}
  CheckWalk& walk() { return walk_; }

  void Collect(std::vector<SchemaIssue>* issues, const CheckOptions* options) {
    issues_ = issues;
    options_ = options;
  }
  /// Ready for the next check, whose first spec is at schema location
  /// `*root` (kept by the caller until the check ends).
  void Reset(const std::string* root, std::uint64_t offset) {
    walk_.Reset();
    loc_ = root;
    at_ = offset;
    depth_ = 0;
    level_ = 0;
    trial_ = 0;
    found_.clear();
    undeclared_.clear();
  }

  // Checks `v` against `spec`. `required`: a required position (a bare
  // spec, an item, a map value, a union member, a required property).
  // `top`: the value is the whole checked value (a resource ref there may
  // mean the resource's outputs object).
  Outcome CheckSpec(const CSpec& spec, const json::Value& v, bool required,
                    bool top, json::Value* out) {
    // The limits follow the value: specs met without descending into the
    // value (refs to refs, unions of refs) are counted per value level, so
    // a valid recursive value as deep as JSON allows passes.
    const std::size_t value_depth = walk_.depth();
    if (value_depth > CheckWalk::kMaxNesting) {
      return Fail("the value is nested too deeply");
    }
    const int saved_depth = depth_;
    const std::size_t saved_level = level_;
    if (value_depth != level_) {
      level_ = value_depth;
      depth_ = 0;
    }
    if (++depth_ > kMaxSpecDepth) {
      depth_ = saved_depth;
      level_ = saved_level;
      return Fail("type nested too deeply");
    }
    std::uint64_t saved_at = at_;
    const std::string* saved_loc = loc_;
    if (!walk_.in_secret()) at_ = v.offset;
    loc_ = &spec.location;
    Outcome o = CheckSpecInner(spec, v, required, top, out);
    loc_ = saved_loc;
    at_ = saved_at;
    depth_ = saved_depth;
    level_ = saved_level;
    return o;
  }

  // A resource's inputs or outputs as an object type. `top_level`: the
  // object is the resource's own (its exempt keys apply).
  Outcome CheckResourceObject(const json::Value& def, const PackageSchema* pkg,
                              ResourceSide side, const Node& node,
                              json::Value* out, bool top_level = false) {
    return CheckObject(cache_.Resource(def, pkg, side, *loc_), node, out,
                       top_level);
  }

  // A resource's inputs or outputs as compiled (CheckResourceAll).
  Outcome CheckResourceSide(const CObject& side, const Node& node,
                            json::Value* out) {
    return CheckObject(side, node, out, /*top_level=*/true);
  }

  // Records an error at the current place (see Walk::Fail). Collecting, it
  // becomes an issue and the walk forgets it, so the next one is recorded
  // too.
  Outcome Fail(std::string_view message,
               SchemaIssue::Kind kind = SchemaIssue::Kind::kType) {
    if (collecting()) {
      if (options_->types) Record(kind, message);
      return Outcome::kError;
    }
    return walk_.Fail(message);
  }

 private:
  bool collecting() const { return issues_ != nullptr && trial_ == 0; }

  void Record(SchemaIssue::Kind kind, std::string_view message) {
    walk_.Fail(message);
    SchemaIssue issue;
    issue.kind = kind;
    issue.pointer = walk_.error_pointer();
    issue.offset = at_;
    issue.message = walk_.error_message();
    issue.schema_location = *loc_;
    issues_->push_back(std::move(issue));
    walk_.ClearError();
  }

  // A note at the current place; nothing outside collecting mode.
  void Note(SchemaIssue::Kind kind, std::string_view message) {
    if (collecting()) Record(kind, message);
  }

  // A signature object Pulumi would refuse to read. verify reports it with
  // a code of its own (secret-plaintext-invalid, ...), so a collecting
  // check leaves it alone instead of reporting it twice.
  Outcome Malformed(const Node& node) {
    if (collecting()) return Outcome::kOk;
    return Fail(node.reason);
  }

  Outcome Expected(std::string_view what, const Node& node) {
    std::string msg = "expected ";
    msg.append(what);
    msg.append(", got ");
    msg.append(DescribeKind(node.kind));
    return Fail(msg);
  }

  Outcome CheckSpecInner(const CSpec& spec, const json::Value& v, bool required,
                         bool top, json::Value* out) {
    Node node = Decode(v, walk_.arena());
    if (node.kind == PropertyKind::kUnrecognized) return Malformed(node);
    if (spec.kind == CSpec::Kind::kNotObject) {
      return Fail("the type spec is not an object");
    }
    // 1. Unknowns are accepted, except where the spec is plain (pulumi.json:
    // plain "does not accept eventual values").
    if (node.kind == PropertyKind::kUnknown) {
      if (spec.plain) {
        return Fail(
            "unknown value where the type is plain (plain types do not "
            "accept eventual values)");
      }
      return Outcome::kOk;
    }
    // 2. Secrets are transparent: the plaintext is checked (unmarshalOutput
    // unwraps secrets) and a conversion is wrapped back into a secret.
    if (node.kind == PropertyKind::kSecret) {
      return walk_.Secret(
          node, out, [&](const json::Value& inner, json::Value* converted) {
            return CheckSpec(spec, inner, required, false, converted);
          });
    }
    // 3. null: fine where the property is optional.
    if (node.kind == PropertyKind::kNull && !required) return Outcome::kOk;
    Outcome o;
    switch (spec.kind) {
      case CSpec::Kind::kRef:
        o = CheckRef(*spec.named, spec.ref_offset, node, top, out);
        break;
      case CSpec::Kind::kUnion: o = CheckUnion(spec, node, out); break;
      default: o = CheckTyped(spec, node, out); break;
    }
    if (o == Outcome::kError) return o;
    if (spec.const_value) {
      const json::Value& got = o == Outcome::kConvert ? *out : v;
      if (!LiteralEquals(*spec.const_value, got)) {
        return Fail("value differs from the property's const");
      }
    }
    return o;
  }

  Outcome CheckTyped(const CSpec& spec, const Node& node, json::Value* out) {
    switch (spec.kind) {
      case CSpec::Kind::kArray: {
        if (node.kind != PropertyKind::kArray)
          return Expected("an array", node);
        return walk_.Elements(
            *node.value, out,
            [&](std::size_t, const json::Value& e, json::Value* converted) {
              return CheckSpec(*spec.element, e, true, false, converted);
            },
            collecting());
      }
      case CSpec::Kind::kMap: {
        if (node.kind != PropertyKind::kObject) return Expected("a map", node);
        return walk_.Members(
            *node.value, out,
            [&](std::size_t, const json::Member& m, json::Value* converted) {
              return CheckSpec(*spec.element, m.value, true, false, converted);
            },
            collecting());
      }
      case CSpec::Kind::kBoolean:
      case CSpec::Kind::kInteger:
      case CSpec::Kind::kNumber:
      case CSpec::Kind::kString: return CheckPrimitive(spec.kind, node, out);
      default: return Fail(spec.message);
    }
  }

  // A number written as at most `digits` decimal digits (no fraction, no
  // exponent, no leading zero): exactly a float64, written back the same.
  static bool ShortInteger(const json::Value& v, std::size_t digits) {
    std::string_view t = v.raw();
    if (!t.empty() && t[0] == '-') t.remove_prefix(1);
    if (t.empty() || t.size() > digits || (t[0] == '0' && t.size() > 1)) {
      return false;
    }
    for (char c : t) {
      if (c < '0' || c > '9') return false;
    }
    return !(v.raw() == "-0");
  }

  Outcome CheckPrimitive(CSpec::Kind kind, const Node& node, json::Value* out) {
    if (node.kind == PropertyKind::kUnrecognized) return Malformed(node);
    if (node.kind == PropertyKind::kUnknown) return Outcome::kOk;
    if (node.kind == PropertyKind::kSecret) {
      return walk_.Secret(
          node, out, [&](const json::Value& inner, json::Value* converted) {
            return CheckPrimitive(kind, Decode(inner, walk_.arena()),
                                  converted);
          });
    }
    if (kind == CSpec::Kind::kBoolean) {
      return node.kind == PropertyKind::kBool ? Outcome::kOk
                                              : Expected("a boolean", node);
    }
    if (kind == CSpec::Kind::kString) {
      if (node.kind == PropertyKind::kString ||
          node.kind == PropertyKind::kByteString) {
        return Outcome::kOk;
      }
      if (node.kind == PropertyKind::kResourceReference)
        return RefToString(node, out);
      return Expected("a string", node);
    }
    if (kind == CSpec::Kind::kNumber) {
      if (node.kind == PropertyKind::kSpecialFloat) return Outcome::kOk;
      if (node.kind != PropertyKind::kNumber) return Expected("a number", node);
      if (ShortInteger(*node.value, 15)) return Outcome::kOk;
      return Float64(*node.value, out);
    }
    // integer: schema.go IntType is 32-bit; any spelling of an integral
    // value in range is fine (docs/types.md, §9.1 of the contract).
    if (node.kind == PropertyKind::kSpecialFloat) {
      return Fail("expected an integer, got a special float");
    }
    if (node.kind != PropertyKind::kNumber) return Expected("an integer", node);
    if (ShortInteger(*node.value, 9)) return Outcome::kOk;  // below 2^31
    Float64Reading r = ReadFloat64(node.value->raw());
    if (r.kind == Float64Reading::Kind::kOutOfRange) {
      return Fail("number is out of the float64 range");
    }
    if (r.value != std::trunc(r.value)) {
      return Fail("expected an integer, got a fractional number");
    }
    if (r.value < -2147483648.0 || r.value > 2147483647.0) {
      return Fail("integer is outside the 32-bit range of schema integers");
    }
    if (r.kind == Float64Reading::Kind::kRounded) {
      *out = MakeNumber(r.text, walk_.arena());
      return Outcome::kConvert;
    }
    return Outcome::kOk;
  }

  Outcome Float64(const json::Value& v, json::Value* out) {
    Float64Reading r = ReadFloat64(v.raw());
    switch (r.kind) {
      case Float64Reading::Kind::kExact: return Outcome::kOk;
      case Float64Reading::Kind::kOutOfRange:
        return Fail("number is out of the float64 range");
      case Float64Reading::Kind::kRounded:
        *out = MakeNumber(r.text, walk_.arena());
        return Outcome::kConvert;
    }
    return Outcome::kOk;
  }

  // rpc.go unmarshalOutput, reflect.String: a resource reference reads as
  // its id when it has one (an unknown id reads as ""), else its URN.
  Outcome RefToString(const Node& node, json::Value* out) {
    const json::Value& v = *node.value;
    std::string text;
    const json::Value* id = v.Find("id");
    if (id && id->is_string()) {
      text = id->Str();
    } else if (id && id->is_object()) {
      const json::Value* inner = id->Find("V");
      if (inner && inner->is_string()) {
        text = inner->Str();
      } else if (inner && inner->is_object()) {
        text.clear();
      } else {
        text = v.Find("urn")->Str();
      }
    } else {
      text = v.Find("urn")->Str();
    }
    *out = walk_.arena().MakeString(text);
    return Outcome::kConvert;
  }

  // A `$ref` that resolves nowhere while collecting: recorded (verify
  // reports it once per schema), and the value passes. `ref_offset` is the
  // occurrence met, the place `schema_location` names.
  Outcome Dangling(const Named& n, std::uint64_t ref_offset) {
    if (options_->types) {
      SchemaIssue issue;
      issue.kind = SchemaIssue::Kind::kDanglingRef;
      if (!walk_.failed()) {  // where the walk stands: the value's place
        walk_.Fail("");
        issue.pointer = walk_.error_pointer();
        walk_.ClearError();
      }
      issue.offset = at_;
      issue.message = n.target.error;
      issue.schema_location = *loc_;
      issue.package = n.ctx;
      issue.ref = n.ref;
      issue.schema_offset = ref_offset;
      issues_->push_back(std::move(issue));
    }
    return Outcome::kOk;
  }

  Outcome CheckRef(Named& named, std::uint64_t ref_offset, const Node& node,
                   bool top, json::Value* out) {
    const Named& n = named.compiled ? named : cache_.Ready(named);
    switch (n.target.kind) {
      case Target::Kind::kMissing:
        if (issues_ != nullptr) return Dangling(n, ref_offset);
        return Fail(n.target.error);
      case Target::Kind::kAny: return Outcome::kOk;
      case Target::Kind::kAsset:
        // PCL binds schema Asset to AssetOrArchive
        // (pkg/codegen/pcl/binder_schema.go).
        return node.kind == PropertyKind::kAsset ||
                       node.kind == PropertyKind::kArchive
                   ? Outcome::kOk
                   : Expected("an asset or archive", node);
      case Target::Kind::kArchive:
        return node.kind == PropertyKind::kArchive
                   ? Outcome::kOk
                   : Expected("an archive", node);
      case Target::Kind::kAnyResource:
        return node.kind == PropertyKind::kResourceReference
                   ? Outcome::kOk
                   : Expected("a resource reference", node);
      default: break;
    }
    // The named definitions: the failing type's place is in them.
    const std::string* saved_loc = loc_;
    loc_ = &n.location;
    Outcome o = CheckNamed(n, node, top, out);
    loc_ = saved_loc;
    return o;
  }

  Outcome CheckNamed(const Named& n, const Node& node, bool top,
                     json::Value* out) {
    const Target& t = n.target;
    switch (t.kind) {
      case Target::Kind::kObject:
        return CheckObject(*n.object, node, out, false);
      case Target::Kind::kEnum: return CheckEnum(n, node, out);
      case Target::Kind::kToken:
        if (!n.typed) return Outcome::kOk;
        if (n.typed->kind == CSpec::Kind::kRef) {  // an alias
          return CheckRef(*n.typed->named, n.typed->ref_offset, node, top, out);
        }
        if (node.kind == PropertyKind::kNull) return Expected(n.expected, node);
        return CheckTyped(*n.typed, node, out);
      case Target::Kind::kResource:
        if (top && node.kind == PropertyKind::kObject) {
          // A resource's whole outputs object.
          return CheckObject(*n.outputs, node, out, false);
        }
        if (node.kind != PropertyKind::kResourceReference) {
          return Expected(n.expected, node);
        }
        {
          std::string urn = node.value->Find("urn")->Str();
          std::optional<state::Urn> parsed = state::ParseUrn(urn);
          if (!parsed || parsed->type() != t.token) {
            return Fail("the resource reference is not to a " + t.token +
                        " resource");
          }
        }
        return Outcome::kOk;
      default: return Outcome::kOk;
    }
  }

  // Keys Pulumi itself adds to objects it stores: the bridge's `__meta`
  // (schema version of the stored state) and `__defaults` (which inputs
  // were defaulted). Never undeclared.
  static bool PulumiOwnKey(const json::Value& key) {
    return !key.has_escapes &&
           (key.raw() == "__meta" || key.raw() == "__defaults");
  }

  bool ExemptTopLevel(const json::Value& key) const {
    if (key.has_escapes) return false;
    for (std::string_view k : options_->exempt_top_level) {
      if (key.raw() == k) return true;
    }
    return false;
  }

  static bool StoredAsSecret(const json::Value& v) {
    return state::IsSecret(v, state::SecretRule::kGo);
  }

  std::uint32_t FindField(const CObject& o, const json::Value& key) const {
    auto it = key.has_escapes ? o.by_name->find(key.Str())
                              : o.by_name->find(key.raw());
    return it == o.by_name->end() ? kAbsent : it->second;
  }

  // A scalar that fits a bare primitive spec as it is (a string, the
  // unknown sentinel included, for a string; a short integer literal for a
  // number); false sends it through CheckSpec.
  static bool FitsDirectly(CSpec::Kind kind, const json::Value& v) {
    switch (kind) {
      case CSpec::Kind::kString: return v.type == json::Type::kString;
      case CSpec::Kind::kBoolean: return v.is_bool();
      case CSpec::Kind::kInteger:
        return v.type == json::Type::kNumber && ShortInteger(v, 9);
      case CSpec::Kind::kNumber:
        return v.type == json::Type::kNumber && ShortInteger(v, 15);
      default: return false;
    }
  }

  // memcmp for the short keys of property names, without the call.
  static bool SameBytes(const char* a, const char* b, std::size_t n) {
    for (; n >= 8; n -= 8, a += 8, b += 8) {
      std::uint64_t x, y;
      std::memcpy(&x, a, 8);
      std::memcpy(&y, b, 8);
      if (x != y) return false;
    }
    for (; n > 0; --n, ++a, ++b) {
      if (*a != *b) return false;
    }
    return true;
  }

  // The field of the i-th member `key`: the guess from the last object of
  // the type when it names the same key, else the index.
  std::uint32_t FieldOf(const CObject& o, std::size_t i,
                        const json::Value& key) const {
    constexpr std::size_t kMaxGuesses = 256;
    if (i < o.guess.size() && !key.has_escapes) {
      std::uint32_t g = o.guess[i];
      if (g != kNoField) {
        std::string_view name = o.fields[g].name;
        std::string_view raw = key.raw();
        if (name.size() == raw.size() &&
            SameBytes(name.data(), raw.data(), raw.size())) {
          return g;
        }
      }
    }
    std::uint32_t f = FindField(o, key);
    if (i < kMaxGuesses) {
      if (o.guess.size() <= i) o.guess.resize(i + 1, kNoField);
      o.guess[i] = f;
    }
    return f;
  }

  // An object type: every declared property present is checked (optional
  // unless listed as required), required ones must be present and not
  // null. Undeclared keys pass (rpc.go reads declared fields only); when
  // collecting they are noted, as are `secret: true` properties stored in
  // plaintext. Linear in the object's size and the type's properties.
  Outcome CheckObject(const CObject& type, const Node& node, json::Value* out,
                      bool top_level) {
    if (node.kind != PropertyKind::kObject) return Expected("an object", node);
    const json::Value& v = *node.value;
    const bool notes = collecting() && (options_->unknown_properties ||
                                        options_->secret_plaintext);
    // For each declared property, the value's member of that name (the
    // last duplicate wins); kAbsent when it has none. A stack shared by
    // the nested checks, as is the list of undeclared members.
    const std::size_t base = found_.size();
    found_.resize(base + type.fields.size(), kAbsent);
    const std::size_t undeclared_base = undeclared_.size();
    for (std::size_t i = 0; i < v.size; ++i) {
      std::uint32_t f = FieldOf(type, i, v.members[i].key);
      if (f == kAbsent) {
        undeclared_.push_back(static_cast<std::uint32_t>(i));
      } else {
        found_[base + f] = static_cast<std::uint32_t>(i);
      }
    }
    Rebuild<json::Member> rewrite(v);
    bool failed = false;
    const std::string* object_loc = loc_;
    for (std::size_t e = 0; e < type.fields.size(); ++e) {
      const CObject::Field& field = type.fields[e];
      const bool req = field.required;
      const std::uint32_t at = found_[base + e];
      if (at == kAbsent && !req) continue;
      if (at == kAbsent) {
        loc_ = &field.spec->location;
        if (collecting()) {
          // The object that lacks it, the property named.
          Fail("missing required property \"" + std::string(field.name) + "\"",
               SchemaIssue::Kind::kRequired);
        } else {
          std::size_t mark = walk_.PushKey(*field.key);
          Fail("missing required property", SchemaIssue::Kind::kRequired);
          walk_.Pop(mark);
        }
        loc_ = object_loc;
        failed = true;
        if (!collecting()) break;
        continue;
      }
      const json::Value& member = v.members[at].value;
      // Most values are scalars of the declared kind: they fit at once.
      if (field.simple && !(notes && field.secret) &&
          FitsDirectly(field.kind, member)) {
        continue;
      }
      std::size_t mark = walk_.PushKey(v.members[at].key);
      std::uint64_t saved_at = at_;
      if (!walk_.in_secret()) at_ = member.offset;
      if (req && member.is_null()) {
        loc_ = &field.spec->location;
        Fail("required property is null", SchemaIssue::Kind::kRequired);
        loc_ = object_loc;
        at_ = saved_at;
        walk_.Pop(mark);
        failed = true;
        if (!collecting()) break;
        continue;
      }
      if (notes && field.secret && options_->secret_plaintext &&
          !walk_.in_secret() && !member.is_null() && !StoredAsSecret(member) &&
          !member.StrEquals(state::kUnknownValue)) {
        loc_ = &field.spec->location;
        Note(SchemaIssue::Kind::kSecretPlaintext,
             "the schema marks this property secret, but it is stored in "
             "plaintext");
        loc_ = object_loc;
      }
      at_ = saved_at;
      json::Value converted;
      Outcome o = CheckSpec(*field.spec, member, req, false, &converted);
      walk_.Pop(mark);
      if (o == Outcome::kError) {
        failed = true;
        if (!collecting()) break;
        continue;
      }
      if (o == Outcome::kConvert) rewrite.Set(at, converted, walk_.arena());
    }
    found_.resize(base);
    if (notes && options_->unknown_properties) {
      for (std::size_t u = undeclared_base; u < undeclared_.size(); ++u) {
        const json::Value& key = v.members[undeclared_[u]].key;
        if (PulumiOwnKey(key) || (top_level && ExemptTopLevel(key))) continue;
        std::size_t mark = walk_.PushKey(key);
        std::uint64_t saved_at = at_;
        if (!walk_.in_secret()) at_ = key.offset;
        Note(SchemaIssue::Kind::kUnknownProperty,
             walk_.in_secret()
                 ? std::string("a property the schema does not declare")
                 : "property \"" + key.Str() +
                       "\" is not declared by the schema");
        at_ = saved_at;
        walk_.Pop(mark);
      }
    }
    undeclared_.resize(undeclared_base);
    if (failed) return Outcome::kError;
    return rewrite.Finish(out);
  }

  Outcome CheckEnum(const Named& n, const Node& node, json::Value* out) {
    json::Value converted;
    Outcome o = CheckPrimitive(n.enum_kind, node, &converted);
    if (o == Outcome::kError) return o;
    const json::Value& got = o == Outcome::kConvert ? converted : *node.value;
    for (const json::Value* value : n.enum_values) {
      if (LiteralEquals(*value, got)) {
        if (o == Outcome::kConvert) *out = converted;
        return o;
      }
    }
    return Fail("value is not one of the values of enum " + n.target.token);
  }

  // Strings exactly, numbers by float64 value, bools exactly.
  static bool LiteralEquals(const json::Value& a, const json::Value& b) {
    if (a.is_string() && b.is_string()) {
      if (!a.has_escapes && !b.has_escapes) return a.raw() == b.raw();
      return a.Str() == b.Str();
    }
    if (a.is_number() && b.is_number()) {
      if (a.raw() == b.raw()) return true;
      std::optional<double> x = json::ToDouble(a.raw());
      std::optional<double> y = json::ToDouble(b.raw());
      return x && y && *x == *y;
    }
    if (a.is_bool() && b.is_bool()) return a.type == b.type;
    return false;
  }

  Outcome CheckUnion(const CSpec& spec, const Node& node, json::Value* out) {
    if (spec.discriminated) {
      const std::string& prop = spec.property_name;
      if (node.kind != PropertyKind::kObject) {
        return Expected("an object with discriminator '" + prop + "'", node);
      }
      const json::Value* tag = node.value->Find(prop);
      if (!tag || !tag->is_string() || tag->StrEquals(state::kUnknownValue)) {
        std::size_t mark = walk_.PushName(prop);
        Fail(tag ? "the discriminator must be a string"
                 : "missing discriminator property");
        walk_.Pop(mark);
        return Outcome::kError;
      }
      if (spec.mapping) {
        const json::Value* target = spec.mapping->Find(tag->Str());
        if (!target || !target->is_string()) {
          std::size_t mark = walk_.PushName(prop);
          Fail("the discriminator value is not in the mapping");
          walk_.Pop(mark);
          return Outcome::kError;
        }
        return CheckRef(*cache_.Ref(Str(*target), spec.ctx), target->offset,
                        node, false, out);
      }
    }
    bool converted = false;
    ++trial_;
    Outcome result = Outcome::kError;
    for (const CSpec* member : spec.members) {
      json::Value candidate;
      Outcome o = CheckSpec(*member, *node.value, true, false, &candidate);
      walk_.ClearError();
      if (o == Outcome::kOk) {
        result = o;
        break;
      }
      if (o == Outcome::kConvert && !converted) {
        converted = true;
        *out = candidate;
      }
    }
    --trial_;
    if (result == Outcome::kOk) return result;
    if (converted) return Outcome::kConvert;
    std::string msg = "matches no member of the union (got ";
    msg.append(DescribeKind(node.kind));
    msg.push_back(')');
    return Fail(msg);
  }

  static constexpr std::uint32_t kAbsent = 0xffffffffu;

  SchemaCache::Impl& cache_;
  CheckWalk walk_;
  int depth_ = 0;  ///< specs checked at the value level `level_`
  std::size_t level_ = 0;
  std::vector<SchemaIssue>* issues_ = nullptr;
  const CheckOptions* options_ = nullptr;
  int trial_ = 0;  ///< union members being tried
  /// Schema location of the current spec (a compiled spec's, a named
  /// type's or the checked resource's).
  const std::string* loc_ = nullptr;
  std::uint64_t at_ = 0;  ///< offset of the current value
  /// CheckObject's member-of-property table and its undeclared members,
  /// stacks for nested objects.
  std::vector<std::uint32_t> found_;
  std::vector<std::uint32_t> undeclared_;
};

// A parsed pulumi-schema type: the spec, copied into memory of its own
// (the case line it came from does not outlive the check), validated and
// with its refs resolved.
class SchemaType : public Type {
 public:
  json::Arena arena;
  json::Value spec;
};

// The schema location of a check that reports none (typecheck's verdict).
const std::string& NoLocation() {
  static const std::string* none = new std::string();
  return *none;
}

const SchemaSet& EmptySet() {
  static const SchemaSet* empty = new SchemaSet();
  return *empty;
}

class PulumiSchemaSystem : public TypeSystem {
 public:
  explicit PulumiSchemaSystem(const SchemaSet* set)
      : set_(set ? *set : EmptySet()) {}

  System system() const override { return System::kPulumiSchema; }

  Result<std::shared_ptr<const Type>> Parse(
      const json::Value& spec) const override {
    auto type = std::make_shared<SchemaType>();
    std::string text;
    if (spec.is_string()) {
      // A spec given as a string (e.g. on the command line) holds JSON.
      text = spec.Str();
    } else {
      text = json::ToCompactJson(spec);
    }
    json::Parser parser;
    if (parser.ParseDocument(text, 0, type->arena, &type->spec) !=
        json::ParseStatus::kOk) {
      return Status(Errc::kSyntax,
                    "at offset " + std::to_string(parser.error().offset) +
                        " of the type: a pulumi-schema type is a JSON "
                        "type spec: " +
                        parser.error().message);
    }
    std::string error = SpecValidator(set_).Run(type->spec);
    if (!error.empty()) return Status(Errc::kSyntax, error);
    return std::shared_ptr<const Type>(std::move(type));
  }

  Verdict Check(const Type& type, const json::Value& value) const override {
    const auto& t = static_cast<const SchemaType&>(type);
    SchemaCache::Impl cache(set_);
    SchemaChecker checker(cache);
    checker.Reset(&NoLocation(), value.offset);
    json::Value converted;
    Outcome o = checker.CheckSpec(cache.Compile(t.spec, nullptr, 0, ""), value,
                                  true, true, &converted);
    return checker.walk().Finish(o, converted);
  }

 private:
  const SchemaSet& set_;
};

}  // namespace

std::unique_ptr<TypeSystem> MakePulumiSchemaSystem(const SchemaSet* schemas) {
  return std::make_unique<PulumiSchemaSystem>(schemas);
}

Verdict SchemaSet::Check(const json::Value& spec, const json::Value& value,
                         const PackageSchema* package) const {
  SchemaCache::Impl cache(*this);
  SchemaChecker checker(cache);
  checker.Reset(&NoLocation(), value.offset);
  json::Value converted;
  Outcome o = checker.CheckSpec(cache.Compile(spec, package, 0, ""), value,
                                true, false, &converted);
  return checker.walk().Finish(o, converted);
}

Verdict SchemaSet::CheckResource(std::string_view token, ResourceSide side,
                                 const json::Value& value) const {
  const json::Value* def = nullptr;
  const PackageSchema* package = nullptr;
  constexpr std::string_view kProviders = "pulumi:providers:";
  if (token.starts_with(kProviders)) {
    package = FindPackage(token.substr(kProviders.size()));
    def = package ? package->Provider() : nullptr;
  } else {
    std::size_t colon = token.find(':');
    package = colon == std::string_view::npos
                  ? nullptr
                  : FindPackage(token.substr(0, colon));
    def = FindResource(token);
  }
  if (!def) {
    return ErrorVerdict("", "no loaded package schema has resource '" +
                                std::string(token) + "'");
  }
  SchemaCache::Impl cache(*this);
  SchemaChecker checker(cache);
  checker.Reset(&NoLocation(), value.offset);
  json::Arena arena;
  Node node = Decode(value, arena);
  json::Value converted;
  Outcome o;
  if (node.kind == PropertyKind::kUnrecognized) {
    o = checker.walk().Fail(node.reason);
  } else {
    o = checker.CheckResourceObject(*def, package, side, node, &converted);
  }
  return checker.walk().Finish(o, converted);
}

// A SchemaCache's checker, kept for the next check.
struct SchemaCache::Checker {
  explicit Checker(Impl& impl) : checker(impl) {}
  SchemaChecker checker;
  /// By resource definition: its schema location ("#/resources/<token>"
  /// or "#/provider") and its compiled sides.
  struct Root {
    std::string location;
    const CObject* sides[2] = {nullptr, nullptr};
  };
  std::unordered_map<const json::Value*, Root> roots;
};

SchemaCache::SchemaCache(const SchemaSet& set)
    : impl_(std::make_unique<Impl>(set)),
      checker_(std::make_unique<Checker>(*impl_)) {}

SchemaCache::~SchemaCache() = default;

std::vector<SchemaIssue> SchemaSet::CheckResourceAll(
    const PackageSchema& package, const json::Value& def,
    std::string_view token, ResourceSide side, const json::Value& value,
    const CheckOptions& options) const {
  std::vector<SchemaIssue> issues;
  SchemaCache cache(*this);
  CheckResourceAll(package, def, token, side, value, options, cache, &issues);
  return issues;
}

void SchemaSet::CheckResourceAll(const PackageSchema& package,
                                 const json::Value& def, std::string_view token,
                                 ResourceSide side, const json::Value& value,
                                 const CheckOptions& options,
                                 SchemaCache& cache,
                                 std::vector<SchemaIssue>* issues) const {
  SchemaCache::Checker& c = *cache.checker_;
  SchemaCache::Checker::Root& root = c.roots[&def];
  if (root.location.empty()) {
    root.location = token.starts_with("pulumi:providers:")
                        ? std::string("#/provider")
                        : "#/resources/" + std::string(token);
  }
  const CObject*& object = root.sides[side == ResourceSide::kOutputs ? 1 : 0];
  if (!object) {
    object = &cache.impl_->Resource(def, &package, side, root.location);
  }
  SchemaChecker& checker = c.checker;
  checker.Collect(issues, &options);
  checker.Reset(&root.location, value.offset);
  Node node = Decode(value, checker.walk().arena());
  json::Value converted;
  // A malformed signature object in place of the inputs or outputs is
  // verify's own finding.
  if (node.kind != PropertyKind::kUnrecognized) {
    (void)checker.CheckResourceSide(*object, node, &converted);
  }
}

}  // namespace pstate::types
