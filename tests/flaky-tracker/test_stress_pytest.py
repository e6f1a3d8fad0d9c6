"""flaky-tracker stress on real pytest runs: copies in parallel under CPU load; a test that
failed in some copies and passed in others is flaky in the merged report, one that failed in
every copy is broken; the step never fails. `issues --kind stress` opens (and reopens) an issue
for both."""
import json
import os
import sys

from flaky_fixtures import cases, copy_suite, run_tool

sys.path.insert(0, os.path.join(os.environ.get("GATEKIT_SOURCE_DIR", "."), "tests", "github_api"))
from server import FakeGitHub  # noqa: E402


def test_stress_copies_in_parallel_find_the_flakes_and_never_fail(tmp_path):
    project = copy_suite("mixed", tmp_path / "p")
    run = run_tool("stress", "--times", "4", "--parallel", "2", "--hog", "1", "--cwd", project,
                   "--output", tmp_path / "stress.xml", "--", sys.executable, "-m", "pytest", "-q", "-p",
                   "no:cacheprovider", "-p", "no:rerunfailures", "-k", "flaky or broken", "--junitxml={report}",
                   cwd=tmp_path, env={"FLAKY_RUN_DIR": str(project / "run-dir")})
    assert run.code == 0, run.stdout + run.stderr
    assert run.outputs["flaky"] == "4"
    merged = cases(tmp_path / "stress.xml")
    flaky = merged[("test_mixed", "test_flaky")]
    assert flaky.find("failure") is None
    assert 1 <= len(flaky.findall("flakyFailure")) <= 2  # the first copies raced for the first run
    broken = merged[("test_mixed", "test_broken")]
    assert broken.find("failure") is not None and len(broken.findall("rerunFailure")) == 3
    assert "| `test_mixed.py::test_broken` | failed every time | 4 of 4 |" in run.summary
    assert sorted(p.name for p in tmp_path.glob("stress-*.xml")) == [f"stress-{n}.xml" for n in range(1, 5)]


def test_a_copy_without_a_report_is_a_warning_not_a_failure(tmp_path):
    run = run_tool("stress", "--times", "2", "--output", tmp_path / "stress.xml", "--command",
                   "false {report}", cwd=tmp_path, env={"GITHUB_ACTIONS": "true"})
    assert run.code == 0
    assert run.stdout.count("::warning title=Stress copy without a report::") == 2
    assert "0 of 2 copies left a report" in run.summary


def stress_issues(tmp_path, srv, report, key):
    return run_tool("issues", "--report", report, "--kind", "stress", "--repo", "o/r", "--run-key", key,
                    "--api-budget", "5", cwd=tmp_path,
                    env={"GITHUB_API_URL": srv.base_url, "GITHUB_TOKEN": "t0ken", "GITHUB_ACTIONS": "true"})


def test_a_test_failing_in_every_copy_under_load_opens_and_reopens_its_issue(tmp_path):
    project = copy_suite("mixed", tmp_path / "p")
    run = run_tool("stress", "--times", "2", "--parallel", "2", "--hog", "1", "--cwd", project,
                   "--output", tmp_path / "stress.xml", "--", sys.executable, "-m", "pytest", "-q", "-p",
                   "no:cacheprovider", "-p", "no:rerunfailures", "-o", "junit_family=xunit1", "-k",
                   "flaky or broken or ok", "--junitxml={report}",
                   cwd=tmp_path, env={"FLAKY_RUN_DIR": str(project / "run-dir")})
    assert run.code == 0, run.stdout + run.stderr
    assert "| `test_mixed.py::test_broken` | failed every time | 2 of 2 |" in run.summary
    with FakeGitHub(token="t0ken", state={"repos": {"o/r": {}}}) as srv:
        done = stress_issues(tmp_path, srv, tmp_path / "stress.xml", "s1")
        assert done.code == 0 and done.outputs["updated"] == "true", done.stdout + done.stderr
        issues = {it["title"]: it for it in srv.repos["o/r"]["issues"].values()}
        broken = issues["Flaky test: test_mixed.py::test_broken"]
        assert "always broken" in broken["body"]
        assert "Flaky test: test_mixed.py::test_flaky" in issues
        assert "Flaky test: test_mixed.py::test_ok" not in issues
        assert int(done.outputs["flaky"]) == len(issues)

        broken["state"] = "closed"  # closed by hand: the next stress run where it fails reopens it
        done = stress_issues(tmp_path, srv, tmp_path / "stress.xml", "s2")
        assert done.code == 0, done.stdout + done.stderr
        assert broken["state"] == "open"
        assert broken["comments"][-1]["body"].startswith("Reopened: this test flaked again in a stress run")
        state = json.loads(broken["body"].split("\n")[1][len("<!-- gatekit-flaky-state: "):-4])
        assert state["flakes"] == 2
