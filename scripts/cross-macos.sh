#!/usr/bin/env bash
# Cross-compiles and links every gatekit tool for macOS on a Linux host, with Zig's C/C++
# toolchain (the `ziglang` wheel: `python3 -m pip install ziglang`, pinned in
# scripts/install-deps.sh), and checks that `file` calls each result a Mach-O executable of
# the right architecture. Proves that the sources, the platform part of the core
# (src/platform/macos.cpp) and the libraries build and link for macOS; it runs nothing.
#
#   scripts/cross-macos.sh [TARGET...]     TARGET: aarch64-macos, x86_64-macos (default: both)
#
# Per target, under build/cross-macos/TARGET/: bin/ the compiler wrappers, deps/ yaml-cpp and
# expat built from source (scripts/deps-from-source.sh; reused while unchanged), build/ the
# release-style build (one translation unit per target, like the `release` preset).
# The minimum macOS is GATEKIT_MACOS_MIN (default 11.0, as release.yml's
# MACOSX_DEPLOYMENT_TARGET). Exit 0 every tool is Mach-O; 1 a build or check failed; 2 usage.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
min="${GATEKIT_MACOS_MIN:-11.0}"

targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(aarch64-macos x86_64-macos)
for target in "${targets[@]}"; do
  case "$target" in
    aarch64-macos|x86_64-macos) ;;
    *) echo "cross-macos.sh: unknown target '$target' (aarch64-macos or x86_64-macos)" >&2; exit 2 ;;
  esac
done

zig="$(python3 -c 'import os, ziglang; print(os.path.join(os.path.dirname(ziglang.__file__), "zig"))' 2>/dev/null || true)"
if [ -z "$zig" ] || [ ! -x "$zig" ]; then
  echo "cross-macos.sh: Zig is not installed for python3 (python3 -m pip install ziglang; scripts/install-deps.sh pins it)" >&2
  exit 1
fi
jobs="$(nproc 2>/dev/null || echo 2)"

# The tools: every folder of tools/ with a CMakeLists.txt, but the core (tools/CMakeLists.txt).
tools=()
for dir in tools/*/; do
  tool="$(basename "$dir")"
  if [ "$tool" != core ] && [ -f "$dir/CMakeLists.txt" ]; then tools+=("$tool"); fi
done

for target in "${targets[@]}"; do
  start=$SECONDS
  base="$root/build/cross-macos/$target"
  mkdir -p "$base/bin"
  # The wrappers CMake calls as its compilers and archivers (a compiler must be one file).
  for pair in "cc:cc" "c++:c++" "ar:ar" "ranlib:ranlib"; do
    name="${pair%%:*}" sub="${pair#*:}"
    if [ "$sub" = cc ] || [ "$sub" = c++ ]; then
      printf '#!/bin/sh\nexec "%s" %s -target %s "$@"\n' "$zig" "$sub" "$target.$min" >"$base/bin/$name"
    else
      printf '#!/bin/sh\nexec "%s" %s "$@"\n' "$zig" "$sub" >"$base/bin/$name"
    fi
    chmod +x "$base/bin/$name"
  done
  export GATEKIT_ZIG_BIN="$base/bin" GATEKIT_ZIG_TARGET="$target.$min" GATEKIT_DEPS_PREFIX="$base/deps"
  toolchain="$root/cmake/toolchains/zig-macos.cmake"

  echo "==> $target: libraries from source"
  bash scripts/deps-from-source.sh --prefix "$base/deps" --cc "$base/bin/cc" --cxx "$base/bin/c++" \
    -- "-DCMAKE_TOOLCHAIN_FILE=$toolchain"

  echo "==> $target: configuring"
  cmake -S . -B "$base/build" -G Ninja --log-level=WARNING "-DCMAKE_TOOLCHAIN_FILE=$toolchain" \
    "-DGATEKIT_DEPS_PREFIX=$base/deps" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" \
    -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=0 -DBUILD_TESTING=OFF \
    -DGATEKIT_STATIC_RUNTIME=ON -DGATEKIT_WERROR=ON >/dev/null
  echo "==> $target: building ${tools[*]}"
  cmake --build "$base/build" -j "$jobs" --target "${tools[@]}"

  want="arm64"
  [ "$target" = x86_64-macos ] && want="x86_64"
  bad=0
  for tool in "${tools[@]}"; do
    binary="$base/build/tools/$tool/$tool"
    kind="$(file -b "$binary" 2>&1 || true)"
    case "$kind" in
      "Mach-O 64-bit $want executable"*) printf '  %-18s %s\n' "$tool" "${kind%%,*}" ;;
      *) echo "cross-macos.sh: $binary is not a Mach-O $want executable: $kind" >&2; bad=1 ;;
    esac
  done
  [ "$bad" = 0 ] || exit 1
  echo "==> $target: ${#tools[@]} tools are Mach-O $want ($((SECONDS - start)) s)"
done
