"""actions/flaky-tracker's tool step, run as the runner would: inputs only through env (every
declared one at its default unless a test sets it), GITHUB_ACTION_PATH the action folder."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

from flaky_fixtures import BUILD, SOURCE, cases, copy_suite, pytest_run

ACTION = SOURCE / "actions" / "flaky-tracker"
sys.path.insert(0, os.path.join(SOURCE, "tests", "github_api"))
from server import FakeGitHub  # noqa: E402


def step_env(journal_step: str = "skipped", **inputs) -> dict:
    """The step's env: every input at its default unless given; JOURNAL_STEP is the journal
    step's outcome (`success` where the Actions cache step ran: the default branch's own runs)."""
    action = yaml.safe_load((ACTION / "action.yml").read_text())
    step = next(s for s in action["runs"]["steps"] if s.get("id") == "run")
    env = {}
    for key, value in step["env"].items():
        if value == "${{ steps.journal.outcome }}":
            env[key] = journal_step
            continue
        found = re.fullmatch(r"\$\{\{ inputs\.([a-z-]+) \}\}", value)
        name = found.group(1)
        env[key] = inputs.get(name, str(action["inputs"][name].get("default", "")))
    return env


def run_step(cwd: Path, extra: dict | None = None, journal_step: str = "skipped", **inputs):
    out = cwd / "github_output"
    out.write_text("")
    env = step_env(journal_step, **{"gatekit-bin": str(BUILD / "tools" / "flaky-tracker"), "setup": "false", **inputs})
    env.update({"PATH": os.environ["PATH"], "HOME": str(cwd), "GITHUB_ACTION_PATH": str(ACTION),
                "GITHUB_OUTPUT": str(out), "RUNNER_TEMP": str(cwd), **(extra or {})})
    action = yaml.safe_load((ACTION / "action.yml").read_text())
    script = next(s for s in action["runs"]["steps"] if s.get("id") == "run")["run"]
    done = subprocess.run(["bash", "-c", script], env=env, cwd=cwd, capture_output=True, text=True, timeout=300)
    return done, out.read_text()


def test_rerun_through_the_action_with_a_multi_line_command(tmp_path):
    project = copy_suite("mixed", tmp_path / "p")
    pytest_run(project, project / "report.xml", "-p", "no:rerunfailures", "-k", "test_flaky and not param")
    command = f"{sys.executable}\n-m\npytest\n-p\nno:cacheprovider\n--junitxml={{report}}\n--\n{{tests}}\n"
    done, outputs = run_step(tmp_path, {"FLAKY_RUN_DIR": str(project / "run-dir")}, command="rerun",
                             report=str(project / "report.xml"), **{"rerun-command": command,
                                                                    "working-directory": str(project)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "result=pass" in outputs and "flaky=1" in outputs
    assert cases(project / "report.xml")[("test_mixed", "test_flaky")].find("flakyFailure") is not None


def test_a_missing_tool_is_could_not_evaluate(tmp_path):
    done, outputs = run_step(tmp_path, command="rerun", report="r.xml", **{"gatekit-bin": str(tmp_path / "none")})
    assert done.returncode == 3
    assert done.stdout == "::error title=flaky-tracker::flaky-tracker not found (gatekit-bin input, GATEKIT_BIN or PATH)\n"
    assert outputs == "result=error\n"


def test_a_bad_command_input_is_a_usage_error(tmp_path):
    done, outputs = run_step(tmp_path, command="retry")
    assert done.returncode == 2
    assert done.stdout == "::error title=flaky-tracker::input command must be rerun, issues or stress\n"


def test_issues_kind_comes_from_the_event_and_the_journal_lives_in_runner_temp(tmp_path):
    report = tmp_path / "r.xml"
    report.write_text('<testsuite name="pytest"><testcase classname="tests.test_a" name="test_x">'
                      '<flakyFailure message="boom"/></testcase></testsuite>')
    with FakeGitHub(token="t0ken", state={"repos": {"o/r": {}}}) as srv:
        srv.add_fault("GET", r"/issues$", "status", times=None, status=404)
        done, outputs = run_step(tmp_path, {"GITHUB_EVENT_NAME": "schedule", "GITHUB_API_URL": srv.base_url,
                                            "GITHUB_REPOSITORY": "o/r", "GITHUB_RUN_ID": "7",
                                            "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")},
                                 journal_step="success", command="issues", report=str(report), token="t0ken",
                                 scope="cpu")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "updated=false" in outputs
    assert "## flaky-tracker: issues (daily run)" in (tmp_path / "summary.md").read_text()
    journal = (tmp_path / "gatekit-flaky-journal.json").read_text()
    assert '"key":"7.1"' in journal and '"scope":"cpu"' in journal and '"tests/test_a.py::test_x"' in journal


def test_a_run_whose_journal_step_did_not_run_keeps_no_journal(tmp_path):
    """Outside the default branch's own runs the journal step (the Actions cache) is skipped:
    the tool gets no --pending, so a journal file another job left in RUNNER_TEMP is neither
    read nor written, and the log says why."""
    report = tmp_path / "r.xml"
    report.write_text('<testsuite name="pytest"><testcase classname="tests.test_a" name="test_x">'
                      '<flakyFailure message="boom"/></testcase></testsuite>')
    left = tmp_path / "gatekit-flaky-journal.json"
    left.write_text('{"version":1,"runs":[],"comments":[{"issue":1,"id":"tests/test_b.py::test_y","body":"planted"}]}\n')
    before = left.read_text()
    with FakeGitHub(token="t0ken", state={"repos": {"o/r": {}}}) as srv:
        srv.add_fault("GET", r"/issues$", "status", times=None, status=404)
        done, outputs = run_step(tmp_path, {"GITHUB_EVENT_NAME": "pull_request", "GITHUB_REF": "refs/pull/7/merge",
                                            "GITHUB_API_URL": srv.base_url, "GITHUB_REPOSITORY": "o/r",
                                            "GITHUB_RUN_ID": "9", "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")},
                                 command="issues", report=str(report), token="t0ken", scope="cpu")
        posted = [r for r in srv.requests if r["method"] == "POST"]
    assert done.returncode == 0, done.stdout + done.stderr
    assert "updated=false" in outputs
    assert ("journal: none in this run (pull_request on refs/pull/7/merge): only the default branch's own runs "
            "(schedule; push and workflow_dispatch of the default branch) keep one: there the Actions cache holds "
            "nothing but what runs of the default branch saved (docs/actions/flaky-tracker.md)\n") in done.stdout
    assert left.read_text() == before and posted == []


def test_issues_takes_its_tool_from_gatekit_bin_only(tmp_path):
    """`issues` holds a token that writes issues: never a flaky-tracker that GATEKIT_BIN or a
    PATH lookup finds (a look-alike a self-hosted runner kept from an earlier job). With setup:
    false and no tool in the gatekit-bin input's folder: exit 3, and no look-alike ran; a
    relative gatekit-bin is a usage error. rerun, which holds no token, may take them."""
    marker = tmp_path / "look-alike-ran"
    folder = tmp_path / "look-alikes"
    folder.mkdir()
    tool = folder / "flaky-tracker"
    tool.write_text(f'#!/bin/sh\necho "$*" >> "{marker}"\necho "flaky-tracker (gatekit) 0.1.0"\n')
    tool.chmod(0o755)
    extra = {"PATH": f"{folder}:{os.environ['PATH']}", "GATEKIT_BIN": str(folder)}
    done, outputs = run_step(tmp_path, extra, command="issues", report="r.xml", token="t0ken", **{"gatekit-bin": ""})
    assert done.returncode == 3
    assert done.stdout == ("::error title=flaky-tracker::flaky-tracker not found in the gatekit-bin input's folder: a "
                           "step that writes with a token runs its tool from there (setup-gatekit's bin output) or "
                           "sets the tools up itself (setup: auto), never from GATEKIT_BIN or PATH\n")
    assert outputs == "result=error\n"
    assert not marker.exists()
    done, outputs = run_step(tmp_path, extra, command="issues", report="r.xml", token="t0ken",
                             **{"gatekit-bin": "look-alikes"})
    assert done.returncode == 2
    assert done.stderr == ("::error title=flaky-tracker::input gatekit-bin must be an absolute folder in a step that "
                           "writes with a token (setup-gatekit's bin output), got 'look-alikes'\n")
    assert not marker.exists()
    done, _ = run_step(tmp_path, extra, command="rerun", report="r.xml", **{"gatekit-bin": ""})
    assert marker.exists()


def test_issues_creator_input_names_whose_issues_are_adopted(tmp_path):
    report = tmp_path / "r.xml"
    report.write_text('<testsuite name="pytest"><testcase classname="tests.test_a" name="test_x">'
                      '<flakyFailure message="boom"/></testcase></testsuite>')
    with FakeGitHub(token="t0ken", state={"repos": {"o/r": {}}}, login="my-app[bot]", installation=True) as srv:
        env = {"GITHUB_EVENT_NAME": "push", "GITHUB_API_URL": srv.base_url, "GITHUB_REPOSITORY": "o/r",
               "GITHUB_RUN_ID": "8", "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")}
        for attempt in ("1", "2"):
            done, outputs = run_step(tmp_path, {**env, "GITHUB_RUN_ATTEMPT": attempt}, command="issues",
                                     report=str(report), token="t0ken", creator="someone-else\nmy-app[bot]\n")
            assert done.returncode == 0, done.stdout + done.stderr
            assert "updated=true" in outputs
        [issue] = srv.repos["o/r"]["issues"].values()  # found again: adopted, not opened twice
        assert issue["user"] == "my-app[bot]" and len(issue["comments"]) == 1
        assert "/user" not in [r["path"] for r in srv.requests]


def test_a_report_declaring_failures_it_does_not_show_fails_the_cpu_templates_verdict_step(tmp_path):
    # The CPU template's leg verdict is this step (workflows/cpu-tests.yml and the demo's copy):
    # pytest's own step may fail (continue-on-error), this one may not, so its exit 3 fails the leg.
    for path in [SOURCE / "workflows" / "cpu-tests.yml",
                 SOURCE / "examples" / "demo-project" / ".github" / "workflows" / "cpu-tests.yml"]:
        jobs = yaml.safe_load(path.read_text())["jobs"]
        steps = [s for job in jobs.values() for s in job.get("steps", [])
                 if s.get("uses", "").endswith("actions/flaky-tracker") and s.get("with", {}).get("command") == "rerun"]
        assert steps, path
        for step in steps:
            assert "continue-on-error" not in step, path
    # A real pytest report whose failed case is gone: the suite still declares failures="1".
    project = copy_suite("mixed", tmp_path / "p")
    pytest_run(project, project / "report.xml", "-p", "no:rerunfailures", "-k", "ok or broken")
    text = (project / "report.xml").read_text()
    start = text.index('<testcase classname="test_mixed" name="test_broken"')
    (project / "report.xml").write_text(text[:start] + text[text.index("</testcase>", start) + len("</testcase>"):])
    done, outputs = run_step(tmp_path, {"FLAKY_RUN_DIR": str(project / "run-dir")}, command="rerun",
                             report=str(project / "report.xml"), **{"working-directory": str(project)})
    assert done.returncode == 3, done.stdout + done.stderr
    assert "result=error" in outputs
    assert 'declares 1 failures and errors, but its test cases show 0' in done.stderr
