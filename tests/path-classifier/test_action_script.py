"""actions/path-gate: the step script maps the inputs (environment only) onto the tool, and
every output the action declares is one the tool writes."""
import json
import os
import subprocess

import pytest
import yaml

from gate_helpers import BUILD, RULES, SOURCE, commit_files, git, new_repo, read_outputs

SCRIPT = SOURCE / "actions" / "path-gate" / "path-gate.sh"


def run_action(tmp_path, cwd=None, **inputs):
    out = tmp_path / "out.txt"
    out.write_text("")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "GITHUB_OUTPUT": str(out),
           "GITHUB_ACTIONS": "true", "INPUT_GATEKIT_BIN": str(BUILD / "tools" / "path-classifier")}
    env.update({f"INPUT_{k.upper()}": v for k, v in inputs.items()})
    done = subprocess.run(["bash", str(SCRIPT)], env=env, cwd=cwd or tmp_path, capture_output=True, text=True,
                          timeout=60)
    return done, read_outputs(out)


def test_inline_rules_and_a_file_list(tmp_path):
    files = tmp_path / "changed.txt"
    files.write_text("src/kernels/a.cu\n")
    done, outputs = run_action(tmp_path, filters=RULES, list_files=str(files))
    assert done.returncode == 0, done.stderr
    assert outputs["cpu"] == "true" and outputs["gpu"] == "true"
    assert outputs["changes"] == '["cpu","gpu"]'
    assert outputs["filters"] == '{"cpu":true,"cpu_count":1,"gpu":true,"gpu_count":1}'


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
    done, _ = run_action(tmp_path, filters=RULES, gatekit_bin=str(tmp_path / "nowhere"))
    assert done.returncode == 3  # could not evaluate, as every gatekit action (docs/exit-codes.md)
    assert done.stdout.startswith("::error title=path gate::path-classifier not found")


COMMON = ("cpu", "gpu", "docs", "src", "backend", "frontend", "tests")


def test_declared_outputs_come_from_the_gate_step():
    action = yaml.safe_load((SOURCE / "actions" / "path-gate" / "action.yml").read_text())
    per_filter = {f"{name}{suffix}" for name in COMMON for suffix in ("", "_count", "_files")}
    assert set(action["outputs"]) == {"changes", "filters", "decision", "files-complete", "list-files-path"} | per_filter
    for name, spec in action["outputs"].items():
        assert spec["value"] == f"${{{{ steps.gate.outputs.{name} }}}}"
    env = action["runs"]["steps"][0]["env"]
    inputs = ("filters", "dialect", "token", "base", "ref", "head", "list-files", "files-from", "predicate-quantifier",
              "working-directory", "initial-fetch-depth")
    assert set(action["inputs"]) == set(inputs) | {"gatekit-bin", "setup"}
    assert set(env) == {f"INPUT_{name.upper().replace('-', '_')}" for name in inputs} | {"INPUT_GATEKIT_BIN", "INPUT_SETUP"}
    for name in inputs:
        assert env[f"INPUT_{name.upper().replace('-', '_')}"] == f"${{{{ inputs.{name} }}}}"
    assert "${{" not in action["runs"]["steps"][0]["run"]
    assert os.access(SCRIPT, os.X_OK)


def test_the_tool_writes_every_declared_per_filter_output(tmp_path):
    rules = "".join(f"{name}: ['{name}/**']\n" for name in COMMON)
    files = tmp_path / "changed.txt"
    files.write_text("".join(f"{name}/x\n" for name in COMMON))
    done, outputs = run_action(tmp_path, filters=rules, files_from=str(files), list_files="json")
    assert done.returncode == 0, done.stderr
    action = yaml.safe_load((SOURCE / "actions" / "path-gate" / "action.yml").read_text())
    assert set(action["outputs"]) - set(outputs) == {"list-files-path"}  # only with RUNNER_TEMP


EVIL = "--upload-pack=touch PWNED;"


def repo_with_remote(tmp_path):
    """The workspace: a clone whose origin is a real remote, and a feature commit on origin only."""
    origin = new_repo(tmp_path / "origin")
    commit_files(origin, {"README.md": "r\n"}, "base")
    git(origin, "checkout", "-q", "-b", "feature")
    commit_files(origin, {"src/kernels/k.cu": "k\n"}, "kernel")
    git(origin, "checkout", "-q", "main")
    work = tmp_path / "work"
    git(tmp_path, "clone", "-q", "--branch", "main", f"file://{origin}", str(work))
    return work, git(origin, "rev-parse", "feature")


@pytest.mark.parametrize("inputs, message", [
    ({"base": EVIL}, f"--base: revision '{EVIL}' starts with '-': git would read it as an option"),
    ({"base": "main", "head": EVIL}, f"--head: revision '{EVIL}' starts with '-': git would read it as an option"),
    ({"base": "--help"}, "--base: revision '--help' starts with '-': git would read it as an option"),
])
def test_base_and_head_inputs_never_reach_git_as_options(tmp_path, inputs, message):
    work, _ = repo_with_remote(tmp_path)
    done, outputs = run_action(tmp_path, cwd=work, filters=RULES, **inputs)
    assert done.returncode == 2
    assert done.stderr == f"path-classifier: error: {message}\nRun 'path-classifier --help' for usage.\n"
    assert sorted(str(p) for p in tmp_path.rglob("PWNED*")) == []


def test_base_and_head_inputs_compare_with_git(tmp_path):
    work, feature = repo_with_remote(tmp_path)
    done, outputs = run_action(tmp_path, cwd=work, filters=RULES, base="main", head=feature)
    assert done.returncode == 0, done.stderr
    assert outputs["gpu"] == "true"
    assert json.loads(outputs["decision"])["source"] == f"git diff main...{feature}"
