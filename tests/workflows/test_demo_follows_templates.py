"""The demo's workflows are the templates in the form for another repository: they must not drift.

workflows/cpu-tests.yml, gpu-tests.yml and gate.yml use gatekit's actions as local paths
(`./actions/X`); examples/demo-project/.github/workflows/ check gatekit out into `.gatekit/` and use
`./.gatekit/actions/X`. With that difference taken out (the gatekit checkout steps dropped,
the paths mapped), both must have the same triggers, workflow permissions and concurrency,
the same jobs with the same names, needs, conditions, runners, containers, environments,
permissions, outputs and timeouts, and the same steps: the same actions with the same inputs and
conditions, in the same order. Only what is the project's own may differ: Python versions,
the `run:` text (install command, pytest options), and comments.
"""
import os
from pathlib import Path

import pytest
import yaml

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
DEMO = SOURCE / "examples" / "demo-project" / ".github" / "workflows"
PROJECT_OWN_INPUTS = {"python-version", "variants"}  # which Pythons the project tests: its own choice
JOB_KEYS = ("name", "needs", "if", "runs-on", "container", "environment", "permissions", "outputs",
            "timeout-minutes")


def load(path: Path) -> dict:
    document = yaml.safe_load(path.read_text())
    document["on"] = document.pop(True, document.get("on"))  # YAML 1.1 reads `on:` as True
    return document


def is_gatekit_checkout(step: dict) -> bool:
    return step.get("uses", "").startswith("actions/checkout@") and \
        (step.get("with") or {}).get("repository") == "gatekit/gatekit"


def own_steps(steps: list) -> list:
    """The steps without the gatekit checkout. In a template the repository's own checkout is
    gatekit's; so a demo job whose only checkout is gatekit's (an aggregator) keeps it as a
    plain checkout, and one that also checks out its own code drops it."""
    plain = [s for s in steps if s.get("uses", "").startswith("actions/checkout@") and not is_gatekit_checkout(s)]
    kept = []
    for step in steps:
        if is_gatekit_checkout(step):
            if plain:
                continue
            step = {"uses": step["uses"], "with": {"persist-credentials": step["with"]["persist-credentials"]}}
        kept.append(step)
    return kept


def normal_step(step: dict) -> dict:
    uses = step.get("uses", "")
    if uses.startswith("./.gatekit/actions/"):
        uses = "./actions/" + uses.removeprefix("./.gatekit/actions/")
    inputs = {k: v for k, v in (step.get("with") or {}).items() if k not in PROJECT_OWN_INPUTS}
    return {"id": step.get("id"), "name": step.get("name"), "if": step.get("if"), "uses": uses or None,
            "with": inputs, "env": step.get("env"), "run": "run" in step}


def shape(document: dict) -> dict:
    jobs = {}
    for job_id, job in document["jobs"].items():
        jobs[job_id] = {key: job.get(key) for key in JOB_KEYS}
        matrix = (job.get("strategy") or {}).get("matrix") or {}
        jobs[job_id]["matrix-axes"] = sorted(matrix)
        jobs[job_id]["steps"] = [normal_step(s) for s in own_steps(job.get("steps", []))]
    return {"on": document["on"], "permissions": document.get("permissions"),
            "concurrency": document.get("concurrency"), "jobs": jobs}


def first_difference(a, b, where="") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key) != b.get(key):
                return first_difference(a.get(key), b.get(key), f"{where}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, f"{where}[{index}]")
    return f"{where or '(top)'}: template {a!r} != demo {b!r}"


@pytest.mark.parametrize("name", ["cpu-tests.yml", "gpu-tests.yml", "gate.yml"])
def test_the_demo_workflow_is_the_template(name):
    template, demo = shape(load(SOURCE / "workflows" / name)), shape(load(DEMO / name))
    assert template == demo, first_difference(template, demo)


@pytest.mark.parametrize("name", ["cpu-tests.yml", "gpu-tests.yml", "gate.yml"])
def test_every_demo_job_that_uses_gatekit_checks_it_out_at_one_pin(name):
    document = load(DEMO / name)
    refs = set()
    for job_id, job in document["jobs"].items():
        steps = job.get("steps", [])
        uses_gatekit = [i for i, s in enumerate(steps) if s.get("uses", "").startswith("./.gatekit/")]
        checkouts = [i for i, s in enumerate(steps) if is_gatekit_checkout(s)]
        if uses_gatekit:
            assert checkouts and checkouts[0] < uses_gatekit[0], f"{job_id}: gatekit is used before its checkout"
        for i in checkouts:
            inputs = steps[i]["with"]
            assert inputs["path"] == ".gatekit" and inputs["persist-credentials"] is False, job_id
            refs.add(inputs["ref"])
    assert len(refs) == 1 and len(next(iter(refs))) == 40, refs


def test_a_drift_is_reported_with_its_place():
    template = shape(load(SOURCE / "workflows" / "gpu-tests.yml"))
    drifted = load(DEMO / "gpu-tests.yml")
    drifted["jobs"]["gpu-tests"]["permissions"]["pull-requests"] = "read"
    demo = shape(drifted)
    assert template != demo
    assert first_difference(template, demo) == \
        ".jobs.gpu-tests.permissions.pull-requests: template None != demo 'read'"


def test_the_demo_gate_keeps_the_environment_that_holds_the_app_key():
    """gate.yml's `post` job reads the App's key from the environment limited to the default
    branch (docs/gpu-gate.md, "Setting up strict mode"): a demo that drops it is a drift."""
    template = shape(load(SOURCE / "workflows" / "gate.yml"))
    drifted = load(DEMO / "gate.yml")
    del drifted["jobs"]["post"]["environment"]
    assert first_difference(template, shape(drifted)) == \
        ".jobs.post.environment: template 'gatekit-gate' != demo None"
