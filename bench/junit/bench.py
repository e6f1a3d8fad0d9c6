#!/usr/bin/env python3
"""JUnit at the parser's floor (figures only; it asserts nothing).

Three report shapes (shapes.py: lean, pytest with properties and long output, failures), at
1,000,000 cases each (--quick: 20,000), each read side by side on the same file by:

- gatekit's reader: junit-read (bench/junit/read.cpp, the bench preset), the core's
  junit::read_file with a handler taking each case's identity and outcome, start to exit;
- raw expat: junit-raw-expat (bench/junit/raw_expat.cpp), expat with no handlers on the
  same 64 KiB pieces: the floor of any reader built on expat;
- ElementTree's iterparse and lxml's (when installed): a Python script counting cases and
  failures, as a consumer without gatekit would.

Targets per shape: gatekit's CPU time within 1.3x of raw expat's (CPU time: user +
system, which a busy machine inflates less than wall time; the two are run in turn, so that a
load that comes and goes weighs on both) and at most 64 MB peak memory.
Instruction counts under callgrind, which do not depend on load, are in docs/benchmarks.md.

  python3 bench/junit/bench.py --build-dir build/bench [--quick]
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import Context, Figure, at_most, failed, main_for, measured, measured_pair, versus, ITERPARSE_ANCHOR as ANCHOR  # noqa: E402
import shapes  # noqa: E402

BENCH = "JUnit shapes"
FLOOR = 1.3

def helper(ctx: Context, name: str) -> Path:
    path = ctx.build_dir / "bench" / name
    if not path.is_file():
        raise FileNotFoundError(f"{path} is not built (the bench preset: cmake --build {ctx.build_dir} --target {name})")
    return path


def has_lxml() -> bool:
    return subprocess.run([sys.executable, "-c", "import lxml.etree"], capture_output=True).returncode == 0


def figures(ctx: Context) -> list[Figure]:
    read, raw = helper(ctx, "junit-read"), helper(ctx, "junit-raw-expat")
    cases = 20_000 if ctx.quick else 1_000_000
    runs = 1 if ctx.quick else max(3, min(ctx.runs, 5))
    out: list[Figure] = []
    for shape in shapes.SHAPES:
        report = ctx.tmp / f"{shape}.xml"
        size, failures = shapes.write(report, shape, cases)
        label = f"{shape}, {cases:,} cases ({size / 1e6:.0f} MB)"
        print(f"  {label}", flush=True)
        answer = subprocess.run([str(read), str(report)], capture_output=True, text=True)
        if answer.returncode != 0 or not answer.stdout.startswith(f"{cases} cases, {failures} failed"):
            out.append(failed(BENCH, label, f"junit-read: {(answer.stdout + answer.stderr)[-300:]}"))
            continue
        (ours_ms, ours_cpu, ours_rss), (raw_ms, raw_cpu, _) = measured_pair([read, report], [raw, report], runs)
        over = ours_cpu.median / raw_cpu.median if raw_cpu.median > 0 else None
        fig = Figure(BENCH, f"{label}: gatekit / raw expat, CPU time", "x", over, anchor=None,
                     anchor_name=f"raw expat {raw_cpu.median:.0f} ms, gatekit {ours_cpu.median:.0f} ms",
                     target=f"<= {FLOOR:g}", met=None if over is None else over <= FLOOR, ratio=over, runs=runs,
                     notes=[f"wall time: gatekit {ours_ms.median:.0f} ms, raw expat {raw_ms.median:.0f} ms"])
        out.append(fig)
        out.append(at_most(BENCH, f"{label}: peak memory", ours_rss, 64, "MB"))
        etree_ms, _, etree_rss = measured([sys.executable, "-c", ANCHOR, "etree", report], runs)
        out.append(versus(BENCH, f"{label}: vs ElementTree iterparse", ours_ms, etree_ms, "ElementTree iterparse", None))
        if has_lxml():
            lxml_ms, _, _ = measured([sys.executable, "-c", ANCHOR, "lxml", report], runs)
            out.append(versus(BENCH, f"{label}: vs lxml iterparse", ours_ms, lxml_ms, "lxml iterparse", None))
        report.unlink()
    return out


if __name__ == "__main__":
    sys.exit(main_for(figures))
