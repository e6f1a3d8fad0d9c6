"""Every gatekit action's tool step (path-gate, matrix-aggregator, smoke-runner, suite-report),
taken from its action.yml and run as the runner would (inputs only through env, every declared
env set to the input's default unless a test says otherwise, GITHUB_ACTION_PATH the action
folder): each finds its tool through actions/lib/find-tool.sh and runs it. With `setup: false`
a missing tool is a clear ::error with the same exit code in every action, 3 (could not
evaluate), never a pass and never a usage error; a `setup` value other than auto or false is a
usage error (2) before anything else. test_action_self_setup.py covers `setup: auto` without
the tools."""
import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BUILD = Path(os.environ["GATEKIT_BUILD_DIR"]).resolve()

ACTIONS = ["matrix-aggregator", "path-gate", "smoke-runner", "suite-report"]
TOOL = {"path-gate": "path-classifier", "matrix-aggregator": "matrix-aggregator", "smoke-runner": "smoke-runner",
        "suite-report": "suite-report"}
TITLE = {"path-gate": "path gate", "matrix-aggregator": "matrix-aggregator", "smoke-runner": "smoke-runner",
         "suite-report": "suite-report"}
BIN_INPUT = {name: "INPUT_GATEKIT_BIN" for name in ACTIONS}
SETUP_INPUT = {name: "INPUT_SETUP" for name in ACTIONS}
CASES = {
    "path-gate": {"INPUT_FILTERS": "filters:\n  cpu:\n    paths: ['src/**']\n", "INPUT_FILES_FROM": "changed.txt"},
    "matrix-aggregator": {
        "GATEKIT_NEEDS": '{"changes":{"result":"success","outputs":{"cpu":"false"}},'
                         '"tests":{"result":"skipped","outputs":{}}}',
        "INPUT_GATE_JOB": "changes", "INPUT_GATED": "tests=cpu", "INPUT_TITLE": "CPU tests"},
    "smoke-runner": {"INPUT_MANIFEST": "manifest.yaml", "INPUT_REPORT_DIR": "reports", "INPUT_TIER": "pr",
                     "INPUT_GPUS": "1"},
    "suite-report": {"INPUT_COMMAND": "nightly", "INPUT_SELECTION": "suite.yml", "INPUT_LEG": "cpu",
                     "INPUT_CONTEXT": "pr"},
}
# A line of GITHUB_OUTPUT that only a run of the tool writes.
RAN = {"path-gate": "cpu=true", "matrix-aggregator": "result=success", "smoke-runner": "result=passed",
       "suite-report": "markers=(not cpu_only) and not nightly"}
MISSING = {  # the message of a missing tool with setup: false: one lookup, one wording
    name: f"::error title={TITLE[name]}::{TOOL[name]} not found (gatekit-bin input, GATEKIT_BIN or PATH)\n"
    for name in ACTIONS}
INPUT = re.compile(r"^\$\{\{ inputs\.([a-z-]+) \}\}$")


def tool_step(root: Path, name: str) -> dict:
    return yaml.safe_load((root / "actions" / name / "action.yml").read_text())["runs"]["steps"][0]


def step_env(root: Path, name: str) -> dict:
    """The step's env as the runner fills it when the workflow gives no inputs: each
    `${{ inputs.X }}` its plain default ('' for an expression default such as github.token)."""
    action = yaml.safe_load((root / "actions" / name / "action.yml").read_text())
    env = {}
    for key, value in tool_step(root, name)["env"].items():
        match = INPUT.match(value)
        default = str(action["inputs"][match.group(1)].get("default", "")) if match else ""
        env[key] = "" if "${{" in default else default
    return env


def write_inputs(folder: Path) -> None:
    """The files the CASES name, in the step's working directory."""
    (folder / "manifest.yaml").write_text("smokes:\n  - name: ok\n    command: [true]\n    pr: true\n")
    (folder / "changed.txt").write_text("src/a.py\n")
    (folder / "suite.yml").write_text("version: 1\nlegs:\n  cpu:\n    markers: not cpu_only\n")


def run_step(name, cwd: Path, root: Path = SOURCE, **env):
    """Runs the action's tool step in cwd; returns the process and the text of its GITHUB_OUTPUT."""
    out = cwd / "github_output"
    out.write_text("")
    full = step_env(root, name)
    full.update(PATH="/usr/bin:/bin", HOME=str(cwd), GITHUB_ACTION_PATH=str(root / "actions" / name),
                GITHUB_OUTPUT=str(out), **CASES[name])
    full.update(env)
    done = subprocess.run(["bash", "-c", tool_step(root, name)["run"]], env=full, cwd=cwd, capture_output=True,
                          text=True, timeout=120)
    return done, out.read_text()


@pytest.mark.parametrize("name", ACTIONS)
def test_the_step_finds_and_runs_the_tool(name, tmp_path):
    write_inputs(tmp_path)
    done, outputs = run_step(name, tmp_path, **{BIN_INPUT[name]: str(BUILD / "tools" / TOOL[name])})
    assert done.returncode == 0, done.stdout + done.stderr
    assert RAN[name] in outputs.splitlines()


@pytest.mark.parametrize("name", ACTIONS)
def test_with_setup_false_a_missing_tool_is_an_error_not_a_pass(name, tmp_path):
    done, outputs = run_step(name, tmp_path, **{BIN_INPUT[name]: str(tmp_path / "no-such-bin"),
                                                SETUP_INPUT[name]: "false"})
    assert done.returncode == 3
    assert done.stdout == MISSING[name] and done.stderr == ""
    # path-gate has no result output: the gated jobs' `if:` read its filters, empty here
    assert outputs == ("" if name == "path-gate" else "result=error\n")


@pytest.mark.parametrize("name", ACTIONS)
@pytest.mark.parametrize("value, shown", [("yes", "yes"), ("true", "true"), ("auto\n::error::x", "auto%0A::error::x")])
def test_a_setup_value_other_than_auto_or_false_is_a_usage_error(name, tmp_path, value, shown):
    """Checked first, with the tool present: a typo never silently means auto or false."""
    write_inputs(tmp_path)
    done, outputs = run_step(name, tmp_path, **{BIN_INPUT[name]: str(BUILD / "tools" / TOOL[name]),
                                                SETUP_INPUT[name]: value})
    assert done.returncode == 2
    assert done.stderr == f"::error title={TITLE[name]}::input setup must be 'auto' or 'false', got '{shown}'\n"
    assert done.stdout == ""
    assert outputs == ("" if name == "path-gate" else "result=error\n")


@pytest.mark.parametrize("name", ACTIONS)
def test_every_tool_step_takes_the_setup_input_through_env_only(name):
    """The input is declared with default auto, and every step that looks a tool up passes it
    through env: and calls the one lookup, gatekit_require_tool (gatekit_find_tool alone would
    never set up, and a hand-written lookup would report a missing tool in its own words)."""
    action = yaml.safe_load((SOURCE / "actions" / name / "action.yml").read_text())
    assert action["inputs"]["setup"]["default"] == "auto"
    script = (SOURCE / "actions" / "path-gate" / "path-gate.sh").read_text()
    looking = [s for s in action["runs"]["steps"] if "find-tool.sh" in s.get("run", "") or "path-gate.sh" in
               s.get("run", "")]
    assert len(looking) == {"suite-report": 3}.get(name, 1)
    for step in looking:
        assert step["env"][SETUP_INPUT[name]] == "${{ inputs.setup }}"
        assert "${{" not in step["run"]
        text = script if name == "path-gate" else step["run"]
        assert re.search(rf"^\s*gatekit_require_tool tool {TOOL[name]}$", text, re.M)
        assert "gatekit_find_tool" not in text and "gatekit_ensure_tool" not in text


ALL_ACTIONS = sorted(p.parent.name for p in (SOURCE / "actions").glob("*/action.yml"))
# The env names that are not an input's INPUT_ name, each for a reason: the needs context goes
# to matrix-aggregator by the name of an environment variable (--needs-env), and a token input
# is GITHUB_TOKEN, the name every gatekit tool and git credential helper reads.
NOT_INPUT_NAMED = {"GATEKIT_NEEDS": "needs", "GITHUB_TOKEN": "token"}


@pytest.mark.parametrize("name", ALL_ACTIONS)
def test_every_action_names_its_inputs_one_way_in_env(name):
    """Input `foo-bar` reaches a step as INPUT_FOO_BAR in every action (the two exceptions
    above), so a reader of one action's script can read every other's."""
    action = yaml.safe_load((SOURCE / "actions" / name / "action.yml").read_text())
    for step in action["runs"]["steps"]:
        for key, value in (step.get("env") or {}).items():
            match = INPUT.match(str(value))
            if not match:
                continue
            expected = "INPUT_" + match.group(1).upper().replace("-", "_")
            assert key == expected or NOT_INPUT_NAMED.get(key) == match.group(1), (name, key, value)


def test_no_action_writes_its_own_tool_lookup_or_error_exit():
    """The lookup and the no-verdict exit are in actions/lib/find-tool.sh once: no action script
    writes `result=error` or a "not found" error by hand."""
    for path in sorted((SOURCE / "actions").glob("*/*")):
        if path.suffix not in (".yml", ".sh") or path.parent.name in ("lib", "setup-gatekit"):
            continue
        text = path.read_text()
        assert 'result=error" >> "$GITHUB_OUTPUT"' not in text, path
        assert "not found (" not in text, path
