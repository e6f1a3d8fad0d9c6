#!/usr/bin/env python3
"""smoke-runner benchmark (not a test: it prints figures, it asserts nothing).

1. Packing: 16 sleep smokes needing 1, 2 or 4 GPUs on 8 fake GPUs (--gpus 8). Prints the
   makespan against the lower bound max(longest smoke, sum(gpus x time) / 8) and the
   speed-up over running them one after another (the sum of the durations). Run twice:
   without history (estimates = timeouts) and with --durations-from the first run's report.
2. Overhead: N `true` smokes through the runner (one GPU, so one after another) against N
   direct spawns of `true` from this script, in the same run; startup cost is removed by
   also timing a 1-smoke run.

Usage: bench/smoke-runner/bench.py [--tool build/bench/tools/smoke-runner/smoke-runner]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# (min_gpus, seconds): 2 x 4-GPU, 5 x 2-GPU, 9 x 1-GPU
SMOKES = [(4, 2.0), (4, 1.5),
          (2, 2.0), (2, 1.5), (2, 1.5), (2, 1.0), (2, 1.0),
          (1, 2.0), (1, 2.0), (1, 1.5), (1, 1.5), (1, 1.0), (1, 1.0), (1, 1.0), (1, 0.5), (1, 0.5)]
GPUS = 8


def write_packing_manifest(path: Path) -> None:
    lines = ["defaults: {timeout: 60}", "smokes:"]
    for i, (g, t) in enumerate(SMOKES):
        lines.append(f"  - {{name: s{i:02d}_g{g}_{t}s, command: [sleep, '{t}'], min_gpus: {g}, pr: true}}")
    path.write_text("\n".join(lines) + "\n")


def run_tool(tool, args, env=None):
    start = time.perf_counter()
    done = subprocess.run([tool, *args], capture_output=True, text=True, env=env)
    return time.perf_counter() - start, done


def packing(tool: str, tmp: Path) -> None:
    manifest = tmp / "packing.yaml"
    write_packing_manifest(manifest)
    area = sum(g * t for g, t in SMOKES)
    lower = max(max(t for _, t in SMOKES), area / GPUS)
    serial = sum(t for _, t in SMOKES)
    print(f"packing: {len(SMOKES)} smokes on {GPUS} GPUs; lower bound {lower:.3f}s, one after another {serial:.1f}s")
    previous = None
    for label in ("no history", "--durations-from"):
        reports = tmp / f"reports-{len(label)}"
        args = ["--manifest", str(manifest), "--gpus", str(GPUS), "--tier", "full", "--report-dir", str(reports)]
        if previous:
            args += ["--durations-from", str(previous)]
        wall, done = run_tool(tool, args)
        if done.returncode != 0:
            print(done.stdout, done.stderr)
            sys.exit(f"smoke-runner exited {done.returncode}")
        report = json.loads((reports / "smoke-results.json").read_text())
        # Makespan from the smokes' own timeline (first start to last end).
        starts = [s["start_ms"] for s in report["smokes"]]
        ends = [s["start_ms"] + s["duration_ms"] for s in report["smokes"]]
        makespan = (max(ends) - min(starts)) / 1000
        print(f"  {label:17s} makespan {makespan:.3f}s = {makespan / lower:.3f} x lower bound "
              f"({(makespan / lower - 1) * 100:+.1f}%), speed-up over one after another {serial / makespan:.2f}x, "
              f"tool wall time {wall:.3f}s")
        previous = reports / "smoke-results.json"


def overhead(tool: str, tmp: Path, n: int) -> None:
    def manifest(count: int) -> Path:
        path = tmp / f"true-{count}.yaml"
        body = "".join(f"  - {{name: t{i}, command: [true], pr: true}}\n" for i in range(count))
        path.write_text("smokes:\n" + body)
        return path

    args = lambda m: ["--manifest", str(m), "--gpus", "1", "--tier", "pr", "--report-dir", str(tmp / "o")]
    best_n = min(run_tool(tool, args(manifest(n)))[0] for _ in range(3))
    best_1 = min(run_tool(tool, args(manifest(1)))[0] for _ in range(3))
    start = time.perf_counter()
    for _ in range(n):
        subprocess.run(["true"])
    direct = time.perf_counter() - start
    per_smoke = (best_n - best_1) / (n - 1)
    per_spawn = direct / n
    print(f"overhead: {n} `true` smokes in {best_n:.3f}s (1 smoke: {best_1:.3f}s); {n} direct spawns {direct:.3f}s")
    print(f"  per smoke {per_smoke * 1000:.2f} ms vs per direct spawn {per_spawn * 1000:.2f} ms: "
          f"runner overhead {(per_smoke - per_spawn) * 1000:.2f} ms per smoke (target < 5 ms)")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", default=os.environ.get("SMOKE_RUNNER", "build/bench/tools/smoke-runner/smoke-runner"))
    parser.add_argument("--overhead-smokes", type=int, default=100)
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="smoke-bench-") as name:
        tmp = Path(name)
        packing(opts.tool, tmp)
        overhead(opts.tool, tmp, opts.overhead_smokes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
