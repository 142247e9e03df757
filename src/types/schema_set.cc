// Loading and indexing package schemas. Checking lives in pulumi_schema.cc.
#include "pstate/types/schema_set.h"

#include <string>

#include "pstate/io/input.h"
#include "pstate/json/parser.h"

namespace pstate::types {

Status SchemaSet::LoadFile(const std::string& path) {
  Result<std::unique_ptr<io::InputStream>> input = io::OpenInput(path);
  if (!input.ok()) return input.status();
  std::string text;
  char buf[1 << 16];
  for (;;) {
    Result<std::size_t> n = (*input)->Read(buf, sizeof buf);
    if (!n.ok()) return n.status();
    if (*n == 0) break;
    text.append(buf, *n);
  }
  return AddText(text, path);
}

Status SchemaSet::AddText(std::string_view text, std::string source) {
  auto package = std::make_unique<PackageSchema>();
  package->source = std::move(source);
  package->arena = std::make_unique<json::Arena>();
  json::Parser parser;
  if (parser.ParseDocument(text, 0, *package->arena, &package->root) !=
      json::ParseStatus::kOk) {
    return Status(Errc::kSyntax,
                  package->source + ": not a JSON package schema: " +
                      parser.error().message + " at offset " +
                      std::to_string(parser.error().offset));
  }
  return Index(std::move(package));
}

Status SchemaSet::Index(std::unique_ptr<PackageSchema> package) {
  const json::Value& root = package->root;
  const json::Value* name = root.is_object() ? root.Find("name") : nullptr;
  if (!name || !name->is_string() || name->raw().empty()) {
    return Status(Errc::kFormat,
                  package->source +
                      ": not a package schema (no string \"name\")");
  }
  package->name = name->Str();
  if (by_name_.count(package->name)) {
    return Status(Errc::kInvalidArgument,
                  package->source + ": a package schema named '" +
                      package->name + "' is already loaded");
  }
  if (const json::Value* types = root.Find("types");
      types && types->is_object()) {
    for (const json::Member& m : types->object()) {
      package->types[m.key.Str()] = &m.value;  // the last duplicate wins
    }
  }
  if (const json::Value* resources = root.Find("resources");
      resources && resources->is_object()) {
    for (const json::Member& m : resources->object()) {
      package->resources[m.key.Str()] = &m.value;
    }
  }
  if (const json::Value* provider = root.Find("provider");
      provider && provider->is_object()) {
    package->provider = provider;
  }
  by_name_[package->name] = package.get();
  packages_.push_back(std::move(package));
  return Status::Ok();
}

const PackageSchema* SchemaSet::FindPackage(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? nullptr : it->second;
}

const PackageSchema* SchemaSet::OnlyPackage() const {
  return packages_.size() == 1 ? packages_[0].get() : nullptr;
}

namespace {

std::string_view PackageOf(std::string_view token) {
  std::size_t colon = token.find(':');
  return colon == std::string_view::npos ? std::string_view()
                                         : token.substr(0, colon);
}

}  // namespace

const json::Value* SchemaSet::FindType(std::string_view token) const {
  const PackageSchema* p = FindPackage(PackageOf(token));
  if (!p) return nullptr;
  auto it = p->types.find(std::string(token));
  return it == p->types.end() ? nullptr : it->second;
}

const json::Value* SchemaSet::FindResource(std::string_view token) const {
  const PackageSchema* p = FindPackage(PackageOf(token));
  if (!p) return nullptr;
  auto it = p->resources.find(std::string(token));
  return it == p->resources.end() ? nullptr : it->second;
}

const json::Value* SchemaSet::FindProvider(std::string_view package) const {
  const PackageSchema* p = FindPackage(package);
  return p ? p->provider : nullptr;
}

}  // namespace pstate::types
