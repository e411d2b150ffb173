#!/usr/bin/env bash
# tests/cli/display_splendid.sh BIN_DIR SOURCE_DIR — the e-ink card of a game of A Splendid
# Victory! (its built-in encounter): the ruleset's scene hook (terrain, every unit's rectangle
# turned to its facing, the acting unit ringed) and the AI's first order, compared with
# tests/display/golden/card_splendid_7in5.png. The steps: tests/cli/display_card.bash.
set -euo pipefail
# shellcheck source=SCRIPTDIR/display_card.bash
. "$(dirname "$0")/display_card.bash"
display_card display_splendid.sh "$1" "$2" splendid "A Splendid Victory!" \
  "$2/tests/display/golden/card_splendid_7in5.png" 0
