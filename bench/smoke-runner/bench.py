#!/usr/bin/env python3
"""smoke-runner benchmark (figures only; it asserts nothing).

1. Packing: 16 sleep smokes needing 1, 2 or 4 GPUs on 8 fake GPUs (--gpus 8), with the
   durations of a first run as history (--durations-from). Against the anchor, the same
   smokes run by a sequential loop (one after another, as a shell script would), measured in
   the same run: the speed-up, and the makespan against the lower bound
   max(longest smoke, sum(gpus x time) / 8) (target: within 10%).
2. Overhead: N `true` smokes through the runner (one GPU, so one after another) against N
   direct spawns of `true` from this script; the runner's start-up is removed by also timing
   a 1-smoke run (target: under 5 ms per smoke).

Run with every other benchmark by scripts/bench.py (docs/benchmarks.md); alone:
  python3 bench/smoke-runner/bench.py --build-dir build/bench [--quick]
"""
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import Context, Figure, Sample, at_most, clean_env, measure, run_ms  # noqa: E402

BENCH = "smokes"
# (min_gpus, seconds at full scale): 2 x 4-GPU, 5 x 2-GPU, 9 x 1-GPU
SMOKES = [(4, 2.0), (4, 1.5),
          (2, 2.0), (2, 1.5), (2, 1.5), (2, 1.0), (2, 1.0),
          (1, 2.0), (1, 2.0), (1, 1.5), (1, 1.5), (1, 1.0), (1, 1.0), (1, 1.0), (1, 0.5), (1, 0.5)]
GPUS = 8


def write_manifest(path: Path, scale: float) -> None:
    lines = ["defaults: {timeout: 60}", "smokes:"]
    for i, (g, t) in enumerate(SMOKES):
        lines.append(f"  - {{name: s{i:02d}_g{g}, command: [sleep, '{t * scale:g}'], min_gpus: {g}, pr: true}}")
    path.write_text("\n".join(lines) + "\n")


def makespan_s(report: Path) -> float:
    smokes = json.loads(report.read_text())["smokes"]
    starts = [s["start_ms"] for s in smokes]
    ends = [s["start_ms"] + s["duration_ms"] for s in smokes]
    return (max(ends) - min(starts)) / 1000


def packing(ctx: Context) -> list[Figure]:
    scale = 0.1 if ctx.quick else 0.5
    tool = ctx.tool("smoke-runner")
    manifest = ctx.tmp / "packing.yaml"
    write_manifest(manifest, scale)
    env = clean_env()
    area = sum(g * t * scale for g, t in SMOKES)
    lower = max(max(t * scale for _, t in SMOKES), area / GPUS)
    base = ["--manifest", manifest, "--gpus", GPUS, "--tier", "full"]
    history = ctx.tmp / "history"
    print(f"  packing {len(SMOKES)} smokes on {GPUS} GPUs (durations x{scale:g}; lower bound {lower:.2f} s)", flush=True)
    run_ms([tool, *base, "--report-dir", history], env=env)
    spans = []

    def ours() -> float:
        reports = ctx.tmp / "reports"
        took = run_ms([tool, *base, "--report-dir", reports, "--durations-from", history / "smoke-results.json"], env=env)
        spans.append(makespan_s(reports / "smoke-results.json"))
        return took / 1000

    def loop() -> float:
        start = time.perf_counter()
        for _, t in SMOKES:
            subprocess.run(["sleep", f"{t * scale:g}"], check=True)
        return time.perf_counter() - start

    runs = max(3, ctx.runs // 2)
    ours_sample = measure(ours, runs)
    loop_sample = measure(loop, 1)  # sleeps: the loop's time hardly varies
    span = Sample(spans)
    speedup = loop_sample.median / ours_sample.median
    rows = [Figure(BENCH, f"{len(SMOKES)} smokes on {GPUS} GPUs: wall time vs a sequential loop", "s",
                   ours_sample.median, loop_sample.median, "sequential loop", target="", ratio=speedup, runs=runs,
                   notes=[f"ideal speed-up {loop_sample.median / lower:.1f}x (the lower bound)"]),
            Figure(BENCH, "makespan over the lower bound", "%", (span.median / lower - 1) * 100,
                   target="<= +10.0%", met=span.median <= lower * 1.10, runs=runs)]
    return rows


def overhead(ctx: Context) -> list[Figure]:
    n = 20 if ctx.quick else 100
    tool = ctx.tool("smoke-runner")
    env = clean_env()
    print(f"  overhead: {n} `true` smokes against {n} direct spawns", flush=True)

    def manifest(count: int) -> Path:
        path = ctx.tmp / f"true-{count}.yaml"
        path.write_text("smokes:\n" + "".join(f"  - {{name: t{i}, command: [true], pr: true}}\n" for i in range(count)))
        return path

    def args(m: Path) -> list:
        return [tool, "--manifest", m, "--gpus", "1", "--tier", "pr", "--report-dir", ctx.tmp / "o"]

    many, one = manifest(n), manifest(1)
    per_smoke = measure(lambda: (run_ms(args(many), env=env) - run_ms(args(one), env=env)) / (n - 1), ctx.runs)

    def direct() -> float:
        start = time.perf_counter()
        for _ in range(n):
            subprocess.run(["true"])
        return (time.perf_counter() - start) * 1000 / n

    spawn = measure(direct, ctx.runs)
    fig = at_most(BENCH, "runner overhead per smoke (above a direct spawn)",
                  Sample([max(p - spawn.median, 0.0) for p in per_smoke.values]), 5.0, anchor=spawn,
                  anchor_name="direct spawn")
    fig.ratio = None  # the anchor is the cost the overhead is measured above, not a rival
    return [fig]


def figures(ctx: Context) -> list[Figure]:
    return packing(ctx) + overhead(ctx)


if __name__ == "__main__":
    from common import main_for
    raise SystemExit(main_for(figures))
