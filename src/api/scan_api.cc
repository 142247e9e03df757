// The library API's calls for scan's several inputs and the passphrase
// (pstate.h): an input scan cannot open, the passphrase as Pulumi finds it.
#include <string>
#include <utility>

#include "crypto/passphrase_source.h"
#include "diag/finding.h"
#include "diag/report.h"
#include "pstate/pstate.h"

namespace pstate {

ScanResult ScanUnopened(const std::string& name, const Status& status) {
  // The finding scan::Run makes of an input it cannot open: the message as
  // io gives it (its fingerprint leaves the file's name out; the text
  // renderer does not repeat it).
  diag::Report report(name);
  report.Add(diag::MakeFinding(diag::Code::kIoError, status.message()));
  ScanResult out;
  out.findings = std::move(report).Take();
  return out;
}

Result<std::string> PassphraseResolve(const PassphraseInputs& inputs) {
  return crypto::ResolvePassphrase(inputs);
}

PassphraseSource PassphraseFromInputs(PassphraseInputs inputs) {
  return [inputs = std::move(inputs)]() -> Result<std::string> {
    return crypto::ResolvePassphrase(inputs);
  };
}

}  // namespace pstate
