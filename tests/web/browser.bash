# tests/web/browser.bash — sourced by the browser tests tests/web/page_*.sh:
# browser_test NAME BIN_DIR SOURCE_DIR runs tests/web/NAME_test.py BIN_DIR WORKDIR ARTEFACTS in
# headless Chromium (Debian's chromium, chromium-driver and python3-selenium, from
# tools/deps.sh), with a fresh work directory and the screenshots in BIN_DIR/../artefacts/web/.
# Native stage only (tests/CMakeLists.txt). Exits 1 naming what is missing.
# shellcheck source=SCRIPTDIR/../cli/lib.bash
. "$(dirname "${BASH_SOURCE[0]}")/../cli/lib.bash"
browser_test() {
  local name=$1
  shift
  daemon_test "$name.sh" "${name//_/-}" "$@"
  local need
  for need in /usr/bin/chromium /usr/bin/chromedriver; do
    [ -x "$need" ] || { echo "$name.sh: $need missing (tools/deps.sh installs it)"; exit 1; }
  done
  "$py" -c 'import selenium' 2>/dev/null || { echo "$name.sh: needs python3-selenium"; exit 1; }
  local artefacts
  artefacts="$(cd "$bin/.." && pwd)/artefacts/web"
  timeout -k 5 150 "$py" "$src/tests/web/${name}_test.py" "$bin" "$work" "$artefacts"
}
