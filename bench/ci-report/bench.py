#!/usr/bin/env python3
"""ci-report benchmark: the report over 10,000 runs and 100,000 jobs.

The history file (--history, JSON Lines, as --save-history writes it) holds 10,000 runs of
two gated workflows over six weeks, ten jobs each (a path gate, legs on hosted and GPU runners,
skipped legs, cancelled ones), and 200 flaky-test issues naming ten flaky runs each (the flake
rates), and is reported over its last four weeks. Measured:

1. the whole process, `ci-report --history F --json out` (targets: at most 1 s and 64 MB peak
   memory): reading the history, the medians, the report in Markdown and JSON;
2. beside it, the anchor: a Python script that reads the same file with json.loads line by
   line and sums the minutes per leg and label (much less than the report: no medians per
   skip, no weeks, no queues), what an admin would otherwise write.

The API side (paging 10,000 runs through GitHub) is not measured here: it is bounded by
GitHub's answers, not by the tool. Run with every other benchmark by scripts/bench.py
(docs/benchmarks.md); alone:
  python3 bench/ci-report/bench.py --build-dir build/bench [--quick]
"""
from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import Context, Figure, at_most, main_for, measured  # noqa: E402

BENCH = "ci-report"
FLAKY_ISSUES = 200
START = datetime.datetime(2026, 10, 19, tzinfo=datetime.timezone.utc)
SINCE, UNTIL = "2026-11-02", "2026-11-30"

ANCHOR = r"""
import json, sys
from collections import defaultdict
from datetime import datetime
def t(s):
    return datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").timestamp() if s else 0
spent = defaultdict(float)
with open(sys.argv[1]) as f:
    next(f)
    for line in f:
        run = json.loads(line).get("run")
        if not run:
            continue
        for j in run["jobs"]:
            if j["conclusion"] != "skipped" and j["started_at"]:
                spent[(run["workflow"], j["name"], ",".join(sorted(j["labels"])))] += (t(j["completed_at"]) - t(j["started_at"])) / 60
print(len(spent), round(sum(spent.values())))
"""


def iso(t: datetime.datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def write_history(path: Path, runs: int) -> int:
    """`runs` runs of ten jobs each over six weeks; returns the number of jobs."""
    step = datetime.timedelta(days=42) / runs
    jobs = 0
    with path.open("w") as out:
        out.write(json.dumps({"gatekit_ci_history": 1, "requests": 0, "gaps": []}) + "\n")
        for i in range(runs):
            created = START + step * i
            gpu = i % 2 == 0
            skip = i % 3 == 0

            def job(n, name, labels, minutes, conclusion="success", queue=30):
                start = created + datetime.timedelta(seconds=queue)
                end = start + datetime.timedelta(minutes=minutes)
                return {"id": i * 10 + n, "name": name, "conclusion": conclusion, "labels": labels,
                        "runner_name": f"runner-{n % 4}", "created_at": iso(created), "started_at": iso(start),
                        "completed_at": iso(end), "could_not_evaluate": False}
            js = [job(0, "path gate", ["ubuntu-24.04"], 1)]
            for n in range(1, 9):
                name = f"pytest ({'GPU' if gpu else 'CPU'}, shard {n})"
                labels = ["self-hosted", "gpu"] if gpu else ["ubuntu-24.04"]
                if skip:
                    js.append({"id": i * 10 + n, "name": name, "conclusion": "skipped", "labels": [],
                               "runner_name": "", "created_at": iso(created), "started_at": iso(created),
                               "completed_at": iso(created), "could_not_evaluate": False})
                else:
                    js.append(job(n, name, labels, 5 + (i + n) % 20, "cancelled" if i % 50 == 1 else "success",
                                  600 if gpu else 30))
            js.append(job(9, "GPU tests" if gpu else "CPU tests", ["ubuntu-24.04"], 1))
            jobs += len(js)
            run = {"id": 1_000_000 + i, "workflow": "gpu-tests.yml" if gpu else "cpu-tests.yml",
                   "event": "pull_request" if i % 4 < 2 else "push", "head_sha": f"{i:040x}",
                   "conclusion": "success", "created_at": iso(created), "gate_failed_open": i % 997 == 0, "jobs": js}
            out.write(json.dumps({"run": run}) + "\n")
        # Flaky-test issues with flaky-tracker's state: each names ten flaky runs (the flake rates).
        for k in range(FLAKY_ISSUES):
            flake_runs = [1_000_000 + (k * 37 + m * 311) % runs for m in range(10)]
            out.write(json.dumps({"flaky": {"number": k + 1, "title": f"flaky: tests/t{k}.py::test", "state": "open",
                                            "created_at": iso(START), "closed_at": "", "test": f"tests/t{k}.py::test",
                                            "flakes": 10, "flake_runs": flake_runs, "runs_cut": False,
                                            "oldest_run": 0}}) + "\n")
    return jobs


def figures(ctx: Context) -> list[Figure]:
    runs_count = 500 if ctx.quick else 10_000
    history = ctx.tmp / "history.jsonl"
    jobs = write_history(history, runs_count)
    size = history.stat().st_size
    label = f"{runs_count:,} runs, {jobs:,} jobs ({size / 1e6:.0f} MB)"
    print(f"[{BENCH}] {label}: ci-report", flush=True)
    tool = ctx.tool("ci-report")
    argv = [tool, "--history", history, "--since", SINCE, "--until", UNTIL, "--json", ctx.tmp / "r.json"]
    runs = 1 if ctx.quick else max(3, min(ctx.runs, 5))
    ours_ms, ours_cpu, ours_rss = measured(argv, runs)
    print(f"[{BENCH}] {label}: the Python anchor", flush=True)
    anchor_ms, _, anchor_rss = measured([sys.executable, "-c", ANCHOR, history], runs)
    report = json.loads((ctx.tmp / "r.json").read_text())
    print(f"[{BENCH}] saved {report['saved_minutes']['median']:.0f} min, spent {report['spent_minutes']:.0f} min "
          f"over {report['runs']} runs; {report['flaky']['tests_flaked']} tests flaked", flush=True)
    return [
        at_most(BENCH, f"report over {label}: time", ours_ms, 1000, "ms", anchor_ms, "Python: sum per leg"),
        at_most(BENCH, f"report over {label}: CPU time", ours_cpu, 1000, "ms"),
        at_most(BENCH, f"report over {label}: peak memory", ours_rss, 64, "MB", anchor_rss, "Python: sum per leg"),
    ]


if __name__ == "__main__":
    sys.exit(main_for(figures))
