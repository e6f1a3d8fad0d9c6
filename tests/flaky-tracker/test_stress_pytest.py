"""flaky-tracker stress on real pytest runs: copies in parallel under CPU load; a test that
failed in some copies and passed in others is flaky in the merged report, one that failed in
every copy is broken; the step never fails."""
import sys

from flaky_fixtures import cases, copy_suite, run_tool


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
