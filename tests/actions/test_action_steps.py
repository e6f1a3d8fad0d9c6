"""Every gatekit action's run step (path-gate, matrix-aggregator, smoke-runner), taken from its
action.yml and run as the runner would (inputs only through env, every declared env set,
GITHUB_ACTION_PATH the action folder): each finds its tool through actions/lib/find-tool.sh and
runs it, and a missing tool is a clear ::error with the same exit code in every action, 3
(could not evaluate), never a pass and never a usage error."""
import os
import subprocess
from pathlib import Path

import pytest
import yaml

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BUILD = Path(os.environ["GATEKIT_BUILD_DIR"]).resolve()

TOOL = {"path-gate": "path-classifier", "matrix-aggregator": "matrix-aggregator", "smoke-runner": "smoke-runner"}
BIN_INPUT = {"path-gate": "GATE_BIN", "matrix-aggregator": "INPUT_GATEKIT_BIN", "smoke-runner": "INPUT_GATEKIT_BIN"}
CASES = {
    "path-gate": {"GATE_FILTERS": "filters:\n  cpu:\n    paths: ['src/**']\n", "GATE_LIST_FILES": "changed.txt"},
    "matrix-aggregator": {
        "GATEKIT_NEEDS": '{"changes":{"result":"success","outputs":{"cpu":"false"}},'
                         '"tests":{"result":"skipped","outputs":{}}}',
        "INPUT_GATE_JOB": "changes", "INPUT_GATED": "tests=cpu", "INPUT_TITLE": "CPU tests"},
    "smoke-runner": {"INPUT_MANIFEST": "manifest.yaml", "INPUT_REPORT_DIR": "reports", "INPUT_TIER": "pr",
                     "INPUT_GPUS": "1"},
}


def run_step(name, tmp_path, bin_dir):
    step = yaml.safe_load((SOURCE / "actions" / name / "action.yml").read_text())["runs"]["steps"][0]
    out = tmp_path / "github_output"
    out.write_text("")
    env = {key: "" for key in step["env"]}
    env.update(PATH="/usr/bin:/bin", HOME=str(tmp_path), GITHUB_ACTION_PATH=str(SOURCE / "actions" / name),
               GITHUB_OUTPUT=str(out), **{BIN_INPUT[name]: str(bin_dir)}, **CASES[name])
    done = subprocess.run(["bash", "-c", step["run"]], env=env, cwd=tmp_path, capture_output=True, text=True,
                          timeout=60)
    return done, out.read_text()


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_step_finds_and_runs_the_tool(name, tmp_path):
    (tmp_path / "manifest.yaml").write_text("smokes:\n  - name: ok\n    command: [true]\n    pr: true\n")
    (tmp_path / "changed.txt").write_text("src/a.py\n")
    done, outputs = run_step(name, tmp_path, BUILD / "tools" / TOOL[name])
    assert done.returncode == 0, done.stdout + done.stderr
    assert {"path-gate": "cpu=true", "matrix-aggregator": "result=success",
            "smoke-runner": "result=passed"}[name] in outputs.splitlines()


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_missing_tool_is_an_error_not_a_pass(name, tmp_path):
    done, outputs = run_step(name, tmp_path, tmp_path / "no-such-bin")
    assert done.returncode == 3
    if name == "path-gate":  # no result output: the gated jobs' `if:` read its filters, empty here
        assert done.stdout == ("::error title=path gate::path-classifier not found: set the gatekit-bin input or "
                               "GATEKIT_BIN, or put the gatekit tools on PATH\n")
        assert outputs == ""
    else:
        assert done.stdout == f"::error title={name}::{name} not found (gatekit-bin input, GATEKIT_BIN or PATH)\n"
        assert outputs == "result=error\n"
