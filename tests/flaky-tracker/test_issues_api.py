"""flaky-tracker issues end to end against the GitHub API test server: open, comment,
reopen, close after 20 green main runs, close after 5 daily absences, two overlapping runs,
the API down mid-run and the next run catching up from its journal."""
import json
import os
import subprocess
import sys
import threading

from flaky_fixtures import TOOL, junit, run_tool

sys.path.insert(0, os.path.join(os.environ.get("GATEKIT_SOURCE_DIR", "."), "tests", "github_api"))
from server import FakeGitHub  # noqa: E402

A = "tests/test_a.py::test_flaky"
B = "tests/test_b.py::test_other[-rf]"


def issues_run(tmp_path, srv, kind, tests, key, *extra):
    report = junit(tmp_path / f"{key}.xml", tests)
    return run_tool("issues", "--report", report, "--kind", kind, "--repo", "o/r", "--run-key", key,
                    "--run-url", f"https://github.com/o/r/actions/runs/{key}", "--api-budget", "5", *extra,
                    cwd=tmp_path, env={"GITHUB_API_URL": srv.base_url, "GITHUB_TOKEN": "t0ken",
                                       "GITHUB_ACTIONS": "true"})


def flaky_issues(srv):
    return sorted((it for it in srv.repos["o/r"]["issues"].values()), key=lambda it: it["number"])


def state_of(issue):
    line = issue["body"].split("\n")[1]
    assert line.startswith("<!-- gatekit-flaky-state: ") and line.endswith(" -->")
    return json.loads(line[len("<!-- gatekit-flaky-state: "):-4])


def marker_of(issue):
    return issue["body"].split("\n")[0]


def test_lifecycle_open_comment_close_after_20_greens_reopen_close_after_5_absences(tmp_path):
    with FakeGitHub(token="t0ken", state={"repos": {"o/r": {}}}) as srv:
        run = issues_run(tmp_path, srv, "pr", {A: "flaky", "tests/test_c.py::test_ok": "passed"}, "1")
        assert run.code == 0, run.stdout + run.stderr
        assert run.outputs["updated"] == "true"
        [issue] = flaky_issues(srv)
        assert issue["title"] == f"Flaky test: {A}"
        assert issue["labels"] == ["flaky"]
        assert marker_of(issue) == "<!-- gatekit-flaky-test: tests/test_a.py::test_flaky -->"
        assert "AssertionError: boom" in issue["body"]
        assert "[run](https://github.com/o/r/actions/runs/1)" in issue["body"]
        assert state_of(issue)["flakes"] == 1
        assert "| `tests/test_a.py::test_flaky` | [\\#1](" in run.summary and "| opened |" in run.summary

        run = issues_run(tmp_path, srv, "main", {A: "flaky"}, "2")
        assert run.code == 0
        [issue] = flaky_issues(srv)
        assert state_of(issue)["flakes"] == 2
        assert [c["body"].split(" (")[0] for c in issue["comments"]] == [
            "Flaked again in a main [run](https://github.com/o/r/actions/runs/2)"]

        for i in range(19):
            assert issues_run(tmp_path, srv, "main", {A: "passed"}, f"g{i}").code == 0
        [issue] = flaky_issues(srv)
        assert issue["state"] == "open" and state_of(issue)["greens"] == 19
        run = issues_run(tmp_path, srv, "main", {A: "passed"}, "g19")
        [issue] = flaky_issues(srv)
        assert issue["state"] == "closed"
        assert issue["comments"][-1]["body"].startswith("Closing: 20 green runs in a row on main since the last flake")
        assert "closed: 20 green main runs in a row" in run.summary

        run = issues_run(tmp_path, srv, "pr", {A: "flaky"}, "3")
        [issue] = flaky_issues(srv)  # reopened, never a second issue
        assert issue["state"] == "open" and state_of(issue)["flakes"] == 3 and state_of(issue)["greens"] == 0
        assert issue["comments"][-1]["body"].startswith("Reopened: this test flaked again")

        for i in range(4):
            issues_run(tmp_path, srv, "daily", {"tests/test_c.py::test_ok": "passed"}, f"d{i}")
            issues_run(tmp_path, srv, "pr", {"tests/test_c.py::test_ok": "passed"}, f"p{i}")  # pr runs: no absence
        [issue] = flaky_issues(srv)
        assert issue["state"] == "open" and state_of(issue)["absences"] == 4
        issues_run(tmp_path, srv, "daily", {"tests/test_c.py::test_ok": "passed"}, "d4")
        [issue] = flaky_issues(srv)
        assert issue["state"] == "closed"
        assert issue["comments"][-1]["body"].startswith(
            "Closing: the test no longer exists: 5 daily runs in a row did not have it")


def test_two_overlapping_runs_open_one_issue_and_lose_no_count(tmp_path):
    with FakeGitHub(token="t0ken", state={"repos": {"o/r": {}}}) as srv:
        # Both runs list, find nothing and create: the creation answers late, so they overlap.
        srv.add_fault("POST", r"/issues$", "delay", times=2, seconds=0.5)
        results = {}

        def one(key):
            results[key] = issues_run(tmp_path / key, srv, "pr", {B: "flaky"}, key)

        for key in ("x", "y"):
            (tmp_path / key).mkdir()
        threads = [threading.Thread(target=one, args=(k,)) for k in ("x", "y")]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert all(r.code == 0 and r.outputs["updated"] == "true" for r in results.values()), results
        issues = flaky_issues(srv)
        assert len(issues) == 2  # the race happened: both created one
        open_ = [it for it in issues if it["state"] == "open"]
        assert len(open_) == 1
        assert state_of(open_[0])["flakes"] == 2
        assert sorted(state_of(open_[0])["applied"]) == ["x!", "y!"]
        for dup in (it for it in issues if it["state"] == "closed"):
            assert dup["comments"][0]["body"].startswith(f"Duplicate of #{open_[0]['number']}")
        assert marker_of(open_[0]) == "<!-- gatekit-flaky-test: tests/test_b.py::test_other[%2Drf] -->"


def test_api_down_mid_run_keeps_the_verdict_and_the_next_run_catches_up(tmp_path):
    pending = tmp_path / "pending.json"
    with FakeGitHub(token="t0ken", state={"repos": {"o/r": {}}}) as srv:
        # The first issue is created; every later write fails until the end of the run.
        srv.add_fault("POST", r"/issues$", "status", nth=2, times=None, status=503)
        run = issues_run(tmp_path, srv, "main", {A: "flaky", B: "flaky"}, "r1", "--pending", pending)
        assert run.code == 0, run.stdout + run.stderr  # the leg's verdict is unchanged
        assert run.outputs["updated"] == "false"
        assert "::warning title=Flaky-test issues not updated::the flaky-test issues were not updated: " in run.stdout
        assert "HTTP 503" in run.stdout
        assert "The issues were not updated" in run.summary
        journal = json.loads(pending.read_text())
        assert [r["key"] for r in journal["runs"]] == ["r1"]
        assert sorted(f["id"] for f in journal["runs"][0]["flakes"]) == [A, B]
        assert len(flaky_issues(srv)) == 1

        with srv.lock:
            srv.faults.clear()
        run = issues_run(tmp_path, srv, "main", {A: "passed", B: "passed"}, "r2", "--pending", pending)
        assert run.code == 0 and run.outputs["updated"] == "true", run.stdout + run.stderr
        assert "Caught up with 1 earlier run(s)" in run.summary
        issues = flaky_issues(srv)
        assert len(issues) == 2
        by_marker = {marker_of(it): state_of(it) for it in issues}
        for state in by_marker.values():
            assert state["flakes"] == 1  # r1 counted once, though its first issue was written before the failure
            assert state["greens"] == 1  # and r2's green on top
        assert json.loads(pending.read_text())["runs"] == []


def test_without_a_repository_it_is_a_usage_error(tmp_path):
    report = junit(tmp_path / "r.xml", {A: "flaky"})
    done = subprocess.run([str(TOOL), "issues", "--report", str(report), "--kind", "pr"], capture_output=True,
                          text=True, env={"PATH": os.environ["PATH"]})
    assert done.returncode == 2
    assert done.stderr == "flaky-tracker: error: --repo: not given, and GITHUB_REPOSITORY is not set\n"
