// Checking state values against Pulumi package-schema type specs
// (docs/types.md, "pulumi-schema").
//
// The grammar is Pulumi's pkg/codegen/schema/pulumi.json ($defs/typeSpec)
// as pkg/codegen/schema/bind.go binds it; how a value is read into a type
// follows sdk/go/pulumi/rpc.go unmarshalOutput, with the tightenings
// docs/types.md lists (int32 integers, no nulls inside arrays and maps,
// strict enum membership).
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "pstate/json/number.h"
#include "pstate/json/parser.h"
#include "pstate/json/pointer.h"
#include "pstate/state/signature.h"
#include "pstate/state/urn.h"
#include "pstate/types/encode.h"
#include "pstate/types/pulumi_schema.h"
#include "pstate/types/schema_set.h"
#include "pstate/types/state_value.h"
#include "walk.h"

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
  bool Fail(std::string message) {
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

// Checks values against specs. By default the first error wins and the
// check stops there (typecheck's verdict). In collecting mode (Collect) it
// goes on after an error and records every problem as a SchemaIssue, each
// at its deepest place, together with the notes verify wants (undeclared
// keys, plaintext secrets); a `$ref` that resolves nowhere then makes its
// values pass and is recorded instead of failing them. Union members are
// tried without collecting: only the union's own verdict counts.
class SchemaChecker {
 public:
  explicit SchemaChecker(const SchemaSet& set) : set_(set) {}
  Walk& walk() { return walk_; }

  void Collect(std::vector<SchemaIssue>* issues, const CheckOptions* options) {
    issues_ = issues;
    options_ = options;
  }
  /// The schema location of the spec checked first.
  void SetLocation(std::string location) { loc_ = std::move(location); }
  void SetOffset(std::uint64_t offset) { at_ = offset; }

  // Checks `v` against the typeSpec/propertySpec `spec`. `required`: a
  // required position (a bare spec, an item, a map value, a union member,
  // a required property). `top`: the value is the whole checked value (a
  // resource ref there may mean the resource's outputs object).
  Outcome CheckSpec(const json::Value& spec, const PackageSchema* ctx,
                    const json::Value& v, bool required, bool top,
                    json::Value* out) {
    if (++depth_ > kMaxSpecDepth) {
      --depth_;
      return Fail("type nested too deeply");
    }
    std::uint64_t saved_at = at_;
    if (!walk_.in_secret()) at_ = v.offset;
    Outcome o = CheckSpecInner(spec, ctx, v, required, top, out);
    at_ = saved_at;
    --depth_;
    return o;
  }

  // A resource's inputs or outputs as an object type. `top_level`: the
  // object is the resource's own (its exempt keys apply).
  Outcome CheckResourceObject(const json::Value& def, const PackageSchema* pkg,
                              ResourceSide side, const Node& node,
                              json::Value* out, bool top_level = false) {
    const char* props =
        side == ResourceSide::kOutputs ? "properties" : "inputProperties";
    return CheckObject(
        def, pkg, props,
        side == ResourceSide::kOutputs ? "required" : "requiredInputs", node,
        out, top_level);
  }

  // Records an error at the current place (see Walk::Fail). Collecting, it
  // becomes an issue and the walk forgets it, so the next one is recorded
  // too.
  Outcome Fail(std::string_view message,
               SchemaIssue::Kind kind = SchemaIssue::Kind::kType) {
    walk_.Fail(message);
    if (collecting()) {
      if (options_->types) {
        SchemaIssue issue;
        issue.kind = kind;
        issue.pointer = walk_.error_pointer();
        issue.offset = at_;
        issue.message = walk_.error_message();
        issue.schema_location = loc_;
        issues_->push_back(std::move(issue));
      }
      walk_.ClearError();
    }
    return Outcome::kError;
  }

 private:
  bool collecting() const { return issues_ != nullptr && trial_ == 0; }

  // A note at the current place; nothing outside collecting mode.
  void Note(SchemaIssue::Kind kind, std::string_view message) {
    if (!collecting()) return;
    walk_.Fail(message);
    SchemaIssue issue;
    issue.kind = kind;
    issue.pointer = walk_.error_pointer();
    issue.offset = at_;
    issue.message = walk_.error_message();
    issue.schema_location = loc_;
    issues_->push_back(std::move(issue));
    walk_.ClearError();
  }

  std::size_t LocPush(std::string_view segment) {
    std::size_t mark = loc_.size();
    json::AppendPointerToken(&loc_, segment);
    return mark;
  }
  std::size_t LocPushIndex(std::size_t index) {
    std::size_t mark = loc_.size();
    json::AppendPointerIndex(&loc_, index);
    return mark;
  }
  void LocPop(std::size_t mark) { loc_.resize(mark); }

  Outcome Expected(std::string_view what, const Node& node) {
    std::string msg = "expected ";
    msg.append(what);
    msg.append(", got ");
    msg.append(DescribeKind(node.kind));
    return Fail(msg);
  }

  Outcome CheckSpecInner(const json::Value& spec, const PackageSchema* ctx,
                         const json::Value& v, bool required, bool top,
                         json::Value* out) {
    Node node = Decode(v, walk_.arena());
    if (node.kind == NodeKind::kMalformed) return Fail(node.reason);
    if (!spec.is_object()) return Fail("the type spec is not an object");
    // 1. Unknowns are accepted, except where the spec is plain (pulumi.json:
    // plain "does not accept eventual values").
    if (node.kind == NodeKind::kUnknown) {
      if (IsTrue(spec.Find("plain"))) {
        return Fail(
            "unknown value where the type is plain (plain types do not "
            "accept eventual values)");
      }
      return Outcome::kOk;
    }
    // 2. Secrets are transparent: the plaintext is checked (unmarshalOutput
    // unwraps secrets) and a conversion is wrapped back into a secret.
    if (node.kind == NodeKind::kSecret) {
      if (!node.secret_inner) return Outcome::kOk;
      walk_.EnterSecret();
      json::Value inner;
      Outcome o =
          CheckSpec(spec, ctx, *node.secret_inner, required, false, &inner);
      walk_.LeaveSecret();
      if (o == Outcome::kConvert) {
        *out = MakePlaintextSecret(inner, walk_.arena());
      }
      return o;
    }
    // 3. null: fine where the property is optional.
    if (node.kind == NodeKind::kNull && !required) return Outcome::kOk;
    Outcome o;
    if (const json::Value* ref = spec.Find("$ref")) {
      if (!ref->is_string()) return Fail("a $ref must be a string");
      o = CheckRef(Str(*ref), ref->offset, ctx, node, top, out);
    } else if (const json::Value* one_of = spec.Find("oneOf")) {
      o = CheckUnion(spec, *one_of, ctx, node, out);
    } else {
      o = CheckTyped(spec, ctx, node, out);
    }
    if (o == Outcome::kError) return o;
    if (const json::Value* c = spec.Find("const")) {
      const json::Value& got = o == Outcome::kConvert ? *out : v;
      if (!LiteralEquals(*c, got)) {
        return Fail("value differs from the property's const");
      }
    }
    return o;
  }

  Outcome CheckTyped(const json::Value& spec, const PackageSchema* ctx,
                     const Node& node, json::Value* out) {
    const json::Value* type = spec.Find("type");
    if (!type || !type->is_string()) {
      return Fail("a type spec needs \"type\", \"$ref\" or \"oneOf\"");
    }
    std::string name = Str(*type);
    if (name == "array") {
      const json::Value* items = spec.Find("items");
      if (!items) return Fail("an array type needs \"items\"");
      if (node.kind != NodeKind::kArray) return Expected("an array", node);
      const json::Value& v = *node.value;
      ArrayRewrite rewrite(v);
      bool failed = false;
      std::size_t loc = LocPush("items");
      for (std::size_t i = 0; i < v.size; ++i) {
        std::size_t mark = walk_.PushIndex(i);
        json::Value converted;
        Outcome o =
            CheckSpec(*items, ctx, v.elements[i], true, false, &converted);
        walk_.Pop(mark);
        if (o == Outcome::kError) {
          failed = true;
          if (!collecting()) break;
          continue;
        }
        if (o == Outcome::kConvert) rewrite.Set(i, converted, walk_.arena());
      }
      LocPop(loc);
      if (failed) return Outcome::kError;
      if (!rewrite.changed()) return Outcome::kOk;
      *out = rewrite.Build();
      return Outcome::kConvert;
    }
    if (name == "object") {
      // bind.go: the element type defaults to string; "properties" here is
      // ignored.
      const json::Value* ap = spec.Find("additionalProperties");
      if (node.kind != NodeKind::kObject) return Expected("a map", node);
      const json::Value& v = *node.value;
      ObjectRewrite rewrite(v);
      bool failed = false;
      std::size_t loc = LocPush("additionalProperties");
      for (std::size_t i = 0; i < v.size; ++i) {
        std::size_t mark = walk_.PushKey(v.members[i].key);
        json::Value converted;
        Outcome o;
        if (ap) {
          o = CheckSpec(*ap, ctx, v.members[i].value, true, false, &converted);
        } else {
          std::uint64_t saved_at = at_;
          if (!walk_.in_secret()) at_ = v.members[i].value.offset;
          o = CheckPrimitive("string", DecodeMember(v, i), &converted);
          at_ = saved_at;
        }
        walk_.Pop(mark);
        if (o == Outcome::kError) {
          failed = true;
          if (!collecting()) break;
          continue;
        }
        if (o == Outcome::kConvert) rewrite.Set(i, converted, walk_.arena());
      }
      LocPop(loc);
      if (failed) return Outcome::kError;
      if (!rewrite.changed()) return Outcome::kOk;
      *out = rewrite.Build();
      return Outcome::kConvert;
    }
    if (name == "boolean" || name == "integer" || name == "number" ||
        name == "string") {
      return CheckPrimitive(name, node, out);
    }
    return Fail("unknown type '" + name + "'");
  }

  // The default map element type is a bare string spec; the value still
  // goes through the unknown/secret/null rules of a required position.
  Node DecodeMember(const json::Value& obj, std::size_t i) {
    return Decode(obj.members[i].value, walk_.arena());
  }

  Outcome CheckPrimitive(std::string_view name, const Node& node,
                         json::Value* out) {
    if (node.kind == NodeKind::kMalformed) return Fail(node.reason);
    if (node.kind == NodeKind::kUnknown) return Outcome::kOk;
    if (node.kind == NodeKind::kSecret) {
      if (!node.secret_inner) return Outcome::kOk;
      walk_.EnterSecret();
      json::Value inner;
      Outcome o = CheckPrimitive(
          name, Decode(*node.secret_inner, walk_.arena()), &inner);
      walk_.LeaveSecret();
      if (o == Outcome::kConvert) {
        *out = MakePlaintextSecret(inner, walk_.arena());
      }
      return o;
    }
    if (name == "boolean") {
      return node.kind == NodeKind::kBool ? Outcome::kOk
                                          : Expected("a boolean", node);
    }
    if (name == "string") {
      if (node.kind == NodeKind::kString ||
          node.kind == NodeKind::kByteString) {
        return Outcome::kOk;
      }
      if (node.kind == NodeKind::kResourceRef) return RefToString(node, out);
      return Expected("a string", node);
    }
    if (name == "number") {
      if (node.kind == NodeKind::kSpecialFloat) return Outcome::kOk;
      if (node.kind != NodeKind::kNumber) return Expected("a number", node);
      return Float64(*node.value, out);
    }
    // integer: schema.go IntType is 32-bit; any spelling of an integral
    // value in range is fine (docs/types.md, §9.1 of the contract).
    if (node.kind == NodeKind::kSpecialFloat) {
      return Fail("expected an integer, got a special float");
    }
    if (node.kind != NodeKind::kNumber) return Expected("an integer", node);
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

  // A `$ref` that resolves nowhere while collecting: recorded once per
  // check (verify reports it once per schema), and the value passes.
  Outcome Dangling(const Target& t, const std::string& ref,
                   std::uint64_t ref_offset, const PackageSchema* ctx) {
    if (options_->types) {
      SchemaIssue issue;
      issue.kind = SchemaIssue::Kind::kDanglingRef;
      if (!walk_.failed()) {  // where the walk stands: the value's place
        walk_.Fail("");
        issue.pointer = walk_.error_pointer();
        walk_.ClearError();
      }
      issue.offset = at_;
      issue.message = t.error;
      issue.schema_location = loc_;
      issue.package = ctx;
      issue.ref = ref;
      issue.schema_offset = ref_offset;
      issues_->push_back(std::move(issue));
    }
    return Outcome::kOk;
  }

  Outcome CheckRef(const std::string& ref, std::uint64_t ref_offset,
                   const PackageSchema* ctx, const Node& node, bool top,
                   json::Value* out) {
    Target t = Resolve(set_, ref, ctx);
    switch (t.kind) {
      case Target::Kind::kMissing:
        if (issues_ != nullptr) return Dangling(t, ref, ref_offset, ctx);
        return Fail(t.error);
      case Target::Kind::kAny: return Outcome::kOk;
      case Target::Kind::kAsset:
        // PCL binds schema Asset to AssetOrArchive
        // (pkg/codegen/pcl/binder_schema.go).
        return node.kind == NodeKind::kAsset || node.kind == NodeKind::kArchive
                   ? Outcome::kOk
                   : Expected("an asset or archive", node);
      case Target::Kind::kArchive:
        return node.kind == NodeKind::kArchive ? Outcome::kOk
                                               : Expected("an archive", node);
      case Target::Kind::kAnyResource:
        return node.kind == NodeKind::kResourceRef
                   ? Outcome::kOk
                   : Expected("a resource reference", node);
      default: break;
    }
    // The named definitions: the failing type's place is in them.
    std::string saved_loc = std::move(loc_);
    loc_ = (t.kind == Target::Kind::kResource
                ? (t.token.starts_with("pulumi:providers:")
                       ? std::string("#/provider")
                       : "#/resources/" + t.token)
                : "#/types/" + t.token);
    Outcome o = CheckNamed(t, node, top, out);
    loc_ = std::move(saved_loc);
    return o;
  }

  Outcome CheckNamed(const Target& t, const Node& node, bool top,
                     json::Value* out) {
    switch (t.kind) {
      case Target::Kind::kObject:
        return CheckObject(*t.def, t.package, "properties", "required", node,
                           out, false);
      case Target::Kind::kEnum: return CheckEnum(*t.def, t.token, node, out);
      case Target::Kind::kToken: {
        const json::Value* type = t.def->Find("type");
        if (!type || !type->is_string()) return Outcome::kOk;
        if (node.kind == NodeKind::kNull) {
          return Expected("a " + Str(*type), node);
        }
        return CheckTyped(*t.def, t.package, node, out);
      }
      case Target::Kind::kResource:
        if (top && node.kind == NodeKind::kObject) {
          // A resource's whole outputs object.
          return CheckResourceObject(*t.def, t.package, ResourceSide::kOutputs,
                                     node, out);
        }
        if (node.kind != NodeKind::kResourceRef) {
          return Expected("a reference to a " + t.token + " resource", node);
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
    if (!v.is_object()) return false;
    const json::Value* sig = v.Find(state::kSigKey);
    return sig && sig->StrEquals(state::kSigSecret);
  }

  // An object type: every declared property present is checked (optional
  // unless listed as required), required ones must be present and not
  // null. Undeclared keys pass (rpc.go reads declared fields only); when
  // collecting they are noted, as are `secret: true` properties stored in
  // plaintext. The properties are looked up by name in the package's
  // index of the definition, so a check is linear in the object's size.
  Outcome CheckObject(const json::Value& def, const PackageSchema* pkg,
                      const char* properties_key, const char* required_key,
                      const Node& node, json::Value* out, bool top_level) {
    if (node.kind != NodeKind::kObject) return Expected("an object", node);
    const json::Value& v = *node.value;
    const json::Value* props = def.Find(properties_key);
    const json::Value* required = def.Find(required_key);
    if (props && !props->is_object()) props = nullptr;
    PackageSchema::PropertyIndex local;
    const PackageSchema::PropertyIndex* index = &local;
    if (pkg) {
      index = &pkg->Properties(props, required);
    } else {
      PackageSchema::BuildIndex(props, required, walk_.arena(), &local);
    }
    const bool notes = collecting() && (options_->unknown_properties ||
                                        options_->secret_plaintext);
    // For each declared property, the value's member of that name (the
    // last duplicate wins); kAbsent when it has none. A stack shared by
    // the nested checks.
    constexpr std::uint32_t kAbsent = 0xffffffffu;
    const std::size_t base = found_.size();
    found_.resize(base + index->entries.size(), kAbsent);
    bool any_undeclared = false;
    for (std::size_t i = 0; i < v.size; ++i) {
      const json::Value& key = v.members[i].key;
      auto it = key.has_escapes ? index->by_name.find(key.Str())
                                : index->by_name.find(key.raw());
      if (it == index->by_name.end()) {
        any_undeclared = true;
      } else {
        found_[base + it->second] = static_cast<std::uint32_t>(i);
      }
    }
    ObjectRewrite rewrite(v);
    bool failed = false;
    std::size_t loc_props = LocPush(properties_key);
    for (std::size_t e = 0; e < index->entries.size(); ++e) {
      const json::Member& p = *index->entries[e].property;
      const bool req = index->entries[e].required;
      const std::uint32_t at = found_[base + e];
      if (at == kAbsent && !req) continue;
      std::size_t loc =
          p.key.has_escapes ? LocPush(p.key.Str()) : LocPush(p.key.raw());
      if (at == kAbsent) {
        if (collecting()) {
          // The object that lacks it, the property named.
          Fail("missing required property \"" + p.key.Str() + "\"",
               SchemaIssue::Kind::kRequired);
        } else {
          std::size_t mark = walk_.PushKey(p.key);
          Fail("missing required property", SchemaIssue::Kind::kRequired);
          walk_.Pop(mark);
        }
        LocPop(loc);
        failed = true;
        if (!collecting()) break;
        continue;
      }
      const json::Value& member = v.members[at].value;
      std::size_t mark = walk_.PushKey(p.key);
      std::uint64_t saved_at = at_;
      if (!walk_.in_secret()) at_ = member.offset;
      if (req && member.is_null()) {
        Fail("required property is null", SchemaIssue::Kind::kRequired);
        at_ = saved_at;
        walk_.Pop(mark);
        LocPop(loc);
        failed = true;
        if (!collecting()) break;
        continue;
      }
      if (notes && options_->secret_plaintext && !walk_.in_secret() &&
          !member.is_null() && !StoredAsSecret(member) &&
          !member.StrEquals(state::kUnknownId) &&
          IsTrue(p.value.Find("secret"))) {
        Note(SchemaIssue::Kind::kSecretPlaintext,
             "the schema marks this property secret, but it is stored in "
             "plaintext");
      }
      at_ = saved_at;
      json::Value converted;
      Outcome o = CheckSpec(p.value, pkg, member, req, false, &converted);
      walk_.Pop(mark);
      LocPop(loc);
      if (o == Outcome::kError) {
        failed = true;
        if (!collecting()) break;
        continue;
      }
      if (o == Outcome::kConvert) rewrite.Set(at, converted, walk_.arena());
    }
    LocPop(loc_props);
    found_.resize(base);
    if (notes && options_->unknown_properties && any_undeclared) {
      for (std::size_t i = 0; i < v.size; ++i) {
        const json::Value& key = v.members[i].key;
        if (PulumiOwnKey(key) || (top_level && ExemptTopLevel(key))) continue;
        bool declared = key.has_escapes ? index->by_name.count(key.Str()) > 0
                                        : index->by_name.count(key.raw()) > 0;
        if (declared) continue;
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
    if (failed) return Outcome::kError;
    if (!rewrite.changed()) return Outcome::kOk;
    *out = rewrite.Build();
    return Outcome::kConvert;
  }

  Outcome CheckEnum(const json::Value& def, const std::string& token,
                    const Node& node, json::Value* out) {
    const json::Value* type = def.Find("type");
    std::string name = type && type->is_string() ? Str(*type) : "string";
    json::Value converted;
    Outcome o = CheckPrimitive(name, node, &converted);
    if (o == Outcome::kError) return o;
    const json::Value& got = o == Outcome::kConvert ? converted : *node.value;
    const json::Value* values = def.Find("enum");
    if (values && values->is_array()) {
      for (const json::Value& e : values->array()) {
        const json::Value* value = e.is_object() ? e.Find("value") : &e;
        if (value && LiteralEquals(*value, got)) {
          if (o == Outcome::kConvert) *out = converted;
          return o;
        }
      }
    }
    return Fail("value is not one of the values of enum " + token);
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

  Outcome CheckUnion(const json::Value& spec, const json::Value& one_of,
                     const PackageSchema* ctx, const Node& node,
                     json::Value* out) {
    if (!one_of.is_array()) return Fail("oneOf must be an array");
    const json::Value* d = spec.Find("discriminator");
    if (d && d->is_object()) {
      const json::Value* pname = d->Find("propertyName");
      std::string prop = pname && pname->is_string() ? Str(*pname) : "";
      if (node.kind != NodeKind::kObject) {
        return Expected("an object with discriminator '" + prop + "'", node);
      }
      const json::Value* tag = node.value->Find(prop);
      if (!tag || !tag->is_string() || tag->StrEquals(state::kUnknownId)) {
        std::size_t mark = walk_.PushName(prop);
        Fail(tag ? "the discriminator must be a string"
                 : "missing discriminator property");
        walk_.Pop(mark);
        return Outcome::kError;
      }
      if (const json::Value* mapping = d->Find("mapping");
          mapping && mapping->is_object()) {
        const json::Value* target = mapping->Find(tag->Str());
        if (!target || !target->is_string()) {
          std::size_t mark = walk_.PushName(prop);
          Fail("the discriminator value is not in the mapping");
          walk_.Pop(mark);
          return Outcome::kError;
        }
        return CheckRef(Str(*target), target->offset, ctx, node, false, out);
      }
    }
    bool converted = false;
    std::size_t loc = LocPush("oneOf");
    ++trial_;
    std::size_t i = 0;
    Outcome result = Outcome::kError;
    for (const json::Value& member : one_of.array()) {
      std::size_t m = LocPushIndex(i++);
      json::Value candidate;
      Outcome o = CheckSpec(member, ctx, *node.value, true, false, &candidate);
      LocPop(m);
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
    LocPop(loc);
    if (result == Outcome::kOk) return result;
    if (converted) return Outcome::kConvert;
    std::string msg = "matches no member of the union (got ";
    msg.append(DescribeKind(node.kind));
    msg.push_back(')');
    return Fail(msg);
  }

  const SchemaSet& set_;
  Walk walk_;
  int depth_ = 0;
  std::vector<SchemaIssue>* issues_ = nullptr;
  const CheckOptions* options_ = nullptr;
  int trial_ = 0;         ///< union members being tried
  std::string loc_;       ///< schema location of the current spec
  std::uint64_t at_ = 0;  ///< offset of the current value
  /// CheckObject's member-of-property table, a stack for nested objects.
  std::vector<std::uint32_t> found_;
};

// A parsed pulumi-schema type: the spec, copied into memory of its own
// (the case line it came from does not outlive the check), validated and
// with its refs resolved.
class SchemaType : public Type {
 public:
  json::Arena arena;
  json::Value spec;
};

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
      text = CompactJson(spec);
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
    SchemaChecker checker(set_);
    json::Value converted;
    Outcome o =
        checker.CheckSpec(t.spec, nullptr, value, true, true, &converted);
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
  SchemaChecker checker(*this);
  json::Value converted;
  Outcome o = checker.CheckSpec(spec, package, value, true, false, &converted);
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
    return Verdict::Error("", "no loaded package schema has resource '" +
                                  std::string(token) + "'");
  }
  SchemaChecker checker(*this);
  json::Arena arena;
  Node node = Decode(value, arena);
  json::Value converted;
  Outcome o;
  if (node.kind == NodeKind::kMalformed) {
    o = checker.walk().Fail(node.reason);
  } else {
    o = checker.CheckResourceObject(*def, package, side, node, &converted);
  }
  return checker.walk().Finish(o, converted);
}

std::vector<SchemaIssue> SchemaSet::CheckResourceAll(
    const PackageSchema& package, const json::Value& def,
    std::string_view token, ResourceSide side, const json::Value& value,
    const CheckOptions& options) const {
  std::vector<SchemaIssue> issues;
  SchemaChecker checker(*this);
  checker.Collect(&issues, &options);
  std::string location = token.starts_with("pulumi:providers:")
                             ? std::string("#/provider")
                             : "#/resources/" + std::string(token);
  checker.SetLocation(std::move(location));
  checker.SetOffset(value.offset);
  Node node = Decode(value, checker.walk().arena());
  json::Value converted;
  if (node.kind == NodeKind::kMalformed) {
    checker.Fail(node.reason);
  } else {
    (void)checker.CheckResourceObject(def, &package, side, node, &converted,
                                      /*top_level=*/true);
  }
  return issues;
}

}  // namespace pstate::types
