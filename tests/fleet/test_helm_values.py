"""The GPU fleet's example Helm values (examples/gpu-fleet/, docs/guides/gpu-fleet.md), rendered
with the real `helm template` against a committed copy of actions-runner-controller's
gha-runner-scale-set chart (tests/fleet/data/, README there), then checked:
  - the AutoscalingRunnerSet against the OpenAPI schema of its CustomResourceDefinition (the
    controller chart's CRD, committed beside the chart): the pod template, GPU resources
    included, is Kubernetes' PodTemplateSpec schema there;
  - what the guide promises: whole GPUs requested and limited under the vendor's resource
    name, the labels the GPU templates' `runs-on` uses, a pinned runner image, and the size
    derived from the shard count (maxRunners = GPU_SHARDS x 2 overlapping runs).
The other rendered resources (ServiceAccount, Role, RoleBinding) are the chart's own; no
offline Kubernetes API schema for them is at hand, so only their kinds are checked."""
import gzip
import os
import shutil
import subprocess
from pathlib import Path

import jsonschema
import pytest
import yaml

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
DATA = Path(__file__).with_name("data")
CHART = DATA / "gha-runner-scale-set"
CRD = DATA / "actions.github.com_autoscalingrunnersets.yaml.gz"
FLEET = SOURCE / "examples" / "gpu-fleet"
TEMPLATE = SOURCE / "workflows" / "gpu-tests.yml"
OVERLAPPING_RUNS = 2  # the guide's sizing: every shard of two overlapping runs gets a runner
VALUES = [("values-rocm.yaml", "amd.com/gpu"), ("values-cuda.yaml", "nvidia.com/gpu")]


def helm() -> str:
    local = SOURCE / "build" / "ci-tools" / "bin" / "helm"
    found = str(local) if local.exists() else shutil.which("helm")
    assert found, "helm is missing: run scripts/install-deps.sh (go install helm.sh/helm/v3/cmd/helm)"
    return found


def render(values: Path, release="gatekit-gpu") -> list:
    done = subprocess.run([helm(), "template", release, str(CHART), "--namespace", "arc-runners", "-f", str(values)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return [d for d in yaml.safe_load_all(done.stdout) if d]


def runner_set_schema() -> dict:
    crd = yaml.safe_load(gzip.decompress(CRD.read_bytes()))
    version, = [v for v in crd["spec"]["versions"] if v["name"] == "v1alpha1"]
    return version["schema"]["openAPIV3Schema"]


def schema_errors(resource: dict) -> list:
    validator = jsonschema.Draft7Validator(runner_set_schema())
    return sorted(f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(resource))


def template_facts() -> tuple:
    doc = yaml.safe_load(TEMPLATE.read_text())
    return doc["env"]["GPU_SHARDS"], doc["jobs"]["gpu-tests"]["runs-on"]


def promises(runner_set: dict, resource: str) -> list:
    """What docs/guides/gpu-fleet.md says the values give; a list of what is not so."""
    problems = []
    shards, runs_on = template_facts()
    spec = runner_set["spec"]
    if spec.get("runnerScaleSetLabels") != runs_on:
        problems.append(f"labels {spec.get('runnerScaleSetLabels')} are not the templates' runs-on {runs_on}")
    if spec.get("maxRunners") != int(shards) * OVERLAPPING_RUNS:
        problems.append(f"maxRunners {spec.get('maxRunners')} is not GPU_SHARDS {shards} x {OVERLAPPING_RUNS}")
    if not 0 <= spec.get("minRunners", 0) <= spec.get("maxRunners", 0):
        problems.append("minRunners is not between 0 and maxRunners")
    runner, = [c for c in spec["template"]["spec"]["containers"] if c["name"] == "runner"]
    resources = runner.get("resources", {})
    for kind in ("requests", "limits"):
        if str(resources.get(kind, {}).get(resource)) != "1":
            problems.append(f"the runner does not {kind[:-1]} one {resource}")
    image = runner.get("image", "")
    if ":" not in image.rsplit("/", 1)[-1] or image.endswith(":latest"):
        problems.append(f"the runner image {image!r} is not pinned")
    if not spec["template"]["spec"].get("nodeSelector"):
        problems.append("no nodeSelector: the pods may land on nodes without the GPU device plugin")
    return problems


@pytest.mark.parametrize("values,resource", VALUES)
def test_the_example_values_render_to_a_valid_gpu_runner_set(values, resource):
    docs = render(FLEET / values)
    assert sorted(d["kind"] for d in docs) == ["AutoscalingRunnerSet", "Role", "RoleBinding", "ServiceAccount"]
    runner_set, = [d for d in docs if d["kind"] == "AutoscalingRunnerSet"]
    assert runner_set["apiVersion"] == "actions.github.com/v1alpha1"
    assert schema_errors(runner_set) == []
    assert promises(runner_set, resource) == []


def test_the_schema_check_catches_a_malformed_gpu_request(tmp_path):
    values = yaml.safe_load((FLEET / "values-rocm.yaml").read_text())
    values["template"]["spec"]["containers"][0]["resources"]["requests"] = ["amd.com/gpu=1"]
    values["template"]["spec"]["containers"][0]["ports"] = [{"containerPort": "http"}]
    broken = tmp_path / "values.yaml"
    broken.write_text(yaml.safe_dump(values))
    runner_set, = [d for d in render(broken) if d["kind"] == "AutoscalingRunnerSet"]
    errors = schema_errors(runner_set)
    assert errors == ["spec/template/spec/containers/0/ports/0/containerPort: 'http' is not of type 'integer'",
                      "spec/template/spec/containers/0/resources/requests: ['amd.com/gpu=1'] is not of type 'object'"]


def test_the_promises_catch_a_runner_without_gpus_or_the_templates_labels(tmp_path):
    values = yaml.safe_load((FLEET / "values-cuda.yaml").read_text())
    del values["template"]["spec"]["containers"][0]["resources"]["limits"]
    values["scaleSetLabels"] = ["gpu"]
    values["template"]["spec"]["containers"][0]["image"] = "ghcr.io/actions/actions-runner:latest"
    broken = tmp_path / "values.yaml"
    broken.write_text(yaml.safe_dump(values))
    runner_set, = [d for d in render(broken) if d["kind"] == "AutoscalingRunnerSet"]
    assert promises(runner_set, "nvidia.com/gpu") == [
        "labels ['gpu'] are not the templates' runs-on ['self-hosted', 'gpu']",
        "the runner does not limit one nvidia.com/gpu",
        "the runner image 'ghcr.io/actions/actions-runner:latest' is not pinned",
    ]


def test_the_guide_names_the_values_and_the_checks():
    guide = (SOURCE / "docs" / "guides" / "gpu-fleet.md").read_text()
    for values, resource in VALUES:
        assert f"(../../examples/gpu-fleet/{values})" in guide
        assert f"`{resource}" in guide
    assert "`GPU_SHARDS` x the runs that may overlap" in guide
