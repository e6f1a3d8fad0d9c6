"""The aggregator wiring in the workflow templates, checked with GitHub's expression engine.

eval-job-conditions.mjs evaluates every job-level `if:` of a template (@actions/expressions,
with the status functions supplied as documented there) and simulates which jobs run; this
test drives it over the full scenario table (gate result x the value of each of the gate's
outputs x result of each gated job when it runs x run cancelled) and checks, per template:
  - the aggregator job runs in every scenario (if: always());
  - each gated matrix runs iff the run was not cancelled, the gate succeeded and its outputs
    ask for the job as its `gated` entry reads them (`tests=cpu|docs`: either 'true');
  - matrix-aggregator, run on the `needs` the aggregator would see, with the template's own
    inputs, exits 0 / 1 / 3 exactly as the rules say (an independent oracle below).
The fixture data/gated-matrix.yml holds the same wiring plus two wrong aggregators the checks
must reject, so the checks are shown to be able to fail.
"""
import itertools
import json
import os
import subprocess
from pathlib import Path

import pytest
import yaml  # PyYAML, from tests/requirements.txt

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BUILD = Path(os.environ.get("GATEKIT_BUILD_DIR", SOURCE / "build" / "dev"))
SCRIPT = Path(__file__).with_name("eval-job-conditions.mjs")
FIXTURE = Path(__file__).with_name("data") / "gated-matrix.yml"
TOOL = BUILD / "tools" / "matrix-aggregator" / "matrix-aggregator"
RESULTS = ["success", "failure", "cancelled", "skipped"]
# (template, aggregator check name); the templates are written by the `changes` job's owner,
# the aggregator jobs by matrix-aggregator's.
TEMPLATES = [("workflows/cpu-tests.yml", "CPU tests"), ("workflows/gpu-tests.yml", "GPU tests"),
             ("workflows/cpu-tests-macos.yml", "CPU tests"),
             ("examples/demo-project/.github/workflows/cpu-tests.yml", "CPU tests"),
             ("examples/demo-project/.github/workflows/gpu-tests.yml", "GPU tests")]


def simulate(workflow: Path, target: str, scenarios: list) -> dict:
    done = subprocess.run(["node", str(SCRIPT), str(workflow)], input=json.dumps({"target": target, "scenarios": scenarios}),
                          capture_output=True, text=True, env={**os.environ}, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def aggregator_jobs(workflow: Path) -> dict:
    """job id -> (name, with-inputs) for every job that uses the matrix-aggregator action."""
    doc = yaml.safe_load(workflow.read_text())
    found = {}
    for job_id, job in (doc.get("jobs") or {}).items():
        for step in job.get("steps") or []:
            uses = str(step.get("uses", ""))
            if uses.split("@")[0].rstrip("/").endswith("actions/matrix-aggregator"):
                found[job_id] = (job.get("name"), step.get("with") or {})
    return found


def names(text: str) -> set:
    text = (text or "").strip()
    if text.startswith("["):
        return set(json.loads(text))
    return {n.strip() for n in text.replace("\n", ",").split(",") if n.strip()}


def gated_pairs(text: str) -> dict:
    """job -> (outputs, combine): `tests=cpu` is (["cpu"], "any"), `tests=cpu|docs` any of
    them, `tests=cpu&gpu` all of them (docs/actions/matrix-aggregator.md, Inputs)."""
    pairs = {}
    for token in (text or "").replace(",", " ").split():
        job, _, spec = token.partition("=")
        combine = "all" if "&" in spec else "any"
        pairs[job] = (spec.split("&" if combine == "all" else "|"), combine)
    return pairs


def outputs_of(workflow: Path, gate: str, gated: dict) -> list:
    """The outputs `gated` names and the gate job's own true/false outputs (its `outputs:` but
    the JSON list `changes`): a job's if: may read an output its `gated` entry forgets."""
    declared = (yaml.safe_load(workflow.read_text()).get("jobs", {}).get(gate, {}) or {}).get("outputs") or {}
    return sorted({o for outputs, _ in gated.values() for o in outputs} | (set(declared) - {"changes"}))


def scenarios_for(gate: str, gated: dict, outputs_used: list) -> list:
    """gate result x each output's value ('true'/'false', or all missing) x cancelled x the
    result of each gated job when it runs."""
    values = [dict(zip(outputs_used, combo)) for combo in itertools.product(["true", "false"], repeat=len(outputs_used))]
    values.append(None)  # the gate succeeded without the outputs
    jobs = sorted(gated)
    table = []
    for gate_result, said, cancelled in itertools.product(RESULTS, values, [False, True]):
        for run_results in itertools.product(["success", "failure", "cancelled"], repeat=len(jobs)):
            outputs = {} if gate_result != "success" else {"other": "false"}
            if gate_result == "success" and said is not None:
                outputs.update(said)
            table.append({
                "id": f"gate={gate_result} outputs={said} cancelled={cancelled} runs={dict(zip(jobs, run_results))}",
                "cancelled": cancelled, "event_name": "pull_request",
                "given": {gate: {"result": gate_result, "outputs": outputs}},
                "run_results": dict(zip(jobs, run_results)),
                "_said": said, "_gate_result": gate_result,
            })
    return table


def needed(scenario: dict, spec: tuple) -> bool:
    """The gate succeeded and its outputs ask for the job: any (a|b) or all (a&b) 'true'."""
    outputs, combine = spec
    said = scenario["_said"]
    if scenario["_gate_result"] != "success" or said is None:
        return False
    values = [said[o] == "true" for o in outputs]
    return all(values) if combine == "all" else any(values)


def expected_runs(scenario: dict, spec: tuple) -> bool:
    return (not scenario["cancelled"]) and needed(scenario, spec)


def oracle_exit(scenario: dict, gated: dict, allowed_failures: set, allowed_skips: set) -> int:
    """The aggregator rules, stated directly (docs/actions/matrix-aggregator.md, Rules)."""
    if scenario["_gate_result"] == "success" and scenario["_said"] is None:
        return 3
    ok = scenario["_gate_result"] == "success"
    for job, spec in gated.items():
        final = scenario["run_results"][job] if expected_runs(scenario, spec) else "skipped"
        if final == "success":
            continue
        if final in ("failure", "cancelled"):
            ok = ok and job in allowed_failures
        else:
            said_not_needed = scenario["_gate_result"] == "success" and not needed(scenario, spec)
            ok = ok and (said_not_needed or job in allowed_skips)
    return 0 if ok else 1


def check_workflow(workflow: Path, target: str, inputs: dict) -> list:
    """Returns a list of problems (empty when the wiring is right)."""
    gate = inputs.get("gate-job", "")
    gated = gated_pairs(inputs.get("gated", ""))
    problems = []
    if not gate or not gated:
        return [f"{target}: the aggregator step must set gate-job and gated (got {inputs})"]
    if "toJSON(needs)" not in str(inputs.get("needs", "")).replace(" ", ""):
        problems.append(f"{target}: input needs must be ${{{{ toJSON(needs) }}}}")
    scenarios = scenarios_for(gate, gated, outputs_of(workflow, gate, gated))
    sim = simulate(workflow, target, [{k: v for k, v in s.items() if not k.startswith("_")} for s in scenarios])
    job = sim["jobs"][target]
    for needed in [gate, *gated]:
        if needed not in job["needs"]:
            problems.append(f"{target}: needs must list '{needed}' (has {job['needs']})")
    allowed_failures, allowed_skips = names(inputs.get("allowed-failures")), names(inputs.get("allowed-skips"))
    for scenario, result in zip(scenarios, sim["results"]):
        if not result["runs"][target]:
            problems.append(f"{target} does not run when {scenario['id']}: its if: must be always()")
            continue
        for g, spec in gated.items():
            if result["runs"][g] != expected_runs(scenario, spec):
                problems.append(f"{g} runs={result['runs'][g]} when {scenario['id']}; expected runs iff the gate "
                                f"succeeded and said {'all' if spec[1] == 'all' else 'any'} of {spec[0]} 'true' "
                                f"and the run was not cancelled")
        env = {"PATH": os.environ.get("PATH", ""), "GATEKIT_NEEDS": json.dumps(result["needs"])}
        args = [str(TOOL), "--gate-job", gate, "--gated", inputs.get("gated", "")]
        if inputs.get("allowed-failures"):
            args += ["--allowed-failures", inputs["allowed-failures"]]
        if inputs.get("allowed-skips"):
            args += ["--allowed-skips", inputs["allowed-skips"]]
        done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=60)
        want = oracle_exit(scenario, gated, allowed_failures, allowed_skips)
        if done.returncode != want:
            problems.append(f"matrix-aggregator exit {done.returncode}, expected {want}, when {scenario['id']}:\n"
                            f"{done.stdout}{done.stderr}")
        if len(problems) > 20:
            break
    return problems


def test_tool_is_built():
    assert TOOL.exists(), f"build matrix-aggregator first ({TOOL})"


def test_fixture_wiring_is_right():
    jobs = aggregator_jobs(FIXTURE)
    assert set(jobs) == {"cpu-tests"}
    name, inputs = jobs["cpu-tests"]
    assert name == "CPU tests"
    assert check_workflow(FIXTURE, "cpu-tests", inputs) == []


@pytest.mark.parametrize("target", ["broken-aggregator", "not-cancelled-aggregator"])
def test_wrong_aggregator_conditions_are_caught(target):
    inputs = {"needs": "${{ toJSON(needs) }}", "gate-job": "changes", "gated": "tests=cpu"}
    problems = check_workflow(FIXTURE, target, inputs)
    assert any("its if: must be always()" in p for p in problems), problems


def test_wrong_gated_mapping_is_caught():
    # The matrix is gated by `cpu`; telling the aggregator `tests=docs` makes every
    # gate-success scenario "could not evaluate" (no such output), which the oracle rejects.
    inputs = {"needs": "${{ toJSON(needs) }}", "gate-job": "changes", "gated": "tests=docs"}
    assert check_workflow(FIXTURE, "cpu-tests", inputs)


@pytest.mark.parametrize("template,check_name", TEMPLATES)
def test_template_aggregator(template, check_name):
    workflow = SOURCE / template
    assert workflow.exists(), f"{template} is missing"
    jobs = {job_id: v for job_id, v in aggregator_jobs(workflow).items() if v[0] == check_name}
    assert len(jobs) == 1, f"{template}: expected one job named '{check_name}' using actions/matrix-aggregator"
    (job_id, (_, inputs)), = jobs.items()
    assert check_workflow(workflow, job_id, inputs) == []
