"""The workflow templates and the demo's workflows name a runner image wherever its version
matters: a GitHub-hosted job that runs setup-gatekit (which may build the tools with the
image's compiler and apt packages) or actions/setup-python (prebuilt Pythons per Ubuntu
release) is on `ubuntu-NN.NN` (or `macos-NN`, the macOS variant's legs), never the moving
`ubuntu-latest` / `macos-latest`, with the reason in a comment right above its `runs-on:`. docs/guides/workflow-authors.md, "Runner images"."""
import os
import re
from pathlib import Path

import pytest
import yaml  # PyYAML, from tests/requirements.txt

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
WORKFLOWS = sorted([*SOURCE.glob("workflows/*.yml"), *SOURCE.glob("examples/*/.github/workflows/*.yml")])
VERSION_MATTERS = ("setup-gatekit", "actions/setup-python@")


def hosted_jobs_needing_a_version(path: Path):
    jobs = yaml.safe_load(path.read_text())["jobs"]
    for name, job in jobs.items():
        uses = [step.get("uses", "") for step in job.get("steps", [])]
        if isinstance(job["runs-on"], str) and any(m in u for u in uses for m in VERSION_MATTERS):
            yield name, job["runs-on"]


def test_the_templates_have_such_jobs():
    assert len(WORKFLOWS) >= 4
    assert all(list(hosted_jobs_needing_a_version(p)) for p in WORKFLOWS)


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: str(p.relative_to(SOURCE)))
def test_jobs_whose_image_version_matters_name_it(path):
    lines = path.read_text().splitlines()
    for name, image in hosted_jobs_needing_a_version(path):
        assert re.fullmatch(r"ubuntu-\d\d\.\d\d|macos-\d\d", image), f"{path.name}: job {name} runs on {image}"
        # The reason sits in a comment right above that job's runs-on line.
        start = lines.index(f"  {name}:")
        at = next(i for i in range(start, len(lines)) if lines[i].strip() == f"runs-on: {image}")
        assert lines[at - 1].strip().startswith("#"), f"{path.name}: job {name}: say why above runs-on"
