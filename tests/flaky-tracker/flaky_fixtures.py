"""Shared helpers of the flaky-tracker Python tests: the built tool, the fixture suites
(deterministic flakiness: a flaky test fails the first time it runs in a run directory,
FLAKY_RUN_DIR), real pytest runs, and small JUnit reports written for the issue tests."""
from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from xml.sax.saxutils import quoteattr

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BUILD = Path(os.environ.get("GATEKIT_BUILD_DIR", SOURCE / "build" / "dev"))
TOOL = BUILD / "tools" / "flaky-tracker" / "flaky-tracker"
SUITES = Path(__file__).resolve().parent / "suites"

sys.path.insert(0, str(SOURCE / "scripts"))
sys.path.insert(0, str(SOURCE / "tests" / "support"))
from full_disk import run_on_full_disk  # noqa: E402
from github_files import read_outputs  # noqa: E402


@dataclasses.dataclass
class ToolRun:
    code: int
    stdout: str
    stderr: str
    outputs: dict
    summary: str


def run_tool(*args, cwd: Path, env: dict | None = None, timeout=300, full_disk: Path | None = None) -> ToolRun:
    """The built tool with `args`; with `full_disk`, a folder, on a full tmpfs mounted there
    (tests/support/full_disk.py: skipped where none can be mounted)."""
    outputs, summary = cwd / "_github_output", cwd / "_github_summary"
    outputs.write_text("")
    summary.write_text("")
    base = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", str(cwd)), "LANG": "C.UTF-8",
            "GITHUB_OUTPUT": str(outputs), "GITHUB_STEP_SUMMARY": str(summary)}
    for key in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "VIRTUAL_ENV", "FLAKY_RUN_DIR"):
        if key in os.environ:
            base[key] = os.environ[key]
    base.update(env or {})
    argv = [str(TOOL), *map(str, args)]
    if full_disk is not None:
        done = run_on_full_disk(full_disk, argv, cwd=cwd, env=base, capture_output=True, text=True, timeout=timeout)
    else:
        done = subprocess.run(argv, cwd=cwd, env=base, capture_output=True, text=True, timeout=timeout)
    return ToolRun(done.returncode, done.stdout, done.stderr, read_outputs(outputs), summary.read_text())


def copy_suite(name: str, dest: Path) -> Path:
    shutil.copytree(SUITES / name, dest)
    (dest / "run-dir").mkdir()
    return dest


def pytest_run(project: Path, report: Path, *args) -> subprocess.CompletedProcess:
    env = dict(os.environ, FLAKY_RUN_DIR=str(project / "run-dir"))
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}",
                           *args], cwd=project, env=env, capture_output=True, text=True, timeout=300)


def cases(report: Path) -> dict:
    """{(classname, name): testcase element} of a JUnit report."""
    return {(c.get("classname"), c.get("name")): c for c in ET.parse(report).iter("testcase")}


def junit(path: Path, tests: dict) -> Path:
    """A pytest-shaped report: tests maps node-ish names ("test_a.py::test_x") to "passed",
    "failed" or "flaky" (passed after a <flakyFailure>)."""
    body = []
    for node_id, outcome in tests.items():
        module, name = node_id.split("::", 1)
        attrs = f'classname={quoteattr(module[:-3].replace("/", "."))} name={quoteattr(name)} time="0.01"'
        if outcome == "passed":
            body.append(f"<testcase {attrs}/>")
        elif outcome == "failed":
            body.append(f'<testcase {attrs}><failure message="assert 1 == 2">trace</failure></testcase>')
        else:
            body.append(f'<testcase {attrs}><flakyFailure message="AssertionError: boom">'
                        f"<stackTrace>E   AssertionError: boom</stackTrace></flakyFailure></testcase>")
    path.write_text('<?xml version="1.0"?><testsuites><testsuite name="pytest">' + "".join(body) +
                    "</testsuite></testsuites>")
    return path
