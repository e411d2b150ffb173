#!/usr/bin/env bash
# tests/web/page_map.sh BIN_DIR SOURCE_DIR — the table page's map in headless Chromium
# (tests/web/page_map_test.py: Debian's chromium, chromium-driver and python3-selenium, from
# tools/deps.sh). The steps: tests/web/browser.bash.
set -euo pipefail
# shellcheck source=SCRIPTDIR/browser.bash
. "$(dirname "$0")/browser.bash"
browser_test page_map "$@"
