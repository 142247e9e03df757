#include "secrets/mask.h"

namespace pstate::secrets {
namespace {

bool MaskOne(const KnownSecrets& known, std::string* text) {
  if (text == nullptr || !known.NeedsMask(*text)) return false;
  *text = known.Mask(*text);
  return true;
}

}  // namespace

bool MaskIdentifiers(const KnownSecrets& known, std::string* message,
                     std::string* pointer, std::string* urn) {
  bool changed = MaskOne(known, message);
  changed |= MaskOne(known, pointer);
  changed |= MaskOne(known, urn);
  return changed;
}

bool MaskFinding(const KnownSecrets& known, diag::Finding* finding) {
  return MaskIdentifiers(known, &finding->message, &finding->pointer,
                         &finding->urn);
}

void MaskReport(const KnownSecrets& known, diag::Report* report) {
  if (known.empty()) return;
  report->RewriteKept(
      [&known](diag::Finding& f) { return MaskFinding(known, &f); });
}

}  // namespace pstate::secrets
