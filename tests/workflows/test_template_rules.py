"""The rules every workflow of the repository keeps, beyond what the linters check.

Over the templates (workflows/), the demo's workflows and gatekit's own (.github/workflows/):
- concurrency: a workflow with more than one trigger puts `github.event_name` in its group,
  so a push never replaces a scheduled or dispatched run; runs are cancelled in progress only
  on pull requests;
- least permissions: the workflow grants nothing or `contents: read`, every job lists its own,
  and only a job that runs path-gate may read pull requests;
- credentials: every actions/checkout sets `persist-credentials: false`, except a path-gate
  job's own checkout, which keeps them with the reason on the line;
- test legs (the templates and the demo): every job that runs pytest uploads its JUnit with
  `always()` under a name unique to the leg and the attempt;
- GPU jobs (self-hosted `gpu`): a container pinned by digest, with the AMD GPU devices;
- the docs variant (the templates and the demo): a suite-report step given a matrix job's
  `variant` lists every value of that matrix under `variants`, with `matrix-jobs:
  ${{ strategy.job-total }}`, and the workflow's `partition` step lists the same values.
"""
import os
import re
from pathlib import Path

import pytest
import yaml

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
TEMPLATES = sorted([*SOURCE.glob("workflows/*.yml"), *SOURCE.glob("examples/*/.github/workflows/*.yml")])
WORKFLOWS = sorted([*TEMPLATES, *SOURCE.glob(".github/workflows/*.yml")])
PR_ONLY_CANCEL = "${{ github.event_name == 'pull_request' }}"
DIGEST = re.compile(r"^[a-z0-9./_-]+:[A-Za-z0-9._-]+@sha256:[0-9a-f]{64}$")


def rel(path: Path) -> str:
    return str(path.relative_to(SOURCE)) if path.is_relative_to(SOURCE) else str(path)


def load(path: Path) -> dict:
    document = yaml.safe_load(path.read_text())
    document["on"] = document.pop(True, document.get("on"))  # YAML 1.1 reads `on:` as True
    return document


def uses(step: dict, action: str) -> bool:
    return step.get("uses", "").split("@")[0].endswith(action)


def runs_path_gate(job: dict) -> bool:
    return any(uses(s, "actions/path-gate") for s in job.get("steps", []))


def docs_variant_problems(document: dict) -> list[str]:
    found = []
    steps = [(job_id, job, s) for job_id, job in document["jobs"].items() for s in job.get("steps", [])
             if uses(s, "actions/suite-report")]
    partition = [str((s.get("with") or {}).get("variants", "")).split() for _, _, s in steps
                 if (s.get("with") or {}).get("command") == "partition"]
    for job_id, job, step in steps:
        given = step.get("with") or {}
        axis = re.fullmatch(r"\$\{\{ matrix\.([a-z-]+) \}\}", str(given.get("variant", "")))
        if not axis:
            continue
        values = [str(v) for v in ((job.get("strategy") or {}).get("matrix") or {}).get(axis.group(1), [])]
        if str(given.get("variants", "")).split() != values:
            found.append(f"{job_id}: variants {given.get('variants')!r} is not the matrix's {axis.group(1)} {values}")
        if given.get("matrix-jobs") != "${{ strategy.job-total }}":
            found.append(f"{job_id}: matrix-jobs is not ${{{{ strategy.job-total }}}}")
        for listed in partition:
            if listed != values:
                found.append(f"partition: variants {' '.join(listed)!r} is not the matrix's {axis.group(1)} {values}")
    return found


def problems(path: Path) -> list[str]:
    text, document = path.read_text(), load(path)
    found = []
    triggers = document["on"] if isinstance(document["on"], (dict, list)) else [document["on"]]
    concurrency = document.get("concurrency") or {}
    if len(triggers) > 1 and "github.event_name" not in str(concurrency.get("group", "")):
        found.append("concurrency: the group does not hold github.event_name")
    if concurrency.get("cancel-in-progress") not in (None, False, PR_ONLY_CANCEL):
        found.append(f"concurrency: cancel-in-progress {concurrency.get('cancel-in-progress')!r}, not pull requests only")
    if document.get("permissions") not in ({}, {"contents": "read"}):
        found.append(f"permissions: the workflow grants {document.get('permissions')!r}")
    for job_id, job in document["jobs"].items():
        permissions = job.get("permissions")
        if permissions is None:
            found.append(f"{job_id}: no job-level permissions")
        elif "pull-requests" in permissions and not runs_path_gate(job):
            found.append(f"{job_id}: pull-requests permission without path-gate")
        for step in job.get("steps", []):
            if not uses(step, "actions/checkout"):
                continue
            persist = (step.get("with") or {}).get("persist-credentials")
            own = (step.get("with") or {}).get("repository") is None
            if persist is False:
                continue
            line = next((l for l in text.splitlines() if "persist-credentials: true" in l), "")
            if not (persist is True and own and runs_path_gate(job) and "path-gate" in line):
                found.append(f"{job_id}: a checkout keeps its credentials without path-gate's reason")
        if path in TEMPLATES and any("pytest" in s.get("run", "") for s in job.get("steps", [])):
            uploads = [s for s in job["steps"] if uses(s, "actions/upload-artifact")]
            name = str(uploads[0]["with"]["name"]) if uploads else ""
            if not uploads or "always()" not in str(uploads[0].get("if", "")):
                found.append(f"{job_id}: the pytest job uploads no JUnit with always()")
            elif "junit" not in str(uploads[0]["with"]["path"]) or "github.run_attempt" not in name or \
                    ("strategy" in job and "matrix." not in name):
                found.append(f"{job_id}: the JUnit artifact's name is not unique to the leg and attempt: {name}")
        if "gpu" in (job.get("runs-on") or []):
            container = job.get("container") or {}
            options = str(container.get("options", ""))
            if not DIGEST.match(str(container.get("image", ""))):
                found.append(f"{job_id}: the GPU job's container image is not pinned by digest")
            if "--device=/dev/kfd" not in options or "--device=/dev/dri" not in options:
                found.append(f"{job_id}: the GPU job's container lacks --device=/dev/kfd --device=/dev/dri")
    if path in TEMPLATES:
        found += docs_variant_problems(document)
    return found


def test_the_lists_hold_the_templates_and_the_demo():
    assert {rel(p) for p in TEMPLATES} == {"workflows/cpu-tests.yml", "workflows/cpu-tests-macos.yml",
                                           "workflows/gpu-tests.yml", "workflows/gate.yml",
                                           "workflows/flaky-nightly.yml", "workflows/ci-report.yml",
                                           "examples/demo-project/.github/workflows/cpu-tests.yml",
                                           "examples/demo-project/.github/workflows/gpu-tests.yml",
                                           "examples/demo-project/.github/workflows/gate.yml"}


@pytest.mark.parametrize("path", WORKFLOWS, ids=rel)
def test_the_workflow_keeps_the_rules(path):
    assert problems(path) == []


def test_each_broken_rule_is_named(tmp_path):
    workflow = tmp_path / "gpu-tests.yml"
    broken = (SOURCE / "workflows" / "gpu-tests.yml").read_text()
    broken = broken.replace("gpu-tests-${{ github.event_name }}-", "gpu-tests-")
    broken = broken.replace("permissions: {}\n", "permissions:\n  contents: read\n  pull-requests: read\n", 1)
    broken = broken.replace("        if: always()\n        uses: actions/upload-artifact", "        uses: actions/upload-artifact", 1)
    broken = broken.replace("@sha256:439edaa8f0c4be4a3728e528f87b8a2ea1f051f34cf10b27caa4bd94f562eda7", "", 1)
    broken = broken.replace("persist-credentials: false", "persist-credentials: true", 1)
    workflow.write_text(broken)
    TEMPLATES.append(workflow)
    try:
        assert problems(workflow) == [
            "concurrency: the group does not hold github.event_name",
            "permissions: the workflow grants {'contents': 'read', 'pull-requests': 'read'}",
            "gpu-baseline: a checkout keeps its credentials without path-gate's reason",
            "gpu-tests: the pytest job uploads no JUnit with always()",
            "gpu-tests: the GPU job's container image is not pinned by digest",
        ]
    finally:
        TEMPLATES.remove(workflow)


def test_a_variants_list_that_drifts_from_the_matrix_is_named():
    document = load(SOURCE / "workflows" / "cpu-tests.yml")
    assert docs_variant_problems(document) == []
    document["jobs"]["tests"]["strategy"]["matrix"]["python"].append("3.13")
    del document["jobs"]["tests"]["steps"][3]["with"]["matrix-jobs"]
    assert docs_variant_problems(document) == [
        "tests: variants '3.10 3.11 3.12' is not the matrix's python ['3.10', '3.11', '3.12', '3.13']",
        "tests: matrix-jobs is not ${{ strategy.job-total }}",
        "partition: variants '3.10 3.11 3.12' is not the matrix's python ['3.10', '3.11', '3.12', '3.13']",
    ]
