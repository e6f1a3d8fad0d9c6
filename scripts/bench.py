#!/usr/bin/env python3
"""Every benchmark of every tool against its anchor, in one run, as one table (docs/benchmarks.md).

  python3 scripts/bench.py                      # build the bench preset in build/bench, run all
  python3 scripts/bench.py --quick              # small sizes, same build: proves they run (scripts/test.sh)
  python3 scripts/bench.py --only 'path gate'   # the benchmarks whose name contains the text
  python3 scripts/bench.py --except setup       # all but those

Only the targets the selected benchmarks need are built (BENCHES): always the Release build
of the bench preset, also in quick mode, since a debug build's ratios mislead (its JUnit
reader ran at 0.6x of ElementTree where the release build runs at 2x and more).

Each benchmark times gatekit and its anchor side by side on the same inputs, several runs
each, and reports medians; a wide spread is noted under the table. The table has one row per
figure: gatekit, anchor, ratio (anchor / gatekit: above 1, gatekit is faster), target, met.
Also written as JSON (--json, default BUILD/bench-results.json) for later comparison, and as
Markdown to --summary FILE or $GITHUB_STEP_SUMMARY.

Exit: 0 every figure measured (and, without --quick, every target met); 1 a target missed;
2 usage error; 3 a benchmark could not run or the build failed. Quick mode asserts no target.
"""
from __future__ import annotations

import argparse
import datetime
import importlib.util
import os
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(SOURCE / "bench"))
from common import Context, Figure, failed, markdown_table, pending, text_table, write_json  # noqa: E402

# (name, file under bench/ or a glob for benchmarks other tools add, the build targets it
# needs: tools and bench/ helpers; ALL_TOOLS for every tool)
ALL_TOOLS = "*"
BENCHES = [
    ("path gate vs picomatch", "path-classifier/run.py", ["path-classifier"]),
    ("path gate vs bash case", "path-classifier/case_gate.py", ["path-classifier"]),
    ("JUnit, 1M cases (flaky-tracker)", "flaky*/*.py", ["flaky-tracker"]),
    ("flaky-tracker rerun --output and stress: time and memory", "flaky-tracker/merge.py", ["flaky-tracker"]),
    ("JUnit shapes vs raw expat", "junit/bench.py", ["junit-read", "junit-raw-expat"]),
    ("suite report and JUnit anchors", "suite-report/bench.py", ["suite-report"]),
    ("growth, 1M cases: time and memory", "suite-report/growth_memory.py", ["suite-report"]),
    ("smokes", "smoke-runner/bench.py", ["smoke-runner"]),
    ("GPU shards (suite-report shard, smoke-runner --shard)", "shards/bench.py", ["suite-report", "smoke-runner"]),
    ("gate status vs a per-ref git loop", "gpu-gate-status*/*.py|gpu-gate-status*.py", ["gpu-gate"]),
    ("setup-gatekit", "setup-gatekit/bench.py", [ALL_TOOLS]),
    ("ci-report, 10,000 runs and 100,000 jobs", "ci-report/bench.py", ["ci-report"]),
]


def find(spec: str) -> Path | None:
    for pattern in spec.split("|"):
        hits = sorted(p for p in (SOURCE / "bench").glob(pattern) if p.name not in ("common.py",) and p.is_file())
        # A folder's main script: bench.py or run.py when there are several files.
        for preferred in ("bench.py", "run.py"):
            for hit in hits:
                if hit.name == preferred:
                    return hit
        if hits:
            return hits[0]
    return None


def load(path: Path):
    spec = importlib.util.spec_from_file_location(f"bench_{path.parent.name}_{path.stem}".replace("-", "_"), path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    spec.loader.exec_module(module)
    return module


def run_script(name: str, path: Path, ctx: Context) -> list[Figure]:
    """A benchmark without figures(): run as a script; its own output goes to the log and the
    row says it ran (its figures are not in the table until it exposes figures())."""
    argv = [sys.executable, str(path), "--build-dir", str(ctx.build_dir)] + (["--quick"] if ctx.quick else [])
    done = subprocess.run(argv, capture_output=True, text=True, cwd=SOURCE)
    print(done.stdout + done.stderr, flush=True)
    if done.returncode != 0:
        return [failed(name, path.name, f"exited {done.returncode}: {(done.stderr or done.stdout)[-300:]}")]
    return [Figure(name, f"{path.relative_to(SOURCE)} (its own output above)", "", None, status="ran",
                   notes=["this benchmark has no figures() yet: its figures are in the log, not the table"])]


def run_bench(name: str, spec: str, ctx: Context) -> list[Figure]:
    path = find(spec)
    if path is None:
        return [pending(name, "-", f"no benchmark yet (bench/{spec.split('|')[0]})")]
    try:
        module = load(path)
        if not hasattr(module, "figures"):
            return run_script(name, path, ctx)
        return module.figures(ctx)
    except Exception as error:  # one broken benchmark must not hide the others' figures
        traceback.print_exc()
        return [failed(name, path.name, f"{type(error).__name__}: {error}"[:400])]


def tools() -> list[str]:
    return sorted(d.name for d in (SOURCE / "tools").iterdir() if (d / "CMakeLists.txt").is_file() and d.name != "core")


def targets_of(selected) -> list[str]:
    wanted = {t for _, _, needs in selected for t in needs}
    if ALL_TOOLS in wanted:
        wanted = (wanted - {ALL_TOOLS}) | set(tools())
    return sorted(wanted)


def build(build_dir: Path, targets: list[str], jobs: int | None) -> bool:
    print(f"==> building the bench preset (Release) in {build_dir}: {' '.join(targets)}", flush=True)
    steps = [["cmake", "--preset", "bench", "-B", str(build_dir)],
             ["cmake", "--build", str(build_dir), "--target", *targets] + (["-j", str(jobs)] if jobs else [])]
    for step in steps:
        if subprocess.run(step, cwd=SOURCE, stdout=subprocess.DEVNULL if step[1] == "--preset" else None).returncode != 0:
            print(f"bench.py: {' '.join(step)} failed", file=sys.stderr)
            return False
    return True


def meta(ctx: Context, mode: str) -> dict:
    commit = subprocess.run(["git", "-C", str(SOURCE), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    version = ""
    try:
        version = subprocess.run([str(ctx.tool("path-classifier")), "--version"], capture_output=True,
                                 text=True).stdout.strip()
    except FileNotFoundError:
        pass
    return {"gatekit": version, "commit": commit, "mode": mode, "runs": ctx.runs,
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "cpus": os.cpu_count(), "load_average": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
            "build_dir": str(ctx.build_dir)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes and few runs; no target asserted")
    parser.add_argument("--build-dir", help="the build to time (default build/bench)")
    parser.add_argument("--no-build", action="store_true", help="use --build-dir as it is")
    parser.add_argument("--jobs", type=int, help="parallel build jobs (default: the build tool's)")
    parser.add_argument("--runs", type=int, help="runs per measurement (default 7; 3 with --quick)")
    parser.add_argument("--only", action="append", default=[], help="run the benchmarks whose name contains this")
    parser.add_argument("--except", dest="skip", action="append", default=[],
                        help="leave out the benchmarks whose name contains this")
    parser.add_argument("--json", help="where the JSON goes (default BUILD/bench-results.json)")
    parser.add_argument("--summary", help="also write the Markdown table here (default $GITHUB_STEP_SUMMARY)")
    args = parser.parse_args()
    build_dir = Path(args.build_dir or "build/bench")
    build_dir = (build_dir if build_dir.is_absolute() else SOURCE / build_dir).resolve()
    runs = args.runs or (3 if args.quick else 7)
    if runs < 1:
        parser.error("--runs must be at least 1")
    selected = [b for b in BENCHES if (not args.only or any(o.lower() in b[0].lower() for o in args.only))
                and not any(x.lower() in b[0].lower() for x in args.skip)]
    if not selected:
        parser.error(f"--only/--except leave no benchmark; the benchmarks: {', '.join(b[0] for b in BENCHES)}")
    if not args.no_build and not build(build_dir, targets_of(selected), args.jobs):
        return 3

    figures: list[Figure] = []
    with tempfile.TemporaryDirectory(prefix="gatekit-bench-") as tmp:
        for i, (name, spec, _) in enumerate(selected, 1):
            print(f"==> [{i}/{len(selected)}] {name}", flush=True)
            bench_tmp = Path(tmp) / f"b{i}"
            bench_tmp.mkdir()
            ctx = Context(SOURCE, build_dir, runs, args.quick, bench_tmp)
            figures += run_bench(name, spec, ctx)
        info = meta(Context(SOURCE, build_dir, runs, args.quick, Path(tmp)), "quick" if args.quick else "full")

    mode = "quick mode: small sizes, targets not judged" if args.quick else f"median of {runs} runs"
    title = f"gatekit benchmarks ({mode}; {info['cpus']} CPUs, load {info['load_average'] or 0:.1f})"
    print(f"\n{title}\n\n{text_table(figures, args.quick)}")
    json_path = Path(args.json) if args.json else build_dir / "bench-results.json"
    write_json(json_path, figures, info)
    print(f"\nJSON: {json_path}")
    summary = args.summary or os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        with open(summary, "a") as out:
            out.write(f"## {title}\n\n{markdown_table(figures, args.quick)}\n")
    if any(f.status == "error" for f in figures):
        return 3
    if not args.quick and any(f.met is False for f in figures):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
