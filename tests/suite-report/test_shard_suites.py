"""suite-report shard on a real pytest project: the baseline is a real JUnit report (both
JUnit families), each shard's list runs with real `pytest @FILE`, and together the shards run
every test of the leg exactly once. Each shard job collects on its own, as on its own runner:
shard-report proves from their plans that they split alike, and fails when they did not."""
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from suite_fixtures import make_project, run_tool

# Twelve GPU tests; four of them sleep, so the recorded durations differ a lot.
GPU_TESTS = {
    "tests/test_gpu.py": """
        import time
        import pytest

        pytestmark = pytest.mark.gpu

        @pytest.mark.parametrize("n", range(8))
        def test_quick(n):
            pass

        @pytest.mark.parametrize("n", range(4))
        def test_slow(n):
            time.sleep(0.3)
    """,
    "tests/test_cpu.py": """
        def test_cpu():
            pass
    """,
}


def ran_ids(junit):
    ids = []
    for case in ET.parse(junit).getroot().iter("testcase"):
        ids.append(case.get("classname").replace(".", "/") + ".py::" + case.get("name"))
    return ids


def run_shard_list(project, listing, junit):
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-m", "gpu", f"@{listing}", f"--junitxml={junit}"],
                          cwd=project, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return ran_ids(junit)


@pytest.mark.parametrize("family", ["xunit2", "xunit1"])
def test_shards_balanced_by_a_real_baseline_run_every_test_once(tmp_path, family):
    project = make_project(tmp_path / "p", GPU_TESTS)
    baseline = tmp_path / "baseline.xml"
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-m", "gpu", "-o", f"junit_family={family}",
                           f"--junitxml={baseline}"], cwd=project, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    lists = tmp_path / "lists"
    lists.mkdir()
    run = run_tool("shard", "--selection", project / "suite.yml", "--leg", "gpu", "--context", "pr", "--shards", "4",
                   "--out", lists, "--baseline", baseline, "--python", sys.executable, "--root", project, cwd=project)
    assert run.code == 0, run.stdout + run.stderr
    assert "12 of 12 tests had a recorded duration" in run.summary
    # Each slow test (0.3 s) leads its own shard; the quick ones fill in.
    ran = []
    for k in range(1, 5):
        text = (lists / f"shard-{k}.txt").read_text()
        assert sum("test_slow" in line for line in text.splitlines()) == 1, text
        ran += run_shard_list(project, lists / f"shard-{k}.txt", tmp_path / f"junit-{k}.xml")
    expected = [f"tests/test_gpu.py::test_quick[{n}]" for n in range(8)] + \
               [f"tests/test_gpu.py::test_slow[{n}]" for n in range(4)]
    assert sorted(ran) == sorted(expected)
    assert run.outputs["result"] == "pass"
    assert run.outputs["tests"] == "12"
    assert "timing: the split took" in run.stdout


def test_one_index_writes_one_list_and_the_same_split_every_time(tmp_path):
    project = make_project(tmp_path / "p", GPU_TESTS)
    texts = []
    for attempt in range(2):
        out = tmp_path / f"mine-{attempt}.txt"
        run = run_tool("shard", "--selection", project / "suite.yml", "--leg", "gpu", "--context", "pr",
                       "--shards", "3", "--index", "2", "--out", out, "--python", sys.executable, "--root", project,
                       cwd=project)
        assert run.code == 0, run.stdout + run.stderr
        assert run.outputs["tests"] == "4"
        assert run.outputs["file"] == str(out)
        texts.append(out.read_text())
    assert texts[0] == texts[1]
    assert "| 2 (this job) | 4 |" in run.summary


def test_a_missing_out_folder_could_not_be_written(tmp_path):
    project = make_project(tmp_path / "p", GPU_TESTS)
    run = run_tool("shard", "--selection", project / "suite.yml", "--leg", "gpu", "--context", "pr", "--shards", "2",
                   "--out", tmp_path / "absent", "--python", sys.executable, "--root", project, cwd=project)
    assert run.code == 3
    # Written whole beside its path, then renamed over it (Files::replace): the error names the sibling.
    assert run.stderr == f"suite-report: error: cannot write {tmp_path / 'absent' / 'shard-1.txt.tmp'}: No such file or directory\n"
    assert run.outputs["result"] == "error"


def shard_artifacts(tmp_path, project, shards, family="xunit2", skip=(), args=None, env=None, leg="gpu"):
    """What the shard jobs upload: gpu-shard-K-attempt1/list.txt, .../plan.json and .../junit.xml.
    args[k] and env[k] are shard k's own (another baseline, another collection order)."""
    reports = tmp_path / "artifacts"
    for k in range(1, shards + 1):
        if k in skip:
            continue
        folder = reports / f"{leg}-shard-{k}-attempt1"
        folder.mkdir(parents=True)
        run = run_tool("shard", "--selection", project / "suite.yml", "--leg", "gpu", "--context", "pr", "--shards",
                       str(shards), "--index", str(k), "--out", folder / "list.txt", "--plan", folder / "plan.json",
                       "--python", sys.executable, "--root", project, *(args or {}).get(k, ()), cwd=project,
                       env=(env or {}).get(k))
        assert run.code == 0, run.stdout + run.stderr
        if not (folder / "list.txt").read_text():
            continue  # an empty shard runs nothing
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-m", "gpu", "-o", f"junit_family={family}",
                               f"@{folder / 'list.txt'}", f"--junitxml={folder / 'junit.xml'}"],
                              cwd=project, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
    return reports


def ran_in_shards(reports, shards, leg="gpu"):
    """Each test's count of shards whose report ran it."""
    counts = {}
    for k in range(1, shards + 1):
        junit = reports / f"{leg}-shard-{k}-attempt1" / "junit.xml"
        for test in (ran_ids(junit) if junit.exists() else []):
            counts[test] = counts.get(test, 0) + 1
    return counts


@pytest.mark.parametrize("family", ["xunit2", "xunit1"])
def test_shard_report_merges_into_the_legs_report_that_growth_reads(tmp_path, family):
    project = make_project(tmp_path / "p", GPU_TESTS)
    reports = shard_artifacts(tmp_path, project, 3, family)
    merged = tmp_path / "merged.xml"
    run = run_tool("shard-report", "--leg", "gpu", "--shards", "3", "--reports", reports, "--out", merged, cwd=project)
    assert run.code == 0, run.stdout + run.stderr
    assert run.outputs["complete"] == "true"
    assert "| shard | tests | start | predicted | actual |" in run.summary
    assert "The slowest shard (" in run.summary and "over the ideal" in run.summary
    # growth reads the merged report as the whole leg: against a baseline of a one-runner
    # run of the same leg, nothing is new and nothing removed.
    whole = tmp_path / "whole.xml"
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-m", "gpu", f"--junitxml={whole}"],
                          cwd=project, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0
    growth = run_tool("growth", "--selection", project / "suite.yml", "--leg", "gpu", "--context", "pr",
                      "--report", merged, "--baseline", whole, "--python-version", "3.12", cwd=project)
    assert growth.code == 0, growth.stdout + growth.stderr
    assert growth.outputs["tests"] == "12"
    assert growth.outputs["new-tests"] == "0"
    assert growth.outputs["removed-tests"] == "0"


def test_a_shard_whose_runner_never_came_is_named_and_nothing_is_merged(tmp_path):
    project = make_project(tmp_path / "p", GPU_TESTS)
    reports = shard_artifacts(tmp_path, project, 3, skip=(2,))
    merged = tmp_path / "merged.xml"
    run = run_tool("shard-report", "--leg", "gpu", "--shards", "3", "--reports", reports, "--out", merged, cwd=project)
    # Its tests ran nowhere: the leg could not be evaluated.
    assert run.code == 3, run.stdout + run.stderr
    assert run.outputs["result"] == "error"
    assert run.outputs["complete"] == "false"
    assert not merged.exists()
    assert (f"warning: suite-report shard-report: shard 2 of 3: no list ({reports}/gpu-shard-2-attempt1/list.txt): "
            "the shard did not start, or its runner never came") in run.stdout
    assert "Some shards have no list, plan or report" in run.summary


def test_a_rerun_shard_s_newest_attempt_is_read(tmp_path):
    project = make_project(tmp_path / "p", GPU_TESTS)
    reports = shard_artifacts(tmp_path, project, 2)
    # Attempt 2 reran shard 1 only: its report now holds one test (a stand-in for the rerun's).
    rerun = reports / "gpu-shard-1-attempt2"
    rerun.mkdir()
    for name in ("list.txt", "plan.json"):
        (rerun / name).write_text((reports / "gpu-shard-1-attempt1" / name).read_text())
    (rerun / "junit.xml").write_text('<testsuites><testsuite name="pytest"><testcase classname="tests.test_gpu" '
                                     'name="test_quick[0]" time="7.5"/></testsuite></testsuites>')
    merged = tmp_path / "merged.xml"
    run = run_tool("shard-report", "--leg", "gpu", "--shards", "2", "--reports", reports, "--out", merged, cwd=project,
                   env={"GITHUB_RUN_ATTEMPT": "2"})
    assert run.code == 0, run.stdout + run.stderr
    # Both figures include the shard's start (its collection, measured by its shard job).
    start = json.loads((rerun / "plan.json").read_text())["start_ms"] / 1000
    predicted, actual = re.search(r"shard 1: 6 tests, predicted ([0-9.]+)s, actual ([0-9.]+)s\n", run.stdout).groups()
    assert abs(float(predicted) - (start + 6.0)) < 0.06 and abs(float(actual) - (start + 7.5)) < 0.06, run.stdout
    assert "shard 2: 6 tests" in run.stdout


def test_shards_split_by_different_durations_fail_the_report(tmp_path):
    """Issue 42, item 6: the baseline's download failed in one shard job (expired, deleted, a
    rerun of that shard alone), which split by count while the others split by the baseline.
    Tests ran in no shard and others in two, and shard-report said complete."""
    project = make_project(tmp_path / "p", GPU_TESTS)
    baseline = tmp_path / "baseline.xml"
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-m", "gpu", f"--junitxml={baseline}"], cwd=project,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    with_baseline = ("--baseline", baseline)
    reports = shard_artifacts(tmp_path, project, 3, args={1: with_baseline, 3: with_baseline})
    ran = ran_in_shards(reports, 3)
    in_no_shard = 12 - len(ran)
    in_two = sorted(test for test, n in ran.items() if n > 1)
    assert in_no_shard > 0 and in_two  # the shards really disagreed
    merged = tmp_path / "merged.xml"
    run = run_tool("shard-report", "--leg", "gpu", "--shards", "3", "--reports", reports, "--out", merged, cwd=project)
    assert run.code == 1, run.stdout + run.stderr
    assert run.outputs["result"] == "fail"
    assert run.outputs["complete"] == "false"
    assert run.outputs["in-no-shard"] == str(in_no_shard)
    assert run.outputs["in-two-shards"] == str(len(in_two))
    assert not merged.exists()
    assert (f"error: suite-report shard-report: {in_no_shard} of 12 selected tests ran in no shard, {len(in_two)} in "
            "two or more") in run.stdout
    assert (f"error: suite-report shard-report: the shards split by different durations (shards 1, 3: the baseline "
            f"{baseline}, 12 of 12 tests recorded; shard 2: no baseline (by count), 0 of 12 tests recorded): every "
            "shard job must read the same baseline") in run.stdout
    assert "**The shards did not run the leg's selection once:**" in run.summary
    for test in in_two:
        assert f"`{test}`" in run.summary


REORDERED = {
    # Twelve tests, eight with a recorded duration: the split has to choose among tests of
    # equal time, and the conftest collects them in reverse when asked, as pytest-randomly or a
    # project's own pytest_collection_modifyitems reorders them from run to run.
    "tests/test_gpu.py": "import pytest\n\npytestmark = pytest.mark.gpu\n\n" +
                         "".join(f"def test_{c}():\n    pass\n\n" for c in "abcdefghijkl"),
    "tests/conftest.py": """
        import os

        def pytest_collection_modifyitems(items):
            if os.environ.get("REVERSE_COLLECTION") == "1":
                items.reverse()
    """,
}
RECORDED = {"b": 0.4, "e": 0.2, "f": 0.3, "g": 0.5, "i": 0.2, "l": 0.6}  # a, c, d, h, j, k are new


def test_the_collection_order_of_each_shard_job_never_changes_the_split(tmp_path):
    """Each shard job collects on its own runner; shard 2's pytest collected in reverse. The
    split used to pick among tests of equal time by collection position: test_b and test_g
    changed shards, one ran twice and one never."""
    project = make_project(tmp_path / "p", REORDERED)
    baseline = tmp_path / "baseline.xml"  # the last main run's report, as growth stores it
    baseline.write_text('<testsuites><testsuite name="pytest">' + "".join(
        f'<testcase classname="tests.test_gpu" name="test_{c}" time="{t}"/>' for c, t in RECORDED.items()) +
        "</testsuite></testsuites>")
    with_baseline = ("--baseline", baseline)
    reports = shard_artifacts(tmp_path, project, 3, args={k: with_baseline for k in (1, 2, 3)},
                              env={2: {"REVERSE_COLLECTION": "1"}})
    # Shard 2's list is in its own collection's order (the order its pytest runs them).
    second = (reports / "gpu-shard-2-attempt1" / "list.txt").read_text().split()
    assert second == sorted(second, reverse=True) and len(second) > 1
    ran = ran_in_shards(reports, 3)
    assert ran == {f"tests/test_gpu.py::test_{c}": 1 for c in "abcdefghijkl"}
    merged = tmp_path / "merged.xml"
    run = run_tool("shard-report", "--leg", "gpu", "--shards", "3", "--reports", reports, "--out", merged, cwd=project)
    assert run.code == 0, run.stdout + run.stderr
    assert run.outputs["complete"] == "true"
    assert run.outputs["in-no-shard"] == "0" and run.outputs["in-two-shards"] == "0"
    assert sorted(ran_ids(merged)) == sorted(ran)
    plans = [json.loads((reports / f"gpu-shard-{k}-attempt1" / "plan.json").read_text()) for k in (1, 2, 3)]
    assert len({(p["tests"]["sha256"], p["split"]) for p in plans}) == 1
    assert plans[0]["durations"]["from"] == f"the baseline {baseline}, 6 of 12 tests recorded"


def test_a_shard_job_whose_baseline_download_failed_stops_instead_of_splitting_by_count(tmp_path):
    project = make_project(tmp_path / "p", GPU_TESTS)
    missing = tmp_path / "shard-baseline" / "suite-baseline.json"
    out = tmp_path / "list.txt"
    run = run_tool("shard", "--selection", project / "suite.yml", "--leg", "gpu", "--context", "pr", "--shards", "3",
                   "--index", "2", "--out", out, "--baseline", missing, "--python", sys.executable, "--root", project,
                   cwd=project)
    assert run.code == 3, run.stdout + run.stderr
    assert run.stderr == (f"suite-report: error: the baseline {missing} is missing: the shards of a leg must all split "
                          "by the same durations, and the other shard jobs may have it (give --baseline only when the "
                          "file is there; without it every shard splits by count)\n")
    assert run.outputs["result"] == "error"
    assert not out.exists()


SLOW_START = {
    **GPU_TESTS,
    # A package that takes a while to import, as torch does: every shard pays it before its
    # first test, whatever its tests are.
    "tests/conftest.py": """
        import time

        time.sleep(0.6)
    """,
}


def test_every_prediction_includes_the_shards_start(tmp_path):
    """Issue 43, item 9: on aorta a shard predicted at 99 ms (its tests) took 2.2 s (its start).
    The shard job measures its start (its own collection) and adds it to every prediction."""
    project = make_project(tmp_path / "p", SLOW_START)
    baseline = tmp_path / "baseline.xml"
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-m", "gpu", f"--junitxml={baseline}"], cwd=project,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    recorded = {c.get("name"): float(c.get("time")) for c in ET.parse(baseline).getroot().iter("testcase")}
    reports = shard_artifacts(tmp_path, project, 3, args={k: ("--baseline", baseline) for k in (1, 2, 3)})
    for k in (1, 2, 3):
        folder = reports / f"gpu-shard-{k}-attempt1"
        plan = json.loads((folder / "plan.json").read_text())
        assert plan["start_ms"] >= 600  # the conftest's import alone
        tests_ms = plan["lists"][k - 1]["ms"]
        listed = [line.split("::")[1] for line in (folder / "list.txt").read_text().split()]
        assert abs(tests_ms - 1000 * sum(recorded[name] for name in listed)) <= len(listed)  # whole ms each
    run = run_tool("shard", "--selection", project / "suite.yml", "--leg", "gpu", "--context", "pr", "--shards", "3",
                   "--index", "1", "--out", tmp_path / "one.txt", "--baseline", baseline, "--python", sys.executable,
                   "--root", project, cwd=project)
    assert run.code == 0, run.stdout + run.stderr
    assert float(run.outputs["predicted-seconds"]) >= 0.6 + 0.3  # its start, and one slow test at least
    report = run_tool("shard-report", "--leg", "gpu", "--shards", "3", "--reports", reports, cwd=project)
    assert report.code == 0, report.stdout + report.stderr
    assert "| shard | tests | start | predicted | actual |" in report.summary
    for k in (1, 2, 3):
        predicted, actual = re.search(rf"shard {k}: \d+ tests, predicted ([0-9.]+)s, actual ([0-9.]+)s\n",
                                      report.stdout).groups()
        assert float(predicted) >= 0.6 and float(actual) >= 0.6


def test_shard_report_derives_the_folders_from_the_leg_and_fails_when_none_is_there(tmp_path):
    """Issue 43, item 9: `--leg cpu` looked for gpu-shard-* folders, found none, and exited 0."""
    project = make_project(tmp_path / "p", GPU_TESTS)
    reports = shard_artifacts(tmp_path, project, 2)  # the gpu leg's shards only
    run = run_tool("shard-report", "--leg", "cpu", "--shards", "2", "--reports", reports, cwd=project)
    assert run.code == 3, run.stdout + run.stderr
    assert run.outputs["result"] == "error"
    assert run.stderr == (f"suite-report: error: no shard of leg cpu in {reports} (looked for "
                          f"{reports}/cpu-shard-K-attemptA/list.txt, K from 1 to 2): is --leg the leg the shards ran, "
                          "and were their artifacts downloaded?\n")
    # The same shards under the cpu leg's names are found.
    for k in (1, 2):
        (reports / f"gpu-shard-{k}-attempt1").rename(reports / f"cpu-shard-{k}-attempt1")
        plan = reports / f"cpu-shard-{k}-attempt1" / "plan.json"
        plan.write_text(plan.read_text().replace('"leg":"gpu"', '"leg":"cpu"'))
    run = run_tool("shard-report", "--leg", "cpu", "--shards", "2", "--reports", reports, cwd=project)
    assert run.code == 0, run.stdout + run.stderr
    assert run.outputs["complete"] == "true"
    bad = run_tool("shard-report", "--leg", "../gpu", "--shards", "2", "--reports", reports, cwd=project)
    assert bad.code == 2
    assert bad.stderr == ("suite-report: error: --leg '../gpu': a leg name is letters, digits, '.', '_' and '-'\n")
