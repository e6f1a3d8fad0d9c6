#!/usr/bin/env bash
# Runs path-classifier with the action's inputs, which arrive only through the environment
# (GATE_*), never through ${{ }} in a script. Exit codes are the tool's: 0 decided (fail-open
# included), 2 invalid rules or inputs, 3 the tool is missing or the decision could not be
# reported. A missing tool is set up first unless GATE_SETUP is false (find-tool.sh); a setup
# that fails ends the step with setup-gatekit's exit code, never a decision.
set -euo pipefail

# shellcheck source=../lib/find-tool.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/find-tool.sh"
tool="$(gatekit_ensure_tool path-classifier "${GATE_BIN:-}" "${GATE_SETUP:-}" "path gate")"
if [ -z "$tool" ]; then
  echo "::error title=path gate::path-classifier not found: set the gatekit-bin input or GATEKIT_BIN, or put the gatekit tools on PATH"
  exit 3
fi

# Every value travels glued to its option (`--base=VALUE`), so an input starting with '-' is
# never read as an option of its own; the tool then refuses revisions git could misread
# (exit 2) and hands git none but checked ones.
args=()
if [ -n "${GATE_WORKING_DIRECTORY:-}" ]; then
  # Relative to the workspace, as dorny/paths-filter's input; the rules path is then read from there.
  if ! cd -- "${GITHUB_WORKSPACE:-.}" 2>/dev/null || ! cd -- "$GATE_WORKING_DIRECTORY" 2>/dev/null; then
    echo "::error title=path gate::the working-directory input names no folder in the workspace"
    exit 2
  fi
fi
filters="${GATE_FILTERS:-}"
case "$filters" in
  *$'\n'*) args+=("--rules-text=$filters") ;;
  "") echo "::error title=path gate::the filters input is empty"; exit 2 ;;
  *) args+=("--rules=$filters") ;;
esac
if [ -n "${GATE_DIALECT:-}" ]; then args+=("--dialect=$GATE_DIALECT"); fi
# list-files is dorny/paths-filter's output format; any other value is the file of changed
# paths it meant in earlier gatekit versions (now files-from).
list_format=none
files_from="${GATE_FILES_FROM:-}"
case "${GATE_LIST_FILES:-}" in
  "") ;;
  [Nn][Oo][Nn][Ee] | [Jj][Ss][Oo][Nn] | [Cc][Ss][Vv] | [Ss][Hh][Ee][Ll][Ll] | [Ee][Ss][Cc][Aa][Pp][Ee])
    list_format="$GATE_LIST_FILES" ;;
  *)
    if [ -n "$files_from" ]; then
      echo "::error title=path gate::list-files must be none, json, csv, shell or escape when files-from is set"
      exit 2
    fi
    echo "::warning title=path gate::list-files is not a format (none, json, csv, shell, escape): reading it as a file of changed paths; name that file in files-from instead"
    files_from="$GATE_LIST_FILES" ;;
esac
args+=("--list-files=$list_format")
if [ -n "$files_from" ]; then args+=("--files=$files_from"); fi
if [ -n "${GATE_BASE:-}" ]; then args+=("--base=$GATE_BASE"); fi
head="${GATE_REF:-}"
if [ -n "${GATE_HEAD:-}" ]; then
  if [ -n "$head" ] && [ "$head" != "$GATE_HEAD" ]; then
    echo "::error title=path gate::give ref or head, not two different values"
    exit 2
  fi
  head="$GATE_HEAD"
fi
if [ -n "$head" ]; then args+=("--head=$head"); fi
if [ -n "${GATE_PREDICATE_QUANTIFIER:-}" ]; then args+=("--predicate-quantifier=$GATE_PREDICATE_QUANTIFIER"); fi
if [ -n "${GATE_INITIAL_FETCH_DEPTH:-}" ]; then args+=("--initial-fetch-depth=$GATE_INITIAL_FETCH_DEPTH"); fi

GITHUB_TOKEN="${GATE_TOKEN:-${GITHUB_TOKEN:-}}" exec "$tool" "${args[@]}"
