# cmake/toolchain-aarch64.cmake — cross build for 64-bit Raspberry Pi OS / Debian arm64 from an
# x86-64 Debian 12 host: Debian's aarch64-linux-gnu-gcc, the :arm64 multiarch -dev packages under
# /usr/lib/aarch64-linux-gnu (tools/deps.sh --arm64 installs both), and qemu-user to run what it
# builds, so ctest can run the whole suite here (see docs/building.md).
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

set(OPFOR_CROSS_TRIPLE aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${OPFOR_CROSS_TRIPLE}-gcc)
set(CMAKE_AR ${OPFOR_CROSS_TRIPLE}-ar CACHE FILEPATH "cross ar")
set(CMAKE_RANLIB ${OPFOR_CROSS_TRIPLE}-ranlib CACHE FILEPATH "cross ranlib")
set(CMAKE_STRIP ${OPFOR_CROSS_TRIPLE}-strip CACHE FILEPATH "cross strip")

# pkg-config must see only the arm64 .pc files (and the arch-independent ones), never the host's.
# The multiarch libraries live in the host's own /usr, so no sysroot prefix is applied.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/${OPFOR_CROSS_TRIPLE}/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
unset(ENV{PKG_CONFIG_SYSROOT_DIR})

# Programs (cmake, bash, python) come from the host; headers and libraries are found through
# pkg-config and the compiler's own multiarch search paths (/usr/include/aarch64-linux-gnu,
# /usr/lib/aarch64-linux-gnu), so no CMAKE_FIND_ROOT_PATH re-rooting is wanted.

# ctest prefixes this to every add_test(NAME .. COMMAND <target>). "-L /" makes qemu load the
# arm64 dynamic loader and libc of Debian's libc6:arm64 (/lib/ld-linux-aarch64.so.1), the same
# build the :arm64 libraries were made against. The cross sysroot's older libc
# (-L /usr/aarch64-linux-gnu) mixed with those libraries hangs in glib's start-up.
set(OPFOR_QEMU qemu-aarch64 CACHE STRING "qemu-user binary that runs the arm64 test programs")
set(CMAKE_CROSSCOMPILING_EMULATOR ${OPFOR_QEMU} -L /)
