"""flaky-tracker's files that replace an earlier good one, written on a full disk (a real
tmpfs, tests/support/full_disk.py): the journal of `issues` (--pending) and the merged
report of `rerun` (--report, merged in place). The write fails and says so (exit 3), and the
earlier file is left whole: no flake, no test result is lost."""
import os
import subprocess
import sys
from pathlib import Path
from xml.sax.saxutils import quoteattr

from flaky_fixtures import run_tool

sys.path.insert(0, os.path.join(os.environ.get("GATEKIT_SOURCE_DIR", "."), "tests", "github_api"))
from server import FakeGitHub  # noqa: E402


def flaky_report(path: Path, tests) -> Path:
    """A report whose tests all flaked, each with a 3,000-byte trace (journalled whole)."""
    cases = "".join(f'<testcase classname="tests.test_a" name={quoteattr(t)}><flakyFailure message="AssertionError: boom">'
                    f"<stackTrace>{'E' * 3000}</stackTrace></flakyFailure></testcase>" for t in tests)
    path.write_text(f'<?xml version="1.0"?><testsuites><testsuite name="pytest">{cases}</testsuite></testsuites>')
    return path


def issues(tmp_path, srv, report, key, pending, full_disk=None):
    return run_tool("issues", "--report", report, "--kind", "pr", "--repo", "o/r", "--run-key", key,
                    "--pending", pending, "--api-budget", "5", cwd=tmp_path, full_disk=full_disk,
                    env={"GITHUB_API_URL": srv.base_url, "GITHUB_TOKEN": "t0ken", "GITHUB_ACTIONS": "true"})


def test_issues_on_a_full_disk_keeps_the_journal_it_had(tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    pending = disk / "pending.json"
    with FakeGitHub(token="another", state={"repos": {"o/r": {}}}) as srv:  # 401: every flake is journalled
        first = issues(tmp_path, srv, flaky_report(tmp_path / "r1.xml", [f"test_{i}" for i in range(8)]), "r1", pending)
        assert first.code == 0, first.stdout + first.stderr
        before = pending.read_bytes()
        assert b"tests/test_a.py::test_7" in before
        second = issues(tmp_path, srv, flaky_report(tmp_path / "r2.xml", [f"test_{i}" for i in range(8, 16)]), "r2",
                        pending, full_disk=disk)
    assert pending.read_bytes() == before  # whole: r1's flakes wait for the next run
    assert second.code == 3, second.stdout + second.stderr
    assert second.stderr.splitlines()[-1] == f"flaky-tracker: error: cannot write {pending}.tmp: No space left on device"
    assert sorted(p.name for p in disk.iterdir()) == ["pending.json"]


FLAKY_SUITE = """\
import os
import pathlib

import pytest

RUNS = pathlib.Path(os.environ["FLAKY_RUN_DIR"])


@pytest.mark.parametrize("i", range(8))
def test_flaky(i):
    count = RUNS / f"count{i}"
    n = int(count.read_text()) if count.exists() else 0
    count.write_text(str(n + 1))
    assert n >= 2, "attempt %d failed: %s" % (n, "x" * 6000 if n else "first")
"""


def test_rerun_on_a_full_disk_keeps_the_report_it_merges_into(tmp_path):
    project = tmp_path / "p"
    (project / "runs").mkdir(parents=True)
    (project / "test_suite.py").write_text(FLAKY_SUITE)
    disk = tmp_path / "disk"
    disk.mkdir()
    (tmp_path / "work").mkdir()  # the reruns' reports: on another disk
    report = disk / "report.xml"
    env = {"FLAKY_RUN_DIR": str(project / "runs")}
    first = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:rerunfailures",
                            f"--junitxml={report}"], cwd=project, env={**os.environ, **env}, capture_output=True,
                           text=True, timeout=300)
    assert first.returncode == 1, first.stdout
    before = report.read_bytes()
    # Two reruns (the first fails again with a long message, the second passes): the merged
    # report is larger than the run's, so it needs room the full disk does not have.
    run = run_tool("rerun", "--report", report, "--times", "2", "--work-dir", tmp_path / "work", cwd=project, env=env,
                   full_disk=disk)
    assert report.read_bytes() == before  # the leg's results, all of them
    assert run.code == 3, run.stdout + run.stderr
    assert run.stderr.splitlines()[-1] == f"flaky-tracker: error: cannot write {report}.tmp: No space left on device"
    assert sorted(p.name for p in disk.iterdir()) == ["report.xml"]
