#include "types/encode.h"

#include <charconv>
#include <cstring>
#include <new>
#include <string>

#include "json/compact.h"
#include "json/number.h"
#include "state/signature.h"

namespace pstate::types {

json::Value MakeNumber(std::string_view text, json::Arena& arena) {
  std::string_view copy = arena.Copy(text);
  json::Value v;
  v.type = json::Type::kNumber;
  v.text = copy.data();
  v.size = static_cast<std::uint32_t>(copy.size());
  v.ascii = true;
  return v;
}

json::Value MakePlaintextSecret(const json::Value& inner, json::Arena& arena) {
  json::Member* members = arena.Allocate<json::Member>(2);
  new (&members[0]) json::Member();
  new (&members[1]) json::Member();
  members[0].key = arena.MakeString(state::kSigKey);
  members[0].value = arena.MakeString(state::kSigSecret);
  members[1].key = arena.MakeString("plaintext");
  members[1].value = arena.MakeString(json::ToCompactJson(inner));
  json::Value v;
  v.type = json::Type::kObject;
  v.members = members;
  v.size = 2;
  return v;
}

Float64Reading ReadFloat64(std::string_view text) {
  Float64Reading r;
  std::optional<double> d = json::ToDouble(text);
  if (!d) {
    r.kind = Float64Reading::Kind::kOutOfRange;
    return r;
  }
  r.value = *d;
  // Plain integers of up to 15 digits are always exact.
  if (text.size() <= 15 &&
      text.find_first_of(".eE") == std::string_view::npos) {
    return r;
  }
  std::string go = json::GoFloatText(*d);
  // Go writes back the same value (e.g. "0.1"): nothing changes for a
  // reader of the state, whatever the binary value is.
  if (json::NumbersEqual(go, text)) return r;
  // The float64 holds the value exactly but Go spells it with fewer digits
  // (2^70): the engine's value is unchanged. The exact decimal expansion of
  // a double has at most 767 significant digits.
  char buf[1024];
  std::to_chars_result res = std::to_chars(buf, buf + sizeof buf, *d,
                                           std::chars_format::scientific, 800);
  if (res.ec == std::errc() &&
      json::NumbersEqual(
          std::string_view(buf, static_cast<std::size_t>(res.ptr - buf)),
          text)) {
    return r;
  }
  r.kind = Float64Reading::Kind::kRounded;
  r.text = std::move(go);
  return r;
}

}  // namespace pstate::types
