"""The CPU leg (-m "not gpu and not rocm") and the GPU leg (-m "gpu or rocm")
must together collect every test exactly once: no gaps, no overlap."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CPU_LEG = "not gpu and not rocm"
GPU_LEG = "gpu or rocm"


def collect(*extra: str) -> set[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "-o", "addopts=", "--strict-markers", *extra],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    # 0 = collected something, 5 = collected nothing (a leg may be empty).
    assert r.returncode in (0, 5), f"collection failed ({r.returncode}):\n{r.stdout}\n{r.stderr}"
    return {line for line in r.stdout.splitlines() if "::" in line}


def test_cpu_and_gpu_legs_partition_the_suite():
    everything, cpu, gpu = collect(), collect("-m", CPU_LEG), collect("-m", GPU_LEG)
    assert everything, "collected no tests at all"
    problems = [f"in no leg: {n}" for n in sorted(everything - cpu - gpu)]
    problems += [f"in both legs: {n}" for n in sorted(cpu & gpu)]
    problems += [f"only seen with -m: {n}" for n in sorted((cpu | gpu) - everything)]
    assert not problems, "marker partition broken:\n" + "\n".join(problems)
