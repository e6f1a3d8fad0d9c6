#!/usr/bin/env bash
# The flaky-tracker action's step: inputs arrive as INPUT_* environment variables (never
# through the workflow text), and become the tool's arguments, one array element each.
set -euo pipefail
source "$GITHUB_ACTION_PATH/../lib/find-tool.sh"
gatekit_action flaky-tracker result
# `issues` holds a token that writes issues: its tool comes from the gatekit-bin input only
# (setup-gatekit's bin output with verified: true), never from GATEKIT_BIN or a PATH lookup
# (docs/actions/setup-gatekit.md, "Verified tools"). rerun and stress hold no token.
if [ "$INPUT_COMMAND" = issues ]; then
  gatekit_require_verified_tool tool flaky-tracker
else
  gatekit_require_tool tool flaky-tracker
fi
# A command input: one line is a template split at spaces; several lines are one word each
# (for words with spaces, such as a marker expression), passed after `--`.
command_args() {
  local text="$1" word
  local -a words=()
  if [[ "$text" != *$'\n'* ]]; then
    printf '%s\0' --command "$text"
    return
  fi
  while IFS= read -r word; do
    if [ -n "$word" ]; then words+=("$word"); fi
  done <<< "$text"
  printf '%s\0' -- "${words[@]}"
}
usage() { gatekit_fail 2 "$1"; }
prefix=()
if [ -n "$INPUT_JUNIT_PREFIX" ]; then prefix=(--junit-prefix "$INPUT_JUNIT_PREFIX"); fi
cwd=()
if [ -n "$INPUT_WORKING_DIRECTORY" ]; then cwd=(--cwd "$INPUT_WORKING_DIRECTORY"); fi
case "$INPUT_COMMAND" in
  rerun)
    [ -n "$INPUT_REPORT" ] || usage "input report is required for rerun"
    args=(rerun --report "$INPUT_REPORT" --max-failures "$INPUT_MAX_FAILURES" --times "${INPUT_TIMES:-1}" "${prefix[@]}" "${cwd[@]}")
    if [ -n "$INPUT_OUTPUT" ]; then args+=(--output "$INPUT_OUTPUT"); fi
    if [ -n "$INPUT_RERUN_COMMAND" ]; then mapfile -d '' -t -O "${#args[@]}" args < <(command_args "$INPUT_RERUN_COMMAND"); fi ;;
  issues)
    [ -n "$INPUT_REPORT" ] || usage "input report is required for issues"
    # No kind: the tool derives it from GITHUB_EVENT_NAME.
    args=(issues --label "$INPUT_LABEL" --close-after-greens "$INPUT_CLOSE_AFTER_GREENS"
          --close-after-absences "$INPUT_CLOSE_AFTER_ABSENCES" --max-new-issues "${INPUT_MAX_NEW_ISSUES:-10}" "${prefix[@]}")
    while IFS= read -r report; do
      if [ -n "$report" ]; then args+=(--report "$report"); fi
    done <<< "$INPUT_REPORT"
    if [ -n "$INPUT_KIND" ]; then args+=(--kind "$INPUT_KIND"); fi
    if [ -n "$INPUT_SCOPE" ]; then args+=(--scope "$INPUT_SCOPE"); fi
    while IFS= read -r login; do
      if [ -n "$login" ]; then args+=(--creator "$login"); fi
    done <<< "$INPUT_CREATOR"
    # The journal step (the Actions cache) runs only in the default branch's own runs; in any
    # other run nothing is restored or kept (docs/actions/flaky-tracker.md, "The journal and
    # the Actions cache").
    if [ "$INPUT_JOURNAL" = true ]; then
      if [ "${JOURNAL_STEP:-}" = success ]; then
        args+=(--pending "$RUNNER_TEMP/gatekit-flaky-journal.json")
      else
        echo "journal: none in this run (${GITHUB_EVENT_NAME:-no event} on ${GITHUB_REF:-no ref}): only the default branch's own runs (schedule; push and workflow_dispatch of the default branch) keep one: there the Actions cache holds nothing but what runs of the default branch saved (docs/actions/flaky-tracker.md)"
      fi
    fi ;;
  stress)
    [ -n "$INPUT_STRESS_COMMAND" ] || usage "input stress-command is required for stress"
    args=(stress --times "${INPUT_TIMES:-10}" --parallel "$INPUT_PARALLEL" --hog "$INPUT_HOG"
          --output "${INPUT_OUTPUT:-stress.xml}" "${prefix[@]}" "${cwd[@]}")
    mapfile -d '' -t -O "${#args[@]}" args < <(command_args "$INPUT_STRESS_COMMAND") ;;
  *) usage "input command must be rerun, issues or stress" ;;
esac
exec "$tool" "${args[@]}"
