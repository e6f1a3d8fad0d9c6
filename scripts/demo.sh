#!/usr/bin/env bash
# gatekit's main job (README command 1): install the dependencies, build the tools, and
# gate prepared changes of the bundled demo project (examples/demo-project), stage by stage.
# Options: --no-install (skip the install step), --keep (keep the scratch repositories).
set -euo pipefail
cd "$(dirname "$0")/.."
install=1
args=()
for arg in "$@"; do
  case "$arg" in
    --no-install) install=0 ;;
    *) args+=("$arg") ;;
  esac
done

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }

if [ "$install" = 1 ]; then
  step "Installing dependencies"
  bash scripts/install-deps.sh
fi
step "Building gatekit (release preset)"
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc 2>/dev/null || echo 2)" | tail -n 1

exec python3 scripts/demo.py --bin build/release/tools --out demo-output "${args[@]}"
