"""The demo's last stage: ci-report over the runs the demo made (scripts/demo.py).

Each prepared change became two runs, CPU tests and GPU tests, whose jobs are the demo's
stages: the path gate, the pytest legs, the smokes and the required checks, with the times
the demo measured. They are written as a history file (ci-report --history, the format
--save-history writes) and reported: the GPU legs the documentation-only change skipped are
costed at what they took when the kernel change ran them. One more run, a pull request from a
fork whose GPU legs were skipped, shows those skips counted apart ("skipped: fork").
"""
from __future__ import annotations

import datetime
import json
import math
import subprocess
from dataclasses import dataclass
from pathlib import Path

HOSTED, GPU = ["ubuntu-24.04"], ["self-hosted", "gpu"]


@dataclass
class Check:
    name: str
    ok: bool
    detail: str


def iso(t: datetime.datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def history(reports, now: datetime.datetime) -> str:
    lines = [json.dumps({"gatekit_ci_history": 1, "requests": 0, "gaps": []})]
    clock = now - datetime.timedelta(hours=1)
    run_id = 0

    def job(name, labels, result, seconds):
        nonlocal clock
        start = clock
        if result == "skipped":
            return {"id": run_id * 10 + len(jobs), "name": name, "conclusion": "skipped", "labels": [],
                    "created_at": iso(start), "started_at": iso(start), "completed_at": iso(start)}
        end = start + datetime.timedelta(seconds=max(1, math.ceil(seconds)))
        clock = end
        return {"id": run_id * 10 + len(jobs), "name": name, "labels": labels,
                "conclusion": "failure" if result == "failure" else "success",
                "created_at": iso(start), "started_at": iso(start), "completed_at": iso(end)}

    for r in reports:
        stages = {s.name: s for s in r.stages}
        for workflow, legs, check in (
                ("cpu-tests.yml", [("pytest (CPU)", HOSTED, stages["cpu-pytest"])], "CPU tests"),
                ("gpu-tests.yml", [("pytest (GPU)", GPU, stages["gpu-pytest"]),
                                   ("workload regression (GPU)", GPU, stages["smokes"])], "GPU tests")):
            run_id += 1
            created = clock
            jobs = []
            jobs.append(job("path gate", HOSTED, r.gate["result"], 1))
            for name, labels, stage in legs:
                jobs.append(job(name, labels, stage.result, stage.seconds))
            jobs.append(job(check, HOSTED, "success" if r.checks.get(check) == 0 else "failure", 1))
            lines.append(json.dumps({"run": {"id": run_id, "workflow": workflow, "event": "pull_request",
                                             "head_sha": f"{run_id:040x}", "conclusion": "success",
                                             "created_at": iso(created), "gate_failed_open": False, "jobs": jobs}}))
    # A pull request from a fork: its GPU legs never run (no self-hosted runner takes a fork's
    # code), whatever it changed. Those skips are told apart, never counted as saved.
    run_id += 1
    created = clock
    jobs = []
    jobs.append(job("path gate", HOSTED, "success", 1))
    jobs.append(job("pytest (GPU)", GPU, "skipped", 0))
    jobs.append(job("workload regression (GPU)", GPU, "skipped", 0))
    jobs.append(job("GPU tests", HOSTED, "success", 1))
    lines.append(json.dumps({"run": {"id": run_id, "workflow": "gpu-tests.yml", "event": "pull_request",
                                     "head_sha": f"{run_id:040x}", "conclusion": "success", "created_at": iso(created),
                                     "gate_failed_open": False, "from_fork": True, "jobs": jobs}}))
    return "\n".join(lines) + "\n"


def run_part(bin_dir: Path, out: Path, reports) -> list:
    work = out / "ci-report"
    work.mkdir(parents=True, exist_ok=True)
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    (work / "history.jsonl").write_text(history(reports, now))
    since, until = now - datetime.timedelta(days=1), now + datetime.timedelta(hours=1)
    done = subprocess.run([str(bin_dir / "ci-report" / "ci-report"), "--history", str(work / "history.jsonl"),
                           "--since", iso(since), "--until", iso(until), "--json", str(work / "report.json"),
                           "--markdown", str(work / "summary.md")], capture_output=True, text=True)
    if done.returncode != 0:
        return [Check("ci-report over the demo's runs", False, f"exit {done.returncode}: {done.stderr.strip()}")]
    report = json.loads((work / "report.json").read_text())
    gpu = [leg for leg in report["saved"] if leg["kind"] == "self-hosted GPU"]
    saved_s = sum(leg["minutes"] for leg in gpu) * 60
    return [
        Check("the GPU legs the docs-only change skipped are counted as saved",
              sum(leg["skips"] for leg in gpu) >= 2 and saved_s > 0,
              f"{sum(leg['skips'] for leg in gpu)} GPU legs, {saved_s:.0f} s saved"),
        Check("a fork's skipped GPU legs are told apart, never counted as saved", report["skipped"]["fork"] == 2,
              f"{report['skipped']['fork']} legs skipped: fork"),
        Check("the report is complete", report["complete"], f"{report['runs']} runs, {report['jobs']} jobs"),
    ]
