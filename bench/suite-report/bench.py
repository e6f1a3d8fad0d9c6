#!/usr/bin/env python3
"""suite-report benchmark (figures only; it asserts nothing).

1. partition on a 20,000-test suite (200 files of 100 parametrized tests; 10% `gpu`, 5%
   `rocm`, 2% `nightly`): pytest's collections dominate. The tool reports how long its own
   work took (parsing the node ids, the set algebra, the summary): target under 100 ms. One
   plain `pytest --collect-only -q` of the same suite is timed beside it.
2. growth over two 100,000-test JUnit reports (the second with 1,000 new and 500 removed
   tests): the whole run, start to exit, target under 1 s.
3. The same comparison of the two reports by the JUnit anchors (junit_anchor.py): a Python
   script with ElementTree's iterparse, and with lxml's; target: suite-report is no slower
   than either (ratio >= 1), its start-up included.

Run with every other benchmark by scripts/bench.py (docs/benchmarks.md); alone:
  python3 bench/suite-report/bench.py --build-dir build/bench [--quick]
"""
import json
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import Context, Figure, Sample, at_most, clean_env, failed, measure, run_ms, versus  # noqa: E402

HERE = Path(__file__).resolve().parent
BENCH = "suite report"
JUNIT = "JUnit"


def write_suite(root: Path, files: int, per_file: int) -> None:
    (root / "tests").mkdir(parents=True)
    (root / "pyproject.toml").write_text(
        '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n'
        'markers = ["gpu: g", "rocm: r", "nightly: n"]\n')
    (root / "suite.yml").write_text(
        "version: 1\nlegs:\n  cpu: {markers: not gpu and not rocm}\n  gpu: {markers: gpu or rocm, device: gpu}\n")
    for f in range(files):
        marks = "pytestmark = pytest.mark.gpu\n" if f % 10 == 0 else "pytestmark = pytest.mark.rocm\n" if f % 20 == 5 else ""
        nightly = "@pytest.mark.nightly\n" if f % 50 == 7 else ""
        (root / "tests" / f"test_m{f:03d}.py").write_text(
            f"import pytest\n{marks}\n{nightly}@pytest.mark.parametrize('n', range({per_file}))\n"
            "def test_case(n):\n    pass\n")


def partition(ctx: Context) -> list[Figure]:
    files = 20 if ctx.quick else 200
    root = ctx.tmp / "suite"
    write_suite(root, files, 100)
    tool = ctx.tool("suite-report")
    env = clean_env()
    label = f"partition of {files * 100:,} tests: suite-report's own work"
    print(f"  {label}", flush=True)
    runs = 1 if ctx.quick else 3
    collect = measure(lambda: run_ms([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
                                     env=env, cwd=root, ok=(0, 5)), runs)
    own = []
    for _ in range(runs):
        done = subprocess.run([str(tool), "partition", "--selection", "suite.yml", "--python", sys.executable], cwd=root,
                              env=env, capture_output=True, text=True)
        m = re.search(r"suite-report's own work took (-?\d+) ms", done.stdout)
        if done.returncode != 0 or m is None:
            return [failed(BENCH, label, f"partition exited {done.returncode}: {(done.stdout + done.stderr)[-400:]}")]
        own.append(float(m.group(1)))
    fig = at_most(BENCH, label, Sample(own), 100.0, anchor=collect, anchor_name="pytest --collect-only")
    fig.ratio = None  # pytest's collection is the part suite-report waits on, not a rival
    return [fig]


def write_report(path: Path, ids) -> None:
    with open(path, "w") as f:
        f.write('<?xml version="1.0" encoding="utf-8"?>\n<testsuites><testsuite name="pytest">\n')
        for module, name in ids:
            f.write(f'<testcase classname="tests.pkg{module // 1000}.test_m{module}" name="{name}" '
                    f'time="0.0{module % 10}1"/>\n')
        f.write("</testsuite></testsuites>\n")


def growth(ctx: Context) -> list[Figure]:
    tests = 10_000 if ctx.quick else 100_000
    base_ids = [(i // 50, f"test_case[{i}]") for i in range(tests)]
    new_ids = base_ids[500:] + [(9999, f"test_new[{i}]") for i in range(1000)]
    base, now = ctx.tmp / "base.xml", ctx.tmp / "now.xml"
    write_report(base, base_ids)
    write_report(now, new_ids)
    (ctx.tmp / "growth.yml").write_text("version: 1\nlegs:\n  cpu: {markers: not gpu}\n")
    tool = ctx.tool("suite-report")
    env = clean_env()
    size = now.stat().st_size / 1e6
    label = f"compare two JUnit reports of {tests:,} tests ({size:.1f} MB each)"
    print(f"  {label}", flush=True)
    cmd = [tool, "growth", "--selection", ctx.tmp / "growth.yml", "--leg", "cpu", "--context", "pr",
           "--python-version", "3.12", "--report", now, "--baseline", base]
    check = subprocess.run([str(a) for a in cmd], env=env, capture_output=True, text=True)
    if check.returncode != 0 or "adds 1000 tests" not in check.stdout:
        return [failed(BENCH, label, f"growth exited {check.returncode}: {(check.stdout + check.stderr)[-400:]}")]
    ours = measure(lambda: run_ms(cmd, env=env), ctx.runs)
    rows = [at_most(BENCH, "growth: " + label, ours, 1000.0)]
    for kind, name in (("etree", "ElementTree iterparse"), ("lxml", "lxml iterparse")):
        anchor_cmd = [sys.executable, HERE / "junit_anchor.py", kind, base, now]
        answer = json.loads(subprocess.run([str(a) for a in anchor_cmd], capture_output=True, text=True,
                                           check=True).stdout)
        if answer != {"added": 1000, "removed": 500}:
            rows.append(failed(JUNIT, label, f"the {name} anchor counted {answer}"))
            continue
        anchor = measure(lambda: run_ms(anchor_cmd, env=env), ctx.runs)
        rows.append(versus(JUNIT, f"{label} vs {name}", ours, anchor, name, 1.0))
    return rows


def figures(ctx: Context) -> list[Figure]:
    return partition(ctx) + growth(ctx)


if __name__ == "__main__":
    from common import main_for
    raise SystemExit(main_for(figures))
