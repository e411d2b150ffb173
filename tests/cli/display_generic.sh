#!/usr/bin/env bash
# tests/cli/display_generic.sh BIN_DIR SOURCE_DIR — the e-ink card of a game of another ruleset
# than the table engine's (the test-only dice duel): the AI's order, the roll needed and both
# sides' units labelled, compared with tests/display/golden/card_duel_7in5.png; the order is
# the only event that makes a card. Skips when opford does not register the duel (build with
# -DOPFOR_TEST_RULESETS=ON). The steps: tests/cli/display_card.bash.
set -euo pipefail
# shellcheck source=SCRIPTDIR/display_card.bash
. "$(dirname "$0")/display_card.bash"
display_card display_generic.sh "$1" "$2" duel "the duel" \
  "$2/tests/display/golden/card_duel_7in5.png" 1
