#include "pstate/verify/fields.h"

#include <string>

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

bool Digits(std::string_view s, std::size_t from, std::size_t n) {
  if (from + n > s.size()) return false;
  for (std::size_t i = from; i < from + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  return true;
}

int Number(std::string_view s, std::size_t from, std::size_t n) {
  int v = 0;
  for (std::size_t i = from; i < from + n; ++i) v = v * 10 + (s[i] - '0');
  return v;
}

int DaysIn(int month, int year) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30,
                                  31, 31, 30, 31, 30, 31};
  bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  return month == 2 && leap ? 29 : kDays[month - 1];
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

bool IsRfc3339(std::string_view s) {
  // YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM)
  if (s.size() < 20) return false;
  if (!Digits(s, 0, 4) || s[4] != '-' || !Digits(s, 5, 2) || s[7] != '-' ||
      !Digits(s, 8, 2) || s[10] != 'T' || !Digits(s, 11, 2) || s[13] != ':' ||
      !Digits(s, 14, 2) || s[16] != ':' || !Digits(s, 17, 2)) {
    return false;
  }
  int year = Number(s, 0, 4), month = Number(s, 5, 2), day = Number(s, 8, 2);
  int hour = Number(s, 11, 2), minute = Number(s, 14, 2),
      second = Number(s, 17, 2);
  if (month < 1 || month > 12 || day < 1 || day > DaysIn(month, year) ||
      hour > 23 || minute > 59 || second > 59) {
    return false;
  }
  std::size_t i = 19;
  if (i < s.size() && s[i] == '.') {
    ++i;
    std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == start) return false;
  }
  if (i >= s.size()) return false;
  if (s[i] == 'Z') return i + 1 == s.size();
  if (s[i] != '+' && s[i] != '-') return false;
  return i + 6 == s.size() && Digits(s, i + 1, 2) && s[i + 3] == ':' &&
         Digits(s, i + 4, 2) && Number(s, i + 1, 2) < 24 &&
         Number(s, i + 4, 2) < 60;
}

}  // namespace pstate::verify
