"""The workflow templates, run end to end by a real local runner (nektos/act).

Each test is one pull request on a copy of examples/demo-project (the templates as a user
derives them: .github/workflows/cpu-tests.yml and gpu-tests.yml with gatekit checked out at
a pinned commit), run with act as processes on this machine against the GitHub API test
server (act_harness.py says how GitHub is emulated). Each asserts both required checks'
verdicts (the `CPU tests` and `GPU tests` jobs, as act reports them) and the gate's and the
aggregators' outputs.

Only one leg of the CPU matrix runs (`--matrix python:<v>`; the legs are alike), and jobs run
one at a time (`--concurrent-jobs 1`: the GPU jobs install into one runner Python).

What act cannot emulate here (docs/contributing.md, "Proven by a local runner"): which
machine a label set reaches (every label runs on this host, so `[self-hosted, gpu]` proves
nothing about runner groups; the GPU jobs' `if:` is evaluated with GitHub's expression engine
in test_gpu_jobs_if_with_github_expressions), a job's `container:` (removed from the copy), a
GPU (smoke-runner finds none, so `GPU tests` fails whenever the GPU jobs run), and
GITHUB_WORKFLOW_REF (unset by act).
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import yaml  # PyYAML, from tests/requirements.txt

import act_harness as h

sys.path.insert(0, str(h.SOURCE / "tests" / "support"))
from job_if import job_if_runs  # noqa: E402

CPU, GPU = "CPU tests", "GPU tests"      # workflow names, and the required checks' job names
GATE = "path gate"
GPU_JOBS = ("pytest (GPU, shard ${{ matrix.shard }})", "workload regression (GPU)")
# How act names the GPU_SHARDS shard jobs of the pytest leg (name, then -matrix index).
GPU_SHARD_JOBS = [f"pytest (GPU, shard {k})-{k}" for k in (1, 2, 3)]
# gpu-baseline ("GPU shard baseline") runs on every run: it makes the shard list.
GPU_RUN_JOBS = [*GPU_SHARD_JOBS, "workload regression (GPU)", "GPU shards"]
# The GPU jobs run on this CPU-only host: the demo's device probe counts this many fake GPUs.
FAKE_GPUS = {"TINYML_FAKE_GPUS": "1"}


def cpu_matrix() -> list[str]:
    doc = yaml.safe_load((h.DEMO / ".github" / "workflows" / "cpu-tests.yml").read_text())
    return [str(v) for v in doc["jobs"]["tests"]["strategy"]["matrix"]["python"]]


def docs_variant() -> str:
    return str(yaml.safe_load((h.DEMO / ".github" / "gatekit" / "suite.yml").read_text())["docs"]["variant"])


def leg(version: str) -> str:
    return f"pytest (CPU, py{version})"


def plain_leg() -> str:
    """A matrix value that is not the docs variant (any leg but the one running docs tests)."""
    return next(v for v in cpu_matrix() if v != docs_variant())


@pytest.fixture
def pr(tmp_path) -> h.Scenario:
    return h.Scenario(tmp_path)


def gate(o: h.Outcome, workflow: str) -> dict:
    """The gate's verdicts in `workflow`, and its decision trace's reasons."""
    assert o.verdict(workflow, GATE) == "succeeded", o.tail()
    decision = o.json_output(workflow, GATE, "decision")
    return {"changes": sorted(o.json_output(workflow, GATE, "changes")),
            "reasons": {name: f["reason"] for name, f in decision["filters"].items()},
            "files-complete": o.output(workflow, GATE, "files-complete")}


def leg_lines(o: h.Outcome, workflow: str, job: str) -> str:
    """The log lines of one job (act prefixes each with `[workflow/job name]`)."""
    prefix = re.compile(r"^\[" + re.escape(f"{workflow}/{job}") + r"\s*\]")
    return "\n".join(line for line in o.log.splitlines() if prefix.match(line))


def aggregate(o: h.Outcome, workflow: str) -> tuple[str, dict]:
    """The aggregator's `result` output and each needed job's result/verdict."""
    reasons = o.json_output(workflow, workflow, "reasons")
    return o.output(workflow, workflow, "result"), {job: (r["result"], r["verdict"]) for job, r in reasons.items()}


def test_cpu_relevant_pr(pr):
    pr.append("tests/test_tensor.py", "\n\ndef test_added_by_the_pr():\n    assert True\n")
    assert pr.commit() == ["tests/test_tensor.py"]
    v = plain_leg()
    o = pr.run(matrix=f"python:{v}")

    for wf in (CPU, GPU):  # both workflows read the same rules file
        assert gate(o, wf) == {"changes": ["cpu"], "files-complete": "true",
                               "reasons": {"cpu": "not-excluded", "gpu": "not-included", "docs": "not-included"}}
    assert o.output(CPU, leg(v), "run") == "tests"
    assert o.output(CPU, leg(v), "markers") == "(not gpu and not rocm) and not nightly"
    assert o.verdict(CPU, leg(v)) == "succeeded"
    assert o.verdict(CPU, "test partition") == "succeeded"
    assert re.search(r"\] +✅  Success - Main pytest", leg_lines(o, CPU, leg(v)))
    assert re.search(r"\b\d+ passed", leg_lines(o, CPU, leg(v))) and not re.search(r"\b\d+ failed", leg_lines(o, CPU, leg(v)))
    assert aggregate(o, CPU) == ("success", {"changes": ("success", "pass"), "partition": ("success", "pass"),
                                             "tests": ("success", "pass")})
    assert o.verdict(CPU, CPU) == "succeeded"

    for job in GPU_RUN_JOBS:
        assert o.verdict(GPU, job) is None, f"{job} ran on a change the gate says needs no GPU"
    assert aggregate(o, GPU) == ("success", {"changes": ("success", "pass"), "gpu-tests": ("skipped", "pass"),
                                             "gpu-suite": ("skipped", "pass"),
                                             "workload-regression": ("skipped", "pass")})
    assert o.verdict(GPU, GPU) == "succeeded"
    # The gate asked the API test server for the pull request's files (never git, never GitHub).
    assert any(r["path"] == f"/repos/{h.REPO}/pulls/{h.PR_NUMBER}/files" for r in o.requests)


def test_docs_only_pr_runs_the_docs_tests_on_one_leg(pr):
    pr.append("docs/index.md", "\nA new paragraph.\n")
    pr.commit()
    v = docs_variant()
    o = pr.run(matrix=f"python:{v}")

    for wf in (CPU, GPU):
        assert gate(o, wf)["changes"] == ["docs"]
        assert gate(o, wf)["reasons"]["cpu"] == "all-excluded"
    assert o.output(CPU, leg(v), "run") == "docs"
    assert o.output(CPU, leg(v), "markers") == "(docs) and not nightly"
    assert o.verdict(CPU, leg(v)) == "succeeded"
    assert o.verdict(CPU, "test partition") is None  # gated on cpu only
    assert aggregate(o, CPU) == ("success", {"changes": ("success", "pass"), "partition": ("skipped", "pass"),
                                             "tests": ("success", "pass")})
    assert o.verdict(CPU, CPU) == "succeeded"
    assert aggregate(o, GPU)[0] == "success"
    assert o.verdict(GPU, GPU) == "succeeded"


def test_docs_only_pr_other_legs_pass_without_running(pr):
    pr.append("README.md", "\nMore words.\n")
    pr.commit()
    v = plain_leg()
    o = pr.run(matrix=f"python:{v}", workflow="cpu-tests.yml")
    assert gate(o, CPU)["changes"] == ["docs"]
    assert o.output(CPU, leg(v), "run") == "none"
    assert "Success - Main pytest" not in o.log  # the pytest step was skipped
    assert o.verdict(CPU, leg(v)) == "succeeded"
    assert o.verdict(CPU, CPU) == "succeeded"


def test_workflow_only_pr_runs_that_workflows_suite(pr):
    pr.append(".github/workflows/cpu-tests.yml", "# a comment-only change to the workflow\n")
    assert pr.commit() == [".github/workflows/cpu-tests.yml"]
    v = plain_leg()
    o = pr.run(matrix=f"python:{v}")

    cpu_gate = gate(o, CPU)
    assert cpu_gate["changes"] == ["cpu"]  # `.github/**` is denied, but the file is under `always`
    # `always`, not `self-protect`: act sets no GITHUB_WORKFLOW_REF, which names the running
    # workflow file to the gate on GitHub (docs/actions/path-gate.md).
    assert cpu_gate["reasons"]["cpu"] == "always"
    assert cpu_gate["reasons"]["gpu"] == "not-included"
    assert o.output(CPU, leg(v), "run") == "tests"
    assert o.verdict(CPU, CPU) == "succeeded"
    # The other workflow's file is not GPU-relevant: its suite does not run.
    assert gate(o, GPU)["changes"] == ["cpu"]
    assert aggregate(o, GPU)[1]["gpu-tests"] == ("skipped", "pass")
    assert o.verdict(GPU, GPU) == "succeeded"


def assert_gpu_jobs_ran_without_a_gpu(o: h.Outcome) -> None:
    """This host has no GPU. Each pytest (GPU) shard passes on the demo's fake GPUs (TINYML_FAKE_GPUS);
    smoke-runner probes the devices itself, finds none and exits 3 (could not evaluate), so
    `GPU tests` fails: a GPU runner that lost its GPUs never turns the check green."""
    for shard in GPU_SHARD_JOBS:
        assert o.verdict(GPU, shard) == "succeeded", o.tail()
    # Every shard's report arrived: merged into the leg's one report, which growth reads.
    assert o.verdict(GPU, "GPU shards") == "succeeded", o.tail()
    assert o.output(GPU, "GPU shards", "complete") == "true"
    assert "wrote the merged report (" in o.log
    assert o.verdict(GPU, "workload regression (GPU)") == "failed", o.tail()
    assert "smoke-runner: error: no GPU is visible to this job" in o.log
    assert o.output(GPU, "workload regression (GPU)", "result") == "error"
    result, jobs = aggregate(o, GPU)
    assert result == "failure"
    assert jobs["gpu-tests"] == ("success", "pass") and jobs["workload-regression"] == ("failure", "fail")
    # The shards ran the leg's selection once: shard-report's proof passes in `GPU tests`.
    assert jobs["gpu-suite"] == ("success", "pass")
    assert o.verdict(GPU, GPU) == "failed"


@pytest.mark.parametrize("rules_file, reason, changes", [
    (".github/gatekit/filters.yml", "self-protect", ["cpu", "docs", "gpu"]),  # the rules file: every filter
    (".github/gatekit/suite.yml", "always", ["cpu", "gpu"]),                  # the selection file: `always`
])
def test_rules_only_pr_runs_everything(pr, rules_file, reason, changes):
    """Self-protection: a change to the gate's rules (or to the selection file) alone must not
    switch the suites off, although `.github/**` is denied and is not GPU code."""
    pr.append(rules_file, "# reviewed\n")
    pr.commit()
    v = plain_leg()
    o = pr.run(matrix=f"python:{v}", env=FAKE_GPUS)

    for wf in (CPU, GPU):
        g = gate(o, wf)
        assert g["changes"] == changes
        assert g["reasons"]["cpu"] == reason and g["reasons"]["gpu"] == reason
    assert o.output(CPU, leg(v), "run") == "tests"
    assert o.verdict(CPU, leg(v)) == "succeeded"
    assert o.verdict(CPU, "test partition") == "succeeded"
    assert o.verdict(CPU, CPU) == "succeeded"
    assert_gpu_jobs_ran_without_a_gpu(o)


def test_gate_that_fails_fails_both_checks(pr):
    rules = pr.repo / ".github" / "gatekit" / "filters.yml"
    pr.write(".github/gatekit/filters.yml", rules.read_text().replace("mode: deny", "mode: dney", 1))
    pr.commit()
    o = pr.run(matrix=f"python:{plain_leg()}")

    # Invalid rules: exit 2, every downstream job skipped, and each aggregator fails closed.
    assert "filters.cpu.mode: expected 'allow' or 'deny', got 'dney'" in o.log
    for wf in (CPU, GPU):
        assert o.verdict(wf, GATE) == "failed"
        result, jobs = aggregate(o, wf)
        assert result == "failure" and jobs["changes"] == ("failure", "fail")
        assert o.verdict(wf, wf) == "failed"
    assert o.verdict(CPU, leg(plain_leg())) is None and o.verdict(CPU, "test partition") is None
    assert all(o.verdict(GPU, job) is None for job in GPU_RUN_JOBS)
    assert o.returncode != 0


def test_failing_matrix_leg_fails_the_cpu_check_only(pr):
    pr.append("tests/test_tensor.py", "\n\ndef test_broken_by_the_pr():\n    assert 1 + 1 == 3\n")
    pr.commit()
    v = plain_leg()
    o = pr.run(matrix=f"python:{v}")

    assert gate(o, CPU)["changes"] == ["cpu"]
    assert "test_broken_by_the_pr" in o.log
    assert o.verdict(CPU, leg(v)) == "failed"
    assert o.verdict(CPU, "test partition") == "succeeded"
    result, jobs = aggregate(o, CPU)
    assert result == "failure" and jobs["tests"] == ("failure", "fail")
    assert o.verdict(CPU, CPU) == "failed"
    assert o.verdict(GPU, GPU) == "succeeded"


def test_flaky_test_passes_on_rerun_with_a_warning_and_an_issue(pr, tmp_path):
    """A test that fails on its first run only. The leg's pytest fails; flaky-tracker reruns the
    failure alone, it passes: the leg and the check stay green, a warning names the test, and
    one issue for it opens on the API test server (docs/actions/flaky-tracker.md)."""
    state = tmp_path / "flaky-state"
    pr.write("tests/test_flaky.py", (
        "import os\nfrom pathlib import Path\n\n\n"
        "def test_flaky():\n"
        "    marker = Path(os.environ['E2E_FLAKY_STATE'])\n"
        "    first = not marker.exists()\n"
        "    marker.touch()\n"
        "    assert not first, 'fails on its first run only'\n"))
    pr.commit()
    v = plain_leg()
    env = {"E2E_FLAKY_STATE": str(state)}
    first = pr.run(matrix=f"python:{v}", env=env, workflow="cpu-tests.yml")
    assert state.exists(), first.tail()
    assert "fails on its first run only" in first.log
    assert "tests/test_flaky.py::test_flaky is flaky: failed, then passed on rerun 1 of 1" in first.log, first.tail()
    assert first.verdict(CPU, leg(v)) == "succeeded"
    assert first.verdict(CPU, CPU) == "succeeded"
    opened = [r for r in first.requests if r["method"] == "POST" and r["path"].endswith("/issues")]
    assert len(opened) == 1, [r["path"] for r in first.requests if "/issues" in r["path"]]
    assert opened[0]["body"]["title"] == "Flaky test: tests/test_flaky.py::test_flaky"
    assert opened[0]["body"]["labels"] == ["flaky"]
    assert opened[0]["body"]["body"].startswith("<!-- gatekit-flaky-test: tests/test_flaky.py::test_flaky -->")


def test_fork_pr_touching_gpu_code_fails_the_gpu_check_closed(pr):
    pr.append("src/tinyml/kernels/attention.py", "\n# tuned by a contributor\n")
    pr.commit()
    v = plain_leg()
    o = pr.run(matrix=f"python:{v}", fork=True, env=FAKE_GPUS)

    for wf in (CPU, GPU):
        assert gate(o, wf)["changes"] == ["cpu", "gpu"]
    assert o.verdict(CPU, leg(v)) == "succeeded"
    assert o.verdict(CPU, CPU) == "succeeded"
    # The head repository differs: the GPU jobs are skipped although the gate needs them,
    # so `GPU tests` fails closed (docs/admin/required-checks.md).
    for job in GPU_RUN_JOBS:
        assert o.verdict(GPU, job) is None, f"{job} ran for a fork pull request"
    result, jobs = aggregate(o, GPU)
    assert result == "failure"
    assert jobs["gpu-tests"] == ("skipped", "fail") and jobs["workload-regression"] == ("skipped", "fail")
    assert jobs["gpu-suite"] == ("skipped", "fail")
    assert o.verdict(GPU, GPU) == "failed"


def test_same_repo_pr_touching_gpu_code_runs_the_gpu_jobs(pr):
    """The control for the fork test: the same change from a branch of the repository."""
    pr.append("src/tinyml/kernels/attention.py", "\n# tuned by a maintainer\n")
    pr.commit()
    o = pr.run(fork=False, env=FAKE_GPUS, workflow="gpu-tests.yml")
    assert gate(o, GPU)["changes"] == ["cpu", "gpu"]
    assert gate(o, GPU)["reasons"]["gpu"] == "included"
    assert_gpu_jobs_ran_without_a_gpu(o)


def test_shipped_templates_cpu_relevant_pr(tmp_path):
    """gatekit's templates as shipped (workflows/*.yml, `uses: ./actions/...`, inline rules),
    on the demo's code with gatekit's source at the repository root."""
    pr = h.Scenario(tmp_path, shipped_templates=True)
    pr.append("tests/test_tensor.py", "\n\ndef test_added_by_the_pr():\n    assert True\n")
    pr.commit()
    doc = yaml.safe_load((h.SOURCE / "workflows" / "cpu-tests.yml").read_text())
    v = str(doc["jobs"]["tests"]["strategy"]["matrix"]["python"][-1])
    o = pr.run(matrix=f"python:{v}")

    for wf in (CPU, GPU):
        assert "cpu" in gate(o, wf)["changes"] and "gpu" not in gate(o, wf)["changes"]
    assert o.output(CPU, leg(v), "run") == "tests"
    assert o.verdict(CPU, leg(v)) == "succeeded"
    assert aggregate(o, CPU)[0] == "success"
    assert o.verdict(CPU, CPU) == "succeeded"
    for job in GPU_RUN_JOBS:
        assert o.verdict(GPU, job) is None
    assert aggregate(o, GPU)[0] == "success"
    assert o.verdict(GPU, GPU) == "succeeded"


# ---- the demo's GPU gate (gate.yml, strict mode) ----
# Its own runs (act_harness.gate_remote: a bare remote with the published result refs), with
# the API test server accepting only the GitHub App's token, so that a status posted with the
# workflow's own token could not land.
GATE_WF = "GPU gate"


def gated_pr(tmp_path: Path) -> h.Scenario:
    """A pull request on the demo changing kernel code, with a pass published for its head."""
    pr = h.Scenario(tmp_path)
    pr.append("src/tinyml/kernels/attention.py", "\n# a kernel change\n")
    pr.commit("kernel change")
    h.gate_remote(pr)
    return pr


def test_demo_gate_pull_request_run_posts_nothing(tmp_path):
    pr = gated_pr(tmp_path)
    o = pr.run(workflow="gate.yml", env=h.gate_env(tmp_path), server_token=h.APP_TOKEN, **h.APP)
    assert sorted(job for wf, job in o.jobs if wf == GATE_WF) == ["gate/gpu preview"], o.tail()
    assert o.verdict(GATE_WF, "gate/gpu preview") == "succeeded", o.tail()
    assert o.output(GATE_WF, "gate/gpu preview", "state") == "success"
    assert o.output(GATE_WF, "gate/gpu preview", "description") == "passed in 4m"
    assert o.output(GATE_WF, "gate/gpu preview", "posted") == "false"
    assert o.status_posts() == []


def test_demo_gate_workflow_run_posts_gate_gpu_with_the_app_token(tmp_path):
    pr = gated_pr(tmp_path)
    h.git(pr.repo, "checkout", "-q", "main")  # workflow_run runs the default branch's copy
    payload = h.workflow_run_payload("pull_request", pr.head, "feature",
                                     [{"number": h.PR_NUMBER, "base": {"ref": "main"}, "head": {"sha": pr.head}}])
    o = pr.run(workflow="gate.yml", env=h.gate_env(tmp_path), server_token=h.APP_TOKEN,
               event_name="workflow_run", payload=payload, serve_release=True, **h.APP)
    assert sorted(job for wf, job in o.jobs if wf == GATE_WF) == ["gate/gpu status"], o.tail()
    assert o.verdict(GATE_WF, "gate/gpu status") == "succeeded", o.tail()
    assert o.status_posts() == [(f"/repos/{h.REPO}/statuses/{pr.head}", "success", "passed in 4m")]
    assert "create-github-app-token stand-in: client-id=Iv1.gatekit-gate statuses=write contents=read" in o.log


def test_a_run_of_every_workflow_leaves_the_gate_to_its_own_runs(pr):
    """gate.yml fetches result refs from origin: a run of the demo's workflows (the other tests
    here) leaves it out rather than reach github.com; it runs above with a local remote."""
    pr.append("README.md", "\nMore words.\n")
    pr.commit()
    o = pr.run(matrix=f"python:{plain_leg()}")
    assert {wf for wf, _ in o.jobs} == {CPU, GPU}, o.tail()



def test_gpu_jobs_if_with_github_expressions():
    """What act does not prove: act reads github.event from the payload it is given, and maps
    every runner label to this host. GitHub's expression engine evaluates the GPU jobs' `if:`
    for the contexts GitHub itself builds: a fork pull request, a same-repository one, and the
    events on main (push, schedule, dispatch, merge queue) that always run them."""
    doc = yaml.safe_load((h.DEMO / ".github" / "workflows" / "gpu-tests.yml").read_text())
    gpu_jobs = [j for j, job in doc["jobs"].items() if "self-hosted" in job.get("runs-on", [])]
    assert sorted(doc["jobs"][j]["name"] for j in gpu_jobs) == sorted(GPU_JOBS)
    needs = {"changes": {"result": "success", "outputs": {"gpu": "true"}}}

    def github(event_name, head_repo=h.REPO):
        event = {"pull_request": {"number": 7, "head": {"repo": {"full_name": head_repo}}}} \
            if event_name == "pull_request" else {}
        return {"event_name": event_name, "repository": h.REPO, "event": event}

    cases = [("fork", github("pull_request", "contributor/tinyml"), needs, False),
             ("same-repo", github("pull_request"), needs, True),
             ("gate-says-no", github("pull_request"), {"changes": {"result": "success", "outputs": {"gpu": "false"}}}, False)]
    cases += [(e, github(e), needs, True) for e in ("push", "schedule", "workflow_dispatch", "merge_group")]
    for job in gpu_jobs:
        condition = doc["jobs"][job]["if"]
        got = job_if_runs([condition], [{"github": g, "needs": n} for _, g, n, _ in cases])[0]
        assert got == [want for *_, want in cases], f"{job}: {[(c[0], r) for c, r in zip(cases, got)]}"
