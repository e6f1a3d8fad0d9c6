# Sourced by the gatekit actions' scripts (not an action itself).
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
