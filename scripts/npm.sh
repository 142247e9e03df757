#!/usr/bin/env bash
# Installs the project's JavaScript into ./node_modules, exactly as
# package-lock.json pins it (npm ci): the layout libraries the HTML report
# embeds at build time (dagre, d3-hierarchy) and what the browser tests run
# with (puppeteer-core, mermaid). Needs the network once; the build then
# reads only ./node_modules. Usage: scripts/npm.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
install_node_modules
