"""The matrix-aggregator and smoke-runner actions' run steps, taken from their action.yml and
run as the runner would (inputs only through env, every declared env set, GITHUB_ACTION_PATH
the action folder): they find the tool through actions/lib/find-tool.sh and run it, and a
missing tool is a clear ::error with exit 3, never a pass."""
import os
import subprocess
from pathlib import Path

import pytest
import yaml

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BUILD = Path(os.environ["GATEKIT_BUILD_DIR"]).resolve()

CASES = {
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
               GITHUB_OUTPUT=str(out), INPUT_GATEKIT_BIN=str(bin_dir), **CASES[name])
    done = subprocess.run(["bash", "-c", step["run"]], env=env, cwd=tmp_path, capture_output=True, text=True,
                          timeout=60)
    return done, out.read_text()


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_step_finds_and_runs_the_tool(name, tmp_path):
    (tmp_path / "manifest.yaml").write_text("smokes:\n  - name: ok\n    command: [true]\n    pr: true\n")
    done, outputs = run_step(name, tmp_path, BUILD / "tools" / name)
    assert done.returncode == 0, done.stdout + done.stderr
    assert ("result=success" if name == "matrix-aggregator" else "result=passed") in outputs


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_missing_tool_is_an_error_not_a_pass(name, tmp_path):
    done, outputs = run_step(name, tmp_path, tmp_path / "no-such-bin")
    assert done.returncode == 3
    assert done.stdout == (f"::error title={name}::{name} not found (gatekit-bin input, GATEKIT_BIN or PATH)\n")
    assert outputs == "result=error\n"
