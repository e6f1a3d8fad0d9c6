"""gpu-gate run's workers, unset in the configuration, are the CPUs the machine gives the run
(issue 43: 8 workers on 2 cores took 16.9 s where 2 took 6.2 s): the built tool under
`taskset` records as many workers as the CPUs it may use, through the environment seam."""
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(os.environ["GATEKIT_SOURCE_DIR"])
TOOL = Path(os.environ["GATEKIT_BUILD_DIR"]) / "tools" / "gpu-gate" / "gpu-gate"
NO_GPU = {"GATEKIT_HIP_LIBRARY": "none", "GATEKIT_CUDA_LIBRARY": "none"}
IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@example.invalid"}


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True,
                          env={**os.environ, **IDENTITY}).stdout.strip()


def suite_without_workers(tmp_path: Path) -> Path:
    work = tmp_path / "work"
    shutil.copytree(SOURCE / "tests/gpu-gate/data/gate_suite", work)
    config = work / ".github" / "gatekit" / "gpu-gate.yml"
    text = config.read_text()
    assert "workers: 2\n" in text
    config.write_text(text.replace("workers: 2\n", ""))
    (work / ".gitignore").write_text("__pycache__/\n")
    git(work, "init", "-q", "-b", "main")
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "suite")
    return work


def recorded_workers(work: Path) -> int:
    [ref] = git(work, "for-each-ref", "--format=%(refname)", "refs/gatekit-gate-nogpu/").split()
    scope = re.search(r"(?m)^scope: gate: \d+ test files, (\d+) workers$", git(work, "log", "-1", "--format=%B", ref))
    assert scope, git(work, "log", "-1", "--format=%B", ref)
    return int(scope.group(1))


@pytest.mark.skipif(shutil.which("taskset") is None, reason="taskset (util-linux) is not installed")
def test_unset_workers_are_the_cpus_the_run_may_use(tmp_path):
    cpus = sorted(os.sched_getaffinity(0))
    work = suite_without_workers(tmp_path)
    done = subprocess.run(["taskset", "-c", str(cpus[0]), str(TOOL), "run", "--machine", "m1", "--allow-no-gpu"],
                          cwd=work, capture_output=True, text=True, env={**os.environ, **NO_GPU}, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "gate: 2 test files, 1 workers" in done.stdout, done.stdout
    assert recorded_workers(work) == 1
    # Without taskset: every CPU this test may use.
    git(work, "update-ref", "-d", git(work, "for-each-ref", "--format=%(refname)", "refs/gatekit-gate-nogpu/"))
    done = subprocess.run([str(TOOL), "run", "--machine", "m1", "--allow-no-gpu"], cwd=work, capture_output=True,
                          text=True, env={**os.environ, **NO_GPU}, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert recorded_workers(work) == len(cpus)
