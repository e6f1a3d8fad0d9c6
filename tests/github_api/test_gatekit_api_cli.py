"""gatekit-api (and so gatekit's client over real libcurl) against the test server and
against recorded real GitHub exchanges (@octokit/fixtures, replayed in order).

Replay checks every request the client makes: method, path, the recorded query parameters
and JSON body; pages are requested only through the recorded Link headers (rewritten to
the local server), so a client that built page URLs by hand would fail here.
"""
import base64
import json
import os
import re
import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from server import FakeGitHub  # noqa: E402

BUILD = Path(os.environ.get("GATEKIT_BUILD_DIR", HERE.parents[1] / "build" / "dev"))
TOOL = BUILD / "tools" / "gatekit-api" / "gatekit-api"
MODULES = Path(os.environ.get("GATEKIT_NODE_MODULES", HERE.parent / "node" / "node_modules"))
FIXTURES = MODULES / "@octokit" / "fixtures" / "scenarios" / "api.github.com"


def run(url, *args, token="t0ken", stdin=None):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "GITHUB_API_URL": url, "GITHUB_TOKEN": token}
    return subprocess.run([str(TOOL), *args], env=env, capture_output=True, text=True, input=stdin, timeout=120)


def replay(name):
    srv = FakeGitHub()
    srv.replay(json.loads((FIXTURES / name / "normalized-fixture.json").read_text()))
    srv.start()
    return srv


def finish(srv):
    stats = srv.stats()
    srv.stop()
    assert stats["replay_errors"] == []
    assert stats["replay_left"] == 0, "the client made fewer requests than recorded"


@pytest.fixture(autouse=True)
def need_tool():
    if not TOOL.exists():
        pytest.fail(f"{TOOL} is not built (cmake --build <dir> --target gatekit-api)")


def test_fixture_paginate_issues_follows_recorded_links():
    srv = replay("paginate-issues")
    done = run(srv.base_url, "GET", "/repos/octokit-fixture-org/paginate-issues/issues?per_page=3", "--paginate")
    assert done.returncode == 0, done.stderr
    assert [i["number"] for i in json.loads(done.stdout)] == list(range(13, 0, -1))
    assert srv.connection_count == 1
    finish(srv)


def test_fixture_create_status():
    srv = replay("create-status")
    sha = "0000000000000000000000000000000000000001"
    for state, n in (("failure", 1), ("success", 2)):
        done = run(srv.base_url, "POST", f"/repos/octokit-fixture-org/create-status/statuses/{sha}",
                   "-f", f"state={state}", "-f", "target_url=https://example.com",
                   "-f", f"description=create-status {state} test", "-f", f"context=example/{n}")
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["state"] == state
    done = run(srv.base_url, "GET", f"/repos/octokit-fixture-org/create-status/commits/{sha}/statuses")
    assert [(s["state"], s["context"]) for s in json.loads(done.stdout)] == [("success", "example/2"),
                                                                            ("failure", "example/1")]
    done = run(srv.base_url, "GET", f"/repos/octokit-fixture-org/create-status/commits/{sha}/status")
    assert json.loads(done.stdout)["state"] == "failure"
    finish(srv)


def test_fixture_labels_crud():
    srv = replay("labels")
    base = "/repos/octokit-fixture-org/labels/labels"
    done = run(srv.base_url, "GET", base)
    assert done.returncode == 0, done.stderr
    assert "bug" in [label["name"] for label in json.loads(done.stdout)]
    done = run(srv.base_url, "POST", base, "--input", "-", stdin='{"name": "test-label", "color": "663399"}')
    assert json.loads(done.stdout)["name"] == "test-label"
    done = run(srv.base_url, "GET", base + "/test-label")
    assert json.loads(done.stdout)["color"] == "663399"
    done = run(srv.base_url, "PATCH", base + "/test-label", "-f", "new_name=test-label-updated", "-f", "color=BADA55")
    assert json.loads(done.stdout)["name"] == "test-label-updated"
    done = run(srv.base_url, "DELETE", base + "/test-label-updated")
    assert (done.returncode, done.stdout) == (0, "")  # 204: no body, nothing printed
    finish(srv)


def test_fixture_search_issues_wrapped_listing():
    srv = replay("search-issues")
    done = run(srv.base_url, "GET", "/search/issues?q=sesame%20repo%3Aoctokit-fixture-org%2Fsearch-issues",
               "--paginate")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["total_count"] == 2
    assert len(result["items"]) == 2
    finish(srv)


def test_fixture_errors_422_is_exit_3_with_githubs_message():
    srv = replay("errors")
    done = run(srv.base_url, "POST", "/repos/octokit-fixture-org/errors/labels", "-f", "name=foo", "-f", "color=invalid")
    assert done.returncode == 3
    assert done.stdout == ""
    assert done.stderr.startswith("gatekit-api: error: POST /repos/octokit-fixture-org/errors/labels: "
                                  "HTTP 422: Validation Failed (Label.color invalid) (https://docs.github.com/")
    assert done.stderr.rstrip().endswith(")")  # the documentation link ends the one line
    finish(srv)


def test_pr_files_listing_is_capped_and_one_connection():
    with FakeGitHub(token="t0ken") as srv:
        srv.add_pull("o/r", 1, files=[f"f{i}" for i in range(3500)])
        done = run(srv.base_url, "GET", "/repos/o/r/pulls/1/files", "--paginate")
        assert done.returncode == 0, done.stderr
        assert len(json.loads(done.stdout)) == 3000
        assert len(srv.requests) == 30
        assert srv.connection_count == 1
        assert all(r["headers"]["authorization"] == "Bearer [redacted]" for r in srv.requests)
        assert "t0ken" not in json.dumps(srv.requests)


def test_api_error_after_retries_is_exit_3():
    with FakeGitHub() as srv:
        srv.add_pull("o/r", 1, files=["a"])
        srv.add_fault("GET", r"/pulls/1$", "status", times=None, status=503)
        done = run(srv.base_url, "GET", "/repos/o/r/pulls/1", "--max-attempts", "2", "--budget", "10")
        assert done.returncode == 3
        assert "HTTP 503: Server Error (gave up after 2 attempts)" in done.stderr
        assert len(srv.requests) == 2


def test_token_is_masked_in_actions():
    with FakeGitHub() as srv:
        srv.add_pull("o/r", 1, files=["a"])
        env = {"PATH": os.environ.get("PATH", ""), "GITHUB_API_URL": srv.base_url, "GITHUB_TOKEN": "s3cret",
               "GITHUB_ACTIONS": "true"}
        done = subprocess.run([str(TOOL), "GET", "/repos/o/r/pulls/1"], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert "::add-mask::s3cret" in done.stderr
        assert "s3cret" not in done.stdout


@pytest.mark.parametrize("args, message", [
    (["FETCH", "/x"], "unknown method 'FETCH'; use GET, POST, PATCH, PUT or DELETE"),
    (["GET", "repos/o/r"], "the path must start with '/' (e.g. /repos/o/r/pulls/1), got 'repos/o/r'"),
    (["POST", "/x", "--paginate"], "--paginate needs GET"),
    (["POST", "/x", "-f", "novalue"], "field 'novalue' is not key=value"),
    (["POST", "/x", "--input", "-"], "--input is not valid JSON: "),
])
def test_usage_errors_are_exit_2(args, message):
    done = run("http://127.0.0.1:9", *args, stdin="{nope")
    assert done.returncode == 2
    assert done.stderr.startswith("gatekit-api: error: " + message)


def test_get_fields_become_query_and_typed_fields_keep_types():
    with FakeGitHub() as srv:
        srv.add_issue("o/r", "a", labels=["flaky"])
        srv.add_issue("o/r", "b")
        done = run(srv.base_url, "GET", "/repos/o/r/issues", "-f", "labels=flaky", "-F", "per_page=5")
        assert [i["title"] for i in json.loads(done.stdout)] == ["a"]
        assert srv.requests[-1]["query"] == {"labels": "flaky", "per_page": "5"}
        done = run(srv.base_url, "PATCH", "/repos/o/r/issues/1", "-F", "locked=true", "-f", "state=closed")
        assert srv.requests[-1]["body"] == {"locked": True, "state": "closed"}
        assert json.loads(done.stdout)["state"] == "closed"


# ---- API text is outside data: no token, no workflow command --------------------------------

SECRET = "ghs_s3cret/tok+en="
SECRET_FORMS = [SECRET, urllib.parse.quote(SECRET, safe=""), base64.b64encode(SECRET.encode()).decode()]


def run_in_actions(url, *args):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "GITHUB_API_URL": url, "GITHUB_TOKEN": SECRET,
           "GITHUB_ACTIONS": "true"}
    return subprocess.run([str(TOOL), *args], env=env, capture_output=True, text=True, timeout=120)


def commands_in(text):
    """Lines the runner could read as a workflow command: `::` first after whitespace, or a
    `##[` counting only printable ASCII (the runner skips characters it ignores between them)."""
    found = []
    for line in re.split(r"\r\n|\r|\n", text):
        ascii_only = re.sub(r"[^\x20-\x7e]", "", line)
        if ascii_only.lstrip().startswith("::") or "##[" in ascii_only:
            found.append(line)
    return found


def test_a_token_echoed_by_the_server_is_printed_nowhere():
    with FakeGitHub(token=SECRET) as srv:
        srv.add_pull("o/r", 1, files=[f"src/{form}.cu" for form in SECRET_FORMS])
        done = run_in_actions(srv.base_url, "GET", "/repos/o/r/pulls/1/files", "--paginate")
        assert done.returncode == 0, done.stderr
        assert [f["filename"] for f in json.loads(done.stdout)] == ["src/***.cu"] * 3
        srv.add_fault("GET", r"/pulls/1$", "status", status=422,
                      message=f"{SECRET_FORMS[0]} / {SECRET_FORMS[1]} / {SECRET_FORMS[2]} is not allowed")
        failed = run_in_actions(srv.base_url, "GET", "/repos/o/r/pulls/1")
        assert failed.returncode == 3
        assert "HTTP 422: *** / *** / *** is not allowed" in failed.stderr
        for out in (done, failed):
            stderr = "\n".join(l for l in out.stderr.splitlines() if l != f"::add-mask::{SECRET}")
            for form in SECRET_FORMS:
                assert form not in out.stdout + stderr


HOSTILE = ["a\n::error::pwned", "b\r::stop-commands::x", "##[error]legacy", "c#\u200b#[warning]zero-width",
           "d\u2028::error::line-separator", "  ::notice::indented"]


def test_api_text_never_prints_as_a_workflow_command():
    with FakeGitHub(token=SECRET) as srv:
        srv.add_pull("o/r", 1, files=HOSTILE)
        done = run_in_actions(srv.base_url, "GET", "/repos/o/r/pulls/1/files", "--paginate")
        assert done.returncode == 0, done.stderr
        assert [f["filename"] for f in json.loads(done.stdout)] == HOSTILE  # the same value
        assert done.stdout.count("\n") == 1  # one line
        assert commands_in(done.stdout) == []
        srv.add_fault("GET", r"/pulls/1$", "status", status=404, message="\n".join(HOSTILE))
        failed = run_in_actions(srv.base_url, "GET", "/repos/o/r/pulls/1")
        assert failed.returncode == 3
        assert commands_in(failed.stderr) == [f"::add-mask::{SECRET}"]  # the tool's own, nothing from the API
