"""What every benchmark under bench/ shares: timing with medians, one row shape for a
figure measured against its anchor, and the table and JSON the one bench command prints
(scripts/bench.py; docs/benchmarks.md).

A benchmark module exposes `figures(ctx: Context) -> list[Figure]`. It measures gatekit and
its anchor side by side in the same run (same inputs, same machine load), several runs each,
and reports medians. It prints progress lines of its own; it asserts nothing: whether a
target is met is a column of the table, never a test.
"""
from __future__ import annotations

import functools
import json
import os
import shutil
import statistics
import subprocess
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Optional

# A spread (slowest minus fastest run) above this share of the median is noted in the table:
# the machine was busy, and the median deserves less trust.
WIDE_SPREAD = 0.5


@dataclass
class Sample:
    """Several runs of one measurement, in the figure's unit."""
    values: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.values)

    def wide(self) -> bool:
        return len(self.values) > 1 and self.median > 0 and (max(self.values) - min(self.values)) / self.median > WIDE_SPREAD

    def span(self, unit: str) -> str:
        return f"{fmt(min(self.values), unit)}..{fmt(max(self.values), unit)}"


@dataclass
class Figure:
    """One row of the table. `ratio` is anchor / gatekit for times (above 1: gatekit is
    faster), or the figure itself for figures that are ratios already."""
    bench: str             # the benchmark (bench/<folder>)
    figure: str            # what is measured
    unit: str              # "ms", "s", "x", "%"
    gatekit: Optional[float]
    anchor: Optional[float] = None
    anchor_name: str = ""
    target: str = ""       # as a person reads it: "ratio >= 10", "<= 10 ms"; "" for none
    met: Optional[bool] = None  # None: no target, or not measured
    ratio: Optional[float] = None
    runs: int = 0
    notes: list[str] = field(default_factory=list)
    status: str = "measured"  # measured | pending (no benchmark yet) | error | ran (figures in its log only)

    def to_json(self) -> dict:
        return asdict(self)


@dataclass
class Context:
    source: Path      # the repository root
    build_dir: Path   # a built bench (or, in quick mode, dev) preset folder
    runs: int         # runs per measurement; medians are reported
    quick: bool       # small sizes, few runs: proves the benchmarks still run
    tmp: Path         # scratch folder, removed after the run

    def tool(self, name: str) -> Path:
        path = self.build_dir / "tools" / name / name
        if not path.is_file():
            raise FileNotFoundError(f"{path} is not built (cmake --build {self.build_dir} --target {name})")
        return path


def fmt(value: Optional[float], unit: str) -> str:
    if value is None:
        return "-"
    if unit == "x":
        return f"{value:.1f}x"
    if unit == "%":
        return f"{value:+.1f}%"
    digits = 3 if value < 10 else 1 if value < 1000 else 0
    return f"{value:.{digits}f} {unit}"


def measure(once: Callable[[], float], runs: int) -> Sample:
    """Calls `once` (which returns one measurement) `runs` times."""
    return Sample([once() for _ in range(runs)])


def clean_env(**extra: str) -> dict:
    """The environment for a timed tool: no GitHub Actions variables (a tool would write to
    the job's real files), plus `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "RUNNER_")) and k != "CI"}
    env.update(extra)
    return env


def run_ms(argv: list, env: Optional[dict] = None, cwd: Optional[Path] = None, ok=(0,)) -> float:
    """Wall time of one run of a command in milliseconds; a failing command stops the
    benchmark with its output (a figure of a failed run would be a lie)."""
    start = time.perf_counter()
    done = subprocess.run([str(a) for a in argv], env=env, cwd=cwd, capture_output=True, text=True)
    took = (time.perf_counter() - start) * 1000
    if done.returncode not in ok:
        raise RuntimeError(f"{Path(str(argv[0])).name} exited {done.returncode}: {(done.stderr or done.stdout)[-600:]}")
    return took


# The JUnit anchors: ElementTree's or lxml's iterparse counting cases and failures
# (python -c ITERPARSE_ANCHOR etree|lxml REPORT).
ITERPARSE_ANCHOR = r"""
import sys
kind, path = sys.argv[1:3]
if kind == "lxml":
    from lxml.etree import iterparse
else:
    from xml.etree.ElementTree import iterparse
cases = failed = 0
for _, elem in iterparse(path, events=("end",)):
    if elem.tag == "testcase":
        cases += 1
        failed += elem.find("failure") is not None or elem.find("error") is not None
        elem.clear()
print(cases, failed)
"""


# Runs a command and prints {"ms": wall time, "cpu_ms": its CPU time (user + system: what a
# busy machine does not inflate), "rss_mb": its peak resident set}. With GNU time (argv[1]; ''
# where there is none) the peak is the command's own, as GNU time reads it for the command
# alone (a small C program forks it). Without, it is getrusage of this helper's children,
# which cannot read below the helper itself: Linux counts the resident set of the process
# that execs into the new program's peak, and that process is a copy of this Python
# (some 14 MB).
_MEASURE = r"""
import json, os, resource, subprocess, sys, tempfile, time
gnu_time, argv = sys.argv[1], sys.argv[2:]
if gnu_time:
    fd, peak_file = tempfile.mkstemp(prefix="gatekit-peak-")
    os.close(fd)
    argv = [gnu_time, "-f", "%M", "-o", peak_file, *argv]
start = time.perf_counter()
done = subprocess.run(argv, capture_output=True)
ms = (time.perf_counter() - start) * 1000
if done.returncode != 0:
    sys.exit(f"exit {done.returncode}: {done.stderr.decode()[-400:]}")
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
peak_kb = usage.ru_maxrss
if gnu_time:
    with open(peak_file) as f:
        peak_kb = int(f.read().split()[-1])
    os.unlink(peak_file)
print(json.dumps({"ms": ms, "cpu_ms": (usage.ru_utime + usage.ru_stime) * 1000, "rss_mb": peak_kb / 1024}))
"""


@functools.lru_cache(maxsize=None)
def gnu_time() -> str:
    """The path of GNU time (Debian's `time` package), '' where there is none (macOS's
    /usr/bin/time is BSD's, without -f): `measured` then reads peaks with a floor."""
    path = shutil.which("time")
    if path is None:
        return ""
    try:
        done = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return path if "GNU" in done.stdout + done.stderr else ""


def _measure_once(argv: list, env: Optional[dict], peak: bool = True) -> dict:
    import sys
    done = subprocess.run([sys.executable, "-c", _MEASURE, gnu_time() if peak else "", *map(str, argv)],
                          capture_output=True, text=True, env=env or clean_env())
    if done.returncode != 0:
        raise RuntimeError(f"{Path(str(argv[0])).name}: {done.stderr[-600:]}")
    return json.loads(done.stdout)


def _samples(results: list[dict]) -> tuple[Sample, Sample, Sample]:
    return (Sample([r["ms"] for r in results]), Sample([r["cpu_ms"] for r in results]),
            Sample([r["rss_mb"] for r in results]))


def measured(argv: list, runs: int, env: Optional[dict] = None, peak: bool = True) -> tuple[Sample, Sample, Sample]:
    """Wall time (ms), CPU time (ms) and peak memory (MB: the maximum resident set, read by
    GNU time, or where there is none by getrusage of a fresh helper process: see _MEASURE)
    of `runs` runs of a command; a failing run stops the benchmark with its output. GNU time
    adds itself to the times (some 0.8 ms of wall and of CPU time on the 2-core VM): a caller
    that wants times of a few milliseconds, and not the peak, passes `peak=False`."""
    return _samples([_measure_once(argv, env, peak) for _ in range(runs)])


def measured_pair(ours: list, anchor: list, runs: int,
                  env: Optional[dict] = None) -> tuple[tuple[Sample, Sample, Sample], tuple[Sample, Sample, Sample]]:
    """measured() of two commands whose ratio is the figure, run in turn (ours, anchor, ours,
    anchor...): a load that comes and goes during the runs weighs on both sides alike, where
    all the runs of one and then all of the other would put it on one side only."""
    results: tuple[list[dict], list[dict]] = ([], [])
    for _ in range(runs):
        results[0].append(_measure_once(ours, env))
        results[1].append(_measure_once(anchor, env))
    return _samples(results[0]), _samples(results[1])


def versus(bench: str, figure: str, ours: Sample, anchor: Sample, anchor_name: str, min_ratio: Optional[float],
           unit: str = "ms") -> Figure:
    """A time of gatekit against the time of its anchor; the target, when given, is
    anchor / gatekit >= min_ratio."""
    ratio = anchor.median / ours.median if ours.median > 0 else None
    fig = Figure(bench, figure, unit, ours.median, anchor.median, anchor_name,
                 target=f"ratio >= {min_ratio:g}" if min_ratio is not None else "",
                 met=None if min_ratio is None or ratio is None else ratio >= min_ratio,
                 ratio=ratio, runs=len(ours.values))
    add_spread_notes(fig, ours, anchor)
    return fig


def at_most(bench: str, figure: str, ours: Sample, limit: float, unit: str = "ms", anchor: Optional[Sample] = None,
            anchor_name: str = "") -> Figure:
    """A time of gatekit against an absolute limit, with its anchor shown beside it."""
    fig = Figure(bench, figure, unit, ours.median, anchor.median if anchor else None, anchor_name,
                 target=f"<= {fmt(limit, unit)}", met=ours.median <= limit,
                 ratio=(anchor.median / ours.median) if anchor and ours.median > 0 else None, runs=len(ours.values))
    add_spread_notes(fig, ours, anchor)
    return fig


def add_spread_notes(fig: Figure, ours: Sample, anchor: Optional[Sample]) -> None:
    if ours.wide():
        fig.notes.append(f"gatekit's runs spread wide ({ours.span(fig.unit)})")
    if anchor is not None and anchor.wide():
        fig.notes.append(f"the anchor's runs spread wide ({anchor.span(fig.unit)})")


def pending(bench: str, figure: str, why: str) -> Figure:
    return Figure(bench, figure, "", None, status="pending", notes=[why])


def failed(bench: str, figure: str, why: str) -> Figure:
    return Figure(bench, figure, "", None, status="error", met=False, notes=[why])


# ---- the table ----------------------------------------------------------------------------

HEADER = ["benchmark", "figure", "gatekit", "anchor", "ratio", "target", "met"]


def cells(fig: Figure, quick: bool) -> list[str]:
    if fig.status != "measured":
        return [fig.bench, fig.figure, fig.status, "-", "-", fig.target or "-", "-"]
    met = "-" if fig.met is None else ("yes" if fig.met else "NO")
    if quick and fig.met is not None:
        met = "(quick)"
    anchor = fmt(fig.anchor, fig.unit)
    if fig.anchor_name and fig.anchor is not None:
        anchor = f"{anchor} ({fig.anchor_name})"
    elif fig.anchor_name:
        anchor = fig.anchor_name
    return [fig.bench, fig.figure, fmt(fig.gatekit, fig.unit), anchor,
            "-" if fig.ratio is None else f"{fig.ratio:.1f}x", fig.target or "-", met]


def notes_of(figures: list[Figure]) -> list[str]:
    out = []
    for i, fig in enumerate(figures, 1):
        for note in fig.notes:
            out.append(f"[{i}] {fig.bench}, {fig.figure}: {note}")
    return out


def text_table(figures: list[Figure], quick: bool) -> str:
    rows = [["#"] + HEADER] + [[str(i)] + cells(f, quick) for i, f in enumerate(figures, 1)]
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    notes = notes_of(figures)
    return "\n".join(lines + ([""] + notes if notes else []))


def markdown_table(figures: list[Figure], quick: bool) -> str:
    def esc(s: str) -> str:
        return s.replace("|", "\\|")
    lines = ["| # | " + " | ".join(HEADER) + " |", "| ---: | --- | --- | ---: | ---: | ---: | --- | --- |"]
    for i, fig in enumerate(figures, 1):
        lines.append(f"| {i} | " + " | ".join(esc(c) for c in cells(fig, quick)) + " |")
    notes = notes_of(figures)
    if notes:
        lines += [""] + [f"- {esc(n)}" for n in notes]
    return "\n".join(lines)


def write_json(path: Path, figures: list[Figure], meta: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({**meta, "figures": [f.to_json() for f in figures]}, indent=2) + "\n")


def main_for(*benches: Callable[[Context], list[Figure]]) -> int:
    """Runs benchmark functions on their own (`python3 bench/<folder>/<file>.py`) and prints
    their table; scripts/bench.py runs all of them together."""
    import argparse
    import tempfile
    parser = argparse.ArgumentParser()
    parser.add_argument("--build-dir", default="build/bench", help="a built bench preset folder (default build/bench)")
    parser.add_argument("--runs", type=int, default=7, help="runs per measurement (the median is shown)")
    parser.add_argument("--quick", action="store_true", help="small sizes: proves the benchmark runs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gatekit-bench-") as tmp:
        ctx = Context(Path(__file__).resolve().parents[1], Path(args.build_dir).resolve(), args.runs, args.quick, Path(tmp))
        figures = [f for bench in benches for f in bench(ctx)]
    print(text_table(figures, args.quick))
    return 0
