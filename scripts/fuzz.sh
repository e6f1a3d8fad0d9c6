#!/usr/bin/env bash
# Builds the libFuzzer targets (CMake preset `fuzz`: clang 14, libFuzzer, ASan + UBSan) and
# runs each for a given time from its committed seed corpus (docs/fuzzing.md).
#
#   scripts/fuzz.sh [--build-dir DIR] [--no-build] [TARGET|all] [SECONDS]
#
# TARGET is a name from fuzz/CMakeLists.txt (`gatekit_fuzz_target(NAME ...)`), e.g. rules;
# `list` prints them. Default: all, 60 seconds each, one after another. What a run finds goes
# to DIR/findings/TARGET/ (crash-*, leak-*, timeout-*: reproduce with `DIR/fuzz/fuzz_TARGET
# FILE`); the corpus grows in DIR/corpus/TARGET/, never in fuzz/corpus/. Prints, and writes to
# $GITHUB_STEP_SUMMARY when set, one table row per target with the executions reached.
# Installs the optional fuzzing packages first when clang-14 is missing
# (scripts/install-deps.sh --fuzz). One input running over 60 s (GATEKIT_FUZZ_TIMEOUT) counts
# as a finding (timeout-*).
# Exit: 0 nothing found, 1 a target found an input that breaks its property or crashed,
# 2 usage error, 3 could not build.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build/fuzz
do_build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build="${2:?--build-dir needs a folder}"; shift 2 ;;
    --no-build) do_build=0; shift ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
which="${1:-all}"
seconds="${2:-60}"
case "$seconds" in ''|*[!0-9]*) echo "fuzz.sh: SECONDS must be a whole number, got '$seconds'" >&2; exit 2 ;; esac

mapfile -t all_targets < <(sed -n 's/^gatekit_fuzz_target(\([a-z0-9_]*\) .*/\1/p' fuzz/CMakeLists.txt)
if [ "$which" = list ]; then printf '%s\n' "${all_targets[@]}"; exit 0; fi
if [ "$which" = all ]; then
  targets=("${all_targets[@]}")
else
  found=0
  for t in "${all_targets[@]}"; do [ "$t" = "$which" ] && found=1; done
  if [ "$found" = 0 ]; then
    echo "fuzz.sh: no fuzz target '$which'; the targets: ${all_targets[*]}" >&2
    exit 2
  fi
  targets=("$which")
fi

# The seed corpus of a target: fuzz/corpus/NAME, except where an older folder name stays
# because the deterministic CTests read it under that name.
corpus_of() {
  case "$1" in
    matrix_aggregator_needs) echo fuzz/corpus/needs ;;
    smoke_manifest) echo fuzz/corpus/smoke-manifest ;;
    inert_output) echo fuzz/corpus/inert ;;
    *) echo "fuzz/corpus/$1" ;;
  esac
}

if [ "$do_build" = 1 ]; then
  if ! command -v clang++-14 >/dev/null; then bash scripts/install-deps.sh --fuzz; fi
  echo "==> building ${targets[*]/#/fuzz_} in $build"
  cmake --preset fuzz -B "$build" >/dev/null || exit 3
  cmake --build "$build" --target "${targets[@]/#/fuzz_}" || exit 3
fi

rows=()
status=0
for t in "${targets[@]}"; do
  exe="$build/fuzz/fuzz_$t"
  if [ ! -x "$exe" ]; then echo "fuzz.sh: $exe is not built" >&2; exit 3; fi
  seeds="$(corpus_of "$t")"
  work="$build/corpus/$t"
  findings="$build/findings/$t"
  mkdir -p "$work" "$findings"
  log="$build/findings/$t.log"
  echo "==> fuzz_$t for ${seconds}s (seeds $seeds, log $log)"
  set +e
  "$exe" -max_total_time="$seconds" -print_final_stats=1 -timeout="${GATEKIT_FUZZ_TIMEOUT:-60}" -rss_limit_mb=2048 \
    -artifact_prefix="$findings/" "$work" "$seeds" >"$log" 2>&1
  rc=$?
  set -e
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
  units="$(find "$work" -type f | wc -l)"
  if [ "$rc" = 0 ]; then
    result="nothing found"
  else
    result="FOUND (exit $rc): $(find "$findings" -type f -newer "$exe" | head -n 1)"
    status=1
    tail -n 30 "$log" >&2
  fi
  echo "    ${execs:-?} executions, corpus $units inputs: $result"
  rows+=("| \`$t\` | $seconds | ${execs:-?} | $units | $result |")
done

table="$(printf '| target | seconds | executions | corpus | result |\n| --- | ---: | ---: | ---: | --- |\n'; printf '%s\n' "${rows[@]}")"
printf '\n%s\n' "$table"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  printf '## Fuzzing (libFuzzer + ASan + UBSan)\n\n%s\n' "$table" >>"$GITHUB_STEP_SUMMARY"
fi
exit "$status"
