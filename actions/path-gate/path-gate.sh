#!/usr/bin/env bash
# Runs path-classifier with the action's inputs, which arrive only through the environment
# (GATE_*), never through ${{ }} in a script. Exit codes are the tool's: 0 decided (fail-open
# included), 2 invalid rules or inputs, 3 the decision could not be reported.
set -euo pipefail

# shellcheck source=../lib/find-tool.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/find-tool.sh"
tool="$(gatekit_find_tool path-classifier "${GATE_BIN:-}")"
if [ -z "$tool" ]; then
  echo "::error title=path gate::path-classifier not found: set the gatekit-bin input or GATEKIT_BIN, or put the gatekit tools on PATH"
  exit 2
fi

args=()
filters="${GATE_FILTERS:-}"
case "$filters" in
  *$'\n'*) args+=(--rules-text "$filters") ;;
  "") echo "::error title=path gate::the filters input is empty"; exit 2 ;;
  *) args+=(--rules "$filters") ;;
esac
if [ -n "${GATE_DIALECT:-}" ]; then args+=(--dialect "$GATE_DIALECT"); fi
if [ -n "${GATE_LIST_FILES:-}" ]; then args+=(--files "$GATE_LIST_FILES"); fi
if [ -n "${GATE_BASE:-}" ]; then args+=(--base "$GATE_BASE"); fi
if [ -n "${GATE_HEAD:-}" ]; then args+=(--head "$GATE_HEAD"); fi

GITHUB_TOKEN="${GATE_TOKEN:-${GITHUB_TOKEN:-}}" exec "$tool" "${args[@]}"
