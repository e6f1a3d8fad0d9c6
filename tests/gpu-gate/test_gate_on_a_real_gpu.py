"""gpu-gate run on a machine with a real NVIDIA GPU: the gated tests use the GPU through the
driver, and the record names the devices the driver names (tests/support/real_cuda.py reads
them through ctypes, sharing no code with gatekit). Everywhere else `run` is tested with the
stub runtimes (test_gate_flow.cpp); this file skips on a machine without a CUDA driver or git.
docs/contributing.md, "On a real GPU", says how to run it and what it last showed."""
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(SOURCE / "tests" / "support"))
import real_cuda  # noqa: E402
from git_remote import clone_with_remote, git  # noqa: E402
from process_state import alive, start_until_pid_file  # noqa: E402

# Skipped test by test (a module-level skip would collect nothing, which pytest calls a failure);
# failed instead where GATEKIT_REQUIRE_GPU=1 (real_cuda.required()).
HOST, WHY_NOT = real_cuda.host()
if shutil.which("git") is None:
    HOST, WHY_NOT = None, "no git on this machine"
pytestmark, gpu_reached = real_cuda.skip_or_fail(HOST, WHY_NOT)


@pytest.fixture(autouse=True)
def _the_driver_is_reached():
    gpu_reached()

TOOL = (Path(os.environ.get("GATEKIT_BUILD_DIR", "build/dev")) / "tools" / "gpu-gate" / "gpu-gate").resolve()

GATED_TEST = """\
import pytest
import real_cuda


@pytest.mark.skipif(real_cuda.facts_here()["count"] == 0, reason="needs a GPU")
def test_every_visible_gpu_takes_and_returns_64_mib():
    assert real_cuda.work(real_cuda.facts_here()["count"]) == 0
"""


def gate_env(**extra):
    """The environment of a gate run: machine m1, no GitHub variables, no visibility variables
    but those in `extra`."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("GITHUB_", "GH_", "CUDA_VISIBLE", "HIP_VISIBLE", "ROCR_VISIBLE"))}
    env.update(extra, GATEKIT_GATE_MACHINE="m1")
    return env


def gate(cwd, *args, **env):
    started = time.monotonic()
    done = subprocess.run([str(TOOL), *args], cwd=cwd, capture_output=True, text=True, env=gate_env(**env))
    print(f"gpu-gate {' '.join(args)} took {time.monotonic() - started:.2f} s, exit {done.returncode}\n"
          f"{done.stdout}\n{done.stderr}")
    return done


def commit_all(work, message):
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", message)


@pytest.fixture
def project(tmp_path):
    _, work = clone_with_remote(tmp_path)
    (work / "src").mkdir()
    (work / "src" / "lib.py").write_text("x = 1\n")
    (work / "tests").mkdir()
    shutil.copy(SOURCE / "tests" / "support" / "real_cuda.py", work / "tests" / "real_cuda.py")
    (work / "tests" / "test_gpu.py").write_text(GATED_TEST)
    (work / ".github" / "gatekit").mkdir(parents=True)
    (work / ".github" / "gatekit" / "gpu-gate.yml").write_text(
        f"command: [{sys.executable}, -m, pytest, -q, -p, no:cacheprovider, "
        "\"--junitxml={junit}\", \"{tests}\"]\n"
        "workers: 1\nscope:\n  folders: [tests]\n")
    commit_all(work, "a project with a GPU test")
    git(work, "push", "-q", "origin", "main")
    git(work, "remote", "set-head", "origin", "main")
    git(work, "checkout", "-q", "-b", "feature")
    (work / "src" / "lib.py").write_text("x = 2\n")
    commit_all(work, "feature work")
    return work


def records(work):
    refs = git(work, "for-each-ref", "--format=%(refname)", "refs/gatekit-gate-mine/").splitlines()
    return {ref: git(work, "log", "-1", "--format=%B", ref) for ref in refs}


def test_a_run_on_the_gpu_records_the_devices_the_driver_names(project):
    done = gate(project, "run")
    assert done.returncode == 0
    (ref, message), = records(project).items()
    assert ref.startswith(f"refs/gatekit-gate-mine/{git(project, 'rev-parse', 'HEAD^{tree}')}/m1@")
    lines = message.splitlines()
    assert "verdict: pass" in lines and "passed: 1" in lines and "failed: 0" in lines
    assert "gpu-backend: cuda" in lines and f"gpu-count: {HOST['count']}" in lines
    assert [line[len("gpu: "):] for line in lines if line.startswith("gpu: ")] == HOST["names"]
    assert f"driver: {HOST['driver']}" in lines
    status = json.loads(gate(project, "status", "--json").stdout)
    assert status["state"] == "success" and status["description"].startswith("passed in ")


def test_a_gpu_test_that_fails_on_the_gpu_records_a_failure(project):
    failing = GATED_TEST.replace('real_cuda.work(real_cuda.facts_here()["count"])', "real_cuda.bad_device()")
    assert failing != GATED_TEST
    (project / "tests" / "test_gpu.py").write_text(failing)
    commit_all(project, "a test the driver fails")
    done = gate(project, "run")
    assert done.returncode == 1
    (_, message), = records(project).items()
    assert "verdict: fail" in message.splitlines() and "failed: 1" in message.splitlines()
    assert json.loads(gate(project, "status", "--json").stdout)["state"] == "failure"


def test_no_visible_gpu_records_nothing(project):
    done = gate(project, "run", CUDA_VISIBLE_DEVICES="", GATEKIT_HIP_LIBRARY="none")
    assert done.returncode == 3
    assert ("gpu-gate: error: no GPU is visible (0 GPUs (hip: disabled, cuda: libcuda.so.1 sees no device, "
            "CUDA_VISIBLE_DEVICES=)): a gate result must come from a GPU machine (--allow-no-gpu records one that "
            "stays local)") in done.stderr
    assert records(project) == {}


CONFTEST = """\
import os
import sys

# docs/gpu-gate.md, "The full run": the CPU pass hides the GPUs before any GPU library loads.
if os.environ.get("GATEKIT_DEVICE") == "cpu":
    os.environ["CUDA_VISIBLE_DEVICES"] = ""
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "tests"))
"""

SNEAKY_TEST = """\
import pytest
import real_cuda


@pytest.mark.skipif(real_cuda.facts_here()["count"] == 0, reason="needs a GPU")
def test_needs_gpu():
    assert real_cuda.work(real_cuda.facts_here()["count"]) == 0


def test_anywhere():
    assert True
"""


def test_the_full_run_finds_a_test_that_depends_on_the_gpu_outside_the_scope(project):
    """The documented conftest.py hides the real GPU on the CPU pass; a test file outside the
    scope that runs only where the driver sees a GPU fails the full run, naming the line to
    add; once added, the full run passes and writes the test map under the git directory."""
    pytest.importorskip("pytest_cov")
    (project / "tests" / "gpu").mkdir()
    (project / "tests" / "test_gpu.py").rename(project / "tests" / "gpu" / "test_gpu.py")
    (project / "conftest.py").write_text(CONFTEST)
    (project / "tests" / "test_sneaky.py").write_text(SNEAKY_TEST)
    config = project / ".github" / "gatekit" / "gpu-gate.yml"
    config.write_text(config.read_text().replace("folders: [tests]", "folders: [tests/gpu]"))
    commit_all(project, "a GPU test outside the scope")
    done = gate(project, "run", "--full")
    assert done.returncode == 1
    assert ("tests/test_sneaky.py is outside the scope, but 1 of its tests run on the GPU and not on the CPU "
            "(tests/test_sneaky.py::test_needs_gpu); add `- tests/test_sneaky.py` to scope.extras in "
            ".github/gatekit/gpu-gate.yml") in done.stdout
    (_, message), = records(project).items()
    assert "verdict: fail" in message.splitlines() and f"gpu-count: {HOST['count']}" in message.splitlines()

    config.write_text(config.read_text() + "  extras: [tests/test_sneaky.py]\n")
    commit_all(project, "the GPU test is in the scope")
    assert gate(project, "run", "--full").returncode == 0
    common = Path(git(project, "rev-parse", "--path-format=absolute", "--git-common-dir"))
    test_map = json.loads((common / "gatekit" / "test-map.json").read_text())
    assert "tests/test_sneaky.py" in json.dumps(test_map)
    assert git(project, "status", "--porcelain") == ""


def test_a_run_cancelled_while_its_test_holds_the_gpu_frees_it_and_records_nothing(project, tmp_path):
    """Ctrl-C while the gated test holds GPU memory: the test process ends, the worktree goes,
    nothing is recorded (exit 3, saying so), and the GPU serves the next process."""
    (project / "tests" / "test_gpu.py").write_text(
        "import os\nimport real_cuda\n\n\ndef test_holds_the_gpu():\n"
        "    real_cuda.hold(os.environ['GATE_TEST_PID_FILE'])\n")
    commit_all(project, "a test that holds the GPU until it is killed")
    pid_file = tmp_path / "holder.pid"
    started = time.monotonic()
    run, holder = start_until_pid_file([TOOL, "run"], project, gate_env(GATE_TEST_PID_FILE=str(pid_file)), pid_file,
                                       timeout=120)
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=60)
    print(f"gpu-gate run, cancelled, took {time.monotonic() - started:.2f} s\n{out}\n{err}")
    assert run.returncode == 3
    assert err.splitlines()[-1] == ("gpu-gate: error: cancelled: gpu-gate received SIGINT during the gate pass; "
                                    "nothing is recorded")
    assert records(project) == {}
    assert len(git(project, "worktree", "list", "--porcelain").split("\n\n")) == 1
    assert not alive(holder)
    assert real_cuda.works_in_a_fresh_process(HOST["count"], gate_env())
