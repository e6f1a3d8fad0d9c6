"""Runs the smoke CLI the way CI does: a subprocess with this interpreter."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"


def smoke(*args, fake_gpus=None):
    env = {k: v for k, v in os.environ.items() if k not in ("TINYML_FAKE_GPUS", "CUDA_VISIBLE_DEVICES")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    if fake_gpus is not None:
        env["TINYML_FAKE_GPUS"] = str(fake_gpus)
    return subprocess.run(
        [sys.executable, "-m", "tinyml.smoke", *map(str, args)],
        env=env, capture_output=True, text=True, timeout=60,
    )


@pytest.mark.parametrize("workload", ["matmul", "attention", "queue-race", "sweep"])
def test_workload_passes(workload):
    r = smoke("--workload", workload, "--steps", 2, "--strict", "--gpus", 2, fake_gpus=2)
    assert r.returncode == 0, r.stderr
    assert "step 2/2 ok" in r.stdout and "PASS" in r.stdout


def test_injected_failure_exits_1():
    r = smoke("--workload", "matmul", "--steps", 2, "--fail")
    assert r.returncode == 1
    assert "step 1/2 ok" in r.stdout
    assert "injected failure" in r.stderr


def test_too_few_gpus_exits_3():
    r = smoke("--workload", "queue-race", "--steps", 1, "--gpus", 2, fake_gpus=1)
    assert r.returncode == 3
    assert "needs 2 GPU(s), 1 visible" in r.stderr


def test_usage_error_exits_2():
    assert smoke("--workload", "nope").returncode == 2
    assert smoke("--workload", "matmul", "--steps", 0).returncode == 2
