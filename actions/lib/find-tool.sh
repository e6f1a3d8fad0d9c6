# shellcheck shell=bash
# Sourced by the gatekit actions' scripts (not an action itself).
# shellcheck source=commands.sh
source "$(dirname "${BASH_SOURCE[0]}")/commands.sh"
# The one tool lookup of every action's step:
#   source "$GITHUB_ACTION_PATH/../lib/find-tool.sh"
#   gatekit_action matrix-aggregator result   # the ::error title; the output that says `error`
#   gatekit_require_tool tool matrix-aggregator
# Every action names its inputs alike in its step's env: input `foo-bar` is INPUT_FOO_BAR, and
# the two that every action has are INPUT_GATEKIT_BIN and INPUT_SETUP.

# gatekit_action TITLE [RESULT]: names the calling step for the helpers below. TITLE heads its
# ::error lines; RESULT is the output that gets `error` when the step ends without a verdict
# (`result` in every action that has that output; empty for path-gate, whose outputs are the
# filters).
gatekit_action() {
  GATEKIT_ACTION_TITLE="$1"
  GATEKIT_ACTION_RESULT="${2:-}"
}

# gatekit_no_verdict: writes RESULT=error (gatekit_action) when the action has that output.
gatekit_no_verdict() {
  if [ -n "${GATEKIT_ACTION_RESULT:-}" ]; then echo "$GATEKIT_ACTION_RESULT=error" >> "$GITHUB_OUTPUT"; fi
}

# gatekit_fail CODE MESSAGE: ends the step without a verdict: an ::error titled as the action
# (MESSAGE escaped as command data), RESULT=error, and exit CODE (2 an input is invalid, 3 the
# step could not evaluate: docs/exit-codes.md).
gatekit_fail() {
  echo "::error title=$GATEKIT_ACTION_TITLE::$(gatekit_command_data "$2")"
  gatekit_no_verdict
  exit "$1"
}

# gatekit_require_verified_tool VAR NAME: gatekit_require_tool for a step that writes with a
# token (gpu-gate-status posting, flaky-tracker issues; docs/actions/setup-gatekit.md,
# "Verified tools"): the tool NAME only from the
# gatekit-bin input, an absolute folder (setup-gatekit's `bin` output), never from GATEKIT_BIN
# nor a PATH lookup; without the input, the tools set up first as `verified: true` does (the
# release archive checked against checksums.txt, else a build of this checkout in a fresh
# folder) when the setup input allows it. A missing tool ends the step as gatekit_require_tool
# does, in its own words; a relative gatekit-bin is exit 2.
gatekit_require_verified_tool() {
  local found rc=0
  found="$(gatekit_ensure_tool "$2" "${INPUT_GATEKIT_BIN:-}" "${INPUT_SETUP:-}" "$GATEKIT_ACTION_TITLE" verified)" || rc=$?
  if [ "$rc" -ne 0 ]; then
    gatekit_no_verdict
    exit "$rc"
  fi
  if [ -z "$found" ]; then
    gatekit_fail 3 "$2 not found in the gatekit-bin input's folder: a step that writes with a token runs its tool from there (setup-gatekit's bin output) or sets the tools up itself (setup: auto), never from GATEKIT_BIN or PATH"
  fi
  printf -v "$1" '%s' "$found"
}

# gatekit_require_tool VAR NAME: sets the variable VAR to the path of the gatekit tool NAME,
# found through the gatekit-bin input (INPUT_GATEKIT_BIN), GATEKIT_BIN or PATH, and set up first
# when missing as the setup input (INPUT_SETUP) allows (gatekit_ensure_tool). Otherwise it ends
# the step without a verdict: exit 3 when the tool is missing with `setup: false`, 2 for a
# `setup` value other than auto or false, setup-gatekit's exit code when the setup failed.
gatekit_require_tool() {
  local found rc=0
  found="$(gatekit_ensure_tool "$2" "${INPUT_GATEKIT_BIN:-}" "${INPUT_SETUP:-}" "$GATEKIT_ACTION_TITLE")" || rc=$?
  if [ "$rc" -ne 0 ]; then
    gatekit_no_verdict
    exit "$rc"
  fi
  if [ -z "$found" ]; then gatekit_fail 3 "$2 not found (gatekit-bin input, GATEKIT_BIN or PATH)"; fi
  printf -v "$1" '%s' "$found"
}

# gatekit_find_tool NAME [BIN_DIR]: prints the path of the gatekit tool NAME, taken from
# BIN_DIR (the action's gatekit-bin input), else $GATEKIT_BIN, else PATH; prints nothing
# when there is no executable there. Each action reports a missing tool in its own words, and
# every one exits 3 then (could not evaluate: docs/exit-codes.md), never 0 and never 2 (the
# workflow may be right; the job did not set the tools up).
gatekit_find_tool() {
  local name="$1" bin_dir="${2:-${GATEKIT_BIN:-}}" tool
  if [ -n "$bin_dir" ]; then
    tool="$bin_dir/$name"
  else
    tool="$(command -v "$name" || true)"
  fi
  if [ -n "$tool" ] && [ -x "$tool" ]; then
    printf '%s\n' "$tool"
  fi
}

# gatekit_ensure_tool NAME BIN_DIR SETUP TITLE [verified]: gatekit_find_tool NAME BIN_DIR, and where that
# finds nothing and SETUP (the action's `setup` input, default `auto`) is `auto`, sets the
# tools up first with the setup-gatekit script of this same checkout, so that an action works
# without a setup-gatekit step before it. An empty SETUP (a script run outside its action:
# local use, tests) is `false`: nothing is downloaded or built behind one's back.
# The script runs as that action's `probe` then `install` steps do, without the Actions cache
# (a separate action step, which a script cannot run): tools on PATH at this version, else the
# release archive verified against setup-gatekit/checksums.txt, else a source build where
# setup-gatekit's rules allow one. Its GITHUB_PATH and GITHUB_ENV lines serve the job's later
# steps too; its outputs go to a file of its own (the calling step's outputs stay the
# action's), whose `bin` names the folder. All it logs goes to stderr: stdout is the path.
# Returns 0 and prints the tool's path; 0 and prints nothing when the tool is missing and SETUP
# is `false` or empty (the caller reports it in its own words and exits 3, as before); 2 after
# an ::error titled TITLE when SETUP is anything else; when the setup fails, setup-gatekit's
# exit code after its ::error (2 usage or a runner that may not build, 3 a checksum mismatch
# or a failed build; any other code is 3: the tool could not be run, which is never a verdict).
# With `verified`: BIN_DIR only (an absolute folder, else exit 2), never GATEKIT_BIN or PATH,
# and the setup runs as setup-gatekit's `verified: true`.
gatekit_ensure_tool() {
  local name="$1" bin_dir="$2" setup="$3" title="$4" verified="${5:+true}" tool
  case "$setup" in
    auto | '' | false) ;;
    *)
      echo "::error title=$title::$(gatekit_command_data "input setup must be 'auto' or 'false', got '$setup'")" >&2
      return 2 ;;
  esac
  if [ "$verified" = true ]; then
    case "$bin_dir" in
      '' | /*) ;;
      *)
        echo "::error title=$title::$(gatekit_command_data "input gatekit-bin must be an absolute folder in a step that writes with a token (setup-gatekit's bin output), got '$bin_dir'")" >&2
        return 2 ;;
    esac
    tool=""
    if [ -n "$bin_dir" ] && [ -x "$bin_dir/$name" ]; then tool="$bin_dir/$name"; fi
  else
    tool="$(gatekit_find_tool "$name" "$bin_dir")"
  fi
  if [ -n "$tool" ] || [ "$setup" != auto ]; then
    if [ -n "$tool" ]; then printf '%s\n' "$tool"; fi
    return 0
  fi
  local dir temp rc=0 bin
  dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/../setup-gatekit" && pwd)"
  if ! temp="$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/gatekit-self-setup.XXXXXX")"; then
    echo "::error title=$title::cannot create a scratch folder to set the gatekit tools up in" >&2
    return 3
  fi
  if [ "$verified" = true ]; then
    echo "$name not found in the gatekit-bin input's folder: setting the gatekit tools up with setup-gatekit, verified: true (input setup: auto; a step that writes with a token never runs a tool from GATEKIT_BIN or PATH)" >&2
  else
    echo "$name not found (gatekit-bin input, GATEKIT_BIN or PATH): setting the gatekit tools up with setup-gatekit (input setup: auto)" >&2
  fi
  : > "$temp/output"
  gatekit_setup_gatekit "$dir" "$temp/output" probe "${verified:-false}" || rc=$?
  if [ "$rc" -eq 0 ] && ! grep -qx 'skip=true' "$temp/output"; then
    gatekit_setup_gatekit "$dir" "$temp/output" install "${verified:-false}" || rc=$?
  fi
  bin="$(sed -n 's/^bin=//p' "$temp/output" | tail -n 1)"
  rm -rf "$temp"
  if [ "$rc" -ne 0 ]; then
    case "$rc" in
      2 | 3) ;;
      *) echo "::error title=$title::setting the gatekit tools up failed (setup-gatekit exit $rc, see the log above)" >&2
         rc=3 ;;
    esac
    return "$rc"
  fi
  if [ -z "$bin" ] || [ ! -x "$bin/$name" ]; then
    echo "::error title=$title::setup-gatekit set the gatekit tools up in '$bin', but that folder holds no $name" >&2
    return 3
  fi
  printf '%s\n' "$bin/$name"
}

# gatekit_setup_gatekit DIR OUTPUT MODE VERIFIED: runs DIR/setup-gatekit.sh MODE in the
# environment of that action's own steps with its input defaults (no cache hit) and `verified`
# VERIFIED, its outputs into OUTPUT and its log to stderr.
gatekit_setup_gatekit() {
  env -u GATEKIT_CACHE_HIT GITHUB_ACTION_PATH="$1" GITHUB_OUTPUT="$2" INPUT_FORCE=false INPUT_CACHE=false \
    INPUT_VERIFIED="$4" INPUT_INSTALL_DEPS=auto INPUT_BUILD_DIR= INPUT_DOWNLOAD_TIMEOUT=60 \
    bash "$1/setup-gatekit.sh" "$3" >&2
}
