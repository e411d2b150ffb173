#!/usr/bin/env bash
# tools/deps.sh — installs the Debian packages opfor needs to build and test.
# Idempotent: asks dpkg what is already there and installs only what is missing.
# Works as root, or through sudo for an ordinary user. Debian 12 / Raspberry Pi OS.
#   tools/deps.sh          the native build's packages (what `make build` and `make test` need)
#   tools/deps.sh --arm64  also adds Debian's arm64 architecture and installs the aarch64 cross
#                          compiler, qemu-user and the :arm64 -dev libraries (`make test-arm64`)
set -euo pipefail

MODE=native
case "${1:-}" in
  "") ;;
  --arm64) MODE=arm64 ;;
  -h | --help)
    echo "usage: tools/deps.sh [--arm64]"
    exit 0
    ;;
  *)
    echo "deps: unknown option '$1' (allowed: --arm64)" >&2
    exit 2
    ;;
esac

PKGS=(
  build-essential cmake pkg-config       # compiler and build
  clang libclang-rt-14-dev clang-format  # fuzzers (libFuzzer), sanitizers, style check
  libuv1-dev                             # opford's event loop
  libwebsockets-dev                      # the table page: HTTP and WebSocket on opford's uv loop
  libqrencode-dev                        # the table page's links as QR codes in the terminal
  libmsgpack-dev                         # MessagePack-RPC
  libgpiod-dev                           # e-ink panel GPIO lines
  libsqlite3-dev                         # saved games and high scores
  libfyaml-dev                           # scenario and model files
  libcairo2-dev libpango1.0-dev          # rendering the orders card
  fonts-dejavu-core                      # a crisp font for the panel
  libcmocka-dev                          # unit tests
  libncurses-dev                         # terminal play
  python3 python3-msgpack                # protocol tests with a stock client
  chromium chromium-driver python3-selenium # the table page's tests in a real, headless browser
  valgrind                               # memory checks
)

# Cross build for the Raspberry Pi (64-bit Raspberry Pi OS / Debian arm64). The :arm64 -dev
# packages install beside the amd64 ones (Debian multiarch) as long as both are the same version,
# which is why the native packages above are part of this list too.
if [ "$MODE" = arm64 ]; then
  PKGS+=(
    crossbuild-essential-arm64 # aarch64-linux-gnu-gcc, binutils, arm64 libc
    qemu-user                  # qemu-aarch64 runs the test binaries
    libuv1-dev:arm64 libmsgpack-dev:arm64 libgpiod-dev:arm64 libsqlite3-dev:arm64
    libfyaml-dev:arm64 libcmocka-dev:arm64
    libcairo2-dev:arm64 libpango1.0-dev:arm64
    # Not libwebsockets-dev:arm64: Debian 12's -dev packages of the two architectures cannot be
    # installed together (their lws_config.h differ in one line, LWS_INSTALL_LIBDIR, although
    # the package says Multi-Arch: same). The cross build uses the native package's headers,
    # identical otherwise, with the arm64 library itself (cmake/FindOpforLws.cmake).
    libwebsockets17:arm64 libwebsockets-evlib-uv:arm64 libqrencode-dev:arm64
    # The native libwebsockets headers include OpenSSL's, whose opensslconf.h is per
    # architecture (/usr/include/aarch64-linux-gnu/openssl): the arm64 one comes from here.
    libssl-dev:arm64
  )
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    echo "deps: adding the arm64 architecture"
    $SUDO dpkg --add-architecture arm64 # the install below runs apt-get update first
  fi
fi

# have PKG: true when PKG is installed. A plain name means the native (or arch: all) package;
# once a foreign architecture is added dpkg lists one line per installed architecture.
NATIVE_ARCH=$(dpkg --print-architecture)
have() {
  local want="$NATIVE_ARCH"
  case "$1" in *:*) want="${1##*:}" ;; esac
  local rows
  rows=$(dpkg-query -W -f='${db:Status-Status} ${Architecture}\n' "$1" 2>/dev/null || true)
  grep -qE "^installed ($want|all)\$" <<<"$rows"
}

missing=()
for p in "${PKGS[@]}"; do
  have "$p" || missing+=("$p")
done
# The table page's MessagePack library comes from npm when opford is built (web/package.json):
# any Node.js with npm will do (NodeSource's nodejs carries its own npm, and Debian's npm package
# would conflict with it), so Debian's nodejs and npm only when no npm is on the PATH.
if ! command -v npm >/dev/null 2>&1; then
  have nodejs || missing+=(nodejs)
  missing+=(npm)
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#PKGS[@]} packages present"
  exit 0
fi

echo "deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "deps: need root or sudo to install: ${missing[*]}" >&2; exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "deps: done"
