#!/usr/bin/env python3
"""flaky-tracker benchmark: the merged report and stress, time and peak memory (figures only;
it asserts nothing).

- `rerun --report R.xml --output M.xml` on the passing report of 1,000,000 cases that
  bench.py reads (~150 MB): the merged report is the run's, copied through the core's
  streaming pass-through writer (junit::rewrite) into M.xml.tmp, then renamed. Its anchor is
  the same run without --output (the read alone), measured in turn with it, in this run.
  Targets: peak memory <= 1.5x the anchor's (issue #43.4: it was 1.6 GB against 12 MB, the
  report loaded and written again from its cases), wall time <= 3x the anchor's (it was 10 s
  against 1 s: writing 150 MB costs a second read and the write, no more).
- `stress` of a suite of 100,000 tests whose every copy's report is written by `cp`: peak
  memory of 1 copy, of 2 copies and of 16 copies, 2 at a time (each copy's cases are folded as
  it ends, one report read at a time, so memory holds one case per test, not copies x tests;
  issue #43.5: 27 MB a copy, 535 MB at 16). Target: 16 copies / 2 copies <= 1.5 (2 against 1
  is shown: each thread reading a report allocates in its own malloc arena).

Peak memory is the tool's maximum resident set (`measured` in bench/common.py: GNU time's).
  python3 bench/flaky-tracker/merge.py --build-dir build/bench [--quick]
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import Context, Figure, main_for, measured, measured_pair  # noqa: E402

BENCH = "flaky-tracker rerun --output and stress: time and memory"


def report_writer():
    """bench.py's write_report: the same pytest-shaped passing report."""
    spec = importlib.util.spec_from_file_location("flaky_tracker_read_bench", Path(__file__).with_name("bench.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.write_report


def ratio_figure(figure: str, ours: float, anchor: float, anchor_name: str, unit: str, limit: float, runs: int) -> Figure:
    """gatekit's figure over its anchor's (above 1: gatekit needs more), against `limit`."""
    ratio = ours / anchor if anchor > 0 else None
    return Figure(BENCH, figure, unit, ours, anchor, anchor_name, target=f"ours / anchor <= {limit:g}",
                  met=None if ratio is None else ratio <= limit, ratio=ratio, runs=runs)


def merge_figures(ctx: Context, tool: Path, write_report, runs: int) -> list[Figure]:
    cases = 10_000 if ctx.quick else 1_000_000
    report = ctx.tmp / f"merge-{cases}.xml"
    size = write_report(report, cases)
    merged = ctx.tmp / "merged.xml"
    label = f"{cases:,} passing cases ({size / 1e6:.0f} MB)"
    print(f"  {label}: rerun --output, and the same run without --output", flush=True)
    (ours_ms, ours_cpu, ours_rss), (anchor_ms, anchor_cpu, anchor_rss) = measured_pair(
        [tool, "rerun", "--report", report, "--output", merged], [tool, "rerun", "--report", report], runs)
    if merged.read_bytes() != report.read_bytes():
        raise RuntimeError("rerun --output did not copy a passing report byte for byte")
    anchor_name = "rerun without --output"
    out = [
        ratio_figure(f"rerun --output, {label}: peak memory", ours_rss.median, anchor_rss.median, anchor_name, "MB",
                     1.5, runs),
        ratio_figure(f"rerun --output, {label}: time", ours_ms.median, anchor_ms.median, anchor_name, "ms", 3, runs),
        ratio_figure(f"rerun --output, {label}: CPU time", ours_cpu.median, anchor_cpu.median, anchor_name, "ms", 3,
                     runs),
    ]
    for fig, ours, anchor in zip(out, (ours_rss, ours_ms, ours_cpu), (anchor_rss, anchor_ms, anchor_cpu)):
        if ours.wide():
            fig.notes.append(f"gatekit's runs spread wide ({ours.span(fig.unit)})")
        if anchor.wide():
            fig.notes.append(f"the anchor's runs spread wide ({anchor.span(fig.unit)})")
    return out


def stress_figures(ctx: Context, tool: Path, write_report, runs: int) -> list[Figure]:
    tests = 10_000 if ctx.quick else 100_000
    copies = 4 if ctx.quick else 16
    report = ctx.tmp / f"stress-copy-{tests}.xml"
    write_report(report, tests)
    out_dir = ctx.tmp / "stress"
    out_dir.mkdir(exist_ok=True)

    def stress(times: int) -> list:
        return [tool, "stress", "--times", times, "--parallel", 2, "--output", out_dir / f"merged-{times}.xml",
                "--", "cp", report, "{junit}"]

    print(f"  stress of {tests:,} tests: 1 copy; 2 and {copies} copies, 2 at a time", flush=True)
    _, _, one_rss = measured([*stress(1)], runs)
    (two_ms, _, two_rss), (many_ms, _, many_rss) = measured_pair(stress(2), stress(copies), runs)
    return [
        Figure(BENCH, f"stress, {tests:,} tests: peak memory of 1 copy", "MB", one_rss.median, runs=runs),
        Figure(BENCH, f"stress, {tests:,} tests: peak memory of 2 copies, 2 at a time", "MB", two_rss.median,
               one_rss.median, "1 copy", runs=runs,
               notes=["each thread that reads a copy's report allocates in its own malloc arena (glibc): the "
                      "resident set of copies run side by side holds one copy's worth per thread"]),
        ratio_figure(f"stress, {tests:,} tests: peak memory of {copies} copies, 2 at a time", many_rss.median,
                     two_rss.median, "2 copies", "MB", 1.5, runs),
        Figure(BENCH, f"stress, {tests:,} tests: time of {copies} copies, 2 at a time", "ms", many_ms.median,
               two_ms.median, "2 copies", runs=runs),
    ]


def figures(ctx: Context) -> list[Figure]:
    tool = ctx.tool("flaky-tracker")
    runs = 1 if ctx.quick else max(3, min(ctx.runs, 5))
    write_report = report_writer()
    return merge_figures(ctx, tool, write_report, runs) + stress_figures(ctx, tool, write_report, runs)


if __name__ == "__main__":
    sys.exit(main_for(figures))
