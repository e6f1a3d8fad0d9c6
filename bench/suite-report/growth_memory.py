#!/usr/bin/env python3
"""suite-report growth at 1,000,000 cases: time and memory (figures only; it asserts nothing).

Two pytest-shaped reports of 1,000,000 cases each (--quick: 20,000; the second with 1,000
new tests and 500 gone) compared by `suite-report growth`, start to exit, the baseline read
as a JUnit report, and again while writing the next baseline (--write-baseline). Targets:
at most 2 s (wall, and CPU time: user + system, which a loaded machine inflates less) and
64 MB peak memory either way (compact identities, not strings: docs/
benchmarks.md). ElementTree's iterparse doing the same comparison (junit_anchor.py) is
timed and weighed beside it.

  python3 bench/suite-report/growth_memory.py --build-dir build/bench [--quick]
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import Context, Figure, at_most, failed, main_for, measured  # noqa: E402

HERE = Path(__file__).resolve().parent
BENCH = "growth, 1M cases"


def write_report(path: Path, ids) -> None:
    with open(path, "w") as f:
        f.write('<?xml version="1.0" encoding="utf-8"?>\n<testsuites><testsuite name="pytest">\n')
        parts = []
        for module, name in ids:
            parts.append(f'<testcase classname="tests.pkg{module // 100}.test_m{module}" name="{name}" '
                         f'time="0.0{module % 10}1"/>\n')
            if len(parts) >= 5000:
                f.write("".join(parts))
                parts.clear()
        f.write("".join(parts))
        f.write("</testsuite></testsuites>\n")


def figures(ctx: Context) -> list[Figure]:
    tests = 20_000 if ctx.quick else 1_000_000
    runs = 1 if ctx.quick else max(3, min(ctx.runs, 5))
    base_ids = [(i // 200, f"test_case[{i}]") for i in range(tests)]
    new_ids = base_ids[500:] + [(99999, f"test_new[{i}]") for i in range(1000)]
    base, now = ctx.tmp / "base.xml", ctx.tmp / "now.xml"
    write_report(base, base_ids)
    write_report(now, new_ids)
    del base_ids, new_ids
    (ctx.tmp / "growth.yml").write_text("version: 1\nlegs:\n  cpu: {markers: not gpu}\n")
    tool = ctx.tool("suite-report")
    label = f"{tests:,} cases ({now.stat().st_size / 1e6:.0f} MB each)"
    cmd = [tool, "growth", "--selection", ctx.tmp / "growth.yml", "--leg", "cpu", "--context", "pr",
           "--python-version", "3.12", "--report", now, "--baseline", base]
    out: list[Figure] = []
    anchor_cmd = [sys.executable, HERE / "junit_anchor.py", "etree", base, now]
    print(f"  {label}: ElementTree iterparse", flush=True)
    etree_ms, etree_cpu, etree_rss = measured(anchor_cmd, runs)
    for what, extra in (("compare", []), ("compare and write the baseline", ["--write-baseline", ctx.tmp / "next.json"])):
        print(f"  {label}: suite-report growth, {what}", flush=True)
        check = subprocess.run([str(a) for a in cmd + extra], capture_output=True, text=True)
        if check.returncode != 0 or "adds 1000 tests" not in check.stdout:
            out.append(failed(BENCH, f"{what}, {label}", f"growth exited {check.returncode}: "
                                                          f"{(check.stdout + check.stderr)[-400:]}"))
            continue
        ms, cpu, rss = measured(cmd + extra, runs)
        figs = [at_most(BENCH, f"{what}, {label}: time", ms, 2000, "ms", etree_ms, "ElementTree iterparse"),
                # CPU time (user + system), which a busy machine does not inflate as it does the wall time.
                at_most(BENCH, f"{what}, {label}: CPU time", cpu, 2000, "ms", etree_cpu, "ElementTree iterparse"),
                at_most(BENCH, f"{what}, {label}: peak memory", rss, 64, "MB", etree_rss, "ElementTree iterparse")]
        if not ctx.quick and runs != ctx.runs:  # the table's title names the other benchmarks' count
            for fig in figs:
                fig.notes.append(f"median of {runs} runs, not {ctx.runs}: each run reads two reports of "
                                 f"{tests:,} cases, so at most 5 are made")
        out += figs
    return out


if __name__ == "__main__":
    sys.exit(main_for(figures))
