// The HTML report's assets, embedded at build time by
// src/report/html/embed.py (src/CMakeLists.txt): the page's CSS, body and
// script (src/report/html/), the layout libraries from npm (dagre,
// d3-hierarchy; scripts/npm.sh installs them from package-lock.json) and
// their licence texts.
#ifndef PSTATE_REPORT_HTML_ASSETS_H_
#define PSTATE_REPORT_HTML_ASSETS_H_

#include <string_view>

namespace pstate::report::html_assets {

extern const std::string_view kStyle;      ///< style.css
extern const std::string_view kBody;       ///< body.html
extern const std::string_view kApp;        ///< app.js
extern const std::string_view kDagre;      ///< @dagrejs/dagre dagre.min.js
extern const std::string_view kHierarchy;  ///< d3-hierarchy.min.js
extern const std::string_view kLicenses;   ///< their LICENSE files

}  // namespace pstate::report::html_assets

#endif  // PSTATE_REPORT_HTML_ASSETS_H_
