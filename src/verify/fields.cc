#include "verify/fields.h"

#include <string>

#include "base/rfc3339.h"

namespace pstate::verify {
namespace {

std::string_view Describe(FieldType type) {
  switch (type) {
    case FieldType::kString: return "a string";
    case FieldType::kBool: return "a boolean";
    case FieldType::kNumber: return "a number";
    case FieldType::kObject: return "an object";
    case FieldType::kArray: return "an array";
    case FieldType::kStringArray: return "an array of strings";
    case FieldType::kAny: return "any value";
  }
  return "a value";
}

}  // namespace

bool HasFieldType(const json::Value& value, FieldType type) {
  if (value.is_null()) return true;
  switch (type) {
    case FieldType::kString: return value.is_string();
    case FieldType::kBool: return value.is_bool();
    case FieldType::kNumber: return value.is_number();
    case FieldType::kObject: return value.is_object();
    case FieldType::kArray: return value.is_array();
    case FieldType::kStringArray:
      if (!value.is_array()) return false;
      for (const json::Value& e : value.array()) {
        if (!e.is_string()) return false;
      }
      return true;
    case FieldType::kAny: return true;
  }
  return true;
}

void CheckFields(const json::Value& object, std::span<const FieldSpec> fields,
                 Reporter& reporter, std::string_view what,
                 bool report_unknown) {
  std::string decoded;
  for (const json::Member& m : object.object()) {
    // Keys almost never carry escapes: compare the raw text, no allocation.
    std::string_view key = m.key.raw();
    if (m.key.has_escapes) {
      decoded = m.key.Str();
      key = decoded;
    }
    const FieldSpec* spec = nullptr;
    for (const FieldSpec& f : fields) {
      if (f.name == key) {
        spec = &f;
        break;
      }
    }
    PointerScope scope(reporter, key);
    if (!spec) {
      if (report_unknown) {
        reporter.Add(diag::Code::kFieldUnknown,
                     "unknown " + std::string(what) + " field \"" +
                         std::string(key) + "\"; Pulumi ignores it",
                     m.key);
      }
      continue;
    }
    if (!HasFieldType(m.value, spec->kind)) {
      reporter.Add(diag::Code::kFieldType,
                   std::string(what) + " field \"" + std::string(key) +
                       "\" must be " + std::string(Describe(spec->kind)) +
                       ", found " + std::string(json::TypeName(m.value.type)),
                   m.value);
    }
  }
}

bool IsRfc3339(std::string_view raw) {
  // Text Go reads but cannot write back (an offset of 24 hours) would make
  // Pulumi fail when it next saves the state: not a time either.
  std::optional<GoTime> t = ParseRfc3339(raw);
  return t && FormatRfc3339(*t);
}

}  // namespace pstate::verify
