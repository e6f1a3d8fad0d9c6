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
    assert run.stderr.startswith(f"suite-report: error: cannot write {tmp_path / 'absent' / 'shard-1.txt'}: ")
    assert run.outputs["result"] == "error"
