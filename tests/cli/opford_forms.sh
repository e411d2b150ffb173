#!/usr/bin/env bash
# tests/cli/opford_forms.sh BIN_DIR SOURCE_DIR — every game's table session as typed forms in
# game.state (`reports`, `actions`, `ai_to_order`, `can_undo`), and game.report / game.action
# playing a Viktoria! Patrol game through them: bad values refused naming the field with
# nothing applied, `seen` honoured; driven by tests/cli/opford_forms_test.py
# (python3-msgpack). Bounded in time; kills any daemon it left.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
daemon_test opford_forms.sh opford-forms "$@"
OPFOR_SOURCE_DIR=$src timeout -k 5 120 "$py" "$src/tests/cli/opford_forms_test.py" "$bin" "$work"
