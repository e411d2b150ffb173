#!/usr/bin/env bash
# tests/valgrind.sh [BUILD_DIR] — `make valgrind`: runs every unit test program of a normal
# (non-sanitizer) build, BUILD_DIR/tests/test_*, under valgrind memcheck. A program fails when
# valgrind reports an error (invalid read/write, uninitialised use, bad free) or a definite leak,
# or when the test itself fails. Known one-time allocations of fontconfig/pango/glib are
# suppressed by tools/valgrind.supp. Runs JOBS programs at a time; logs go to
# BUILD_DIR/valgrind/<test>.log. Ends with "N passed, N failed". See docs/building.md.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
src=$PWD
build=$(cd "${1:-build}" 2>/dev/null && pwd) || {
  echo "valgrind.sh: no build directory ${1:-build} (run make build first)" >&2
  exit 1
}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
limit=${VALGRIND_TIMEOUT:-900} # seconds per program
command -v valgrind >/dev/null || {
  echo "valgrind.sh: valgrind not installed (tools/deps.sh installs it)" >&2
  exit 1
}
shopt -s nullglob
progs=("$build"/tests/test_*)
if [ ${#progs[@]} -eq 0 ]; then
  echo "valgrind.sh: no test programs in $build/tests (build first)" >&2
  exit 1
fi
logs="$build/valgrind"
rm -rf "$logs"
mkdir -p "$logs"

# one PROG: runs it under memcheck; exit status 0 = clean, 1 = test failed, 99 = valgrind error.
one() {
  local prog=$1 name
  name=$(basename "$prog")
  local t0=$SECONDS
  OPFOR_SOURCE_DIR="$src" OPFOR_BIN_DIR="$build/bin" \
    timeout -k 10 "$limit" valgrind -q --error-exitcode=99 --leak-check=full \
    --errors-for-leak-kinds=definite --show-leak-kinds=definite --track-origins=yes \
    --suppressions="$src/tools/valgrind.supp" --log-file="$logs/$name.vg" \
    "$prog" >"$logs/$name.log" 2>&1
  local rc=$?
  cat "$logs/$name.vg" >>"$logs/$name.log"
  rm -f "$logs/$name.vg"
  local what="ok"
  case $rc in
    0) ;;
    99) what="VALGRIND ERRORS" ;;
    124 | 137) what="TIMEOUT (${limit}s)" ;;
    *) what="FAILED (exit $rc)" ;;
  esac
  printf '%-28s %-18s %4ds\n' "$name" "$what" $((SECONDS - t0))
  echo "$rc" >"$logs/$name.rc"
}

for prog in "${progs[@]}"; do
  [ -x "$prog" ] || continue
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  one "$prog" &
done
wait

passed=0
failed=0
for rcfile in "$logs"/*.rc; do
  name=$(basename "$rcfile" .rc)
  if [ "$(cat "$rcfile")" = 0 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "=== $name ($logs/$name.log)"
    # the valgrind report (lines starting ==PID==) and the failing cmocka lines
    grep -E '^==[0-9]+==|\[  (ERROR|FAILED) +\]|\[   LINE   \]' "$logs/$name.log" | head -60
  fi
done
echo "valgrind: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
