#!/usr/bin/env bash
# tests/web/players_view.sh BIN_DIR SOURCE_DIR — the players' view of a game behind the table
# page's players' link (tests/web/players_view_test.py, docs/web.md). Native stage and the
# sanitizer build (tests/CMakeLists.txt).
set -euo pipefail
# shellcheck source=SCRIPTDIR/../cli/lib.bash
. "$(dirname "$0")/../cli/lib.bash"
daemon_test players_view.sh players-view "$@"
timeout -k 5 120 "$py" "$src/tests/web/players_view_test.py" "$bin" "$work"
