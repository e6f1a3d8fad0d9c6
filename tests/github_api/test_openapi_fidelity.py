"""Every response shape the fake server emits validates against GitHub's OpenAPI description.

Exercises each route of github_routes.ROUTES (and the documented error answers), records
the exchanges and hands them to validate_openapi.mjs (ajv + ajv-formats over
@octokit/openapi). A route added to the server without an exchange here fails the
coverage test, so the fidelity check cannot silently fall behind.
"""
import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import github_routes  # noqa: E402
from server import FakeGitHub  # noqa: E402

SHA = "0123456789abcdef0123456789abcdef01234567"


def call(base, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            status, raw = resp.status, resp.read()
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read()
    return {"method": method, "path": path.split("?")[0], "status": status,
            "body": json.loads(raw) if raw else None}


@pytest.fixture(scope="module")
def exchanges():
    srv = FakeGitHub()
    srv.add_pull("o/r", 1, files=["a.txt", {"filename": "b.txt", "status": "renamed", "previous_filename": "c.txt"},
                                  {"filename": "d.txt", "status": "added", "patch": "@@ -0,0 +1 @@\n+x"}],
                 head_sha=SHA)
    srv.add_issue("o/r", "flaky: test_a", body="seen twice", labels=["flaky"])
    srv.add_issue("o/r", "a pull request", pull_request=True)
    srv.add_issue("o/r", "closed one", state="closed", labels=["flaky"], user="github-actions[bot]",
                  created_at="2026-11-02T10:00:00Z", closed_at="2026-11-03T10:00:00Z")
    srv.add_status("o/r", SHA, "success", "gatekit/gpu", "all good", "https://example.com/run/1")
    srv.add_ref("o/r", "heads/main", SHA)
    srv.add_activity("o/r", "refs/heads/main", SHA, before="f" * 40)
    srv.add_activity("o/r", "refs/heads/main", "e" * 40, before=SHA, activity_type="force_push",
                     actor="github-actions[bot]", timestamp="2026-11-02T10:00:00Z")
    run = srv.add_run("o/r", head_sha=SHA, jobs=[{"name": "build", "id": 9001,
                                                  "annotations": [{"message": "fail-open: the API failed"}]},
                                                 {"name": "test (gpu)", "status": "in_progress",
                                                  "labels": ["self-hosted", "gpu"], "runner_name": "gpu-box-1",
                                                  "created_at": "2026-11-02T10:00:00Z",
                                                  "started_at": "2026-11-02T10:05:00Z"},
                                                  {"name": "skipped", "conclusion": "skipped"}],
                      artifacts=[{"name": "junit", "size_in_bytes": 2048}, {"name": "old", "expired": True}])
    srv.add_run("o/r", head_sha=SHA, status="in_progress", conclusion=None, event="pull_request")
    base = srv.start()
    try:
        ex = [
            call(base, "GET", "/repos/o/r/pulls/1"),
            call(base, "GET", "/repos/o/r/pulls/1/files?per_page=2"),
            call(base, "GET", "/repos/o/r/pulls/9"),
            call(base, "GET", "/repos/o/r/issues?state=all"),
            call(base, "GET", "/repos/o/r/issues?labels=flaky&state=closed"),
            call(base, "POST", "/repos/o/r/issues", {"title": "new", "body": "b", "labels": ["flaky"]}),
            call(base, "POST", "/repos/o/r/issues", {"body": "no title"}),
            call(base, "GET", "/repos/o/r/issues/1"),
            call(base, "PATCH", "/repos/o/r/issues/1", {"state": "closed", "labels": ["flaky", "gpu"]}),
            call(base, "POST", "/repos/o/r/issues/1/comments", {"body": "again"}),
            call(base, "GET", "/repos/o/r/issues/1/comments"),
            call(base, "POST", "/repos/o/r/issues/1/labels", {"labels": ["triage"]}),
            call(base, "POST", f"/repos/o/r/statuses/{SHA}", {"state": "pending", "context": "gatekit/gpu"}),
            call(base, "POST", f"/repos/o/r/statuses/{SHA}", {"state": "bogus"}),
            call(base, "GET", f"/repos/o/r/commits/{SHA}/statuses"),
            call(base, "GET", "/repos/o/r/git/ref/heads/main"),
            call(base, "GET", "/repos/o/r/git/ref/heads/none"),
            call(base, "GET", "/repos/o/r/activity?ref=refs%2Fheads%2Fmain"),
            call(base, "GET", "/repos/o/r/actions/runs?branch=main"),
            call(base, "GET", "/repos/o/r/actions/workflows/ci.yml/runs?status=success"),
            call(base, "GET", "/repos/o/r/actions/workflows/ci.yml/runs?created=2023-12-25T00:00:00Z..2024-01-01T00:00:00Z"),
            call(base, "GET", "/repos/o/r/actions/workflows/ci.yml/runs?created=yesterday"),
            call(base, "GET", "/repos/o/r/check-runs/9001/annotations"),
            call(base, "GET", f"/repos/o/r/actions/runs/{run}"),
            call(base, "GET", f"/repos/o/r/actions/runs/{run}/jobs"),
            call(base, "GET", f"/repos/o/r/actions/runs/{run}/artifacts"),
            call(base, "POST", "/repos/o/r/actions/workflows/ci.yml/dispatches", {"ref": "main", "inputs": {"a": "1"}}),
            call(base, "POST", "/repos/o/r/actions/workflows/ci.yml/dispatches", {"inputs": {}}),
            call(base, "GET", "/user"),
        ]
        srv.installation = True  # an installation token (GITHUB_TOKEN): GET /user is refused
        ex.append(call(base, "GET", "/user"))
    finally:
        srv.stop()
    return ex


def test_every_route_is_exercised(exchanges):
    exercised = set()
    for ex in exchanges:
        rest = re.sub(r"^/repos/o/r", "", ex["path"])
        for verb, pattern, *_ in github_routes.ROUTES:
            if verb == ex["method"] and re.fullmatch(pattern, rest):
                exercised.add((verb, pattern))
    missing = {(v, p) for v, p, *_ in github_routes.ROUTES} - exercised
    assert not missing, f"routes without a fidelity exchange: {sorted(missing)}"


def test_error_answers_are_exercised(exchanges):
    assert {404, 422, 204, 403} <= {ex["status"] for ex in exchanges}


def test_the_tokens_own_account_and_who_opened_an_issue(exchanges):
    """GET /user names the token's account; an installation token gets GitHub's 403; an
    issue's `user` is who opened it (a Bot for an app's account)."""
    me, refused = [ex for ex in exchanges if ex["path"] == "/user"]
    assert me["status"] == 200 and me["body"]["login"] == "octocat" and me["body"]["type"] == "User"
    assert refused["status"] == 403 and refused["body"]["message"] == "Resource not accessible by integration"
    listing = next(ex for ex in exchanges if ex["path"] == "/repos/o/r/issues" and ex["status"] == 200)
    by = {it["title"]: it["user"] for it in listing["body"]}
    assert by["closed one"]["login"] == "github-actions[bot]" and by["closed one"]["type"] == "Bot"
    assert by["flaky: test_a"]["login"] == "octocat"


def test_responses_match_githubs_openapi_description(exchanges, tmp_path):
    modules = Path(os.environ.get("GATEKIT_NODE_MODULES", HERE.parent / "node" / "node_modules"))
    if not (modules / "@octokit" / "openapi").is_dir():
        pytest.fail(f"@octokit/openapi is not installed under {modules} (tests/node: npm ci)")
    path = tmp_path / "exchanges.json"
    path.write_text(json.dumps(exchanges))
    done = subprocess.run(["node", str(HERE / "validate_openapi.mjs"), str(path)], capture_output=True, text=True,
                          env={**os.environ, "GATEKIT_NODE_MODULES": str(modules)}, timeout=300)
    print(done.stdout, done.stderr)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(exchanges)} of {len(exchanges)} exchanges match" in done.stdout


def test_validator_rejects_a_drifted_shape(exchanges, tmp_path):
    """The check can fail: a PR without `changed_files` or with a string id is rejected."""
    pr = next(ex for ex in exchanges if ex["path"] == "/repos/o/r/pulls/1" and ex["status"] == 200)
    bad = json.loads(json.dumps(pr))
    del bad["body"]["changed_files"]
    bad["body"]["id"] = "12"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps([bad]))
    done = subprocess.run(["node", str(HERE / "validate_openapi.mjs"), str(path)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "changed_files" in done.stdout and "/id" in done.stdout
