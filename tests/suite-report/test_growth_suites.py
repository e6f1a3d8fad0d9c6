"""suite-report growth on reports of real pytest runs (both JUnit families): a main run stores
the baseline, then changes that add 120 tests, 90 s of tests, or a little, that remove 150,
or whose parametrised names differ only after byte 256, are compared with it; a missing
baseline and a baseline of another configuration are notices, never failures."""
import json

import pytest

from suite_fixtures import make_project, run_pytest, run_tool

MARKERS = ("gpu", "rocm", "nightly", "docs", "reported_seconds")

# pytest's JUnit time of a test is the duration of its phases; a test marked
# reported_seconds(S) reports S seconds for its call phase, so "90 s of new tests" needs no
# 90 s of waiting.
CONFTEST = """
    import pytest

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(item, call):
        outcome = yield
        report = outcome.get_result()
        marker = item.get_closest_marker("reported_seconds")
        if marker is not None and report.when == "call":
            report.duration = float(marker.args[0])
"""

BASE = {
    "tests/conftest.py": CONFTEST,
    "tests/test_base.py": """
        import pytest

        @pytest.mark.parametrize("n", range(200))
        def test_base(n):
            assert n >= 0
    """,
}

KEY = ["--workflow", "cpu-tests.yml", "--job", "tests", "--python-version", "3.12"]


def project_with(tmp_path, extra=None):
    return make_project(tmp_path / "p", {**BASE, **(extra or {})}, markers=MARKERS)


FAMILIES = {"xunit2": {}, "xunit1": {"PYTEST_ADDOPTS": "-o junit_family=xunit1"}}


def read_baseline(path):
    """suite-baseline.json: JSON Lines, a header, then [identity, seconds, display] per test."""
    header, *tests = [json.loads(line) for line in path.read_text().splitlines()]
    assert header["tests"] == len(tests)
    return header, tests


def main_run(tmp_path, extra=None, family="xunit2"):
    """A push to main: run the leg, write the next baseline."""
    project = project_with(tmp_path / "main", extra)
    run_pytest(project, "(not gpu and not rocm) and not nightly", tmp_path / "main.xml", FAMILIES[family])
    run = run_tool("growth", "--selection", "suite.yml", "--leg", "cpu", "--context", "main", "--report",
                   tmp_path / "main.xml", "--write-baseline", tmp_path / "suite-baseline.json", *KEY, cwd=project,
                   env={"GITHUB_SHA": "a" * 40, "GITHUB_RUN_ID": "500"})
    assert run.code == 0, run.stdout + run.stderr
    assert run.outputs["baseline"] == "none"
    return tmp_path / "suite-baseline.json"


def pr_run(tmp_path, extra, baseline, *args, env=None, family="xunit2", base=None):
    project = make_project(tmp_path / "pr", {**(BASE if base is None else base), **(extra or {})}, markers=MARKERS)
    run_pytest(project, "(not gpu and not rocm) and not nightly", tmp_path / "pr.xml", FAMILIES[family])
    return run_tool("growth", "--selection", "suite.yml", "--leg", "cpu", "--context", "pr", "--report",
                    tmp_path / "pr.xml", "--baseline", baseline, *KEY, *args, cwd=project, env=env)


def test_the_main_run_stores_a_keyed_baseline(tmp_path):
    baseline, tests = read_baseline(main_run(tmp_path))
    assert baseline["format"] == "gatekit-suite-baseline"
    assert baseline["version"] == 3
    assert baseline["identity"] == "sha256-128+64"
    assert baseline["key"] == {"workflow": "cpu-tests.yml", "job": "tests", "python": "3.12",
                               "selection": "(not gpu and not rocm) and not nightly"}
    assert len(tests) == 200
    # In report order: identity (48 hex digits), seconds, display id.
    assert [t[2] for t in tests[:2]] == ["tests/test_base.py::test_base[0]", "tests/test_base.py::test_base[1]"]
    assert all(len(t[0]) == 48 and isinstance(t[1], float) for t in tests)
    assert baseline["history"][0]["sha"] == "a" * 40
    assert baseline["history"][0]["run"] == "500"
    assert baseline["history"][0]["tests"] == 200


def test_a_change_that_adds_120_tests_gets_a_notice(tmp_path):
    baseline = main_run(tmp_path)
    run = pr_run(tmp_path, {"tests/test_new.py": """
        import pytest

        @pytest.mark.parametrize("n", range(120))
        def test_new(n):
            pass
    """}, baseline, env={"GITHUB_ACTIONS": "true"})
    assert run.code == 0, run.stdout + run.stderr
    assert "::notice title=suite growth::This change adds 120 tests (" in run.stdout
    assert run.outputs["new-tests"] == "120"
    assert run.outputs["notice"] == "true"
    assert run.outputs["baseline"] == "found"
    assert "## 📈 Suite growth: +120 tests" in run.summary
    assert "| tests | 200 | 320 | +120 |" in run.summary
    assert "```mermaid\nxychart-beta" in run.summary
    assert 'x-axis ["aaaaaaa", "this run"]' in run.summary
    assert "bar [200, 320]" in run.summary


def test_a_change_that_adds_90_seconds_of_tests_gets_a_notice(tmp_path):
    baseline = main_run(tmp_path)
    run = pr_run(tmp_path, {"tests/test_slow.py": """
        import pytest

        @pytest.mark.reported_seconds(30)
        @pytest.mark.parametrize("size", ["s", "m", "l"])
        def test_big_model(size):
            pass
    """}, baseline)
    assert run.code == 0, run.stdout + run.stderr
    assert run.outputs["new-tests"] == "3"
    assert run.outputs["notice"] == "true"
    assert ("notice: suite growth: This change adds 3 tests (1m 30s of test time): at or over the notice threshold of "
            "1m 00s of new test time (") in run.stdout
    assert "### Slowest new tests" in run.summary
    assert "| `tests/test_slow.py::test_big_model[l]` | 30.0s |" in run.summary


def test_a_small_change_is_reported_without_a_notice(tmp_path):
    baseline = main_run(tmp_path)
    run = pr_run(tmp_path, {"tests/test_new.py": "def test_one():\n    pass\n"}, baseline)
    assert run.code == 0
    assert run.outputs["new-tests"] == "1"
    assert run.outputs["notice"] == "false"
    assert "notice:" not in run.stdout
    assert "## Suite size: +1 tests" in run.summary


def test_thresholds_come_from_the_selection_file_or_the_options(tmp_path):
    baseline = main_run(tmp_path)
    extra = {"tests/test_new.py": "import pytest\n\n@pytest.mark.parametrize('n', range(5))\ndef test_n(n):\n    pass\n"}
    assert pr_run(tmp_path, extra, baseline, "--notice-tests", "5").outputs["notice"] == "true"
    project = project_with(tmp_path / "pr2", extra)
    with open(project / "suite.yml", "a") as f:
        f.write("growth: {notice-tests: 4}\n")
    run_pytest(project, "(not gpu and not rocm) and not nightly", tmp_path / "pr2.xml")
    run = run_tool("growth", "--selection", "suite.yml", "--leg", "cpu", "--context", "pr", "--report",
                   tmp_path / "pr2.xml", "--baseline", baseline, *KEY, cwd=project)
    assert run.outputs["notice"] == "true"


def test_a_missing_baseline_is_a_notice_never_a_failure(tmp_path):
    run = pr_run(tmp_path, {}, tmp_path / "nothing-downloaded" / "suite-baseline.json")
    assert run.code == 0, run.stdout + run.stderr
    assert ("notice: suite growth: no suite baseline yet for this configuration (workflow=cpu-tests.yml job=tests "
            "python=3.12 selection=(not gpu and not rocm) and not nightly); the next push to main stores one") \
        in run.stdout
    assert run.outputs["baseline"] == "none"
    assert "## Suite size: 200 tests" in run.summary


def test_a_baseline_of_another_configuration_is_not_compared(tmp_path):
    baseline = main_run(tmp_path)
    project = project_with(tmp_path / "pr")
    run_pytest(project, "(not gpu and not rocm) and not nightly", tmp_path / "pr.xml")
    run = run_tool("growth", "--selection", "suite.yml", "--leg", "cpu", "--context", "pr", "--report",
                   tmp_path / "pr.xml", "--baseline", baseline, "--workflow", "cpu-tests.yml", "--job", "tests",
                   "--python-version", "3.11", cwd=project)
    assert run.code == 0
    assert "the suite baseline is for another configuration" in run.stdout
    assert run.outputs["baseline"] == "none"


def test_a_broken_baseline_is_a_notice_but_a_broken_report_could_not_be_evaluated(tmp_path):
    broken = tmp_path / "suite-baseline.json"
    broken.write_text("{\"format\": ")
    run = pr_run(tmp_path, {}, broken)
    assert run.code == 0
    assert "the suite baseline cannot be read, growth is not compared" in run.stdout
    project = project_with(tmp_path / "x")
    (tmp_path / "cut.xml").write_text("<testsuites><testsuite name='pytest'><testcase name='a'>")
    run = run_tool("growth", "--selection", "suite.yml", "--leg", "cpu", "--context", "pr", "--report",
                   tmp_path / "cut.xml", *KEY, cwd=project)
    assert run.code == 3
    assert "the report ends early (cut short?)" in run.stderr


def test_history_grows_run_by_run_for_the_chart(tmp_path):
    baseline = main_run(tmp_path)
    project = project_with(tmp_path / "main2", {"tests/test_new.py": "def test_one():\n    pass\n"})
    run_pytest(project, "(not gpu and not rocm) and not nightly", tmp_path / "main2.xml")
    run = run_tool("growth", "--selection", "suite.yml", "--leg", "cpu", "--context", "main", "--report",
                   tmp_path / "main2.xml", "--baseline", baseline, "--write-baseline", tmp_path / "next.json", *KEY,
                   cwd=project, env={"GITHUB_SHA": "b" * 40, "GITHUB_RUN_ID": "501"})
    assert run.code == 0
    history = read_baseline(tmp_path / "next.json")[0]["history"]
    assert [(h["sha"][0], h["tests"]) for h in history] == [("a", 200), ("b", 201)]


@pytest.mark.parametrize("family", FAMILIES)
def test_names_that_differ_only_after_byte_256_are_two_tests(tmp_path, family):
    # Node ids of 335 bytes or so, alike for their first 331.
    long_tests = {"tests/test_long.py": """
        import pytest

        IDS = ["x" * 300 + "-one", "x" * 300 + "-two", "x" * 300 + "-three"]

        @pytest.mark.parametrize("text", IDS, ids=IDS)
        def test_long(text):
            pass
    """}
    baseline = main_run(tmp_path, family=family)
    run = pr_run(tmp_path, long_tests, baseline, "--notice-tests", "3", family=family)
    assert run.code == 0, run.stdout + run.stderr
    assert run.outputs["tests"] == "203"
    assert run.outputs["new-tests"] == "3"
    assert "This change adds 3 tests (" in run.stdout
    # Shown shortened, head and tail, so that each can still be told apart.
    assert "| `tests/test_long.py::test_long[" + "x" * 110 + "…(135 bytes)…" + "x" * 55 + "-two]` |" in run.summary
    # A main run with them stores three, and a change that keeps them adds none.
    main = tmp_path / "again"
    baseline = main_run(main, long_tests, family=family)
    assert len(read_baseline(baseline)[1]) == 203
    run = pr_run(main, long_tests, baseline, family=family)
    assert run.outputs["new-tests"] == "0"
    assert run.outputs["removed-tests"] == "0"


@pytest.mark.parametrize("family", FAMILIES)
def test_a_change_that_removes_150_tests_gets_a_notice_saying_removed(tmp_path, family):
    baseline = main_run(tmp_path, family=family)
    fewer = {"tests/conftest.py": CONFTEST, "tests/test_base.py": """
        import pytest

        @pytest.mark.parametrize("n", range(50))
        def test_base(n):
            assert n >= 0
    """}
    run = pr_run(tmp_path, {}, baseline, env={"GITHUB_ACTIONS": "true"}, family=family, base=fewer)
    assert run.code == 0, run.stdout + run.stderr
    assert ("::notice title=suite growth::This change removes 150 tests: at or over the notice threshold of 100 "
            "removed tests (workflow=cpu-tests.yml job=tests python=3.12 ") in run.stdout
    assert run.outputs["removed-tests"] == "150"
    assert run.outputs["new-tests"] == "0"
    assert run.outputs["notice"] == "true"
    assert "## 📉 Suite shrank: -150 tests" in run.summary
    assert "**reached: 100 removed tests**" in run.summary
    assert "<details><summary>150 removed tests</summary>\n\n- `tests/test_base.py::test_base[50]`\n" in run.summary
