#include "pstate/types/encode.h"

#include <charconv>
#include <cstring>
#include <new>

#include "pstate/json/compact.h"
#include "pstate/json/number.h"
#include "pstate/state/signature.h"

namespace pstate::types {

// json::AppendCompactJson keeps every string as stored: a converted value
// differs from the input only where a conversion changed it.
void AppendCompactJson(const json::Value& value, std::string* out) {
  json::AppendCompactJson(value, out);
}

std::string CompactJson(const json::Value& value) {
  std::string out;
  types::AppendCompactJson(value, &out);
  return out;
}

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
  members[1].value = arena.MakeString(CompactJson(inner));
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

void ArrayRewrite::Set(std::size_t index, const json::Value& value,
                       json::Arena& arena) {
  if (!elements_) {
    elements_ = arena.Allocate<json::Value>(original_.size);
    for (std::size_t i = 0; i < original_.size; ++i) {
      new (&elements_[i]) json::Value(original_.elements[i]);
    }
  }
  elements_[index] = value;
}

json::Value ArrayRewrite::Build() const {
  json::Value v = original_;
  if (elements_) v.elements = elements_;
  return v;
}

void ObjectRewrite::Set(std::size_t index, const json::Value& value,
                        json::Arena& arena) {
  if (!members_) {
    members_ = arena.Allocate<json::Member>(original_.size);
    for (std::size_t i = 0; i < original_.size; ++i) {
      new (&members_[i]) json::Member(original_.members[i]);
    }
  }
  members_[index].value = value;
}

json::Value ObjectRewrite::Build() const {
  json::Value v = original_;
  if (members_) v.members = members_;
  return v;
}

}  // namespace pstate::types
