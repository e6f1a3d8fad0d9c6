"""gatekit-doctor on recorded API answers (data/recorded/, written by record.py): every answer
matches GitHub's OpenAPI description (tests/github_api/validate_openapi.mjs), and a replay of
each recording gets the verdict it must, with exactly the requests recorded, in order."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parents[1]
BUILD = Path(os.environ.get("GATEKIT_BUILD_DIR", SOURCE / "build" / "dev"))
MODULES = Path(os.environ.get("GATEKIT_NODE_MODULES", SOURCE / "tests" / "node" / "node_modules"))
sys.path.insert(0, str(SOURCE / "tests" / "github_api"))
sys.path.insert(0, str(SOURCE / "scripts"))
from github_files import read_outputs  # noqa: E402
from server import FakeGitHub  # noqa: E402

TOOL = BUILD / "tools" / "gatekit-doctor" / "gatekit-doctor"
RECORDED = HERE / "data" / "recorded"

# What each recording must come out as: its arguments, exit code, and the findings' kinds.
EXPECTED = {
    "healthy-strict": (["--app-id", "424242"], 0, []),
    "broken-pull-request-mode": ([], 1, ["skippable: pytest (GPU, shard 1)", "gate-source: gate/gpu",
                                         "not-produced: GPU test"]),
}


def exchanges(name):
    return json.loads((RECORDED / f"{name}.json").read_text())


def test_every_recording_is_expected():
    assert sorted(p.stem for p in RECORDED.glob("*.json")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_recorded_answers_match_githubs_openapi_description(name, tmp_path):
    cases = [{"method": e["method"].upper(), "path": e["path"].split("?")[0], "status": e["status"],
              "body": e["response"]} for e in exchanges(name)]
    (tmp_path / "exchanges.json").write_text(json.dumps(cases))
    done = subprocess.run(["node", str(SOURCE / "tests" / "github_api" / "validate_openapi.mjs"),
                           str(tmp_path / "exchanges.json")], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "GATEKIT_NODE_MODULES": str(MODULES)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(cases)} of {len(cases)} exchanges match" in done.stdout


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_doctor_on_a_replayed_recording(name, tmp_path):
    args, exit_code, findings = EXPECTED[name]
    outputs = tmp_path / "output"
    outputs.touch()
    with FakeGitHub() as server:
        server.replay(exchanges(name))
        done = subprocess.run([str(TOOL), "--repo", "demo/tinyml", *args], capture_output=True, text=True,
                              timeout=120, env={**os.environ, "GITHUB_API_URL": server.base_url,
                                                "GITHUB_TOKEN": "doctor-token", "GITHUB_OUTPUT": str(outputs)})
        stats = server.stats()
    assert stats["replay_errors"] == [], stats["replay_errors"]
    assert stats["replay_left"] == 0  # every recorded request made, none more
    assert done.returncode == exit_code, done.stdout + done.stderr
    found = [line.split(". ", 1)[1].rsplit(" (", 1)[0] for line in done.stdout.splitlines()
             if line.startswith("  ") and line.strip()[:1].isdigit() and ". " in line]
    assert found == findings, done.stdout
    assert read_outputs(outputs)["findings"] == str(len(findings))


def test_a_request_the_recording_lacks_is_refused_not_guessed(tmp_path):
    """The replay can fail: a recording cut short leaves the doctor without an answer (exit 3)."""
    with FakeGitHub() as server:
        server.replay(exchanges("healthy-strict")[:5])
        done = subprocess.run([str(TOOL), "--repo", "demo/tinyml", "--app-id", "424242"], capture_output=True,
                              text=True, timeout=120,
                              env={**os.environ, "GITHUB_API_URL": server.base_url, "GITHUB_TOKEN": "doctor-token"})
        stats = server.stats()
    assert done.returncode == 3, done.stdout + done.stderr
    assert "replay: no recorded exchange left" in done.stderr
    assert stats["replay_errors"][0].startswith("unexpected request GET /repos/demo/tinyml/contents/.github/workflows/")
