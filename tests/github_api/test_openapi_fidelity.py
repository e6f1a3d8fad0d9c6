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
    srv.add_status("o/r", SHA, "failure", "gate/gpu", "posted by an app", None, creator="gatekit-gate[bot]")
    srv.add_status("o/r", SHA, "failure", "gate/gpu", "its account deleted", None, creator=None)
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
    # What gatekit-doctor reads: rules, branch protection, environments, variables, workflow files.
    srv.set_rules("o/r", "main", [{"type": "required_status_checks", "ruleset_id": 7,
                                   "checks": [{"context": "CPU tests", "integration_id": 15368},
                                              {"context": "gate/gpu"}]},
                                  {"type": "merge_queue", "ruleset_id": 7}, {"type": "deletion", "ruleset_id": 7}])
    srv.set_protection("o/r", "main", checks=[{"context": "GPU tests", "app_id": 15368}, {"context": "lint"}])
    srv.set_protection("o/r", "release", checks=None)
    srv.add_environment("o/r", "gatekit-gate", branches="custom", policies=[{"name": "main"}],
                        variables={"GATEKIT_GATE_APP_CLIENT_ID": "Iv23li0"}, secrets=["GATEKIT_GATE_APP_KEY"])
    srv.add_environment("o/r", "open", branches="all")
    srv.add_environment("o/r", "protected", branches="protected")
    srv.set_variable("o/r", "GATEKIT_GATE_MODE", "pull-request")
    srv.add_file("o/r", ".github/workflows/ci.yml", "name: CI\non: pull_request\n")
    srv.add_file("o/r", ".github/gatekit/filters.yml", "cpu: ['**']\n")
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
            call(base, "GET", "/repos/o/r"),
            call(base, "GET", "/repos/o/r/rules/branches/main"),
            call(base, "GET", "/repos/o/r/rules/branches/other"),
            call(base, "GET", "/repos/o/r/branches/main/protection"),
            call(base, "GET", "/repos/o/r/branches/release/protection"),
            call(base, "GET", "/repos/o/r/branches/feature/protection"),
            call(base, "GET", "/repos/o/r/environments/gatekit-gate"),
            call(base, "GET", "/repos/o/r/environments/open"),
            call(base, "GET", "/repos/o/r/environments/protected"),
            call(base, "GET", "/repos/o/r/environments/missing"),
            call(base, "GET", "/repos/o/r/environments/gatekit-gate/deployment-branch-policies"),
            call(base, "GET", "/repos/o/r/environments/gatekit-gate/variables"),
            call(base, "GET", "/repos/o/r/environments/gatekit-gate/secrets"),
            call(base, "GET", "/repos/o/r/actions/variables/GATEKIT_GATE_MODE"),
            call(base, "GET", "/repos/o/r/actions/variables/UNSET"),
            call(base, "GET", "/repos/o/r/contents/.github?ref=main"),
            call(base, "GET", "/repos/o/r/contents/.github/workflows?ref=main"),
            call(base, "GET", "/repos/o/r/contents/.github/workflows/ci.yml?ref=main"),
            call(base, "GET", "/repos/o/r/contents/.github/nothing?ref=main"),
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


def test_what_the_doctor_reads(exchanges):
    """The rules, protection, environments, variables and files come back as set: a branch
    without protection is GitHub's 404 "Branch not protected"; a file's content is base64."""
    by = {(ex["path"]): ex for ex in exchanges if ex["method"] == "GET"}
    rules = by["/repos/o/r/rules/branches/main"]["body"]
    assert [r["type"] for r in rules] == ["required_status_checks", "merge_queue", "deletion"]
    assert rules[0]["parameters"]["required_status_checks"] == [
        {"context": "CPU tests", "integration_id": 15368}, {"context": "gate/gpu"}]
    assert by["/repos/o/r/rules/branches/other"]["body"] == []
    protection = by["/repos/o/r/branches/main/protection"]["body"]["required_status_checks"]
    assert protection["checks"] == [{"context": "GPU tests", "app_id": 15368}, {"context": "lint", "app_id": None}]
    assert "required_status_checks" not in by["/repos/o/r/branches/release/protection"]["body"]
    missing = by["/repos/o/r/branches/feature/protection"]
    assert missing["status"] == 404 and missing["body"]["message"] == "Branch not protected"
    assert by["/repos/o/r/environments/open"]["body"]["deployment_branch_policy"] is None
    assert by["/repos/o/r/environments/gatekit-gate"]["body"]["deployment_branch_policy"] == {
        "protected_branches": False, "custom_branch_policies": True}
    assert by["/repos/o/r/environments/missing"]["status"] == 404
    assert [p["name"] for p in by["/repos/o/r/environments/gatekit-gate/deployment-branch-policies"]["body"][
        "branch_policies"]] == ["main"]
    assert by["/repos/o/r/actions/variables/UNSET"]["status"] == 404
    listing = by["/repos/o/r/contents/.github"]["body"]
    assert [(e["name"], e["type"]) for e in listing] == [("gatekit", "dir"), ("workflows", "dir")]
    import base64
    assert base64.b64decode(by["/repos/o/r/contents/.github/workflows/ci.yml"]["body"]["content"]) == \
        b"name: CI\non: pull_request\n"


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


def test_who_posted_a_status(exchanges):
    """A status's `creator` is the account that posted it (nullable-simple-user in the OpenAPI
    description): the token's account for a POST, an app's `<slug>[bot]` a Bot, null for a
    deleted account."""
    posted = next(ex for ex in exchanges if ex["method"] == "POST" and ex["status"] == 201 and "/statuses/" in ex["path"])
    assert posted["body"]["creator"]["login"] == "octocat"
    listing = next(ex for ex in exchanges if ex["path"] == f"/repos/o/r/commits/{SHA}/statuses")
    by = {s["description"]: s["creator"] for s in listing["body"]}
    assert by["posted by an app"]["login"] == "gatekit-gate[bot]" and by["posted by an app"]["type"] == "Bot"
    assert by["its account deleted"] is None
    assert by["all good"]["login"] == "octocat"


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
