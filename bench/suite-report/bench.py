#!/usr/bin/env python3
"""suite-report benchmark (not a test: it prints figures, it asserts nothing).

1. partition on a 20,000-test suite (200 files of 100 parametrized tests; 10% `gpu`, 5%
   `rocm`, 2% `nightly`): pytest's collections dominate. The tool reports how long its pytest
   runs took and how long its own work took (parsing the node ids, the set algebra, the
   summary); the target for its own work is under 100 ms. As the anchor, one plain
   `pytest --collect-only -q` of the same suite is timed in the same run.
2. growth over two 100,000-test JUnit reports (the second with 1,000 new and 500 removed
   tests): the whole run, start to exit, against a target of 1 s; then the same with the
   baseline stored as suite-baseline.json (what main runs upload). The anchor is the tool's
   start-up (`--version`), timed in the same run.

Usage: bench/suite-report/bench.py [--tool build/bench/tools/suite-report/suite-report]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FILES, PER_FILE = 200, 100
REPORT_TESTS = 100_000


def timed(argv, **kwargs):
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, **kwargs)
    return time.perf_counter() - start, done


def write_suite(root: Path) -> None:
    (root / "tests").mkdir(parents=True)
    (root / "pyproject.toml").write_text(
        '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n'
        'markers = ["gpu: g", "rocm: r", "nightly: n"]\n')
    (root / "suite.yml").write_text(
        "version: 1\nlegs:\n  cpu: {markers: not gpu and not rocm}\n  gpu: {markers: gpu or rocm, device: gpu}\n")
    for f in range(FILES):
        marks = "pytestmark = pytest.mark.gpu\n" if f % 10 == 0 else "pytestmark = pytest.mark.rocm\n" if f % 20 == 5 else ""
        nightly = "@pytest.mark.nightly\n" if f % 50 == 7 else ""
        (root / "tests" / f"test_m{f:03d}.py").write_text(
            f"import pytest\n{marks}\n{nightly}@pytest.mark.parametrize('n', range({PER_FILE}))\n"
            "def test_case(n):\n    pass\n")


def bench_partition(tool: str, tmp: Path) -> None:
    root = tmp / "suite"
    write_suite(root)
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY")}
    anchor, done = timed([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"], cwd=root,
                         env=env)
    collected = len([line for line in done.stdout.splitlines() if "::" in line])
    wall, done = timed([tool, "partition", "--selection", "suite.yml", "--python", sys.executable], cwd=root, env=env)
    if done.returncode != 0:
        sys.exit(f"partition exited {done.returncode}:\n{done.stdout[-2000:]}{done.stderr}")
    m = re.search(r"timing: (\d+) pytest collections took (\d+) ms; suite-report's own work took (-?\d+) ms",
                  done.stdout)
    runs, pytest_ms, own_ms = (int(x) for x in m.groups())
    print(f"partition: {collected} tests; one plain pytest --collect-only: {anchor * 1000:.0f} ms (anchor)")
    print(f"  suite-report partition: {wall * 1000:.0f} ms wall; {runs} pytest collections {pytest_ms} ms "
          f"({pytest_ms / max(wall * 1000, 1):.0%} of the wall time)")
    print(f"  suite-report's own work: {own_ms} ms (target < 100 ms): {'met' if own_ms < 100 else 'NOT met'}")


def write_report(path: Path, ids) -> None:
    with open(path, "w") as f:
        f.write('<?xml version="1.0" encoding="utf-8"?>\n<testsuites><testsuite name="pytest">\n')
        for module, name in ids:
            f.write(f'<testcase classname="tests.pkg{module // 1000}.test_m{module}" name="{name}" time="0.0{module % 10}1"/>\n')
        f.write("</testsuite></testsuites>\n")


def bench_growth(tool: str, tmp: Path) -> None:
    base_ids = [(i // 50, f"test_case[{i}]") for i in range(REPORT_TESTS)]
    new_ids = base_ids[500:] + [(9999, f"test_new[{i}]") for i in range(1000)]
    write_report(tmp / "base.xml", base_ids)
    write_report(tmp / "now.xml", new_ids)
    (tmp / "suite.yml").write_text("version: 1\nlegs:\n  cpu: {markers: not gpu}\n")
    size = (tmp / "now.xml").stat().st_size
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY")}
    anchor = min(timed([tool, "--version"], env=env)[0] for _ in range(5))
    common = [tool, "growth", "--selection", str(tmp / "suite.yml"), "--leg", "cpu", "--context", "pr",
              "--python-version", "3.12", "--report", str(tmp / "now.xml")]
    wall, done = timed(common + ["--baseline", str(tmp / "base.xml"), "--write-baseline", str(tmp / "base.json")], env=env)
    if done.returncode != 0 or "adds 1000 tests" not in done.stdout:
        sys.exit(f"growth failed ({done.returncode}):\n{done.stdout[-2000:]}{done.stderr}")
    print(f"growth: two reports of {REPORT_TESTS:,} tests ({size / 1e6:.1f} MB each); tool start-up {anchor * 1000:.1f} ms (anchor)")
    print(f"  report vs report (and writing the next baseline): {wall * 1000:.0f} ms (target < 1000 ms): "
          f"{'met' if wall < 1 else 'NOT met'}")
    wall, done = timed(common + ["--baseline", str(tmp / "base.json")], env=env)
    found = "baseline = found" in done.stdout or "baseline=found" in done.stdout
    print(f"  report vs suite-baseline.json: {wall * 1000:.0f} ms{'' if found else ' (baseline not used!)'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tool", default="build/bench/tools/suite-report/suite-report")
    opts = parser.parse_args()
    tool = str(Path(opts.tool).resolve())
    with tempfile.TemporaryDirectory(prefix="gatekit-bench-suite-") as name:
        tmp = Path(name)
        bench_partition(tool, tmp)
        bench_growth(tool, tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
