// Checks of one resource (or a pending operation's resource): field types,
// URN, type, id, provider reference, references to other resources, and
// its property values. Cross-resource facts live in an IntegrityTracker.
#ifndef PSTATE_VERIFY_RESOURCE_CHECKER_H_
#define PSTATE_VERIFY_RESOURCE_CHECKER_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "json/value.h"
#include "verify/check_context.h"
#include "verify/integrity.h"
#include "verify/property_checker.h"

namespace pstate::verify {

class ResourceChecker {
 public:
  ResourceChecker();

  /// Checks `resource`. With `integrity` (entries of "resources") its
  /// references must name earlier resources and it is recorded for later
  /// ones; pending operations are checked without (Pulumi does not check
  /// them). `version` selects version 1 fields.
  void Check(const json::Value& resource, Reporter& reporter, bool integrity,
             std::int64_t version);

  void set_secrets_provider(state::ProviderKind kind) {
    env_.secrets_provider = kind;
  }
  /// See PropertyEnvironment::on_plaintext.
  void set_on_plaintext(std::function<void(std::string_view)> f) {
    env_.on_plaintext = std::move(f);
  }
  PropertyChecker& properties() { return properties_; }
  IntegrityTracker& tracker() { return tracker_; }

 private:
  void CheckReference(const json::Value& target, std::string_view field,
                      Reporter& reporter);

  PropertyEnvironment env_;
  PropertyChecker properties_;
  IntegrityTracker tracker_;
};

}  // namespace pstate::verify

#endif  // PSTATE_VERIFY_RESOURCE_CHECKER_H_
