# Compiler settings shared by every target, as INTERFACE libraries so a target opts in by linking.
option(GATEKIT_WERROR "Treat compiler warnings as errors" OFF)
option(GATEKIT_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
# Release binaries start in a few milliseconds when the C++ runtime and the small C++
# libraries are linked in rather than resolved by the loader at every start (path gates run
# once per job). Only libc/libm, libgcc_s and the loader stay shared; libcurl is loaded on
# demand.
# ON in the `release` and `bench` presets; dev/asan builds stay dynamic.
option(GATEKIT_STATIC_RUNTIME "Link libstdc++ and yaml-cpp/Boost statically" OFF)
if(GATEKIT_STATIC_RUNTIME AND GATEKIT_SANITIZE)
  message(WARNING "GATEKIT_STATIC_RUNTIME is ignored with GATEKIT_SANITIZE (the sanitizers need the shared runtime)")
  set(GATEKIT_STATIC_RUNTIME OFF)
endif()

set(CMAKE_EXPORT_COMPILE_COMMANDS ON)

# A precompiled header of the standard library headers nearly every file includes (C++20's
# <string>, <functional>, <chrono>, <filesystem>... are some 90,000 lines): built once with the
# core, reused by every tool library. ON in the `release` preset (the cold build every CI job
# pays for; docs/contributing.md, "Build weight"); OFF for dev and asan, whose files must each
# include what they use and whose compiler cache would not keep precompiled headers.
# Standard headers only: JSON, YAML and CLI11 stay in the files that use them.
option(GATEKIT_PCH "Precompile the common standard library headers (release builds)" OFF)
set(GATEKIT_PCH_HEADERS
  <algorithm> <array> <chrono> <cstddef> <cstdint> <filesystem> <functional> <map> <memory>
  <optional> <set> <sstream> <string> <string_view> <unordered_map> <utility> <variant> <vector>)

# Code on no measured hot path (the frame's CLI11 code, gatekit_core_cold in
# tools/core/CMakeLists.txt, and the tools in GATEKIT_COLD_TOOLS, tools/CMakeLists.txt) is
# compiled at -O1 in a release build: a third less compile time than -O2, for code that runs
# once per process or waits on processes, networks and devices (docs/contributing.md, "Build
# weight"). Other builds keep their own optimisation level.
set(GATEKIT_COLD_OPTIONS "$<$<CONFIG:Release>:-O1>")

add_library(gatekit_standard INTERFACE)
add_library(gatekit::standard ALIAS gatekit_standard)
target_compile_features(gatekit_standard INTERFACE cxx_std_20)
# Three of GCC's -O2 passes cost about a sixth of the cold release build and buy nothing the
# benchmarks measure (docs/contributing.md, "Build weight"): points-to analysis (the alias
# facts the other passes use come from type-based aliasing), the RTL global common
# subexpression pass (the GIMPLE FRE and PRE passes have done that work before it), and the
# second instruction scheduling (out-of-order x86_64 and aarch64 cores reorder for themselves).
# Release builds with GCC only: the dev and asan builds, and clang, keep their defaults.
set(GATEKIT_LEAN_OPTIONS -fno-tree-pta -fno-gcse -fno-schedule-insns2)
target_compile_options(gatekit_standard INTERFACE
  "$<$<AND:$<CONFIG:Release>,$<CXX_COMPILER_ID:GNU>>:${GATEKIT_LEAN_OPTIONS}>")
set(CMAKE_CXX_EXTENSIONS OFF)
if(GATEKIT_SANITIZE)
  target_compile_options(gatekit_standard INTERFACE
    -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  target_link_options(gatekit_standard INTERFACE -fsanitize=address,undefined)
endif()

if(GATEKIT_STATIC_RUNTIME AND NOT CMAKE_SYSTEM_NAME STREQUAL "Linux")
  # The glibc baseline below is a Linux matter; macOS links its libc++ and libSystem shared
  # (they are part of the OS) and has a native arc4random. Boost and yaml-cpp stay static.
  message(STATUS "GATEKIT_STATIC_RUNTIME: the C++ runtime stays shared on ${CMAKE_SYSTEM_NAME}")
elseif(GATEKIT_STATIC_RUNTIME)
  # The static parts must not raise the glibc the tools need above the release baseline
  # (scripts/check-glibc.sh). libgcc stays shared: the static unwinder of GCC 12 built on
  # glibc 2.35+ finds exception tables with _dl_find_object (glibc 2.35), while every system
  # has a libgcc_s.so.1 that matches its own glibc. libstdc++'s std::random_device calls
  # arc4random (glibc 2.36) where the compiler was built on such a glibc:
  # cmake/glibc_compat.cpp answers that call on getrandom.
  target_link_options(gatekit_standard INTERFACE -static-libstdc++)
  target_link_options(gatekit_standard INTERFACE -Wl,--wrap=arc4random)
  # A library of its own, linked once per executable: as an interface source it would be
  # compiled into every target, and a unity build of the core would then define it twice.
  add_library(gatekit_glibc_compat STATIC "${CMAKE_CURRENT_LIST_DIR}/glibc_compat.cpp")
  target_compile_features(gatekit_glibc_compat PRIVATE cxx_std_20)
  target_link_libraries(gatekit_standard INTERFACE gatekit_glibc_compat)
  # libstdc++.a comes after it on the link line: ask for the wrapper up front so the archive
  # member is taken when the archive is scanned.
  target_link_options(gatekit_standard INTERFACE -Wl,--undefined=__wrap_arc4random)
endif()

# The warning set is the dev and asan presets' job (with -Werror there). The `release` preset
# turns it off: the -O2 analyses behind some of these warnings (-Wnull-dereference among them)
# cost about a tenth of its cold build (docs/contributing.md, "Build weight"), and nobody reads
# a release build's warnings.
option(GATEKIT_WARNINGS "Compile gatekit's own files with its warning set" ON)
if(GATEKIT_WERROR AND NOT GATEKIT_WARNINGS)
  message(FATAL_ERROR "GATEKIT_WERROR needs GATEKIT_WARNINGS")
endif()
add_library(gatekit_warnings INTERFACE)
add_library(gatekit::warnings ALIAS gatekit_warnings)
if(GATEKIT_WARNINGS)
  target_compile_options(gatekit_warnings INTERFACE
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
    -Wno-missing-field-initializers
    -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Woverloaded-virtual
    -Wnull-dereference -Wimplicit-fallthrough
    $<$<BOOL:${GATEKIT_WERROR}>:-Werror>)
endif()

# gatekit_tool(NAME) builds tools/NAME: a library NAME_lib from every .cpp but main.cpp (its
# subfolders too: a large tool groups its files by command or stage; includes name the folder),
# and the executable NAME from main.cpp. Tests link NAME_lib so the whole CLI is testable.
function(gatekit_tool name)
  file(GLOB_RECURSE lib_sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*.cpp")
  list(REMOVE_ITEM lib_sources "${CMAKE_CURRENT_SOURCE_DIR}/main.cpp")
  string(REPLACE "-" "_" lib "${name}_lib")
  add_library(${lib} STATIC ${lib_sources})
  target_include_directories(${lib} PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}")
  target_link_libraries(${lib} PUBLIC gatekit::core PRIVATE gatekit::warnings)
  set(pch_from gatekit_core)
  if(name IN_LIST GATEKIT_COLD_TOOLS)
    target_compile_options(${lib} PRIVATE ${GATEKIT_COLD_OPTIONS})
    set(pch_from gatekit_core_cold)
  endif()
  if(GATEKIT_PCH)
    # The core's of the same optimisation level (tools/core/CMakeLists.txt): same compiler,
    # flags and definitions.
    target_precompile_headers(${lib} REUSE_FROM ${pch_from})
  endif()
  add_executable(${name} main.cpp)
  target_link_libraries(${name} PRIVATE ${lib} gatekit::warnings)
  if(SKBUILD)
    # The Python wheel (pyproject.toml): the wheel's scripts, which pip installs on PATH.
    install(TARGETS ${name} RUNTIME DESTINATION "${SKBUILD_SCRIPTS_DIR}")
  else()
    install(TARGETS ${name} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endfunction()
