# Cross-compiles for macOS with Zig's C/C++ toolchain (clang, libc++ and the macOS SDK's
# headers and stubs, all inside the `ziglang` wheel). scripts/cross-macos.sh drives it: it
# writes the compiler wrappers (cc, c++, ar, ranlib: `zig <tool> -target TARGET`) and passes
# their folder and the target in the environment, which CMake's try_compile projects inherit:
#   GATEKIT_ZIG_BIN      folder with the wrappers
#   GATEKIT_ZIG_TARGET   aarch64-macos.11.0 or x86_64-macos.11.0 (arch, OS, minimum version)
# Zig links its own libc++ statically; a native macOS build links the system's libc++.
if(NOT DEFINED ENV{GATEKIT_ZIG_BIN} OR NOT DEFINED ENV{GATEKIT_ZIG_TARGET})
  message(FATAL_ERROR "zig-macos.cmake: set GATEKIT_ZIG_BIN and GATEKIT_ZIG_TARGET (scripts/cross-macos.sh does)")
endif()
set(CMAKE_SYSTEM_NAME Darwin)
if("$ENV{GATEKIT_ZIG_TARGET}" MATCHES "^aarch64-")
  set(CMAKE_SYSTEM_PROCESSOR arm64)
elseif("$ENV{GATEKIT_ZIG_TARGET}" MATCHES "^x86_64-")
  set(CMAKE_SYSTEM_PROCESSOR x86_64)
else()
  message(FATAL_ERROR "zig-macos.cmake: GATEKIT_ZIG_TARGET '$ENV{GATEKIT_ZIG_TARGET}' is neither aarch64-macos nor x86_64-macos")
endif()
set(CMAKE_C_COMPILER "$ENV{GATEKIT_ZIG_BIN}/cc")
set(CMAKE_CXX_COMPILER "$ENV{GATEKIT_ZIG_BIN}/c++")
set(CMAKE_AR "$ENV{GATEKIT_ZIG_BIN}/ar" CACHE FILEPATH "zig ar")
set(CMAKE_RANLIB "$ENV{GATEKIT_ZIG_BIN}/ranlib" CACHE FILEPATH "zig ranlib")
# No Xcode here: keep CMake's Darwin platform from asking xcrun for an SDK.
set(CMAKE_OSX_SYSROOT "" CACHE PATH "")
set(CMAKE_OSX_DEPLOYMENT_TARGET "" CACHE STRING "")
# Libraries and headers come from the prefix built for this target (GATEKIT_DEPS_PREFIX),
# never from the Linux host.
set(CMAKE_FIND_ROOT_PATH "$ENV{GATEKIT_DEPS_PREFIX}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
