// The `cty` language: a type in go-cty's JSON type encoding, values
// converted with convert.Convert (zclconf/go-cty cty/convert/public.go).
#include <memory>
#include <string>

#include "json/parser.h"
#include "types/cty.h"

namespace pstate::types {
namespace cty {

Verdict CheckValue(const Type* want, const json::Value& value,
                   json::Arena& arena, PrepareFn prepare,
                   const void* prepare_ctx) {
  Failure failure;
  Result<Val> read = FromState(value, arena, &failure);
  if (!read.ok()) {
    return ErrorVerdict(std::move(failure.pointer), std::move(failure.message));
  }
  Converter conv(arena);
  Val in = *read;
  if (prepare != nullptr && !prepare(prepare_ctx, conv, &in, &failure)) {
    return ErrorVerdict(std::move(failure.pointer), std::move(failure.message));
  }
  Val out;
  if (!conv.Convert(in, want, &out, &failure)) {
    return ErrorVerdict(std::move(failure.pointer), std::move(failure.message));
  }
  if (out.src == &value) return OkVerdict();
  std::string json;
  WriteStateJson(out, &json);
  return ConvertVerdict(std::move(json));
}

}  // namespace cty

namespace {

class CtyType final : public Type {
 public:
  json::Arena arena;
  const cty::Type* type = nullptr;
};

bool IsPrimitiveName(std::string_view s) {
  return s == "bool" || s == "number" || s == "string" || s == "dynamic";
}

class CtySystem final : public TypeSystem {
 public:
  System system() const override { return System::kCty; }

  Result<std::shared_ptr<const Type>> Parse(
      const json::Value& spec) const override {
    auto parsed = std::make_shared<CtyType>();
    cty::TypeBuilder tb(parsed->arena);
    const json::Value* root = &spec;
    json::Value inner;
    if (spec.is_string()) {
      // A type given as text (e.g. on the command line) may itself be the
      // JSON encoding: `["list","string"]` or `"string"`.
      std::string text = spec.Str();
      std::size_t first = text.find_first_not_of(" \t\r\n");
      if (!IsPrimitiveName(text) && first != std::string::npos &&
          (text[first] == '[' || text[first] == '"')) {
        json::Parser parser;
        if (parser.ParseDocument(text, 0, parsed->arena, &inner) !=
            json::ParseStatus::kOk) {
          return Status(Errc::kSyntax,
                        "at offset " + std::to_string(parser.error().offset) +
                            " of the type: " + parser.error().message);
        }
        root = &inner;
      }
    }
    auto type = cty::ParseJsonType(*root, tb);
    if (!type.ok()) return type.status();
    parsed->type = *type;
    return std::shared_ptr<const Type>(std::move(parsed));
  }

  Verdict Check(const Type& type, const json::Value& value) const override {
    thread_local json::Arena arena;
    arena.Reset();
    const auto& t = static_cast<const CtyType&>(type);
    return cty::CheckValue(t.type, value, arena);
  }
};

}  // namespace

std::unique_ptr<TypeSystem> MakeCtySystem() {
  return std::make_unique<CtySystem>();
}

}  // namespace pstate::types
