// Property paths in Pulumi's syntax (`a.b[0]["x.y"]`), as
// sdk/go/common/resource/property_path.go in pulumi/pulumi prints them:
// a key made only of ASCII letters, digits and '_' is written bare (after a
// '.' unless it comes first); any other key is written `["..."]` with each
// '"' preceded by a backslash; an array index is written `[N]`.
#ifndef PSTATE_DIFF_PROPERTY_PATH_H_
#define PSTATE_DIFF_PROPERTY_PATH_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace pstate::diff {

/// Appends the object key `key` (decoded) to `path`. Pulumi writes an
/// empty key bare, which no parser can read back; pstate writes `[""]`.
void AppendPathKey(std::string* path, std::string_view key);

/// Appends the array index `index` to `path`.
void AppendPathIndex(std::string* path, std::size_t index);

/// True when Pulumi writes `key` in the `["..."]` form.
bool KeyNeedsQuotes(std::string_view key);

}  // namespace pstate::diff

#endif  // PSTATE_DIFF_PROPERTY_PATH_H_
