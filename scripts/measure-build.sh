#!/usr/bin/env bash
# Build weight: a cold release build of every tool, timed, and the translation units that
# cost the most, by preprocessed lines (`c++ -E`, line markers included).
#
#   scripts/measure-build.sh                  # this checkout, into build/measure (removed first)
#   scripts/measure-build.sh --source DIR --build DIR --jobs 2 --top 10
#   scripts/measure-build.sh --no-build       # only the preprocessed sizes (configures if needed)
#   scripts/measure-build.sh --no-build --all # every translation unit, not only the top N
#   scripts/measure-build.sh --per-file --no-build --all  # the include weight of every .cpp
#
# The build is the `release` preset's (CMakePresets.json: one unity translation unit per
# target, the standard library precompiled, -O2, static runtime), which CI, setup-gatekit and
# package-release.sh build. --per-file configures it without the unity build and the
# precompiled header instead: one translation unit per .cpp, so the report shows what each
# file's includes cost (docs/contributing.md, "Build weight").
#
# Prints: the seconds of `cmake --build` from an empty build folder (no compiler cache is
# used), the top N translation units by preprocessed lines (a unity unit is named by its
# target), and every tool's main.cpp (the cost of a file that only starts the tool).
set -euo pipefail

source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir=""
jobs=2
top=10
build=1
per_file=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --source) source_dir="$(cd "$2" && pwd)"; shift 2 ;;
    --build) build_dir="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --top) top="$2"; shift 2 ;;
    --no-build) build=0; shift ;;
    --all) top=100000; shift ;;
    --per-file) per_file=(-DCMAKE_UNITY_BUILD=OFF -DGATEKIT_PCH=OFF); shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "measure-build.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done
build_dir="${build_dir:-$source_dir/build/measure}"

if [[ $build -eq 1 ]]; then
  rm -rf "$build_dir"
fi
if [[ ! -f "$build_dir/compile_commands.json" ]]; then
  # The release preset itself; no compiler launcher, so every file is really compiled.
  CCACHE_DISABLE=1 cmake -S "$source_dir" --preset release -B "$build_dir" -DCMAKE_CXX_COMPILER_LAUNCHER= \
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON "${per_file[@]}" >/dev/null
fi

if [[ $build -eq 1 ]]; then
  # Wall seconds depend on what else the machine runs; CPU seconds (the compilers' user + system
  # time) much less so: compare those between machines or busy runs.
  TIMEFORMAT='%R %U %S'
  if ! { time CCACHE_DISABLE=1 cmake --build "$build_dir" -j "$jobs" >"$build_dir/build.log" 2>&1; } \
      2>"$build_dir/build-time.txt"; then
    echo "measure-build.sh: the build failed; see $build_dir/build.log" >&2
    exit 1
  fi
  read -r wall user sys < <(tail -n 1 "$build_dir/build-time.txt")
  awk -v wall="$wall" -v cpu="$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" -v jobs="$jobs" \
    'BEGIN { printf "cold release build (%s jobs): %.1f s wall, %.1f s CPU\n", jobs, wall, cpu }'
fi

python3 - "$build_dir/compile_commands.json" "$source_dir" "$jobs" "$top" <<'EOF'
import json
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

commands, source, jobs, top = json.load(open(sys.argv[1])), Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])


def preprocessed_lines(entry):
    argv = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    out = []
    skip = False
    for arg in argv:  # compile -> preprocess to stdout
        if skip:
            skip = False
            continue
        if arg in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
            continue
        if arg in ("-c", "-MD", "-MMD"):
            continue
        out.append(arg)
    done = subprocess.run(out + ["-E", "-o", "-"], cwd=entry["directory"], capture_output=True, text=True)
    if done.returncode != 0:
        return -1
    return done.stdout.count("\n")


def shown(path):
    path = Path(path).resolve()
    return str(path.relative_to(source)) if path.is_relative_to(source) else str(path)


def name(entry):
    """A source by its path; a unity unit (CMake's Unity/unity_N_cxx.cxx) by the one file it
    holds, or by its target and its number of files; the precompiled header by its target."""
    path = Path(entry["file"])
    if path.parent.name == "Unity":
        held = [line.split('"')[1] for line in path.read_text().splitlines() if line.startswith("#include \"")]
        target = path.parent.parent.name.removesuffix(".dir")
        return shown(held[0]) if len(held) == 1 else f"{target} (unity: {len(held)} files)"
    if path.name.startswith("cmake_pch."):
        return f"{path.parent.name.removesuffix('.dir')} (precompiled header)"
    return shown(path)


entries = [e for e in commands if e["file"].endswith((".cpp", ".cxx"))]
with ThreadPoolExecutor(max_workers=jobs) as pool:
    sizes = list(pool.map(preprocessed_lines, entries))
rows = sorted(((n, name(e)) for n, e in zip(sizes, entries)), reverse=True)
print(f"\ntop {top} translation units by preprocessed lines ({len(rows)} in all, {sum(n for n, _ in rows)} lines):")
print(f"{'lines':>9}  file")
for n, name in rows[:top]:
    print(f"{n:>9}  {name}")
print("\nmain.cpp of every tool:")
for n, name in sorted((r for r in rows if r[1].endswith("/main.cpp")), key=lambda r: r[1]):
    print(f"{n:>9}  {name}")
failed = [name for n, name in rows if n < 0]
if failed:
    print("\nnot preprocessed (the command failed): " + ", ".join(failed))
EOF
