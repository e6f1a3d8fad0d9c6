#!/usr/bin/env bash
# Runs path-classifier with the action's inputs, which arrive only through the environment
# (INPUT_*), never through ${{ }} in a script. Exit codes are the tool's: 0 decided (fail-open
# included), 2 invalid rules or inputs, 3 the tool is missing or the decision could not be
# reported. A missing tool is set up first unless INPUT_SETUP is false (find-tool.sh); a setup
# that fails ends the step with setup-gatekit's exit code, never a decision.
set -euo pipefail

# shellcheck source=../lib/find-tool.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/find-tool.sh"
gatekit_action "path gate"  # no `result` output: the gated jobs read the filters' outputs
gatekit_require_tool tool path-classifier

# Every value travels glued to its option (`--base=VALUE`), so an input starting with '-' is
# never read as an option of its own; the tool then refuses revisions git could misread
# (exit 2) and hands git none but checked ones.
args=()
if [ -n "${INPUT_WORKING_DIRECTORY:-}" ]; then
  # Relative to the workspace, as dorny/paths-filter's input; the rules path is then read from there.
  if ! cd -- "${GITHUB_WORKSPACE:-.}" 2>/dev/null || ! cd -- "$INPUT_WORKING_DIRECTORY" 2>/dev/null; then
    gatekit_fail 2 "the working-directory input names no folder in the workspace"
  fi
fi
filters="${INPUT_FILTERS:-}"
case "$filters" in
  *$'\n'*) args+=("--rules-text=$filters") ;;
  "") gatekit_fail 2 "the filters input is empty" ;;
  *) args+=("--rules=$filters") ;;
esac
if [ -n "${INPUT_DIALECT:-}" ]; then args+=("--dialect=$INPUT_DIALECT"); fi
# list-files is dorny/paths-filter's output format; any other value is the file of changed
# paths it meant in earlier gatekit versions (now files-from).
list_format=none
files_from="${INPUT_FILES_FROM:-}"
case "${INPUT_LIST_FILES:-}" in
  "") ;;
  [Nn][Oo][Nn][Ee] | [Jj][Ss][Oo][Nn] | [Cc][Ss][Vv] | [Ss][Hh][Ee][Ll][Ll] | [Ee][Ss][Cc][Aa][Pp][Ee])
    list_format="$INPUT_LIST_FILES" ;;
  *)
    if [ -n "$files_from" ]; then
      gatekit_fail 2 "list-files must be none, json, csv, shell or escape when files-from is set"
    fi
    echo "::warning title=path gate::list-files is not a format (none, json, csv, shell, escape): reading it as a file of changed paths; name that file in files-from instead"
    files_from="$INPUT_LIST_FILES" ;;
esac
args+=("--list-files=$list_format")
if [ -n "$files_from" ]; then args+=("--files=$files_from"); fi
if [ -n "${INPUT_BASE:-}" ]; then args+=("--base=$INPUT_BASE"); fi
head="${INPUT_REF:-}"
if [ -n "${INPUT_HEAD:-}" ]; then
  if [ -n "$head" ] && [ "$head" != "$INPUT_HEAD" ]; then
    gatekit_fail 2 "give ref or head, not two different values"
  fi
  head="$INPUT_HEAD"
fi
if [ -n "$head" ]; then args+=("--head=$head"); fi
if [ -n "${INPUT_PREDICATE_QUANTIFIER:-}" ]; then args+=("--predicate-quantifier=$INPUT_PREDICATE_QUANTIFIER"); fi
if [ -n "${INPUT_INITIAL_FETCH_DEPTH:-}" ]; then args+=("--initial-fetch-depth=$INPUT_INITIAL_FETCH_DEPTH"); fi

GITHUB_TOKEN="${INPUT_TOKEN:-${GITHUB_TOKEN:-}}" exec "$tool" "${args[@]}"
