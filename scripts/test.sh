#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run): install every dependency, build with the
# `dev` preset (warnings are errors) and run all tests through CTest; cross-compile every tool
# for macOS (scripts/cross-macos.sh); then build and test the `asan` preset (AddressSanitizer +
# UndefinedBehaviorSanitizer), which is also the clang and libc++ run: the compiler and standard
# library family macOS uses, on Linux.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }

step "Installing dependencies"
bash scripts/install-deps.sh

step "Building (dev preset)"
cmake --preset dev >/dev/null
cmake --build --preset dev -j "$jobs"

step "glibc symbol versions of the built tools (scripts/check-glibc.sh)"
# The release archives promise tools that start on glibc 2.34 (docs/contributing.md,
# "Releases"); they are built on Debian 12 (glibc 2.36). A build judges gatekit's own glibc
# calls only on a host whose glibc is no newer than that: newer headers bind newer symbol
# versions (glibc 2.38 turns strtol into __isoc23_strtol). Elsewhere this step says so, and
# the release-archive job of .github/workflows/ci.yml checks the real archive.
host_glibc="$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')"
if [ -n "$host_glibc" ] && [ "$(printf '%s\n' "$host_glibc" 2.36 | sort -V | tail -n 1)" = 2.36 ]; then
  built=()
  for dir in tools/*/; do
    tool="$(basename "$dir")"
    if [ "$tool" != core ] && [ -f "$dir/CMakeLists.txt" ]; then built+=("build/dev/tools/$tool/$tool"); fi
  done
  bash scripts/check-glibc.sh "${built[@]}"
else
  echo "skipped: this host has glibc ${host_glibc:-unknown}, newer than the release image's 2.36"
fi

step "Testing (dev preset)"
ctest --preset dev -j "$jobs"

step "macOS cross-builds of every tool (scripts/cross-macos.sh: Zig, aarch64 and x86_64)"
# Builds and links each tool for macOS and checks that `file` calls it Mach-O; running them
# is left to the macOS jobs of .github/workflows/ci.yml (docs/contributing.md, "macOS").
bash scripts/cross-macos.sh aarch64-macos x86_64-macos

step "Benchmarks, quick mode (figures only, no targets judged: docs/benchmarks.md)"
# On the Release build of the bench preset (a debug build's ratios mislead), building only the
# tools these benchmarks need; setup-gatekit's benchmark packs every tool, and is left to a
# full `python3 scripts/bench.py`.
python3 scripts/bench.py --quick --jobs "$jobs" --except setup-gatekit

if [ "${GATEKIT_SKIP_ASAN:-0}" != "1" ]; then
  step "Libraries for libc++ (scripts/deps-from-source.sh: yaml-cpp and expat, with clang)"
  # The asan preset builds with clang and libc++, whose C++ ABI is not the one the
  # distribution's libyaml-cpp was built for: it links these (GATEKIT_DEPS_PREFIX=build/deps-libcxx).
  # Boost.JSON is compiled by the build itself; Boost.Process, CLI11 and Catch2 2 are headers.
  bash scripts/deps-from-source.sh --prefix build/deps-libcxx --cc clang --cxx clang++ \
    -- -DCMAKE_CXX_FLAGS=-stdlib=libc++ -DCMAKE_EXE_LINKER_FLAGS=-stdlib=libc++
  step "Building (asan preset: clang, libc++)"
  cmake --preset asan >/dev/null
  cmake --build --preset asan -j "$jobs"
  step "Testing (asan preset; the workflow checks, the act runs of the templates and the wheel ran above)"
  ctest --preset asan -j "$jobs" -E '^pytest\.(workflows|e2e|wheel)\.'
fi
