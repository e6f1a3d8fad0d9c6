"""actions/suite-report's run steps, taken from action.yml and run as the runner runs them
(inputs only through env, every declared env set, GITHUB_ACTION_PATH the action folder,
RUNNER_TEMP a scratch folder): each command's arguments, the input checks, a missing tool,
and the growth steps (find through the API test server, then compare and write the next
baseline, which the `store` step uploads on main pushes)."""
import json
import os
import sys

import subprocess
import pytest
import yaml

from suite_fixtures import BUILD, SOURCE, make_project, read_outputs, run_pytest

sys.path.insert(0, os.path.join(str(SOURCE), "tests", "github_api"))
from server import FakeGitHub  # noqa: E402

ACTION = SOURCE / "actions" / "suite-report"
STEPS = {step["id"]: step for step in yaml.safe_load((ACTION / "action.yml").read_text())["runs"]["steps"]}


def run_step(step_id, cwd, bin_dir=BUILD / "tools" / "suite-report", **inputs):
    step = STEPS[step_id]
    out = cwd / f"_output_{step_id}"
    out.write_text("")
    env = {key: "" for key in step["env"]}
    env.update(PATH=os.environ["PATH"], HOME=str(cwd), GITHUB_ACTION_PATH=str(ACTION), GITHUB_OUTPUT=str(out),
               RUNNER_TEMP=str(cwd / "_runner_temp"), INPUT_GATEKIT_BIN=str(bin_dir), INPUT_PYTHON=sys.executable,
               INPUT_SELECTION="suite.yml")
    for key in ("PYENV_VERSION", "PYENV_ROOT", "VIRTUAL_ENV"):
        if key in os.environ:
            env[key] = os.environ[key]
    env.update(inputs)
    done = subprocess.run(["bash", "-c", step["run"]], env=env, cwd=cwd, capture_output=True, text=True, timeout=120)
    return done, read_outputs(out)


@pytest.fixture
def project(tmp_path):
    return make_project(tmp_path / "p", {"tests/test_a.py": "def test_a():\n    pass\n"},
                        selection_extra="docs: {leg: cpu, variant: '3.13', markers: docs}\n")


def test_nightly_through_the_action(project):
    done, outputs = run_step("run", project, INPUT_COMMAND="nightly", INPUT_LEG="gpu", INPUT_CONTEXT="daily")
    assert done.returncode == 0, done.stderr
    assert outputs == {"markers": "gpu or rocm", "run": "tests", "context": "daily"}
    done, outputs = run_step("run", project, INPUT_COMMAND="nightly", INPUT_LEG="cpu", INPUT_CONTEXT="pr",
                             INPUT_DOCS_ONLY="true", INPUT_VARIANT="3.13")
    assert outputs["run"] == "docs"
    assert outputs["markers"] == "(docs) and not nightly"


def test_a_docs_variant_no_matrix_job_has_fails_the_step(project):
    """A docs-only change on a matrix without the docs variant: every job would pass without
    running the docs tests. The job that computes its expression refuses (exit 3), with the
    matrix's values from the `variants` input."""
    message = ("suite.yml:8:27: docs.variant: '3.13' is none of the matrix values (3.10, 3.11, 3.12): "
               "a documentation-only change would run the docs tests on no job")
    done, outputs = run_step("run", project, INPUT_COMMAND="nightly", INPUT_LEG="cpu", INPUT_CONTEXT="pr",
                             INPUT_DOCS_ONLY="true", INPUT_VARIANT="3.12", INPUT_VARIANTS="3.10 3.11 3.12")
    assert done.returncode == 3
    assert done.stderr == f"suite-report: error: {message}\n"
    assert outputs == {"result": "error"}
    # With the docs variant in the matrix, the other jobs pass without running.
    done, outputs = run_step("run", project, INPUT_COMMAND="nightly", INPUT_LEG="cpu", INPUT_CONTEXT="pr",
                             INPUT_DOCS_ONLY="true", INPUT_VARIANT="3.12", INPUT_VARIANTS="3.12, 3.13")
    assert done.returncode == 0, done.stderr
    assert outputs["run"] == "none"
    # The matrix lost its 3.13 job but the list still names it: the job count tells.
    done, outputs = run_step("run", project, INPUT_COMMAND="nightly", INPUT_LEG="cpu", INPUT_CONTEXT="pr",
                             INPUT_DOCS_ONLY="true", INPUT_VARIANT="3.12", INPUT_VARIANTS="3.12 3.13",
                             INPUT_MATRIX_JOBS="1")
    assert done.returncode == 2
    assert done.stderr == ("suite-report: error: --variants lists 2 values (3.12, 3.13) but the matrix has 1 jobs "
                           "(--matrix-jobs): list every value of the matrix, once\n")
    done, outputs = run_step("run", project, INPUT_COMMAND="nightly", INPUT_LEG="cpu", INPUT_CONTEXT="pr",
                             INPUT_VARIANT="3.11", INPUT_VARIANTS="3.12 3.13", INPUT_MATRIX_JOBS="2")
    assert done.returncode == 2
    assert done.stderr == "suite-report: error: --variant '3.11' is none of --variants (3.12, 3.13)\n"
    # partition refuses it before collecting anything, on any change.
    done, outputs = run_step("run", project, INPUT_COMMAND="partition", INPUT_CONTEXT="pr",
                             INPUT_VARIANTS="3.10 3.11 3.12")
    assert done.returncode == 2
    assert done.stderr == f"suite-report: error: {message}\n"
    assert outputs == {"result": "error"}


def test_partition_and_ran_through_the_action(project, tmp_path):
    done, outputs = run_step("run", project, INPUT_COMMAND="partition", INPUT_CONTEXT="pr")
    assert done.returncode == 0, done.stdout + done.stderr
    assert outputs["result"] == "pass"
    run_pytest(project, "gpu or rocm", tmp_path / "gpu.xml")
    done, outputs = run_step("run", project, INPUT_COMMAND="ran", INPUT_LEG="gpu", INPUT_CONTEXT="pr",
                             INPUT_REPORT=str(tmp_path / "gpu.xml"))
    assert done.returncode == 0, done.stdout + done.stderr  # an empty selection: nothing to run
    assert "the leg's selection is empty in context pr" in done.stdout


def test_input_mistakes_are_usage_errors(project):
    done, outputs = run_step("run", project, INPUT_COMMAND="nightly", INPUT_LEG="cpu", INPUT_DOCS_ONLY="yes")
    assert done.returncode == 2
    assert done.stdout == "::error title=suite-report::input docs-only must be 'true' or 'false'\n"
    assert outputs == {"result": "error"}
    done, outputs = run_step("run", project, INPUT_COMMAND="proof")
    assert done.returncode == 2
    assert done.stdout == ("::error title=suite-report::input command must be partition, unmarked, ran, nightly, growth, "
                           "gpu-filter, shard, shard-report or find-baseline\n")


def test_shard_through_the_action(tmp_path):
    project = make_project(tmp_path / "p", {"tests/test_g.py": "import pytest\n\npytestmark = pytest.mark.gpu\n\n"
                                            "@pytest.mark.parametrize('n', range(5))\ndef test_g(n):\n    pass\n"})
    reports = tmp_path / "shards"
    for k in (1, 2):
        folder = reports / f"gpu-shard-{k}-attempt1"
        done, outputs = run_step("run", project, INPUT_COMMAND="shard", INPUT_LEG="gpu", INPUT_CONTEXT="pr",
                                 INPUT_SHARDS="2", INPUT_INDEX=str(k), INPUT_OUT=str(folder / "list.txt"),
                                 INPUT_PLAN=str(folder / "plan.json"))
        assert done.returncode == 0, done.stdout + done.stderr
        assert "suite-report shard: no baseline with recorded durations: the shards are balanced by test count" in done.stdout
        assert (folder / "plan.json").is_file()
        (folder / "junit.xml").write_text('<testsuites><testsuite name="pytest">' + "".join(
            f'<testcase classname="tests.test_g" name="{line.split("::")[1]}" time="0.1"/>'
            for line in (folder / "list.txt").read_text().split()) + "</testsuite></testsuites>")
    assert outputs["tests"] == "2"
    assert outputs["file"] == str(folder / "list.txt")
    assert (folder / "list.txt").read_text() == "tests/test_g.py::test_g[1]\ntests/test_g.py::test_g[3]\n"
    done, outputs = run_step("run", project, INPUT_COMMAND="shard-report", INPUT_LEG="gpu", INPUT_SHARDS="2",
                             INPUT_REPORTS=str(reports), INPUT_OUT=str(tmp_path / "merged" / "junit.xml"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert outputs["complete"] == "true"
    assert (outputs["in-no-shard"], outputs["in-two-shards"]) == ("0", "0")
    assert (tmp_path / "merged" / "junit.xml").read_text().count("<testcase") == 5
    # A baseline named but missing (its download failed in this shard job) stops the shard.
    done, outputs = run_step("run", project, INPUT_COMMAND="shard", INPUT_LEG="gpu", INPUT_CONTEXT="pr",
                             INPUT_SHARDS="2", INPUT_INDEX="1", INPUT_OUT=str(tmp_path / "one.txt"),
                             INPUT_BASELINE=str(tmp_path / "absent.json"))
    assert done.returncode == 3
    assert outputs["result"] == "error"


@pytest.mark.parametrize("step_id", ["run", "find"])
def test_a_missing_tool_is_an_error_not_a_pass(project, step_id):
    done, outputs = run_step(step_id, project, bin_dir=project / "no-such-bin", INPUT_COMMAND="nightly", INPUT_LEG="cpu")
    assert done.returncode == 3
    assert done.stdout == "::error title=suite-report::suite-report not found (gatekit-bin input, GATEKIT_BIN or PATH)\n"
    assert outputs == {"result": "error"}


def test_growth_steps_find_compare_and_write_the_next_baseline(project, tmp_path):
    run_pytest(project, "(not gpu and not rocm) and not nightly", tmp_path / "cpu.xml")
    common = dict(INPUT_LEG="cpu", INPUT_CONTEXT="pr", INPUT_PYTHON_VERSION="3.12", INPUT_BASELINE_BRANCH="main",
                  GITHUB_REPOSITORY="o/r", GITHUB_WORKFLOW_REF="o/r/.github/workflows/cpu-tests.yml@refs/pull/3/merge",
                  GITHUB_JOB="tests")
    with FakeGitHub(token="t0ken") as srv:
        srv.add_run("o/r", workflow="cpu-tests.yml", status="in_progress", conclusion=None, run_id=1)
        done, found = run_step("find", project, GITHUB_TOKEN="t0ken", GITHUB_API_URL=srv.base_url, **common)
    assert done.returncode == 0, done.stdout + done.stderr
    assert found["found"] == "false"
    assert found["artifact"].startswith("suite-baseline-cpu-tests-tests-py3.12-")
    assert found["dir"] == str(project / "_runner_temp" / "gatekit-suite-baseline")
    # Nothing was downloaded: the comparison says so and still writes the next baseline.
    compare_env = dict(common, INPUT_REPORT=str(tmp_path / "cpu.xml"), BASELINE_DIR=found["dir"], NEXT_DIR=found["next"])
    done, outputs = run_step("compare", project, **compare_env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert outputs["baseline"] == "none"
    next_baseline = project / "_runner_temp" / "gatekit-suite-next" / "suite-baseline.json"
    assert next_baseline.exists()
    # What download-artifact would put there on the next run: the comparison finds it.
    (project / "_runner_temp" / "gatekit-suite-baseline").mkdir(parents=True)
    next_baseline.rename(project / "_runner_temp" / "gatekit-suite-baseline" / "suite-baseline.json")
    done, outputs = run_step("compare", project, **compare_env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert outputs["baseline"] == "found"
    assert outputs["new-tests"] == "0"
    assert outputs["removed-tests"] == "0"
    # Every growth output of the compare step is an output of the action.
    action_outputs = yaml.safe_load((ACTION / "action.yml").read_text())["outputs"]
    for name in ("new-tests", "removed-tests", "notice", "baseline"):
        assert action_outputs[name]["value"] == "${{ steps.compare.outputs.%s }}" % name
    # `tests` is shard's too: the tool step's value first (empty for growth), then compare's.
    assert action_outputs["tests"]["value"] == "${{ steps.run.outputs.tests || steps.compare.outputs.tests }}"


def step_runs(condition, cases):
    """The step-level `if:` evaluated by GitHub's expression engine (eval-step-if.mjs) per case."""
    done = subprocess.run(["node", str(SOURCE / "tests" / "suite-report" / "eval-step-if.mjs")],
                          input=json.dumps({"if": condition, "cases": cases}), capture_output=True, text=True,
                          env={**os.environ}, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def push(ref, branch="main", event="push", compare="success"):
    ref_name = ref.split("/", 2)[2]
    return {"github": {"event_name": event, "ref": ref, "ref_name": ref_name},
            "inputs": {"command": "growth", "baseline-branch": branch},
            "steps": {"compare": {"outcome": compare, "outputs": {}}}}


# (case, whether the store step uploads the baseline)
STORE_CASES = [
    ("push to main", push("refs/heads/main"), True),
    ("tag named main", push("refs/tags/main"), False),
    ("tag named like another baseline branch", push("refs/tags/trunk", branch="trunk"), False),
    ("push to the configured branch", push("refs/heads/trunk", branch="trunk"), True),
    ("push to main when the branch is trunk", push("refs/heads/main", branch="trunk"), False),
    ("branch ending in /main", push("refs/heads/feature/main"), False),
    ("pull request", push("refs/pull/1/merge", event="pull_request"), False),
    ("manual run on main", push("refs/heads/main", event="workflow_dispatch"), False),
    ("comparison failed", push("refs/heads/main", compare="failure"), False),
]


def test_the_store_step_uploads_only_on_pushes_to_the_baseline_branch_never_on_a_tag():
    runs = step_runs(STEPS["store"]["if"], [case for _, case, _ in STORE_CASES])
    assert {name: run for (name, _, _), run in zip(STORE_CASES, runs)} == {name: want for name, _, want in STORE_CASES}
    assert STEPS["store"]["with"]["name"] == "${{ steps.find.outputs.artifact }}"
    assert STEPS["download"]["with"]["run-id"] == "${{ steps.find.outputs.run-id }}"


def test_gpu_filter_through_the_action_finds_path_classifier_beside_suite_report(tmp_path):
    project = make_project(tmp_path / "p", {
        "tests/test_a.py": "def test_a():\n    pass\n",
        "tests/test_gpu_helper.py": "import pytest\n\n@pytest.mark.gpu\ndef test_g():\n    pass\n",
    })
    (project / "filters.yml").write_text("filters:\n  gpu:\n    paths: ['tests/gpu/**']\n  cpu:\n    mode: deny\n"
                                         "    paths: ['docs/**']\n")
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    bin_dir = tmp_path / "bin"  # one folder holding the tools, as setup-gatekit leaves them
    bin_dir.mkdir()
    for tool in ("suite-report", "path-classifier"):
        (bin_dir / tool).symlink_to(BUILD / "tools" / tool / tool)
    done, outputs = run_step("run", project, bin_dir=bin_dir, INPUT_COMMAND="gpu-filter", INPUT_RULES="filters.yml",
                             INPUT_FILTER="gpu")
    assert done.returncode == 1, done.stdout + done.stderr
    assert outputs == {"result": "fail", "escapes": "1"}
    assert ("tests/test_gpu_helper.py: tests/test_gpu_helper.py is not in the gpu filter of filters.yml (the GPU leg "
            "runs it), so a pull request changing it runs no GPU job; add tests/test_gpu_helper.py to the filter"
            in done.stdout.splitlines())
    # Without path-classifier beside it: an error, never a pass.
    (bin_dir / "path-classifier").unlink()
    done, outputs = run_step("run", project, bin_dir=bin_dir, INPUT_COMMAND="gpu-filter", INPUT_RULES="filters.yml",
                             INPUT_FILTER="gpu")
    assert done.returncode == 3, done.stdout + done.stderr
    assert done.stdout == "::error title=suite-report::path-classifier not found (gatekit-bin input, GATEKIT_BIN or PATH)\n"
    assert outputs == {"result": "error"}
