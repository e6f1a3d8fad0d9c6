"""Every tool, through the frame: a run that passes, then the same run with a job summary that
cannot be written (GITHUB_STEP_SUMMARY names a folder, or /dev/full: a full disk). The second
exits 3 (the result could not be reported), and its step outputs, read the way the main job
reads GITHUB_OUTPUT (scripts/github_files.py: the last value of a name written twice, as the
runner keeps it), must agree: a `result` output says `error`, never the pass written before the
summary failed.

Each case is a passing call of the tool (most are the passing CLI scenarios of tests/cli, with
their fixtures); `expect` holds the outputs the failed-summary run must end with.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BUILD = Path(os.environ.get("GATEKIT_BUILD_DIR", SOURCE / "build" / "dev"))
CLI = SOURCE / "tests" / "cli"
sys.path.insert(0, str(SOURCE / "scripts"))
sys.path.insert(0, str(SOURCE / "tests" / "github_api"))
from github_files import read_outputs  # noqa: E402
from server import FakeGitHub  # noqa: E402

NEEDS = {"changes": {"result": "success", "outputs": {"cpu": "true", "gpu": "false", "docs": "false"}},
         "tests": {"result": "success", "outputs": {}}}
REPORT = ('<?xml version="1.0"?><testsuites><testsuite name="pytest" tests="1">'
          '<testcase classname="tests.test_a" name="test_one" time="0.1"/></testsuite></testsuites>')
FLAKY = ('<?xml version="1.0"?><testsuites><testsuite name="pytest" tests="1">'
         '<testcase classname="tests.test_a" name="test_one" time="0.1"><flakyFailure message="boom">'
         '<stackTrace>boom</stackTrace></flakyFailure></testcase></testsuite></testsuites>')


def git(cwd, *args):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args], cwd=cwd, check=True,
                   capture_output=True)


def gpu_repo(tmp):
    """A repository with one test file that needs a GPU, for `gpu-gate scope`."""
    repo = tmp / "repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "tests" / "test_kernel.py").write_text("import torch\n\ndef test_add():\n    assert torch.cuda.is_available()\n")
    (repo / "tests" / "test_cpu.py").write_text("def test_one():\n    assert 1\n")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "first")
    return repo


# (tool, args, env, stdin, fixture, expected outputs of the failed-summary run). `fixture(tmp)`
# prepares the scratch folder; a `github` state starts the API test server ({api} in env).
CASES = {
    "path-classifier": dict(
        tool="path-classifier", args=["--rules", CLI / "path-classifier" / "shared" / "rules.yml", "--files", "-"],
        stdin="src/tinyml/kernels/attention.py\nREADME.md\n", expect={"gpu": "true"}),
    "matrix-aggregator": dict(
        tool="matrix-aggregator", args=["--gate-job", "changes", "--gated", "tests=cpu", "--title", "CPU tests"],
        env={"GATEKIT_NEEDS": json.dumps(NEEDS)},
        expect={"result": "error", "reasons": "{}",
                "error": "the result could not be reported: cannot write {summary} (downstream jobs would read "
                         "empty outputs)"}),
    "smoke-runner": dict(
        tool="smoke-runner", args=["--manifest", SOURCE / "tests" / "smoke-runner" / "data" / "basic.yaml", "--gpus",
                                   "0", "--tier", "pr", "--allow-no-gpu", "--report-dir", "reports"],
        expect={"result": "error"}),
    "suite-report nightly": dict(
        tool="suite-report", args=["nightly", "--selection", CLI / "suite-report" / "nightly-contexts" / "suite.yml",
                                   "--leg", "gpu", "--context", "gate-full"],
        expect={"result": "error", "markers": "gpu"}),
    "flaky-tracker rerun": dict(
        tool="flaky-tracker", args=["rerun", "--report", "report.xml", "--output", "merged.xml"],
        files={"report.xml": REPORT}, expect={"result": "error", "failed": "0"}),
    "flaky-tracker issues": dict(
        tool="flaky-tracker", args=["issues", "--report", "report.xml", "--repo", "o/r", "--kind", "pr",
                                    "--run-key", "1"],
        files={"report.xml": FLAKY}, github={"token": "t0ken", "repos": {"o/r": {}}},
        env={"GITHUB_API_URL": "{api}", "GITHUB_TOKEN": "t0ken"}, expect={"updated": "true", "flaky": "1"}),
    "gpu-gate scope": dict(
        tool="gpu-gate", args=["scope", "--repo", "repo"], fixture=gpu_repo, expect={}),
    "ci-report": dict(
        tool="ci-report", args=["--history", CLI / "ci-report" / "flake-rate" / "history.jsonl", "--since",
                                "2026-11-02", "--until", "2026-11-09"],
        expect={"complete": "true"}),
    "gatekit-doctor": dict(
        tool="gatekit-doctor", args=["--repo", "demo/tinyml", "--workflows",
                                     SOURCE / "examples" / "demo-project" / ".github" / "workflows", "--app-id",
                                     "424242"],
        github=json.loads((CLI / "gatekit-doctor" / "all-is-well" / "github").read_text()),
        env={"GITHUB_API_URL": "{api}", "GITHUB_TOKEN": "doctor-token"}, expect={"result": "error"}),
}


def run(case, tmp, summary):
    for name, text in case.get("files", {}).items():
        (tmp / name).write_text(text)
    if "fixture" in case:
        case["fixture"](tmp)
    output = tmp / "github_output"
    output.write_text("")
    server = FakeGitHub(state=case["github"]) if "github" in case else None
    api = server.start() if server else ""
    try:
        env = {"PATH": os.environ["PATH"], "HOME": str(tmp), "LANG": "C.UTF-8", "GITHUB_OUTPUT": str(output),
               "GITHUB_STEP_SUMMARY": str(summary)}
        env.update({k: v for k, v in os.environ.items() if k.endswith("SAN_OPTIONS")})
        env.update({k: v.replace("{api}", api) for k, v in case.get("env", {}).items()})
        done = subprocess.run([str(BUILD / "tools" / case["tool"] / case["tool"]), *map(str, case["args"])], cwd=tmp,
                              env=env, input=case.get("stdin", ""), capture_output=True, text=True, timeout=120)
    finally:
        if server:
            server.stop()
    return done, read_outputs(output)


def a_folder(tmp):
    folder = tmp / "summary-folder"
    folder.mkdir()  # a folder: no file can be appended to it
    return folder


def a_full_disk(_tmp):
    return Path("/dev/full")  # opens for appending; every write fails with ENOSPC, as on a full disk


@pytest.mark.parametrize("unwritable_summary", [a_folder, a_full_disk], ids=["folder", "full-disk"])
@pytest.mark.parametrize("name", CASES)
def test_a_summary_that_cannot_be_written_leaves_outputs_that_agree_with_exit_3(name, unwritable_summary, tmp_path):
    case = CASES[name]
    (tmp_path / "good").mkdir()
    done, outputs = run(case, tmp_path / "good", tmp_path / "good" / "summary.md")
    assert done.returncode == 0, done.stdout + done.stderr  # the call passes...
    assert outputs.get("result", "pass") in ("pass", "passed", "success"), outputs
    assert (tmp_path / "good" / "summary.md").read_text()  # ...and writes a summary

    (tmp_path / "bad").mkdir()
    unwritable = unwritable_summary(tmp_path / "bad")
    done, outputs = run(case, tmp_path / "bad", unwritable)
    assert done.returncode == 3, done.stdout + done.stderr
    assert done.stderr.endswith(f"{case['tool']}: error: the result could not be reported: cannot write {unwritable} "
                                "(downstream jobs would read empty outputs)\n"), done.stderr
    assert outputs.get("result", "error") == "error", outputs  # never a pass beside exit 3
    for key, value in case["expect"].items():
        assert outputs.get(key) == value.replace("{summary}", str(unwritable)), (key, outputs)
    if "result" not in case["expect"]:
        assert "result" not in outputs  # a tool without a `result` output gets none


def test_gatekit_api_writes_no_summary_so_its_exit_is_its_own(tmp_path):
    """gatekit-api prints the API's answer on stdout and writes no summary: an unwritable
    GITHUB_STEP_SUMMARY changes nothing."""
    unwritable = tmp_path / "summary-folder"
    unwritable.mkdir()
    with FakeGitHub(token="t0ken", state={"repos": {"o/r": {}}}) as srv:
        env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "GITHUB_STEP_SUMMARY": str(unwritable),
               "GITHUB_API_URL": srv.base_url, "GITHUB_TOKEN": "t0ken"}
        done = subprocess.run([str(BUILD / "tools" / "gatekit-api" / "gatekit-api"), "GET", "/repos/o/r"], cwd=tmp_path,
                              env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["full_name"] == "o/r"
