"""The workflow and shell linters, as CI runs them: actionlint, shellcheck and zizmor.

- actionlint v1.7.12 (scripts/install-deps.sh builds it into build/ci-tools/bin) over every
  workflow: the templates (workflows/), the demo's (examples/*/.github/workflows/) and
  gatekit's own (.github/workflows/), with .github/actionlint.yaml and shellcheck for the
  run: scripts. Composite actions are not workflows: their run: scripts and the .sh files
  they call are checked by shellcheck directly.
- zizmor (tests/requirements.txt) offline with the auditor persona over the same workflows
  and every action, with .github/zizmor.yml, which says why each accepted finding is
  accepted. Zero findings otherwise.
One test per file, so a failure names the file; each prints the tool's own report. Missing
tools fail the tests, never skip them. Tools are found through GATEKIT_ACTIONLINT (else
build/ci-tools/bin/actionlint, else PATH), GATEKIT_SHELLCHECK and GATEKIT_ZIZMOR (else PATH).
"""
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
FIXTURES = Path(__file__).resolve().parent / "fixtures"
ACTIONLINT_VERSION = "v1.7.12"
WORKFLOWS = sorted([*SOURCE.glob("workflows/*.yml"), *SOURCE.glob("examples/*/.github/workflows/*.yml"),
                    *SOURCE.glob(".github/workflows/*.yml")])
ACTIONS = sorted(SOURCE.glob("actions/*/action.yml"))
SCRIPTS = sorted([*SOURCE.glob("actions/**/*.sh"), *SOURCE.glob("scripts/*.sh"), *SOURCE.glob(".github/**/*.sh"),
                  *SOURCE.glob("bench/**/*.sh"), SOURCE / ".ci" / "run"])
CONFIG = SOURCE / ".github" / "actionlint.yaml"
ZIZMOR_CONFIG = SOURCE / ".github" / "zizmor.yml"


def rel(path: Path) -> str:
    return str(path.relative_to(SOURCE))


def tool(env: str, *candidates) -> str:
    for found in [os.environ.get(env), *candidates]:
        if found and shutil.which(found):
            return shutil.which(found)
    pytest.fail(f"{candidates[-1]} not found (set {env}, or run scripts/install-deps.sh)")


def actionlint() -> str:
    return tool("GATEKIT_ACTIONLINT", str(SOURCE / "build" / "ci-tools" / "bin" / "actionlint"), "actionlint")


def shellcheck() -> str:
    return tool("GATEKIT_SHELLCHECK", "shellcheck")


def zizmor() -> str:
    return tool("GATEKIT_ZIZMOR", "zizmor")


def run(*cmd, cwd=SOURCE):
    return subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=300)


def lint_workflow(path, config=CONFIG):
    args = ["-no-color", "-shellcheck", shellcheck()]
    if config is not None:
        args += ["-config-file", config]
    return run(actionlint(), *args, path)


def test_the_file_lists_are_what_they_claim():
    assert {rel(p) for p in WORKFLOWS} >= {"workflows/cpu-tests.yml", "workflows/gpu-tests.yml",
                                           ".github/workflows/ci.yml", ".github/workflows/release.yml"}
    assert rel(SOURCE / "actions" / "setup-gatekit" / "setup-gatekit.sh") in map(rel, SCRIPTS)
    assert len(ACTIONS) >= 4


def test_actionlint_is_the_pinned_release():
    done = run(actionlint(), "--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == ACTIONLINT_VERSION


@pytest.mark.parametrize("path", WORKFLOWS, ids=rel)
def test_actionlint_finds_nothing(path):
    done = lint_workflow(path)
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


def test_actionlint_reports_a_broken_workflow():
    done = lint_workflow(FIXTURES / "bad" / "actionlint.yml")
    assert done.returncode == 1
    assert 'property "nope" is not defined in object type {}' in done.stdout


def test_actionlint_runs_shellcheck_on_run_scripts(tmp_path):
    workflow = tmp_path / "w.yml"
    workflow.write_text("on: push\npermissions: {}\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    steps:\n"
                        "      - run: echo $UNQUOTED\n")
    done = lint_workflow(workflow)
    assert done.returncode == 1
    assert "SC2086" in done.stdout


def test_the_config_declares_the_gpu_runner_label(tmp_path):
    workflow = tmp_path / "w.yml"
    workflow.write_text("on: push\npermissions: {}\njobs:\n  a:\n    runs-on: [self-hosted, gpu]\n    steps:\n"
                        "      - run: 'true'\n")
    without = lint_workflow(workflow, config=None)
    assert without.returncode == 1 and 'label "gpu" is unknown' in without.stdout
    done = lint_workflow(workflow)
    assert (done.returncode, done.stdout) == (0, "")


@pytest.mark.parametrize("path", SCRIPTS, ids=rel)
def test_shellcheck_finds_nothing_in_scripts(path):
    done = run(shellcheck(), "--shell=bash", "--external-sources", "--source-path=SCRIPTDIR", "--format=gcc", path)
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


def run_steps():
    for action in ACTIONS:
        steps = yaml.safe_load(action.read_text())["runs"].get("steps", [])
        for index, step in enumerate(steps):
            if "run" in step:
                yield pytest.param(action, index, step, id=f"{rel(action)}:steps[{index}]")


@pytest.mark.parametrize("action,index,step", list(run_steps()))
def test_shellcheck_finds_nothing_in_composite_run_steps(tmp_path, action, index, step):
    assert step.get("shell") == "bash"
    script = tmp_path / "step.sh"
    script.write_text(step["run"])
    # $GITHUB_ACTION_PATH is the action's folder: sources resolve from there.
    done = run(shellcheck(), "--shell=bash", "--external-sources", f"--source-path={action.parent}", "--format=gcc",
               script)
    assert (done.returncode, done.stdout.replace(str(script), "run") + done.stderr) == (0, "")


def test_shellcheck_reports_a_broken_script(tmp_path):
    script = tmp_path / "bad.sh"
    script.write_text("#!/usr/bin/env bash\nrm -rf $1/*\n")
    done = run(shellcheck(), "--format=gcc", script)
    assert done.returncode == 1 and "SC2086" in done.stdout


def zizmor_findings(*paths, config=ZIZMOR_CONFIG):
    args = ["--offline", "--persona", "auditor", "--format", "json", "--no-progress"]
    args += ["--config", config] if config else ["--no-config"]
    done = run(zizmor(), *args, *paths)
    assert done.returncode in (0, 11, 12, 13, 14), done.stdout + done.stderr  # 1x: findings of severity x
    return json.loads(done.stdout or "[]"), done


def describe(findings) -> str:
    lines = []
    for f in findings:
        loc = f["locations"][0]
        row = loc["concrete"]["location"]["start_point"]["row"] + 1
        lines.append(f"line {row}: [{f['ident']}] {f['desc']}: {loc['symbolic'].get('annotation', '')}")
    return "\n".join(lines)


@pytest.mark.parametrize("path", [*WORKFLOWS, *ACTIONS], ids=rel)
def test_zizmor_finds_nothing(path):
    findings, _ = zizmor_findings(path)
    assert findings == [], describe(findings)


def test_zizmor_reports_credentials_left_in_a_checkout(tmp_path):
    workflow = tmp_path / "w.yml"
    workflow.write_text("on: push\npermissions: {}\njobs:\n  a:\n    name: a\n    runs-on: ubuntu-24.04\n"
                        "    permissions:\n      contents: read  # checkout\n    steps:\n"
                        "      - uses: actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1\n")
    findings, _ = zizmor_findings(workflow, config=None)
    assert "artipacked" in [f["ident"] for f in findings], describe(findings)


def test_zizmor_config_accepts_only_what_it_explains():
    config = yaml.safe_load(ZIZMOR_CONFIG.read_text())
    assert sorted(config["rules"]) == ["self-hosted-runner", "self-repository"]
    assert config["rules"]["self-hosted-runner"] == {"ignore": ["gpu-tests.yml"]}
    text = ZIZMOR_CONFIG.read_text()
    for rule in config["rules"]:  # each entry has its reason right above it
        before = text[: text.index(f"  {rule}:")].rstrip().splitlines()[-1]
        assert before.strip().startswith("#"), rule
