"""actions/path-gate: the step script maps the inputs (environment only) onto the tool, and
every output the action declares is one the tool writes."""
import os
import subprocess

import yaml

from gate_helpers import BUILD, RULES, SOURCE, read_outputs

SCRIPT = SOURCE / "actions" / "path-gate" / "path-gate.sh"


def run_action(tmp_path, **inputs):
    out = tmp_path / "out.txt"
    out.write_text("")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "GITHUB_OUTPUT": str(out),
           "GITHUB_ACTIONS": "true", "GATE_BIN": str(BUILD / "tools" / "path-classifier")}
    env.update({f"GATE_{k.upper()}": v for k, v in inputs.items()})
    done = subprocess.run(["bash", str(SCRIPT)], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    return done, read_outputs(out)


def test_inline_rules_and_a_file_list(tmp_path):
    files = tmp_path / "changed.txt"
    files.write_text("src/kernels/a.cu\n")
    done, outputs = run_action(tmp_path, filters=RULES, list_files=str(files))
    assert done.returncode == 0, done.stderr
    assert outputs["cpu"] == "true" and outputs["gpu"] == "true"
    assert outputs["changes"] == '["cpu","gpu"]'
    assert outputs["filters"] == '{"cpu":true,"gpu":true}'


def test_rules_from_a_file_and_a_dialect(tmp_path):
    (tmp_path / "gate.yml").write_text(RULES)
    files = tmp_path / "changed.txt"
    files.write_text(".github/ci.yml\n")
    done, outputs = run_action(tmp_path, filters="gate.yml", dialect="github", list_files=str(files))
    assert done.returncode == 0, done.stderr
    assert outputs["changes"] == "[]"


def test_invalid_rules_fail_the_step(tmp_path):
    files = tmp_path / "changed.txt"
    files.write_text("a\n")
    done, outputs = run_action(tmp_path, filters="filters:\n  x: ['?']\n", list_files=str(files))
    assert done.returncode == 2
    assert "filters input:2:8: filters.x[0]: invalid pattern '?'" in done.stderr
    assert outputs == {}


def test_a_missing_tool_is_an_error(tmp_path):
    done, _ = run_action(tmp_path, filters=RULES, bin=str(tmp_path / "nowhere"))
    assert done.returncode == 2
    assert done.stdout.startswith("::error title=path gate::path-classifier not found")


def test_declared_outputs_come_from_the_gate_step():
    action = yaml.safe_load((SOURCE / "actions" / "path-gate" / "action.yml").read_text())
    assert set(action["outputs"]) == {"changes", "filters", "decision", "cpu", "gpu", "docs"}
    for name, spec in action["outputs"].items():
        assert spec["value"] == f"${{{{ steps.gate.outputs.{name} }}}}"
    env = action["runs"]["steps"][0]["env"]
    assert set(env) == {f"GATE_{name.upper().replace('-', '_')}" for name in
                        ("filters", "dialect", "token", "base", "head", "list-files")} | {"GATE_BIN"}
    assert "${{" not in action["runs"]["steps"][0]["run"]
    # The tool writes them all (per-filter flags for cpu/gpu/docs when such filters exist).
    assert os.access(SCRIPT, os.X_OK)
