#!/usr/bin/env bash
# tests/arm64.sh [BUILD_DIR] — `make test-arm64`: cross-builds opfor for aarch64 (the Raspberry
# Pi) with Debian's cross compiler and :arm64 multiarch libraries, then runs the whole ctest
# suite under qemu-user. The point is cross-architecture determinism: the same seeds must give
# the same numbers on arm64 as on x86-64 (tests/core/test_rng.c, test_mathx.c and every test
# with pinned outputs). Release build without sanitizers: ASan under qemu is too slow.
# Installs what is missing first (tools/deps.sh --arm64). See docs/building.md.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-arm64}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
start=$(date +%s)

# On an arm64 machine (a Raspberry Pi) the native `make test` already runs every test there.
if [ "$(uname -m)" = "aarch64" ]; then
  echo "test-arm64: this machine is aarch64; the native suite already ran here"
  exit 0
fi

bash tools/deps.sh --arm64

cmake -S . -B "$build" -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/toolchain-aarch64.cmake" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOPFOR_SANITIZE=OFF -DOPFOR_FUZZ=OFF -DOPFOR_TESTS=ON \
  -DOPFOR_TEST_RULESETS=ON >/dev/null
cmake --build "$build" -j "$jobs"

# Refuse to "pass" a build that is not really arm64 (e.g. a stale native cache in $build).
machine=$(LC_ALL=C readelf -h "$build/bin/opfor" | sed -n 's/^ *Machine: *//p')
case "$machine" in
  *AArch64*) ;;
  *)
    echo "test-arm64: $build/bin/opfor is '$machine', not AArch64 (remove $build and retry)" >&2
    exit 1
    ;;
esac
built=$(date +%s)
echo "test-arm64: built in $((built - start)) s; running ctest under qemu-aarch64"

cd "$build"
ctest --output-on-failure -j "$jobs"
echo "test-arm64: tests took $(($(date +%s) - built)) s (total $(($(date +%s) - start)) s)"
