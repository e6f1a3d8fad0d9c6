#!/usr/bin/env python3
"""Writes the recorded exchanges of tests/gatekit-doctor/data/recorded/ (run by hand after a
change to what gatekit-doctor asks the API; review the diff).

Each recording is one gatekit-doctor run against the GitHub API test server
(tests/github_api/server.py), whose shapes test_openapi_fidelity.py checks against GitHub's
OpenAPI description: every request the tool made, in order, with the answer the server gave,
in @octokit/fixtures' normalized-fixture format ({method, path, status, headers, response}).
Where a real recorded answer exists it replaces the server's: the 404 "Branch not protected"
is GitHub's own, from @octokit/fixtures' branch-protection scenario. test_recorded.py checks
every recorded answer against the OpenAPI description and replays each recording.

    GATEKIT_BUILD_DIR=build/dev python3 tests/gatekit-doctor/record.py
"""
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parents[1]
sys.path.insert(0, str(SOURCE / "tests" / "github_api"))
from server import FakeGitHub  # noqa: E402

TOKEN = "doctor-token"
REPO = "demo/tinyml"
ACTIONS = 15368
APP = 424242


def real_not_protected() -> dict:
    modules = Path(os.environ.get("GATEKIT_NODE_MODULES", SOURCE / "tests" / "node" / "node_modules"))
    fixture = modules / "@octokit" / "fixtures" / "scenarios" / "api.github.com" / "branch-protection" / \
        "normalized-fixture.json"
    first = json.loads(fixture.read_text())[0]
    assert first["status"] == 404 and first["response"]["message"] == "Branch not protected"
    return first["response"]


def demo_files(server: FakeGitHub) -> None:
    for path in sorted((SOURCE / "examples" / "demo-project" / ".github" / "workflows").glob("*.yml")):
        server.add_file(REPO, f".github/workflows/{path.name}", path.read_text())


def healthy(server: FakeGitHub) -> None:
    demo_files(server)
    server.set_rules(REPO, "main", [{"type": "required_status_checks", "ruleset_id": 1, "ruleset_source": REPO,
                                     "checks": [{"context": "CPU tests", "integration_id": ACTIONS},
                                                {"context": "GPU tests", "integration_id": ACTIONS},
                                                {"context": "gate/gpu", "integration_id": APP}]},
                                    {"type": "merge_queue", "ruleset_id": 1, "ruleset_source": REPO}])
    server.add_environment(REPO, "gatekit-gate", branches="custom", policies=[{"name": "main"}],
                           variables={"GATEKIT_GATE_APP_CLIENT_ID": "Iv23demo"}, secrets=["GATEKIT_GATE_APP_KEY"])


def broken(server: FakeGitHub) -> None:
    demo_files(server)
    server.set_variable(REPO, "GATEKIT_GATE_MODE", "pull-request")
    server.set_rules(REPO, "main", [{"type": "required_status_checks", "ruleset_id": 2, "ruleset_source": REPO,
                                     "checks": [{"context": "CPU tests", "integration_id": ACTIONS},
                                                {"context": "pytest (GPU, shard 1)", "integration_id": ACTIONS},
                                                {"context": "gate/gpu"}]}])
    server.set_protection(REPO, "main", checks=[{"context": "GPU test", "app_id": ACTIONS}])


RECORDINGS = {"healthy-strict": (healthy, ["--app-id", str(APP)]), "broken-pull-request-mode": (broken, [])}


def record(name: str, build: Path) -> None:
    setup, args = RECORDINGS[name]
    with FakeGitHub(token=TOKEN) as server:
        setup(server)
        env = {**os.environ, "GITHUB_API_URL": server.base_url, "GITHUB_TOKEN": TOKEN}
        subprocess.run([str(build / "tools" / "gatekit-doctor" / "gatekit-doctor"), "--repo", REPO, *args], env=env,
                       capture_output=True, check=False)
        exchanges = []
        for request in server.stats()["requests"]:
            query = "&".join(f"{k}={v}" for k, v in request["query"].items())
            path = request["path"] + (f"?{query}" if query else "")
            try:
                with urllib.request.urlopen(urllib.request.Request(
                        server.base_url + path, headers={"Authorization": f"Bearer {TOKEN}"})) as answer:
                    status, body = answer.status, answer.read()
            except urllib.error.HTTPError as e:
                status, body = e.code, e.read()
            response = json.loads(body) if body else None
            if status == 404 and request["path"].endswith("/protection"):
                response = real_not_protected()
            response = json.loads(json.dumps(response).replace(server.base_url, "https://api.github.com"))
            exchanges.append({"method": request["method"].lower(), "path": path, "status": status,
                              "headers": {"content-type": "application/json; charset=utf-8"}, "response": response})
    target = HERE / "data" / "recorded" / f"{name}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(exchanges, indent=1) + "\n")
    print(f"{target}: {len(exchanges)} exchanges")


if __name__ == "__main__":
    build_dir = Path(os.environ.get("GATEKIT_BUILD_DIR", SOURCE / "build" / "dev"))
    for recording in RECORDINGS:
        record(recording, build_dir)
