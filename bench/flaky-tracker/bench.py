#!/usr/bin/env python3
"""flaky-tracker benchmark: reading a JUnit report (figures only; it asserts nothing).

The report of a passing run of 1,000,000 test cases (~150 MB, pytest-shaped: classname,
name, file, line, time, and a short <system-out> on every tenth case) is what `rerun` reads
on most legs. Measured side by side on the same file:

- gatekit: `flaky-tracker rerun --report R.xml`, start to exit (the core's streaming reader
  on expat; nothing to rerun); targets: at most 1.5 s and 64 MB peak memory;
- the anchors: a Python script doing the same work (every case, counting failures) with
  ElementTree's iterparse (the standard library) and, when installed, lxml's; target:
  ElementTree / gatekit >= 3;
- the same as CPU time (user + system), which a busy machine does not inflate;
- peak memory at 10,000, 100,000 and 1,000,000 cases: it must not grow with the report
  (target: 1M / 10k <= 1.5).

Peak memory is the tool's maximum resident set (`measured` in bench/common.py: GNU time's).
  python3 bench/flaky-tracker/bench.py --build-dir build/bench [--quick]
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import Context, Figure, at_most, main_for, measured, versus, ITERPARSE_ANCHOR as ANCHOR  # noqa: E402

BENCH = "JUnit, 1M cases (flaky-tracker)"

def write_report(path: Path, cases: int) -> int:
    """A pytest-shaped passing report of `cases` test cases; returns its size in bytes."""
    with path.open("w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="utf-8"?>\n<testsuites name="pytest tests">'
                  f'<testsuite name="pytest" errors="0" failures="0" skipped="0" tests="{cases}" time="1.0">\n')
        for i in range(cases):
            module = f"tests/unit/pkg{i % 97:02d}/test_module_{i // 1000:04d}.py"
            classname = module[:-3].replace("/", ".")
            name = f"test_case_number_{i % 1000:03d}[param-{i % 7}]"
            if i % 10 == 0:
                out.write(f'<testcase classname="{classname}" name="{name}" file="{module}" line="{i % 500}" '
                          f'time="0.00{i % 10}"><system-out>captured line {i}</system-out></testcase>\n')
            else:
                out.write(f'<testcase classname="{classname}" name="{name}" file="{module}" line="{i % 500}" '
                          f'time="0.00{i % 10}" />\n')
        out.write("</testsuite></testsuites>\n")
    return path.stat().st_size


def has_lxml() -> bool:
    return subprocess.run([sys.executable, "-c", "import lxml.etree"], capture_output=True).returncode == 0


def figures(ctx: Context) -> list[Figure]:
    tool = ctx.tool("flaky-tracker")
    sizes = [1_000, 10_000, 100_000] if ctx.quick else [10_000, 100_000, 1_000_000]
    runs = 1 if ctx.quick else max(3, min(ctx.runs, 5))
    out: list[Figure] = []
    memory: dict[int, Sample] = {}
    for cases in sizes:
        report = ctx.tmp / f"report-{cases}.xml"
        size = write_report(report, cases)
        print(f"  {cases:,} cases, {size / 1e6:.0f} MB: flaky-tracker rerun", flush=True)
        ours_ms, ours_cpu, ours_rss = measured([tool, "rerun", "--report", report], runs)
        memory[cases] = ours_rss
        if cases != sizes[-1]:
            continue
        label = f"{cases:,} cases ({size / 1e6:.0f} MB)"
        print(f"  {label}: ElementTree iterparse", flush=True)
        etree_ms, etree_cpu, etree_rss = measured([sys.executable, "-c", ANCHOR, "etree", report], runs)
        out.append(at_most(BENCH, f"read {label}: time", ours_ms, 1500, "ms", etree_ms, "ElementTree iterparse"))
        out.append(at_most(BENCH, f"read {label}: CPU time", ours_cpu, 1500, "ms", etree_cpu, "ElementTree iterparse"))
        out.append(at_most(BENCH, f"read {label}: peak memory", ours_rss, 64, "MB", etree_rss, "ElementTree iterparse"))
        out.append(versus(BENCH, f"read {label}: vs ElementTree iterparse", ours_ms, etree_ms,
                          "ElementTree iterparse", 3))
        if has_lxml():
            print(f"  {label}: lxml iterparse", flush=True)
            lxml_ms, _, _ = measured([sys.executable, "-c", ANCHOR, "lxml", report], runs)
            out.append(versus(BENCH, f"read {label}: vs lxml iterparse", ours_ms, lxml_ms, "lxml iterparse", None))
        else:
            out.append(Figure(BENCH, f"read {label}: vs lxml iterparse", "ms", ours_ms.median, status="skipped",
                              notes=["lxml is not installed"]))
    for cases, rss in memory.items():
        out.append(Figure(BENCH, f"peak memory at {cases:,} cases", "MB", rss.median, runs=len(rss.values)))
    growth = memory[sizes[-1]].median / memory[sizes[0]].median
    out.append(Figure(BENCH, f"memory growth {sizes[0]:,} -> {sizes[-1]:,} cases", "x", growth,
                      target="ratio <= 1.5", met=growth <= 1.5, ratio=growth, runs=runs))
    return out


if __name__ == "__main__":
    sys.exit(main_for(figures))
