#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run): install every dependency, build with the
# `dev` preset (warnings are errors) and run all tests through CTest; then build and test the
# `asan` preset (AddressSanitizer + UndefinedBehaviorSanitizer).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }

step "Installing dependencies"
bash scripts/install-deps.sh

step "Building (dev preset)"
cmake --preset dev >/dev/null
cmake --build --preset dev -j "$jobs"

step "Testing (dev preset)"
ctest --preset dev -j "$jobs"

if [ "${GATEKIT_SKIP_ASAN:-0}" != "1" ]; then
  step "Building (asan preset)"
  cmake --preset asan >/dev/null
  cmake --build --preset asan -j "$jobs"
  step "Testing (asan preset; the node-only workflow checks already ran above)"
  ctest --preset asan -j "$jobs" -E '^pytest\.workflows\.'
fi
