"""The path gate against the GitHub API test server (tests/github_api/server.py): renames out
of a relevant path, the 3000-file cap, a 500 on page 7, an empty listing, a push event."""
import base64
import json
import sys
import time
from urllib.parse import quote

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


def gate(tmp_path, url, number=1, event="pull_request", args=(), env=None):
    payload = tmp_path / "event.json"
    payload.write_text(json.dumps({"pull_request": {"number": number, "base": {"sha": "b" * 40},
                                                    "head": {"sha": "a" * 40}}}))
    env = {"GITHUB_EVENT_NAME": event, "GITHUB_EVENT_PATH": str(payload), "GITHUB_REPOSITORY": "o/r",
           "GITHUB_API_URL": url, "GITHUB_TOKEN": TOKEN, **(env or {})}
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


@pytest.mark.parametrize("changed_files", [0, 1])
def test_more_files_than_changed_files_is_inconsistent_and_fails_open(tmp_path, api, changed_files):
    srv, url = api
    srv.add_pull("o/r", 1, files=[".github/a.yml", ".github/b.yml"], changed_files=changed_files)
    run = gate(tmp_path, url)
    assert run.code == 0, run.stderr
    cause = f"the API listed 2 files but the pull request's changed_files is {changed_files}: the counts are inconsistent"
    assert run.decision["fail_open"] == cause
    assert run.outputs["changes"] == '["cpu","gpu"]'
    assert f"::warning title=path gate::fail-open: {cause}; every filter is relevant" in run.stdout


def test_a_slow_server_ends_the_whole_listing_within_the_api_budget(tmp_path, api):
    srv, url = api
    srv.add_pull("o/r", 1, files=[f".github/f{i}.yml" for i in range(500)])  # 5 pages
    # Every answer (the pull request and each page) takes 1.2 s: with a budget per call the
    # listing took 1.2 s + 2.4 s (two pages started within their own 2 s); the whole listing
    # must end at the 2 s budget, a page in flight included.
    srv.add_fault("GET", r"/pulls/1", "delay", times=None, seconds=1.2)
    start = time.monotonic()
    run = gate(tmp_path, url, args=("--api-budget", "2"))
    elapsed = time.monotonic() - start
    assert run.code == 0, run.stderr
    assert run.outputs["changes"] == '["cpu","gpu"]'
    cause = run.decision["fail_open"]
    assert cause.startswith("the GitHub API failed while listing files: GET /repos/o/r/pulls/1/files?per_page=100: "
                            "the time budget of 2 s for all calls is spent (last attempt: timed out: "), cause
    assert "::warning title=path gate::fail-open: the GitHub API failed while listing files" in run.stdout
    assert elapsed < 3.0, f"the listing took {elapsed:.1f} s with --api-budget 2"
    assert [r["path"] for r in srv.requests] == ["/repos/o/r/pulls/1", "/repos/o/r/pulls/1/files"]


SECRET = "ghs_s3cret/tok+en="


@pytest.fixture
def echoing_api():
    srv = FakeGitHub(token=SECRET)
    url = srv.start()
    yield srv, url
    srv.stop()


def everything_written(run):
    """stdout without the ::add-mask:: line (that one hands the token to the runner), stderr,
    GITHUB_OUTPUT and the summary."""
    log = "\n".join(line for line in run.stdout.splitlines() if not line.startswith("::add-mask::"))
    return "\n".join([log, run.stderr, json.dumps(run.outputs, ensure_ascii=False), run.summary])


def secret_forms():
    return [SECRET, quote(SECRET, safe=""), base64.b64encode(SECRET.encode()).decode()]


def test_a_token_echoed_in_a_file_name_appears_nowhere(tmp_path, echoing_api):
    srv, url = echoing_api
    srv.add_pull("o/r", 1, files=[f"src/kernels/{SECRET}.cu", f"docs/{quote(SECRET, safe='')}.md"])
    run = gate(tmp_path, url, env={"GITHUB_TOKEN": SECRET})
    assert run.code == 0, run.stderr
    assert f"::add-mask::{SECRET}" in run.stdout
    gpu = run.decision["filters"]["gpu"]
    assert (gpu["relevant"], gpu["file"]) == (True, "src/kernels/***.cu")
    written = everything_written(run)
    for form in secret_forms():
        assert form not in written


def test_a_token_echoed_in_an_error_message_appears_nowhere(tmp_path, echoing_api):
    srv, url = echoing_api
    srv.add_pull("o/r", 1, files=["src/kernels/a.cu"])
    forms = secret_forms()
    srv.add_fault("GET", r"/pulls/1/files$", "status", times=None, status=422,
                  message=f"token {forms[0]} (url {forms[1]}, base64 {forms[2]}) may not list files")
    run = gate(tmp_path, url, env={"GITHUB_TOKEN": SECRET})
    assert run.code == 0, run.stderr
    assert run.decision["fail_open"] == ("the GitHub API failed while listing files: GET /repos/o/r/pulls/1/files"
                                         "?per_page=100: HTTP 422: token *** (url ***, base64 ***) may not list files "
                                         "(https://docs.github.com/rest)")
    written = everything_written(run)
    for form in forms:
        assert form not in written


def test_api_statuses_drive_change_type_rules_and_lists(tmp_path, api):
    """The API's `status` reaches dorny/paths-filter's change-type rules as paths-filter reads
    it: a rename is its new name added and its old name deleted, `removed` is deleted."""
    srv, url = api
    srv.add_pull("o/r", 1, files=[
        {"filename": "src/app.ts", "status": "modified"},
        {"filename": "src/new.ts", "status": "renamed", "previous_filename": "lib/old.ts"},
        {"filename": "src/gone.ts", "status": "removed"},
        {"filename": "src/copy.ts", "status": "copied", "previous_filename": "lib/orig.ts"},
        {"filename": "bin/run.sh", "status": "changed"},
    ])
    rules = ("lint:\n  - added|modified: '**/*.ts'\ngone:\n  - deleted: '**'\ncopies:\n  - copied|changed: '**'\n"
             "lib:\n  - 'lib/**'\n")
    payload = tmp_path / "event.json"
    payload.write_text(json.dumps({"pull_request": {"number": 1, "base": {"sha": "b" * 40}, "head": {"sha": "a" * 40}}}))
    env = {"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(payload), "GITHUB_REPOSITORY": "o/r",
           "GITHUB_API_URL": url, "GITHUB_TOKEN": TOKEN}
    run = run_tool(tmp_path, ["--repo-dir", str(tmp_path / "no-clone"), "--list-files", "json"], env, rules=rules)
    assert run.code == 0, run.stderr
    lists = {name: json.loads(run.outputs[f"{name}_files"]) for name in ("lint", "gone", "copies", "lib")}
    assert lists == {"lint": ["src/app.ts", "src/new.ts"], "gone": ["lib/old.ts", "src/gone.ts"],
                     "copies": ["src/copy.ts", "bin/run.sh"], "lib": ["lib/old.ts"]}
    assert run.outputs["files-complete"] == "true"
