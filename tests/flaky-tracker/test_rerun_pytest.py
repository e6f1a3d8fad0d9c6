"""flaky-tracker rerun on real pytest runs of a fixture suite with deterministic flakiness,
with pytest-rerunfailures absent (blocked with -p no:rerunfailures) and present, and on a
real CTest run (the {names} form)."""
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from flaky_fixtures import cases, copy_suite, pytest_run, run_tool

FLAKY = ["test_flaky", "test_flaky_param[-rf]", "test_flaky_param[--help]", "test_flaky_param[a b]"]
NOT_BROKEN = ["-k", "not broken and not setup_error"]


def rerun(project, *extra, actions=True):
    env = {"FLAKY_RUN_DIR": str(project / "run-dir")}
    if actions:
        env["GITHUB_ACTIONS"] = "true"
    return run_tool("rerun", "--report", project / "report.xml", *extra, cwd=project, env=env)


def test_failures_that_pass_alone_are_flaky_warnings_and_the_leg_passes(tmp_path):
    project = copy_suite("mixed", tmp_path / "p")
    first = pytest_run(project, project / "report.xml", "-p", "no:rerunfailures", *NOT_BROKEN)
    assert first.returncode == 1, first.stdout
    run = rerun(project)
    assert run.code == 0, run.stdout + run.stderr
    assert run.outputs["result"] == "pass"
    assert run.outputs["flaky"] == "4"
    assert run.outputs["flaky-tests"].splitlines() == [f"test_mixed.py::{n}" for n in FLAKY]
    warnings = [line for line in run.stdout.splitlines() if line.startswith("::warning")]
    assert len(warnings) == 4
    assert warnings[0].startswith("::warning file=test_mixed.py,title=Flaky test::test_mixed.py::test_flaky is flaky: "
                                  "failed, then passed on rerun 1 of 1: AssertionError: failed the first time")
    # The rerun's own output is in the log, inside its group, line by line through the inert
    # log (the core's test pass): every workflow command in stdout is ours.
    commands = {line[2:].split("::")[0].split(" ")[0] for line in run.stdout.splitlines() if line.startswith("::")}
    assert commands == {"warning", "group", "endgroup"}
    rerun_log = run.stdout.split("::group::rerun 1 of 1: 4 tests\n")[1].split("::endgroup::")[0]
    assert re.search(r"^=+ 4 passed in ", rerun_log, re.M), rerun_log
    merged = cases(project / "report.xml")
    flaky = merged[("test_mixed", "test_flaky")]
    assert flaky.find("failure") is None
    assert flaky.find("flakyFailure").get("message").startswith("AssertionError: failed the first time")
    assert "test_mixed.py" in flaky.find("flakyFailure/stackTrace").text
    assert merged[("test_mixed", "test_ok")].find("flakyFailure") is None
    suite = ET.parse(project / "report.xml").getroot().find("testsuite")  # pytest's root declares no counts
    assert suite.get("failures") == "0" and suite.get("tests") == "5"
    assert "Pass, with a warning" in run.summary and "`test_mixed.py::test_flaky_param[--help]`" in run.summary


def test_a_test_that_fails_again_fails_the_leg_and_errors_are_never_rerun(tmp_path):
    project = copy_suite("mixed", tmp_path / "p")
    pytest_run(project, project / "report.xml", "-p", "no:rerunfailures")
    run = rerun(project, "--times", "2")
    assert run.code == 1, run.stdout + run.stderr
    assert run.outputs["result"] == "fail"
    assert run.outputs["failed"] == "2"
    assert "failed: test_mixed.py::test_broken (failed again on 2 reruns: AssertionError: always broken" in run.stdout
    # pytest printed the broken test's output with its failure: in the log, never a command.
    assert run.stdout.count("\\x3a:error::printed by test_broken\n") == 2
    assert not [line for line in run.stdout.splitlines() if line.lstrip().startswith("::error::printed")]
    assert ("failed: test_mixed.py::test_setup_error (an error (collection, setup or teardown) is never flaky: "
            "failed on setup with \"RuntimeError: setup cannot start\")") in run.stdout
    merged = cases(project / "report.xml")
    broken = merged[("test_mixed", "test_broken")]
    assert broken.find("failure").get("message").startswith("AssertionError: always broken")
    assert [e.tag for e in broken if e.tag == "rerunFailure"] == ["rerunFailure", "rerunFailure"]
    assert merged[("test_mixed", "test_setup_error")].find("error") is not None
    assert merged[("test_mixed", "test_flaky")].find("flakyFailure") is not None  # the flaky ones still recorded
    # Only the failures were rerun: the second rerun had only the broken test left.
    assert (project / "rerun-1.xml").exists() and len(cases(project / "rerun-2.xml")) == 1


def test_more_failures_than_the_limit_is_breakage_and_nothing_is_rerun(tmp_path):
    project = copy_suite("mixed", tmp_path / "p")
    pytest_run(project, project / "report.xml", "-p", "no:rerunfailures")
    run = rerun(project, "--max-failures", "3")
    assert run.code == 1
    assert "6 tests failed, more than --max-failures 3: real breakage, nothing was rerun" in run.stdout
    assert not (project / "rerun-1.xml").exists()


def test_with_pytest_rerunfailures_the_in_process_reruns_are_surfaced_not_hidden(tmp_path):
    pytest.importorskip("pytest_rerunfailures", reason="tests/requirements.txt installs pytest-rerunfailures")
    project = copy_suite("mixed", tmp_path / "p")
    first = pytest_run(project, project / "report.xml", "--reruns", "1", *NOT_BROKEN)
    assert first.returncode == 0, first.stdout  # the plugin hid the flakes: the run is green
    written = (project / "report.xml").read_bytes()
    run = rerun(project)
    assert run.code == 0, run.stdout + run.stderr
    assert run.outputs["flaky"] == "4"
    assert "test_mixed.py::test_flaky is flaky: failed, then passed after 1 earlier attempt recorded in the report" in run.stdout
    assert not (project / "rerun-1.xml").exists()  # nothing left to rerun
    # Nothing to change: the report stays as the plugin wrote it, one case per attempt, which
    # every later reader folds the same way (the issues see the flakes too).
    assert (project / "report.xml").read_bytes() == written
    assert len(case_list(project / "report.xml")) == 9
    again = rerun(project)
    assert again.code == 0 and again.outputs["flaky"] == "4"


@pytest.mark.parametrize("family", ["xunit1", "xunit2"])
def test_pytest_rerunfailures_under_a_suite_name_of_its_own_still_folds(tmp_path, family):
    # junit_suite_name replaces <testsuite name="pytest">; with xunit2 no `file` attribute is
    # left either: the root pytest 8.4+ always names "pytest tests" marks the report as pytest's,
    # so its repeated cases are read as attempts, never as distinct tests.
    pytest.importorskip("pytest_rerunfailures", reason="tests/requirements.txt installs pytest-rerunfailures")
    project = copy_suite("mixed", tmp_path / "p")
    first = pytest_run(project, project / "report.xml", "--reruns", "1", "-o", "junit_suite_name=cpu-3.12",
                       "-o", f"junit_family={family}", *NOT_BROKEN)
    assert first.returncode == 0, first.stdout
    assert 'name="cpu-3.12"' in (project / "report.xml").read_text()
    run = rerun(project)
    assert run.code == 0, run.stdout + run.stderr
    assert run.outputs["flaky"] == "4"
    assert len(cases(project / "report.xml")) == 5


def test_a_report_without_failures_is_read_and_passes(tmp_path):
    project = copy_suite("mixed", tmp_path / "p")
    pytest_run(project, project / "report.xml", "-k", "test_ok")
    run = rerun(project)
    assert run.code == 0
    assert run.outputs["flaky"] == "0"
    assert "**Pass**: no test failed." in run.summary


def test_an_unreadable_report_could_not_be_evaluated(tmp_path):
    (tmp_path / "report.xml").write_text("<testsuites><testsuite name='pytest'><testcase")
    run = run_tool("rerun", "--report", "report.xml", cwd=tmp_path)
    assert run.code == 3
    assert run.stderr.startswith("flaky-tracker: error: report.xml:1:")
    assert "the report ends early" in run.stderr
    assert run.outputs["result"] == "error"


def test_ctest_form_reruns_by_exact_name(tmp_path):
    build = tmp_path / "build"
    build.mkdir()
    (tmp_path / "seen").mkdir()
    script = tmp_path / "flaky.sh"
    script.write_text(f'#!/bin/sh\n[ -e "{tmp_path}/seen/$1" ] && exit 0\ntouch "{tmp_path}/seen/$1"; exit 1\n')
    script.chmod(0o755)
    (build / "CTestTestfile.cmake").write_text(
        f'add_test(ok "true")\nadd_test(flaky.one "{script}" one)\nadd_test(flaky_one "{script}" two)\n'
        f'add_test(broken "false")\n')
    report = build / "report.xml"
    subprocess.run(["ctest", "--test-dir", str(build), "--output-junit", str(report)], capture_output=True)
    run = run_tool("rerun", "--report", report, "--command",
                   f"ctest --test-dir {build} --output-junit {{report}} -R {{names}}", cwd=tmp_path)
    assert run.code == 1, run.stdout + run.stderr
    assert run.outputs["flaky"] == "2" and run.outputs["failed"] == "1"
    assert "failed: broken::broken (failed again on 1 rerun" in run.stdout or "failed: broken" in run.stdout
    rerun_names = sorted(c[1] for c in cases(tmp_path / "build" / "rerun-1.xml"))
    assert rerun_names == ["broken", "flaky.one", "flaky_one"]  # `.` matched literally: ok and no others


def test_a_run_with_junit_prefix_matches_its_reruns(tmp_path):
    project = copy_suite("mixed", tmp_path / "p")
    pytest_run(project, project / "report.xml", "-p", "no:rerunfailures", "--junit-prefix=py312", "-k", "test_flaky")
    assert 'classname="py312.test_mixed"' in (project / "report.xml").read_text()
    # The rerun writes the prefix too (the leg's own options): its report is read the same way.
    run = rerun(project, "--junit-prefix", "py312", "--command",
                f"{sys.executable} -m pytest -p no:cacheprovider --junit-prefix=py312 --junitxml={{report}} -- {{tests}}")
    assert run.code == 0, run.stdout + run.stderr
    assert run.outputs["flaky-tests"].splitlines() == [f"test_mixed.py::{n}" for n in FLAKY]


# A unittest mixin (tests/common.py) inherited by TestTF (tests/test_tf.py) and TestTorch
# (tests/test_torch.py): xunit1 writes file="tests/common.py" for the methods of both classes.
# test_shared is broken in TestTF alone; test_flip fails the first time in each class.
MIXIN_IDS = [
    "tests/test_tf.py::TestTF::test_flip", "tests/test_tf.py::TestTF::test_shared", "tests/test_tf.py::TestA::test_same",
    "tests/test_torch.py::TestTorch::test_flip", "tests/test_torch.py::TestTorch::test_shared",
    "tests/test_torch.py::TestA::test_same", "tests/test_torch.py::TestA::TestInner::test_same",
    "tests/test_torch.py::test_param[1]", "tests/test_torch.py::test_param[a.b]",
    "tests/test_torch.py::test_param[x::y]", "tests/test_torch.py::test_same",
]
NO_RERUNS = ["-p", "no:rerunfailures"]


def case_list(report):
    return list(ET.parse(report).iter("testcase"))


@pytest.mark.parametrize("family", ["xunit1", "xunit2"])
def test_a_mixin_test_failing_in_one_class_and_passing_in_another_is_a_failure_not_a_flake(tmp_path, family):
    project = copy_suite("mixins", tmp_path / "p")
    first = pytest_run(project, project / "report.xml", *NO_RERUNS, "-o", f"junit_family={family}", "-k", "not flip")
    assert first.returncode == 1, first.stdout
    if family == "xunit1":  # the shape that made both classes' test_shared one id
        shared = [c for c in case_list(project / "report.xml") if c.get("name") == "test_shared"]
        assert [(c.get("classname"), c.get("file")) for c in shared] == [
            ("tests.test_tf.TestTF", "tests/common.py"), ("tests.test_torch.TestTorch", "tests/common.py")]
    run = rerun(project)
    assert run.code == 1, run.stdout + run.stderr
    assert run.outputs["failed"] == "1" and run.outputs["flaky"] == "0"
    assert ("failed: tests/test_tf.py::TestTF::test_shared (failed again on 1 rerun: AssertionError: broken for tf only"
            in run.stdout)
    merged = case_list(project / "report.xml")
    assert len(merged) == 9  # every test kept: none merged into another
    torch = cases(project / "report.xml")[("tests.test_torch.TestTorch", "test_shared")]
    assert torch.find("failure") is None and torch.find("flakyFailure") is None


MIXIN_RUNS = {
    "plain": NO_RERUNS,
    "reruns": ["--reruns", "1"],
    "reruns-xdist": ["--reruns", "1", "-n", "2"],
    "prefix": [*NO_RERUNS, "--junit-prefix=py312"],
}


@pytest.mark.parametrize("family", ["xunit1", "xunit2"])
@pytest.mark.parametrize("shape", MIXIN_RUNS)
def test_mixin_flakes_are_told_apart_per_class_and_every_test_keeps_its_case(tmp_path, family, shape):
    if "reruns" in shape:
        pytest.importorskip("pytest_rerunfailures", reason="tests/requirements.txt installs pytest-rerunfailures")
    if "xdist" in shape:
        pytest.importorskip("xdist", reason="tests/requirements.txt installs pytest-xdist")
    project = copy_suite("mixins", tmp_path / "p")
    pytest_run(project, project / "report.xml", "-o", f"junit_family={family}", *MIXIN_RUNS[shape])
    extra = []
    if shape == "prefix":
        extra = ["--junit-prefix", "py312", "--command",
                 f"{sys.executable} -m pytest -p no:cacheprovider -p no:rerunfailures --junit-prefix=py312 "
                 "--junitxml={report} -- {tests}"]
    run = rerun(project, *extra)
    assert run.code == 1, run.stdout + run.stderr
    assert run.outputs["failed"] == "1", run.stdout
    assert sorted(run.outputs["flaky-tests"].splitlines()) == [
        "tests/test_tf.py::TestTF::test_flip", "tests/test_torch.py::TestTorch::test_flip"]
    assert "failed: tests/test_tf.py::TestTF::test_shared (failed again on 1 rerun" in run.stdout
    merged = case_list(project / "report.xml")
    # No test lost, none merged into another; pytest-rerunfailures' attempts stay as it wrote
    # them (one case each), the others one case per test.
    assert len({(c.get("classname"), c.get("name")) for c in merged}) == len(MIXIN_IDS)
    if "reruns" not in shape:
        assert len(merged) == len(MIXIN_IDS)


@pytest.mark.parametrize("family", ["xunit1", "xunit2"])
@pytest.mark.parametrize("reruns", [[], ["--reruns", "1"]])
def test_a_failed_call_then_a_teardown_error_is_one_test_that_failed(tmp_path, family, reruns):
    if reruns:
        pytest.importorskip("pytest_rerunfailures", reason="tests/requirements.txt installs pytest-rerunfailures")
    (tmp_path / "test_td.py").write_text(
        "import pytest\n\n@pytest.fixture\ndef bad_teardown():\n    yield\n    raise RuntimeError('teardown boom')\n\n"
        "def test_fail_td(bad_teardown):\n    assert False, 'call boom'\n\ndef test_ok():\n    pass\n")
    (tmp_path / "run-dir").mkdir()
    pytest_run(tmp_path, tmp_path / "report.xml", *(reruns or NO_RERUNS), "-o", f"junit_family={family}")
    written = [c.get("name") for c in case_list(tmp_path / "report.xml")]
    assert written.count("test_fail_td") == (3 if reruns else 2)  # pytest's own shape: two cases for one test
    before = (tmp_path / "report.xml").read_bytes()
    run = rerun(tmp_path)
    assert run.code == 1, run.stdout + run.stderr
    assert run.outputs["failed"] == "1" and run.outputs["flaky"] == "0"
    assert ("failed: test_td.py::test_fail_td (an error (collection, setup or teardown) is never flaky: failed on "
            "teardown with \"RuntimeError: teardown boom\")") in run.stdout
    assert (tmp_path / "report.xml").read_bytes() == before  # nothing rerun: nothing to change


@pytest.mark.parametrize("family", ["xunit1", "xunit2"])
def test_a_suite_declaring_a_failure_its_cases_do_not_show_could_not_be_evaluated(tmp_path, family):
    # A real pytest report with the failed test's case gone (a writer cut short between cases,
    # a runner that died outside any test): the suite still declares failures="1".
    project = copy_suite("mixed", tmp_path / "p")
    pytest_run(project, project / "report.xml", *NO_RERUNS, "-o", f"junit_family={family}", "-k", "ok or broken")
    text = (project / "report.xml").read_text()
    start = text.index('<testcase classname="test_mixed" name="test_broken"')
    text = text[:start] + text[text.index("</testcase>", start) + len("</testcase>"):]
    assert 'failures="1"' in text and "<failure" not in text
    (project / "report.xml").write_text(text)
    before = text
    run = rerun(project)
    assert run.code == 3, run.stdout + run.stderr
    assert run.outputs["result"] == "error"
    assert run.stderr == (f"flaky-tracker: error: {project / 'report.xml'}:1: <testsuite name=\"pytest\"> declares 1 "
                          "failures and errors, but its test cases show 0: the runner failed outside any test, or the "
                          "report was cut short; the report cannot say whether the tests passed\n")
    assert (project / "report.xml").read_text() == before  # not rewritten as a pass


@pytest.mark.parametrize("family", ["xunit1", "xunit2"])
def test_parametrised_ids_that_differ_only_after_4_kb_are_two_tests(tmp_path, family):
    (tmp_path / "test_long.py").write_text(
        "import pytest\n\nLONG = ['a' * 5000 + '1', 'a' * 5000 + '2']\n\n@pytest.mark.parametrize('s', LONG, ids=LONG)\n"
        "def test_p(s):\n    assert s.endswith('2'), 'broken for 1'\n")
    (tmp_path / "run-dir").mkdir()
    pytest_run(tmp_path, tmp_path / "report.xml", *NO_RERUNS, "-o", f"junit_family={family}")
    run = rerun(tmp_path)
    assert run.code == 1, run.stdout[-2000:] + run.stderr
    assert run.outputs["failed"] == "1" and run.outputs["flaky"] == "0"
    assert f"failed: test_long.py::test_p[{'a' * 5000}1] (failed again on 1 rerun: AssertionError: broken for 1" in run.stdout
    assert len(case_list(tmp_path / "report.xml")) == 2


@pytest.mark.parametrize("family", ["xunit1", "xunit2"])
def test_subtests_failing_several_times_in_one_case_are_counted_as_pytest_declares_them(tmp_path, family):
    # pytest 9 writes each failed subtest as one more <failure> in the test's one <testcase>
    # (and the subtests fixture one more for the test): failures="6" over 3 cases agrees.
    (tmp_path / "test_sub.py").write_text(
        "import unittest\n\nclass TestU(unittest.TestCase):\n    def test_two(self):\n        for i in range(3):\n"
        "            with self.subTest(i=i):\n                self.assertEqual(i, 0)\n\n"
        "def test_fixture(subtests):\n    for i in range(3):\n        with subtests.test(i=i):\n            assert i == 0\n\n"
        "def test_ok(subtests):\n    with subtests.test(i=0):\n        pass\n")
    (tmp_path / "run-dir").mkdir()
    pytest_run(tmp_path, tmp_path / "report.xml", *NO_RERUNS, "-o", f"junit_family={family}")
    suite = ET.parse(tmp_path / "report.xml").getroot().find("testsuite")
    assert suite.get("failures") == "5" and len(suite.findall("testcase")) == 3
    run = rerun(tmp_path)
    assert run.code == 1, run.stdout + run.stderr
    assert run.outputs["failed"] == "2" and run.outputs["flaky"] == "0"
