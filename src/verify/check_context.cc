#include "pstate/verify/check_context.h"

#include "pstate/json/pointer.h"
#include "pstate/json/string_codec.h"

namespace pstate::verify {

std::string Reporter::PointerString() const {
  std::string out(base_);
  for (const Segment& s : segments_) {
    switch (s.kind) {
      case Segment::Kind::kKey: json::AppendPointerToken(&out, s.text); break;
      case Segment::Kind::kRawKey:
        json::AppendPointerToken(&out, json::Unescape(s.text));
        break;
      case Segment::Kind::kIndex:
        json::AppendPointerIndex(&out, s.index);
        break;
      case Segment::Kind::kPointer: out.append(s.text); break;
    }
  }
  return out;
}

}  // namespace pstate::verify
