"""Fixture suites for suite-report's pytest tests: small real pytest projects written into a
temp folder, real pytest runs that produce the legs' JUnit reports, and the built tool run on
them with GITHUB_OUTPUT / GITHUB_STEP_SUMMARY captured."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from github_files import read_outputs  # noqa: E402  (re-exported for the tests)

BUILD = Path(os.environ["GATEKIT_BUILD_DIR"])
SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
TOOL = BUILD / "tools" / "suite-report" / "suite-report"

PYPROJECT = """\
[tool.pytest.ini_options]
addopts = "--strict-markers -p no:cacheprovider"
testpaths = ["tests"]
markers = [{markers}]
"""

SELECTION = """\
version: 1
legs:
  cpu:
    markers: {cpu}
  gpu:
    device: gpu
    markers: {gpu}
"""

# A conftest fixture the way GPU projects write them: skip when no GPU is visible.
GPU_FIXTURE = '''
import os
import pytest

@pytest.fixture
def gpu():
    if os.environ.get("FAKE_GPUS", "0") == "0":
        pytest.skip("no GPU visible (FAKE_GPUS=0)")
    return 0
'''


def make_project(root: Path, files: dict[str, str], markers=("gpu", "rocm", "nightly", "docs"),
                 cpu="not gpu and not rocm", gpu="gpu or rocm", selection_extra="") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(PYPROJECT.format(markers=", ".join(f'"{m}: {m} tests"' for m in markers)))
    (root / "suite.yml").write_text(SELECTION.format(cpu=cpu, gpu=gpu) + selection_extra)
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


def run_pytest(project: Path, expression: str, junit: Path, env_extra: dict | None = None) -> int:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "FAKE_GPUS")}
    env.update(env_extra or {})
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-m", expression, f"--junitxml={junit}"],
                          cwd=project, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 1, 5), done.stdout + done.stderr
    return done.returncode


@dataclass
class ToolRun:
    code: int
    stdout: str
    stderr: str
    outputs: dict
    summary: str


def run_tool(*args, cwd: Path, env: dict | None = None, timeout=300) -> ToolRun:
    outputs, summary = cwd / "_github_output", cwd / "_github_summary"
    outputs.write_text("")
    summary.write_text("")
    base = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", str(cwd)), "LANG": "C.UTF-8",
            "GITHUB_OUTPUT": str(outputs), "GITHUB_STEP_SUMMARY": str(summary)}
    for key in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "PYENV_VERSION", "PYENV_ROOT", "VIRTUAL_ENV"):
        if key in os.environ:
            base[key] = os.environ[key]
    base.update(env or {})
    done = subprocess.run([str(TOOL), *map(str, args)], cwd=cwd, env=base, capture_output=True, text=True,
                          timeout=timeout)
    return ToolRun(done.returncode, done.stdout, done.stderr, read_outputs(outputs), summary.read_text())
