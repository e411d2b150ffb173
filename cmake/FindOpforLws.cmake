# cmake/FindOpforLws.cmake — libwebsockets for opford's table page (io/web.c), as the imported
# target Opfor::lws. Natively through pkg-config (Debian's libwebsockets-dev). In the aarch64
# cross build the :arm64 -dev package cannot be installed beside the native one (Debian 12's
# lws_config.h differs between the two in LWS_INSTALL_LIBDIR alone, which only the library
# itself uses to find its event-loop plugins), so tools/deps.sh --arm64 installs the arm64
# runtime (libwebsockets17:arm64, libwebsockets-evlib-uv:arm64) and the build takes the native
# headers with the arm64 shared library.
pkg_check_modules(LWS IMPORTED_TARGET libwebsockets)
if(LWS_FOUND)
  add_library(Opfor::lws ALIAS PkgConfig::LWS)
  return()
endif()
find_path(OPFOR_LWS_INCLUDE libwebsockets.h PATHS /usr/include NO_CMAKE_FIND_ROOT_PATH)
find_library(OPFOR_LWS_LIBRARY NAMES websockets libwebsockets.so.17
             PATHS /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE} NO_DEFAULT_PATH)
if(NOT OPFOR_LWS_INCLUDE OR NOT OPFOR_LWS_LIBRARY)
  message(FATAL_ERROR "libwebsockets not found (headers: ${OPFOR_LWS_INCLUDE}, library: "
                      "${OPFOR_LWS_LIBRARY}): run tools/deps.sh (--arm64 for the cross build)")
endif()
add_library(opfor_lws_found INTERFACE)
target_include_directories(opfor_lws_found INTERFACE ${OPFOR_LWS_INCLUDE})
target_link_libraries(opfor_lws_found INTERFACE ${OPFOR_LWS_LIBRARY})
add_library(Opfor::lws ALIAS opfor_lws_found)
message(STATUS "libwebsockets: ${OPFOR_LWS_LIBRARY} with the headers in ${OPFOR_LWS_INCLUDE}")
