# tests/cli/lib.bash — helpers sourced by the tests/cli/*.sh scripts, so each script holds only
# its own checks. (Named .bash, not .sh: tests/CMakeLists.txt registers every cli/*.sh as a test.)
#
# Command tests (opfor on stdout/stderr):
#   cli_init "$@"           sets bin (absolute path of opfor), src (the source tree), fails=0 and
#                           a temporary folder tmp, removed on exit, holding out and err
#   run WANT_RC ARGS...     runs opfor ARGS with stdout in $out and stderr in $err, checks the
#                           exit code
#   has TEXT, has_err TEXT  stdout / stderr holds TEXT (fixed string)
#   json_ok                 stdout is valid JSON
#   json_get EXPR           prints the Python EXPR evaluated on the JSON document d on stdout
#   json_eq EXPR WANT       that EXPR prints WANT
#   fail MESSAGE            counts a failure and shows stdout (the first $fail_head lines when
#                           that is set) and stderr
#   finish FAILED PASSED    prints FAILED and exits 1 when a check failed, else prints PASSED
#
# Daemon tests (a python3-msgpack client drives opford):
#   daemon_test NAME PREFIX BIN_DIR SOURCE_DIR  sets bin and src, then the three below
#   need_msgpack_python NAME  sets py to a python3 that imports msgpack, or exits 1
#   need_opford NAME BIN_DIR  exits 1 unless BIN_DIR/opford is built
#   daemon_workdir PREFIX     sets work to a new /tmp/PREFIX.XXXXXX (short: Unix socket paths
#                             must fit in 107 bytes); on exit kills every pid listed in
#                             $work/pids and removes the folder

# shellcheck disable=SC2034 # the variables set here are for the calling script

cli_init() {
  bin="$(cd "$1" && pwd)/opfor"
  src="$(cd "${2:-$(dirname "$0")/../..}" && pwd)"
  fails=0
  tmp=$(mktemp -d)
  out="$tmp/out"
  err="$tmp/err"
  trap 'rm -rf "$tmp"' EXIT
}

fail() {
  echo "FAIL: $*"
  echo "--- stdout"
  if [ -n "${fail_head:-}" ]; then head -"$fail_head" "$out"; else cat "$out"; fi
  echo "--- stderr"
  cat "$err"
  fails=$((fails + 1))
}

run() {
  local want=$1
  shift
  "$bin" "$@" >"$out" 2>"$err"
  local rc=$?
  [ "$rc" -eq "$want" ] || fail "opfor $* exited $rc, want $want"
}

has() { grep -qF -- "$1" "$out" || fail "stdout lacks '$1'"; }
has_err() { grep -qF -- "$1" "$err" || fail "stderr lacks '$1'"; }
json_ok() { python3 -m json.tool "$out" >/dev/null 2>&1 || fail "stdout is not valid JSON"; }
json_get() {
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" \
    "$out" "$1"
}
json_eq() {
  local got
  got=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($1)" "$out" 2>&1)
  [ "$got" = "$2" ] || fail "json $1 = '$got', want '$2'"
}

finish() {
  if [ "$fails" -ne 0 ]; then
    echo "$1"
    exit 1
  fi
  echo "$2"
}

daemon_test() {
  bin=$3
  src=$4
  need_msgpack_python "$1"
  need_opford "$1" "$bin"
  daemon_workdir "$2"
}

need_msgpack_python() {
  py=""
  local p
  for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import msgpack' 2>/dev/null; then
      py=$p
      break
    fi
  done
  if [ -z "$py" ]; then
    echo "$1: needs python3 with msgpack (apt-get install python3-msgpack; see tools/deps.sh)"
    exit 1
  fi
}

need_opford() {
  [ -x "$2/opford" ] || {
    echo "$1: $2/opford not built"
    exit 1
  }
}

daemon_workdir() {
  work=$(mktemp -d "/tmp/$1.XXXXXX")
  trap daemon_cleanup EXIT
}

daemon_cleanup() {
  if [ -f "$work/pids" ]; then
    while read -r pid; do kill -KILL "$pid" 2>/dev/null || true; done <"$work/pids"
  fi
  rm -rf "$work"
}
