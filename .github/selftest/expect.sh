#!/usr/bin/env bash
# expect.sh NAME GOT WANT [NAME GOT WANT]...: the self-test workflows' assertions. Prints one
# table row per check (also to the job summary) and fails when any GOT differs from WANT.
# GOT is an action's output or a step's outcome, i.e. data: it reaches the log only inside a
# table row or as the escaped message of an ::error, never as a command of its own.
set -euo pipefail
# shellcheck source=../../actions/lib/commands.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../actions/lib/commands.sh"
escape() { gatekit_command_data "$1"; }
if [ $# -eq 0 ] || [ $(($# % 3)) -ne 0 ]; then
  echo "usage: expect.sh NAME GOT WANT..." >&2
  exit 2
fi
rows=("| check | got | expected | |" "| --- | --- | --- | --- |")
bad=0
while [ $# -gt 0 ]; do
  name="$1" got="$2" want="$3"
  shift 3
  if [ "$got" = "$want" ]; then
    rows+=("| $name | \`$(escape "$got")\` | \`$want\` | ✔ |")
  else
    rows+=("| $name | \`$(escape "$got")\` | \`$want\` | ✘ |")
    echo "::error title=self-test::$(escape "$name: expected '$want', got '$got'")"
    bad=1
  fi
done
printf '%s\n' "${rows[@]}"  # each row starts with "|": never a workflow command
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then printf '%s\n' "${rows[@]}" "" >> "$GITHUB_STEP_SUMMARY"; fi
exit "$bad"
