"""The jobs that hold a token that writes, run by a real local runner (nektos/act,
act_harness.py): they run only the gatekit tools setup-gatekit checked, and read back no state
from the Actions cache that a pull request's job can have written
(docs/guides/workflow-authors.md, "Jobs that hold a token that writes").

Two things a runner offers a job besides what it checked:
- PATH: the runner's PATH starts with a folder of every gatekit tool at this version that logs
  each call (with the job it ran in) and then does the real tool's work, as an earlier job on a
  self-hosted runner could leave. Jobs without a token use it (setup-gatekit's probe takes
  tools on PATH), so the runs go on as usual and the log shows the folder was in reach; a job
  that holds the token never calls it.
- the Actions cache: E2E_CACHE_SEED makes every restore hit an entry someone else saved
  (tests/e2e/stand-ins/cache): here a flaky-tracker journal, made by the real tool while the
  API was down, holding a flake of a test that does not exist. A pull request's run keeps no
  journal, so nothing of it reaches the issues; the default branch's own runs (a push to main,
  the schedule) restore it, as they should: in those runs GitHub restores only entries that
  runs of the default branch saved.
"""
from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import act_harness as h

sys.path.insert(0, str(h.SOURCE / "tests" / "github_api"))
sys.path.insert(0, str(h.SOURCE / "tests" / "ci-report"))
import synthetic  # noqa: E402
from server import FakeGitHub  # noqa: E402

CPU, GPU = "CPU tests", "GPU tests"
PLANTED = "tests/test_planted.py::test_planted"
PLANTED_TITLE = f"Flaky test: {PLANTED}"
FAKE_GPUS = {"TINYML_FAKE_GPUS": "1"}


def recording_tools(folder: Path, log: Path) -> Path:
    """Every gatekit tool as a script that appends `<job> <tool> <arguments>` to `log` and then
    runs the built tool: tools on PATH that report this version and do the work, and that a job
    holding a token must never call."""
    folder.mkdir(parents=True, exist_ok=True)
    for tool in h.tool_names():
        script = folder / tool
        real = h.BUILD / "tools" / tool / tool
        script.write_text(f'#!/bin/sh\necho "${{GITHUB_JOB:-?}} {tool} $*" >> "{log}"\nexec "{real}" "$@"\n')
        script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return folder


def calls(log: Path) -> list[tuple[str, str]]:
    """(job, tool) of each call of the recording tools."""
    if not log.exists():
        return []
    return [tuple(line.split(" ", 2)[:2]) for line in log.read_text().splitlines() if line]


def planted_journal(folder: Path) -> Path:
    """A journal as flaky-tracker writes it when the API is down (`issues --pending`), holding
    one flake of PLANTED: made by the built tool against the API test server answering 404."""
    folder.mkdir(parents=True, exist_ok=True)
    report = folder / "planted.xml"
    report.write_text('<testsuite name="pytest"><testcase classname="tests.test_planted" name="test_planted">'
                      '<flakyFailure message="planted"/></testcase></testsuite>')
    journal = folder / "gatekit-flaky-journal.json"
    with FakeGitHub(token="t0ken", state={"repos": {h.REPO: {}}}) as srv:
        srv.add_fault("GET", r"/issues$", "status", times=None, status=404)
        env = {"PATH": os.environ["PATH"], "GITHUB_API_URL": srv.base_url, "GITHUB_TOKEN": "t0ken",
               "GITHUB_REPOSITORY": h.REPO, "GITHUB_EVENT_NAME": "push", "GITHUB_RUN_ID": "1",
               "GITHUB_RUN_ATTEMPT": "1"}
        done = subprocess.run([str(h.BUILD / "tools" / "flaky-tracker" / "flaky-tracker"), "issues",
                               "--report", str(report), "--pending", str(journal)],
                              env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert PLANTED in journal.read_text()
    report.unlink()
    return folder


def opened(o: h.Outcome) -> list[str]:
    """The titles of the issues the run opened on the API test server."""
    return [r["body"]["title"] for r in o.requests if r["method"] == "POST" and r["path"] == f"/repos/{h.REPO}/issues"]


def push_to_main(pr: h.Scenario) -> dict:
    """The pull request merged and pushed to main: the push event of the default branch."""
    h.git(pr.repo, "checkout", "-q", "main")
    h.git(pr.repo, "merge", "-q", "--ff-only", "feature")
    return {"ref": "refs/heads/main", "before": pr.base, "after": pr.head,
            "repository": {"full_name": h.REPO, "default_branch": "main"},
            "head_commit": {"id": pr.head}}


def cpu_leg() -> str:
    return "3.12"


def test_a_pull_request_s_test_leg_runs_only_checked_tools_and_keeps_no_journal(tmp_path):
    """The demo's CPU legs hold `issues: write`. On a pull request run: the tools on PATH serve
    the jobs without a token, never the leg; the seeded journal is not restored, so its planted
    flake opens no issue."""
    pr = h.Scenario(tmp_path)
    pr.append("tests/test_tensor.py", "\n\ndef test_added_by_the_pr():\n    assert True\n")
    pr.commit()
    log = tmp_path / "calls.log"
    seed = planted_journal(tmp_path / "seed")
    o = pr.run(matrix=f"python:{cpu_leg()}", workflow="cpu-tests.yml", env={"E2E_CACHE_SEED": str(seed)},
               path_first=[recording_tools(tmp_path / "earlier-on-path", log)])
    leg = f"pytest (CPU, py{cpu_leg()})"
    assert o.verdict(CPU, leg) == "succeeded", o.tail()
    assert o.verdict(CPU, CPU) == "succeeded", o.tail()
    made = calls(log)
    assert ("changes", "path-classifier") in made, made  # the folder was in reach
    assert [c for c in made if c[0] == "tests"] == []
    assert "verified: true: not using tools on PATH (only tools checked here run)" in o.log
    assert "journal: none in this run (pull_request on refs/pull/7/merge)" in o.log, o.tail()
    assert "restored the seeded entry for key gatekit-flaky-journal-" not in o.log
    assert PLANTED_TITLE not in opened(o)


def test_the_default_branch_s_push_run_restores_its_journal_and_runs_only_checked_tools(tmp_path):
    """The control: a push to main is the default branch's own run, the one kind that keeps the
    journal; the entry restored is applied (its flake opens an issue), and the leg still runs
    only the tools it checked."""
    pr = h.Scenario(tmp_path)
    pr.append("tests/test_tensor.py", "\n\ndef test_added_by_the_pr():\n    assert True\n")
    pr.commit()
    payload = push_to_main(pr)
    log = tmp_path / "calls.log"
    seed = planted_journal(tmp_path / "seed")
    o = pr.run(matrix=f"python:{cpu_leg()}", workflow="cpu-tests.yml", env={"E2E_CACHE_SEED": str(seed)},
               event_name="push", payload=payload, path_first=[recording_tools(tmp_path / "earlier-on-path", log)])
    leg = f"pytest (CPU, py{cpu_leg()})"
    assert o.verdict(CPU, leg) == "succeeded", o.tail()
    assert [c for c in calls(log) if c[0] == "tests"] == []
    assert "restored the seeded entry for key gatekit-flaky-journal-tests-py3.12-" in o.log, o.tail()
    assert opened(o) == [PLANTED_TITLE]


def test_a_gpu_shard_runs_only_checked_tools(tmp_path):
    """The demo's GPU shard jobs hold `issues: write` on a self-hosted runner, where an earlier
    job's tools on PATH are the threat: the shard runs the tools it checked."""
    pr = h.Scenario(tmp_path)
    pr.append("src/tinyml/kernels/attention.py", "\n# tuned by a maintainer\n")
    pr.commit()
    log = tmp_path / "calls.log"
    o = pr.run(workflow="gpu-tests.yml", matrix="shard:1", env=FAKE_GPUS,
               path_first=[recording_tools(tmp_path / "earlier-on-path", log)])
    shard = "pytest (GPU, shard 1)"  # act names a matrix job so when --matrix picks one
    assert o.verdict(GPU, shard) == "succeeded", o.tail()
    made = calls(log)
    assert ("changes", "path-classifier") in made, made
    assert [c for c in made if c[0] == "gpu-tests"] == []
    assert "journal: none in this run (pull_request on refs/pull/7/merge)" in o.log


def shipped(tmp_path: Path) -> h.Scenario:
    """The templates as shipped (workflows/*.yml, gatekit's source at the root), on main."""
    pr = h.Scenario(tmp_path, shipped_templates=True)
    h.git(pr.repo, "checkout", "-q", "main")
    return pr


def schedule() -> dict:
    return {"schedule": "30 5 * * *"}  # a scheduled run's payload names no repository


def test_the_daily_flaky_run_runs_only_checked_tools_and_restores_its_journal(tmp_path):
    """flaky-nightly.yml's daily job holds `issues: write` and runs on the schedule, a run of the
    default branch: it keeps its journal (the planted flake is applied) and runs only the tools
    it checked."""
    pr = shipped(tmp_path)
    log = tmp_path / "calls.log"
    seed = planted_journal(tmp_path / "seed")
    o = pr.run(workflow="flaky-nightly.yml", job="daily", event_name="schedule", payload=schedule(),
               env={"E2E_CACHE_SEED": str(seed)}, path_first=[recording_tools(tmp_path / "earlier-on-path", log)])
    daily = "pytest (daily, with nightly tests)"
    assert o.verdict("flaky tests (daily)", daily) == "succeeded", o.tail()
    assert calls(log) == []  # the only job run holds the token
    assert "verified: true: not using tools on PATH (only tools checked here run)" in o.log
    assert "restored the seeded entry for key gatekit-flaky-journal-daily--" in o.log, o.tail()
    assert opened(o) == [PLANTED_TITLE]


def test_the_ci_report_runs_only_checked_tools_and_its_api_cache_only_on_the_default_branch(tmp_path):
    """ci-report.yml's report: the figures come from the tool setup-gatekit checked, by its
    folder. Its API cache is restored (and saved) in the default branch's own runs only: a
    dispatch of another branch neither reads nor writes it; a dispatch of main does. The API
    test server holds ci-report's synthetic history (tests/ci-report/synthetic.py)."""
    pr = shipped(tmp_path)
    log = tmp_path / "calls.log"
    seed = tmp_path / "seed"
    seed.mkdir()
    (seed / "ci-report-api.jsonl").write_text("")
    report = "CI report"

    def dispatch(branch: str) -> h.Outcome:
        h.git(pr.repo, "checkout", "-q", branch)
        payload = {"ref": f"refs/heads/{branch}", "inputs": {"since": "2026-11-02", "until": "2026-11-30"},
                   "repository": {"full_name": h.REPO, "default_branch": "main"}}
        return pr.run(workflow="ci-report.yml", event_name="workflow_dispatch", payload=payload,
                      env={"E2E_CACHE_SEED": str(seed)}, server_state=synthetic.state(h.REPO),
                      path_first=[recording_tools(tmp_path / "earlier-on-path", log)])

    o = dispatch("feature")
    assert o.verdict("CI report (weekly)", report) == "succeeded", o.tail()
    assert calls(log) == []
    assert "verified: true: not using tools on PATH (only tools checked here run)" in o.log
    assert "restored the seeded entry for key gatekit-ci-report-api-" not in o.log
    assert "would save key gatekit-ci-report-api-" not in o.log
    o = dispatch("main")
    assert o.verdict("CI report (weekly)", report) == "succeeded", o.tail()
    assert calls(log) == []
    assert "restored the seeded entry for key gatekit-ci-report-api-" in o.log, o.tail()
    assert "would save key gatekit-ci-report-api-" in o.log
