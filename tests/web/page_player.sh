#!/usr/bin/env bash
# tests/web/page_player.sh BIN_DIR SOURCE_DIR — the players' link's games screen, dragging a unit
# on the map to correct it, and the new-game form's scenario and mode, in headless Chromium
# (tests/web/page_player_test.py: Debian's chromium, chromium-driver and python3-selenium, from
# tools/deps.sh). Screenshots go to BIN_DIR/../artefacts/web/. Native stage only.
set -euo pipefail
# shellcheck source=SCRIPTDIR/../cli/lib.bash
. "$(dirname "$0")/../cli/lib.bash"
daemon_test page_player.sh page-player "$@"
for need in /usr/bin/chromium /usr/bin/chromedriver; do
  [ -x "$need" ] || { echo "page_player.sh: $need missing (tools/deps.sh installs it)"; exit 1; }
done
"$py" -c 'import selenium' 2>/dev/null || { echo "page_player.sh: needs python3-selenium"; exit 1; }
artefacts="$(cd "$bin/.." && pwd)/artefacts/web"
timeout -k 5 150 "$py" "$src/tests/web/page_player_test.py" "$bin" "$work" "$artefacts"
