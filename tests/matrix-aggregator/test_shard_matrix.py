"""The GPU template's sharded pytest leg still gives one verdict: `GPU tests`.

The shards are one matrix job, gpu-tests; `needs.gpu-tests.result` is one value for the whole
matrix, `success` only when every shard succeeded: a failed shard makes it `failure`, and a
cancelled one `cancelled` (GitHub's rule for a matrix job's result; a self-hosted job whose
runner never came is ended after its queue time limit, 24 hours, as failed, or cancelled by
hand: https://docs.github.com/en/actions/hosting-your-own-runners/managing-self-hosted-runners/about-self-hosted-runners#usage-limits).
act cannot simulate a runner that never comes, so the combination is stated here and
everything after it is real: the template's job-level `if:` evaluated by GitHub's expression
engine (eval-job-conditions.mjs), and the matrix-aggregator binary run on the `needs` the
`GPU tests` job sees, with the template's own inputs.
"""
import json
import os
import subprocess

import pytest
import yaml

from test_job_conditions import SOURCE, TOOL, aggregator_jobs, simulate

TEMPLATES = [SOURCE / "workflows" / "gpu-tests.yml",
             SOURCE / "examples" / "demo-project" / ".github" / "workflows" / "gpu-tests.yml"]


def matrix_result(shards: list) -> str:
    if "failure" in shards:
        return "failure"
    if "cancelled" in shards:
        return "cancelled"
    return "success"


# (name, each shard's outcome, the exit of GPU tests)
SHARDS = [
    ("every shard passed", ["success", "success", "success"], 0),
    ("one shard failed", ["success", "failure", "success"], 1),
    ("one shard was cancelled", ["success", "success", "cancelled"], 1),
    ("one shard's runner never came (ended at the queue limit)", ["success", "failure", "success"], 1),
]


def verdict(workflow, shard_results, gate_output="true", baseline="success", suite="success"):
    (target, (_, inputs)), = [(j, v) for j, v in aggregator_jobs(workflow).items() if v[0] == "GPU tests"]
    scenario = {"id": "x", "cancelled": False, "event_name": "pull_request",
                "given": {"changes": {"result": "success", "outputs": {"gpu": gate_output, "docs": "false"}}},
                "run_results": {"gpu-baseline": baseline, "gpu-tests": matrix_result(shard_results), "gpu-suite": suite}}
    result = simulate(workflow, target, [scenario])["results"][0]
    result["runs"]["gpu-baseline"] = simulate(workflow, "gpu-suite", [scenario])["results"][0]["runs"]["gpu-baseline"]
    result["runs"]["gpu-suite"] = simulate(workflow, "gpu-suite", [scenario])["results"][0]["runs"]["gpu-suite"]
    env = {"PATH": os.environ.get("PATH", ""), "GATEKIT_NEEDS": json.dumps(result["needs"])}
    done = subprocess.run([str(TOOL), "--gate-job", inputs["gate-job"], "--gated", inputs["gated"]], env=env,
                          capture_output=True, text=True, timeout=60)
    return result, done


@pytest.mark.parametrize("workflow", TEMPLATES, ids=["template", "demo"])
@pytest.mark.parametrize("name,shards,want", SHARDS, ids=[s[0] for s in SHARDS])
def test_one_verdict_over_the_shards(workflow, name, shards, want):
    result, done = verdict(workflow, shards)
    assert result["runs"]["gpu-tests"] and result["runs"]["gpu-suite"]
    assert done.returncode == want, done.stdout + done.stderr


@pytest.mark.parametrize("workflow", TEMPLATES, ids=["template", "demo"])
def test_skipped_shards_pass_only_when_the_gate_said_no_gpu_change(workflow):
    result, done = verdict(workflow, ["success"] * 3, gate_output="false")
    assert not result["runs"]["gpu-tests"] and not result["runs"]["gpu-suite"]
    assert result["needs"]["gpu-tests"]["result"] == "skipped"
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("workflow", TEMPLATES, ids=["template", "demo"])
def test_a_failed_baseline_lookup_still_runs_every_test(workflow):
    # Without the baseline every shard splits by count (or the leg runs as one shard): every
    # test still runs, so the verdict is the shards'.
    result, done = verdict(workflow, ["success"] * 3, baseline="failure")
    assert result["runs"]["gpu-tests"]
    assert done.returncode == 0, done.stdout + done.stderr
    result, done = verdict(workflow, ["success", "failure", "success"], baseline="failure")
    assert done.returncode == 1, done.stdout + done.stderr


@pytest.mark.parametrize("workflow", TEMPLATES, ids=["template", "demo"])
def test_the_shard_list_is_made_whatever_the_gate_said(workflow):
    # act (and any reader of the matrix) needs gpu-baseline's list even when the GPU jobs
    # are skipped: it runs unless the run is cancelled.
    for gate in ("true", "false"):
        result, _ = verdict(workflow, ["success"] * 3, gate_output=gate)
        assert result["runs"]["gpu-baseline"]


@pytest.mark.parametrize("workflow", TEMPLATES, ids=["template", "demo"])
def test_the_shard_job_is_a_matrix_over_the_shard_list(workflow):
    jobs = yaml.safe_load(workflow.read_text())["jobs"]
    strategy = jobs["gpu-tests"]["strategy"]
    assert strategy["fail-fast"] is False
    assert strategy["matrix"]["shard"] == "${{ fromJSON(needs.gpu-baseline.outputs.shards || '[1]') }}"
    shard_step = next(s for s in jobs["gpu-tests"]["steps"] if s.get("id") == "shard")
    assert shard_step["with"]["shards"] == "${{ needs.gpu-baseline.outputs.count || '1' }}"
    assert shard_step["with"]["index"] == "${{ matrix.shard }}"
    pytest_step = next(s for s in jobs["gpu-tests"]["steps"] if s.get("name") == "pytest")
    assert pytest_step["if"] == "steps.shard.outputs.tests != '0'"


@pytest.mark.parametrize("workflow", TEMPLATES, ids=["template", "demo"])
def test_shards_that_did_not_run_the_selection_once_fail_the_check(workflow):
    """Issue 42, item 6: every shard passed, but they split differently (one had lost the
    baseline) and 4 of 12 tests ran in no shard. shard-report's proof fails gpu-suite, and
    `GPU tests` needs it: the check fails."""
    result, done = verdict(workflow, ["success"] * 3, suite="failure")
    assert result["runs"]["gpu-suite"]
    assert result["needs"]["gpu-suite"]["result"] == "failure"
    assert done.returncode == 1, done.stdout + done.stderr
    result, done = verdict(workflow, ["success"] * 3, suite="cancelled")
    assert done.returncode == 1, done.stdout + done.stderr
