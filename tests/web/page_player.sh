#!/usr/bin/env bash
# tests/web/page_player.sh BIN_DIR SOURCE_DIR — the players' link's games screen, dragging a unit
# on the map to correct it, and the new-game form's scenario and mode, in headless Chromium
# (tests/web/page_player_test.py: Debian's chromium, chromium-driver and python3-selenium, from
# tools/deps.sh). The steps: tests/web/browser.bash.
set -euo pipefail
# shellcheck source=SCRIPTDIR/browser.bash
. "$(dirname "$0")/browser.bash"
browser_test page_player "$@"
