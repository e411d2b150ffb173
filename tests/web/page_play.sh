#!/usr/bin/env bash
# tests/web/page_play.sh BIN_DIR SOURCE_DIR — the table page's Play section in headless Chromium
# (tests/web/page_play_test.py: Debian's chromium, chromium-driver and python3-selenium, from
# tools/deps.sh). Screenshots go to BIN_DIR/../artefacts/web/. Native stage only.
set -euo pipefail
# shellcheck source=SCRIPTDIR/../cli/lib.bash
. "$(dirname "$0")/../cli/lib.bash"
daemon_test page_play.sh page-play "$@"
for need in /usr/bin/chromium /usr/bin/chromedriver; do
  [ -x "$need" ] || { echo "page_play.sh: $need missing (tools/deps.sh installs it)"; exit 1; }
done
"$py" -c 'import selenium' 2>/dev/null || { echo "page_play.sh: needs python3-selenium"; exit 1; }
artefacts="$(cd "$bin/.." && pwd)/artefacts/web"
timeout -k 5 120 "$py" "$src/tests/web/page_play_test.py" "$bin" "$work" "$artefacts"
