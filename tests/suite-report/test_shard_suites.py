"""suite-report shard on a real pytest project: the baseline is a real JUnit report (both
JUnit families), each shard's list runs with real `pytest @FILE`, and together the shards run
every test of the leg exactly once."""
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


def shard_artifacts(tmp_path, project, shards, family="xunit2", skip=()):
    """What the shard jobs upload: gpu-shard-K-attempt1/list.txt and .../junit.xml."""
    reports = tmp_path / "artifacts"
    for k in range(1, shards + 1):
        if k in skip:
            continue
        folder = reports / f"gpu-shard-{k}-attempt1"
        folder.mkdir(parents=True)
        run = run_tool("shard", "--selection", project / "suite.yml", "--leg", "gpu", "--context", "pr", "--shards",
                       str(shards), "--index", str(k), "--out", folder / "list.txt", "--python", sys.executable,
                       "--root", project, cwd=project)
        assert run.code == 0, run.stdout + run.stderr
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-m", "gpu", "-o", f"junit_family={family}",
                               f"@{folder / 'list.txt'}", f"--junitxml={folder / 'junit.xml'}"],
                              cwd=project, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
    return reports


@pytest.mark.parametrize("family", ["xunit2", "xunit1"])
def test_shard_report_merges_into_the_legs_report_that_growth_reads(tmp_path, family):
    project = make_project(tmp_path / "p", GPU_TESTS)
    reports = shard_artifacts(tmp_path, project, 3, family)
    merged = tmp_path / "merged.xml"
    run = run_tool("shard-report", "--leg", "gpu", "--shards", "3", "--reports", reports, "--out", merged, cwd=project)
    assert run.code == 0, run.stdout + run.stderr
    assert run.outputs["complete"] == "true"
    assert "| shard | tests | predicted | actual |" in run.summary
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
    assert run.code == 0, run.stdout + run.stderr
    assert run.outputs["complete"] == "false"
    assert not merged.exists()
    assert (f"warning: suite-report shard-report: shard 2 of 3: no list ({reports}/gpu-shard-2-attempt1/list.txt): "
            "the shard did not start, or its runner never came") in run.stdout
    assert "Some shards have no report" in run.summary


def test_a_rerun_shard_s_newest_attempt_is_read(tmp_path):
    project = make_project(tmp_path / "p", GPU_TESTS)
    reports = shard_artifacts(tmp_path, project, 2)
    # Attempt 2 reran shard 1 only: its report now holds one test (a stand-in for the rerun's).
    rerun = reports / "gpu-shard-1-attempt2"
    rerun.mkdir()
    (rerun / "list.txt").write_text((reports / "gpu-shard-1-attempt1" / "list.txt").read_text())
    (rerun / "junit.xml").write_text('<testsuites><testsuite name="pytest"><testcase classname="tests.test_gpu" '
                                     'name="test_quick[0]" time="7.5"/></testsuite></testsuites>')
    merged = tmp_path / "merged.xml"
    run = run_tool("shard-report", "--leg", "gpu", "--shards", "2", "--reports", reports, "--out", merged, cwd=project,
                   env={"GITHUB_RUN_ATTEMPT": "2"})
    assert run.code == 0, run.stdout + run.stderr
    assert "shard 1: 6 tests, predicted 6.0s, actual 7.5s" in run.stdout
    assert "shard 2: 6 tests" in run.stdout
