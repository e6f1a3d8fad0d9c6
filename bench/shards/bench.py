#!/usr/bin/env python3
"""GPU shards benchmark: splitting the GPU work over N runners (docs/guides/gpu-fleet.md).

1. Tests: a 20,000-test suite with heavy-tailed durations (a dozen tests of minutes, a few
   hundred of seconds, the rest of milliseconds), recorded as a JUnit baseline. For N = 2, 4,
   8, 16, `suite-report shard` splits it (its collection is a stand-in interpreter that prints
   the 20,000 node ids, so pytest's own time is not in the figure); the makespan (the slowest
   shard, by the recorded durations) against the lower bound max(longest test, total / N)
   (target: within 1.05x), and against pytest-split's `least_duration` (from PyPI) on the same
   data in the same run (target: no worse). The tool's own work on the split (collection
   output parsed, baseline read, split, proof, lists written): under 100 ms, as CPU time
   (user + system) of the whole process less that of the process start (`suite-report
   --version`) and of the collection stand-in, so that a busy machine does not inflate it;
   beside it, the same work's wall time as the tool logs it ("suite-report's own work took"),
   which on a loaded machine counts the waits for a CPU (shown, with the load).
2. Smokes: 200 smokes needing 1, 2, 4 or 8 GPUs, split over 4 runners of 8 GPUs: each of
   four `smoke-runner --shard K/4 --gpus 8` runs plans its share with the recorded durations
   as history (--durations-from) and logs the planned makespan ("expected ..."); the smokes
   themselves are `true`, so nothing runs for minutes. The slowest runner's plan against
   max(longest smoke, sum(gpus x time) / 32) (target: within 1.05x).

Run with every other benchmark by scripts/bench.py (docs/benchmarks.md); alone:
  python3 bench/shards/bench.py --build-dir build/bench [--quick]
"""
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import Context, Figure, Sample, at_most, clean_env, measure, measured  # noqa: E402

BENCH = "GPU shards"
SHARDS = (2, 4, 8, 16)


class Item:
    """What pytest-split's algorithms read of a pytest item."""
    def __init__(self, nodeid: str):
        self.nodeid = nodeid


def suite(count: int) -> dict:
    rng = random.Random(24)
    durations = {}
    for i in range(count):
        node = f"tests/test_m{i // 100:03d}.py::test_{i % 100:02d}"
        if i % 1700 == 0:
            durations[node] = rng.uniform(60, 300)        # minutes
        elif i % 90 == 0:
            durations[node] = rng.uniform(1, 20)          # seconds
        else:
            durations[node] = rng.lognormvariate(-4, 1)   # milliseconds (median ~18 ms)
    # As a JUnit report records them (pytest writes milliseconds): both splits see these.
    return {node: round(seconds, 3) for node, seconds in durations.items()}


def write_inputs(ctx: Context, durations: dict) -> tuple:
    ids = ctx.tmp / "collected.txt"
    ids.write_text("\n".join(durations) + f"\n\n{len(durations)} tests collected\n")
    fake_python = ctx.tmp / "python"
    fake_python.write_text(f"#!/bin/sh\nexec cat '{ids}'\n")
    fake_python.chmod(0o755)
    cases = "".join(f'<testcase classname="{n.split("::")[0][:-3].replace("/", ".")}" name="{n.split("::")[1]}" '
                    f'time="{t:.3f}"/>\n' for n, t in durations.items())
    baseline = ctx.tmp / "baseline.xml"
    baseline.write_text(f'<?xml version="1.0"?>\n<testsuites><testsuite name="pytest" tests="{len(durations)}">\n'
                        f"{cases}</testsuite></testsuites>\n")
    selection = ctx.tmp / "suite.yml"
    selection.write_text("version: 1\nlegs:\n  cpu: {markers: not gpu}\n  gpu: {device: gpu, markers: gpu}\n")
    return fake_python, baseline, selection


def split_tests(ctx: Context) -> list:
    from pytest_split.algorithms import Algorithms
    count = 2000 if ctx.quick else 20000
    durations = suite(count)
    python, baseline, selection = write_inputs(ctx, durations)
    tool = ctx.tool("suite-report")
    total, longest = sum(durations.values()), max(durations.values())
    rows, own, cpu = [], [], []
    runs = max(3, ctx.runs // 2)
    # The CPU time that is not the split's: the process start, and the collection stand-in.
    start_cpu = measured([tool, "--version"], runs, peak=False)[1].median
    standin_cpu = measured([python], runs, peak=False)[1].median
    print(f"  {count} tests, {total / 60:.0f} min of test time, longest {longest:.0f} s", flush=True)
    for n in SHARDS:
        out = ctx.tmp / f"lists-{n}"
        out.mkdir(exist_ok=True)
        argv = [tool, "shard", "--selection", selection, "--leg", "gpu", "--context", "pr", "--shards", n,
                "--out", out, "--baseline", baseline, "--python", python]

        def once() -> float:
            done = subprocess.run([str(a) for a in argv], env=clean_env(), capture_output=True, text=True)
            assert done.returncode == 0, done.stdout + done.stderr
            return float(re.search(r"suite-report's own work took (\d+) ms", done.stdout).group(1))

        own.extend(measure(once, runs).values)
        cpu.extend(v - start_cpu - standin_cpu for v in measured(argv, runs, peak=False)[1].values)
        spans = []
        for k in range(1, n + 1):
            spans.append(sum(durations[line] for line in (out / f"shard-{k}.txt").read_text().splitlines()))
        ours = max(spans)
        groups = Algorithms["least_duration"].value(n, [Item(i) for i in durations], durations)
        theirs = max(g.duration for g in groups)
        lower = max(longest, total / n)
        rows.append(Figure(BENCH, f"{count} tests on {n} shards: makespan / lower bound", "x", ours / lower,
                           theirs / lower, "pytest-split least_duration", target="<= 1.05 and <= anchor",
                           met=ours <= lower * 1.05 and ours <= theirs + 1e-9, runs=1,
                           notes=[f"N={n}: ours {ours:.1f} s, pytest-split {theirs:.1f} s, bound {lower:.1f} s"]))
    rows.append(at_most(BENCH, f"suite-report shard's own work on {count} tests: CPU time", Sample(cpu), 100.0))
    load = os.getloadavg()[0]
    rows.append(Figure(BENCH, f"suite-report shard's own work on {count} tests: wall time, as logged", "ms",
                       Sample(own).median, runs=len(own),
                       notes=[f"wall time at a load average of {load:.1f} on {os.cpu_count()} CPUs: the waits for a "
                              f"CPU count; process start {start_cpu:.1f} ms and the stand-in {standin_cpu:.1f} ms "
                              "of CPU time are left out of the CPU figure"]))
    return rows


def smoke_plan(ctx: Context) -> list:
    count, runners, gpus = (40 if ctx.quick else 200), 4, 8
    rng = random.Random(7)
    smokes = []
    for i in range(count):
        need = rng.choices([1, 2, 4, 8], weights=[60, 25, 10, 5])[0]
        seconds = rng.uniform(30, 120) if i % 25 else rng.uniform(300, 900)
        smokes.append((f"s{i:03d}", need, seconds))
    manifest = ctx.tmp / "smokes.yaml"
    manifest.write_text("defaults: {timeout: 3600}\nsmokes:\n" + "".join(
        f"  - {{name: {n}, command: ['true'], min_gpus: {g}, pr: true}}\n" for n, g, _ in smokes))
    history = ctx.tmp / "smoke-history.json"
    history.write_text(json.dumps({"format": "gatekit-smoke-results", "smokes": [
        {"name": n, "status": "passed", "duration_ms": int(t * 1000)} for n, _, t in smokes]}))
    tool = ctx.tool("smoke-runner")
    spans = []
    for k in range(1, runners + 1):
        done = subprocess.run([str(tool), "--manifest", str(manifest), "--gpus", str(gpus), "--tier", "full",
                               "--shard", f"{k}/{runners}", "--durations-from", str(history),
                               "--report-dir", str(ctx.tmp / f"smoke-{k}")],
                              env=clean_env(), capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        planned = re.search(r"expected ((\d+)h )?((\d+)m )?(\d+)s", done.stdout)
        if planned:
            spans.append(int(planned.group(2) or 0) * 3600 + int(planned.group(4) or 0) * 60 + int(planned.group(5)))
        else:  # one smoke (or none) on this runner: nothing to pack, its time is the smoke's
            ran = re.findall(r"^RUN  (\S+):", done.stdout, re.MULTILINE)
            assert len(ran) <= 1, done.stdout
            spans.append(max((t for n, _, t in smokes if n in ran), default=0.0))
    area = sum(g * t for _, g, t in smokes)
    lower = max(max(t for *_, t in smokes), area / (runners * gpus))
    ours = max(spans)
    return [Figure(BENCH, f"{count} smokes on {runners} runners x {gpus} GPUs: planned makespan / lower bound", "x",
                   ours / lower, target="<= 1.05", met=ours <= lower * 1.05, runs=1,
                   notes=[f"runners {spans} s; bound {lower:.0f} s"])]


def figures(ctx: Context) -> list:
    return split_tests(ctx) + smoke_plan(ctx)


if __name__ == "__main__":
    from common import main_for
    raise SystemExit(main_for(figures))
