"""workflows/cpu-tests-macos.yml is workflows/cpu-tests.yml with its pytest legs on GitHub's
macOS runners: the same jobs, triggers, permissions, steps and inputs, so the two cannot
drift; only the `tests` legs' runner, their names and their Python versions differ. The
second design's shape holds: several Python versions, and a docs-only change runs the docs
tests on one leg (the select step's docs-only input and every matrix value in `variants`).
"""
import copy
import os
from pathlib import Path

import yaml

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))


def load(name: str) -> dict:
    document = yaml.safe_load((SOURCE / "workflows" / name).read_text())
    document["on"] = document.pop(True, document.get("on"))  # YAML 1.1 reads `on:` as True
    return document


LINUX = load("cpu-tests.yml")
MACOS = load("cpu-tests-macos.yml")


def select_step(job: dict) -> dict:
    return next(s for s in job["steps"] if s.get("id") == "select")


def test_only_the_pytest_legs_run_on_macos():
    assert MACOS["jobs"]["tests"]["runs-on"] == "macos-15"
    for job_id, job in MACOS["jobs"].items():
        if job_id != "tests":
            assert job["runs-on"] == "ubuntu-24.04", job_id


def test_several_python_versions_and_the_docs_tests_on_one_leg():
    tests = MACOS["jobs"]["tests"]
    pythons = tests["strategy"]["matrix"]["python"]
    assert len(pythons) >= 2
    select = select_step(tests)["with"]
    assert select["command"] == "nightly"
    assert select["docs-only"] == "${{ needs.changes.outputs.cpu != 'true' }}"
    assert select["variant"] == "${{ matrix.python }}"
    assert select["variants"].split() == pythons
    assert select["matrix-jobs"] == "${{ strategy.job-total }}"
    partition = next(s for s in MACOS["jobs"]["partition"]["steps"] if (s.get("with") or {}).get("command") == "partition")
    assert partition["with"]["variants"].split() == pythons
    # A docs-only change starts the legs (cpu false, docs true); the aggregation passes them.
    assert "needs.changes.outputs.docs == 'true'" in tests["if"]


def test_everything_else_is_cpu_tests_yml():
    linux, macos = copy.deepcopy(LINUX), copy.deepcopy(MACOS)
    assert macos["name"] == linux["name"] + " (macOS)"
    assert macos["concurrency"]["group"] == linux["concurrency"]["group"].replace("cpu-tests-", "cpu-tests-macos-", 1)
    for document in (linux, macos):
        del document["name"], document["concurrency"]["group"]
        tests = document["jobs"]["tests"]
        del tests["runs-on"], tests["name"], tests["strategy"]["matrix"]["python"]
        for step in tests["steps"] + document["jobs"]["partition"]["steps"]:
            with_ = step.get("with") or {}
            with_.pop("variants", None)
            if str(with_.get("name", "")).startswith("junit-cpu-"):
                with_["name"] = with_["name"].replace("junit-cpu-macos-", "junit-cpu-")
            if with_.get("leg") == "macos-py${{ matrix.python }}":
                with_["leg"] = "py${{ matrix.python }}"
    assert LINUX["jobs"]["tests"]["name"] == "pytest (CPU, py${{ matrix.python }})"
    assert MACOS["jobs"]["tests"]["name"] == "pytest (CPU, macOS, py${{ matrix.python }})"
    assert macos == linux
