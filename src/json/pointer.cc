#include "json/pointer.h"

#include <charconv>

#include <utility>

#include "base/ascii.h"

namespace pstate::json {
namespace {

/// Unescapes one reference token (~0 -> ~, ~1 -> /); false on any other
/// use of '~'.
bool UnescapeToken(std::string_view token, std::string* out) {
  out->clear();
  for (std::size_t i = 0; i < token.size(); ++i) {
    char c = token[i];
    if (c != '~') {
      out->push_back(c);
      continue;
    }
    if (i + 1 >= token.size()) return false;
    char next = token[++i];
    if (next == '0') {
      out->push_back('~');
    } else if (next == '1') {
      out->push_back('/');
    } else {
      return false;
    }
  }
  return true;
}

/// Calls visit(raw_token) for each token of `pointer`, which starts with
/// '/' or is empty.
template <typename Visit>
bool ForEachToken(std::string_view pointer, Visit&& visit) {
  std::size_t pos = 1;
  while (pos <= pointer.size()) {
    std::size_t slash = pointer.find('/', pos);
    if (slash == std::string_view::npos) slash = pointer.size();
    if (!visit(pointer.substr(pos, slash - pos))) return false;
    pos = slash + 1;
  }
  return true;
}

/// `s` quoted for a message (the pointer's own text: no secret values).
std::string Quote(std::string_view s) {
  std::string out = "\"";
  out.append(s);
  out.push_back('"');
  return out;
}

}  // namespace

void AppendPointerToken(std::string* pointer, std::string_view token) {
  pointer->push_back('/');
  // The bytes between the ones to escape are appended whole: most tokens
  // have none.
  std::size_t from = 0;
  for (std::size_t i = 0; i < token.size(); ++i) {
    char c = token[i];
    if (c != '~' && c != '/') continue;
    pointer->append(token.data() + from, i - from);
    pointer->append(c == '~' ? "~0" : "~1");
    from = i + 1;
  }
  pointer->append(token.data() + from, token.size() - from);
}

void AppendPointerIndex(std::string* pointer, std::size_t index) {
  char digits[24];
  digits[0] = '/';
  auto [end, ec] = std::to_chars(digits + 1, digits + sizeof digits, index);
  (void)ec;  // 20 digits always fit
  pointer->append(digits, end);
}

std::string PointerPath::str() const {
  std::string out;
  AppendTo(&out);
  return out;
}

void PointerPath::AppendTo(std::string* to) const {
  std::string& out = *to;
  out.append(base_);
  for (const Segment& s : segments_) {
    switch (s.kind) {
      case Kind::kKey:
        if (s.key->has_escapes) {
          AppendPointerToken(&out, s.key->Str());
        } else {
          AppendPointerToken(&out, s.key->raw());
        }
        break;
      case Kind::kHidden: out += "/*"; break;
      case Kind::kName: AppendPointerToken(&out, s.text); break;
      case Kind::kIndex: AppendPointerIndex(&out, s.index); break;
      case Kind::kSuffix: out.append(s.text); break;
    }
  }
}

Result<std::vector<std::string>> SplitPointer(std::string_view pointer) {
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  if (pointer[0] != '/') {
    return Status(Errc::kInvalidArgument,
                  "JSON pointer " + Quote(pointer) +
                      ": a non-empty pointer starts with '/'");
  }
  std::string token;
  std::size_t n = 0;
  bool ok = ForEachToken(pointer, [&](std::string_view raw) {
    ++n;
    if (!UnescapeToken(raw, &token)) return false;
    tokens.push_back(token);
    return true;
  });
  if (!ok) {
    return Status(Errc::kInvalidArgument,
                  "JSON pointer " + Quote(pointer) + ": segment " +
                      std::to_string(n) +
                      ": '~' must be followed by '0' or '1'");
  }
  return tokens;
}

Status Resolve(const Value& root, std::string_view pointer, const Value** out) {
  if (pointer.empty()) {
    *out = &root;
    return Status::Ok();
  }
  auto fail = [&](Errc code, std::size_t n, std::string_view token,
                  std::string reason) {
    return Status(code, "JSON pointer " + Quote(pointer) + ": segment " +
                            std::to_string(n) + " (" + Quote(token) +
                            "): " + std::move(reason));
  };
  if (pointer[0] != '/') {
    return Status(Errc::kInvalidArgument,
                  "JSON pointer " + Quote(pointer) +
                      ": a non-empty pointer starts with '/'");
  }
  const Value* at = &root;
  std::size_t n = 0;
  std::size_t parent_end = 0;  // pointer[0, parent_end) designates `at`
  std::string token;
  Status status;
  ForEachToken(pointer, [&](std::string_view raw) {
    ++n;
    if (!UnescapeToken(raw, &token)) {
      status = fail(Errc::kInvalidArgument, n, raw,
                    "'~' must be followed by '0' or '1'");
      return false;
    }
    std::string parent = Quote(pointer.substr(0, parent_end));
    parent_end += 1 + raw.size();
    if (at->is_object()) {
      const Value* next = at->Find(token);
      if (next == nullptr) {
        status =
            fail(Errc::kNotFound, n, token,
                 "no member " + Quote(token) + " in the object at " + parent);
        return false;
      }
      at = next;
      return true;
    }
    if (at->is_array()) {
      if (token == "-") {
        status = fail(Errc::kNotFound, n, token,
                      "\"-\" is the position after the last element of the "
                      "array at " +
                          parent + ", not an element");
        return false;
      }
      if (!ascii::AllDigits(token) || (token.size() > 1 && token[0] == '0')) {
        status = fail(Errc::kInvalidArgument, n, token,
                      "not an array index (decimal digits without leading "
                      "zeros) for the array at " +
                          parent);
        return false;
      }
      std::size_t size = at->array().size();
      // Longer than any size's digits: out of range without overflow.
      std::size_t index = 0;
      bool in_range = token.size() <= std::to_string(size).size();
      if (in_range) {
        for (char c : token) {
          index = index * 10 + static_cast<std::size_t>(c - '0');
        }
        in_range = index < size;
      }
      if (!in_range) {
        status = fail(Errc::kNotFound, n, token,
                      "index out of range for the array of " +
                          std::to_string(size) + " elements at " + parent);
        return false;
      }
      at = &at->array()[index];
      return true;
    }
    std::string what = at->is_null() ? std::string("null")
                                     : "a " + std::string(TypeName(at->type));
    status = fail(Errc::kNotFound, n, token,
                  "the value at " + parent + " is " + what +
                      ", which has no members or elements");
    return false;
  });
  if (!status.ok()) return status;
  *out = at;
  return Status::Ok();
}

const Value* Resolve(const Value& root, std::string_view pointer) {
  const Value* out = nullptr;
  if (!Resolve(root, pointer, &out).ok()) return nullptr;
  return out;
}

}  // namespace pstate::json
