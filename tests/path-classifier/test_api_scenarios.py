"""The path gate against the GitHub API test server (tests/github_api/server.py): renames out
of a relevant path, the 3000-file cap, a 500 on page 7, an empty listing, a push event."""
import json
import sys

import pytest

from gate_helpers import SOURCE, run_tool

sys.path.insert(0, str(SOURCE / "tests" / "github_api"))
from server import FakeGitHub  # noqa: E402

TOKEN = "test-token-123"


@pytest.fixture
def api():
    srv = FakeGitHub(token=TOKEN)
    url = srv.start()
    yield srv, url
    srv.stop()


def gate(tmp_path, url, number=1, event="pull_request", args=()):
    payload = tmp_path / "event.json"
    payload.write_text(json.dumps({"pull_request": {"number": number, "base": {"sha": "b" * 40},
                                                    "head": {"sha": "a" * 40}}}))
    env = {"GITHUB_EVENT_NAME": event, "GITHUB_EVENT_PATH": str(payload), "GITHUB_REPOSITORY": "o/r",
           "GITHUB_API_URL": url, "GITHUB_TOKEN": TOKEN}
    return run_tool(tmp_path, ["--repo-dir", str(tmp_path / "no-clone"), *args], env)


def test_rename_out_of_a_relevant_path_counts_its_old_name(tmp_path, api):
    srv, url = api
    srv.add_pull("o/r", 1, files=[
        {"filename": ".github/workflows/lint.yml", "status": "modified"},
        {"filename": "docs/old_kernel.py", "status": "renamed", "previous_filename": "src/kernels/k.py"},
    ])
    run = gate(tmp_path, url)
    assert run.code == 0, run.stderr
    assert run.outputs["gpu"] == "true"
    gpu = run.decision["filters"]["gpu"]
    assert (gpu["file"], gpu["renamed_to"], gpu["pattern"]) == ("src/kernels/k.py", "docs/old_kernel.py", "src/kernels/**")
    assert "| `gpu` | allow | ✅ runs | `src/kernels/k.py` → `docs/old_kernel.py` |" in run.summary
    assert f"::add-mask::{TOKEN}" in run.stdout  # the runner hides it from the log
    log = "\n".join(l for l in run.stdout.splitlines() if not l.startswith("::add-mask::"))
    assert TOKEN not in log + run.stderr + run.summary + json.dumps(run.outputs)


def test_a_ci_only_pull_request_skips_and_says_so(tmp_path, api):
    srv, url = api
    srv.add_pull("o/r", 1, files=[".github/workflows/lint.yml", ".github/CODEOWNERS"])
    run = gate(tmp_path, url)
    assert run.outputs["changes"] == "[]"
    assert run.outputs["cpu"] == "false"
    assert "No filter is relevant: jobs gated on these outputs will be skipped" in run.stdout
    assert "::warning" not in run.stdout


def test_more_than_3000_files_fails_open(tmp_path, api):
    srv, url = api
    srv.add_pull("o/r", 1, files=[f".github/f{i}.yml" for i in range(3100)])
    run = gate(tmp_path, url)
    assert run.code == 0
    assert run.outputs["changes"] == '["cpu","gpu"]'
    assert run.decision["fail_open"] == (
        "the API lists at most 3000 files and returned 3000 (changed_files: 3100): the listing may be truncated")
    assert "::warning title=path gate::fail-open: the API lists at most 3000 files" in run.stdout


def test_fewer_files_than_changed_files_fails_open(tmp_path, api):
    srv, url = api
    srv.add_pull("o/r", 1, files=[".github/a.yml"], changed_files=4)
    run = gate(tmp_path, url)
    assert run.decision["fail_open"] == "the API listed 1 of 4 changed files: the listing is incomplete"
    assert run.outputs["cpu"] == "true"


def test_a_500_on_page_7_is_retried(tmp_path, api):
    srv, url = api
    srv.add_pull("o/r", 1, files=[f".github/f{i}.yml" for i in range(1000)])
    srv.add_fault("GET", r"/pulls/1/files$", "status", nth=7, status=500)
    run = gate(tmp_path, url)
    assert run.code == 0, run.stderr
    assert run.decision["fail_open"] is None
    assert run.outputs["changes"] == "[]"
    assert run.decision["files"] == 1000


def test_a_500_on_page_7_that_persists_fails_open(tmp_path, api):
    srv, url = api
    srv.add_pull("o/r", 1, files=[f".github/f{i}.yml" for i in range(1000)])
    srv.add_fault("GET", r"/pulls/1/files$", "status", nth=7, times=None, status=500)
    run = gate(tmp_path, url, args=("--api-budget", "2"))
    assert run.code == 0
    assert run.outputs["changes"] == '["cpu","gpu"]'
    assert run.decision["fail_open"].startswith("the GitHub API failed while listing files: ")
    assert "::warning title=path gate::fail-open: the GitHub API failed while listing files" in run.stdout


def test_an_empty_listing_fails_open(tmp_path, api):
    srv, url = api
    srv.add_pull("o/r", 1, files=[], changed_files=0)
    run = gate(tmp_path, url)
    assert run.decision["fail_open"] == "the change lists no files (GitHub API, pull request #1)"
    assert run.outputs["changes"] == '["cpu","gpu"]'


def test_an_unknown_pull_request_fails_open(tmp_path, api):
    _, url = api
    run = gate(tmp_path, url, number=99)
    assert run.code == 0
    assert run.decision["fail_open"].startswith("the GitHub API failed: GET /repos/o/r/pulls/99: HTTP 404")


def test_a_push_event_is_relevant_without_any_request(tmp_path, api):
    srv, url = api
    run = gate(tmp_path, url, event="push")
    assert run.outputs["changes"] == '["cpu","gpu"]'
    assert run.decision["filters"]["gpu"]["reason"] == "non-pr-event"
    assert srv.requests == []
