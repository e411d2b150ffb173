#!/usr/bin/env bash
# tools/deps.sh — installs the Debian packages opfor needs to build and test.
# Idempotent: asks dpkg what is already there and installs only what is missing.
# Works as root, or through sudo for an ordinary user. Debian 12 / Raspberry Pi OS.
set -euo pipefail

PKGS=(
  build-essential cmake pkg-config       # compiler and build
  clang libclang-rt-14-dev clang-format  # fuzzers (libFuzzer), sanitizers, style check
  libuv1-dev                             # opford's event loop
  libmsgpack-dev                         # MessagePack-RPC
  libgpiod-dev                           # e-ink panel GPIO lines
  libsqlite3-dev                         # saved games and high scores
  libfyaml-dev                           # scenario and model files
  libcairo2-dev libpango1.0-dev          # rendering the orders card
  fonts-dejavu-core                      # a crisp font for the panel
  libcmocka-dev                          # unit tests
  libncurses-dev                         # terminal play
  python3 python3-msgpack                # protocol tests with a stock client
  valgrind                               # memory checks
)

missing=()
for p in "${PKGS[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$status" = "installed" ] || missing+=("$p")
done

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
