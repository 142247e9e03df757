#include "cli/normalize_output.h"

namespace pstate::cli {

Result<OutputForm> ParseOutputForm(const std::string& layout,
                                   const std::string& compress) {
  OutputForm form;
  if (!layout.empty()) {
    form.layout = LayoutNamed(layout);
    if (!form.layout) {
      return Status(
          Errc::kInvalidArgument,
          "--layout: expected export, diy or diy-state-command, got \"" +
              layout + "\"");
    }
  }
  if (compress == "gzip") {
    form.compression = Compression::kGzip;
  } else if (compress == "zstd") {
    form.compression = Compression::kZstd;
  } else if (compress == "none") {
    form.compression = Compression::kNone;
  } else if (!compress.empty()) {
    return Status(
        Errc::kInvalidArgument,
        "--compress: expected gzip, zstd or none, got \"" + compress + "\"");
  }
  return form;
}

}  // namespace pstate::cli
