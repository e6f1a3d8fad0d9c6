"""The demo pins gatekit to one commit of this repository that has every action it uses.

The demo's workflows check gatekit out at a full commit SHA (`repository: gatekit/gatekit`,
`ref: <sha>`) and run `./.gatekit/actions/<name>`. A pin to a commit that is not in this
repository's history, or that predates an action the demo uses, is a demo that cannot run
(or runs tools without the fixes it advertises). One pin for the whole demo, so moving it is
one edit.
"""
import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
DEMO = SOURCE / "examples" / "demo-project" / ".github" / "workflows"


def git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(SOURCE), *args], capture_output=True, text=True)


def demo_steps():
    for path in sorted(DEMO.glob("*.yml")):
        for job in (yaml.safe_load(path.read_text()).get("jobs") or {}).values():
            for step in job.get("steps") or []:
                yield path.name, step


def pins() -> set:
    return {str(step["with"]["ref"]) for _, step in demo_steps()
            if (step.get("with") or {}).get("repository") == "gatekit/gatekit"}


def used_actions() -> set:
    return {m.group(1) for _, step in demo_steps()
            if (m := re.fullmatch(r"\./\.gatekit/(actions/[a-z-]+)", step.get("uses", "")))}


def test_the_demo_has_one_full_sha_pin():
    found = pins()
    assert len(found) == 1, f"the demo pins gatekit at {sorted(found)}: use one commit"
    assert re.fullmatch(r"[0-9a-f]{40}", next(iter(found)))


@pytest.fixture
def history():
    if git("rev-parse", "--git-dir").returncode != 0:
        pytest.skip("not a git checkout")
    if git("rev-parse", "--is-shallow-repository").stdout.strip() == "true":
        pytest.skip("a shallow clone lacks the history the pin is checked against")


def test_the_pin_is_in_this_repository_and_has_every_action_the_demo_uses(history):
    (pin,) = pins()
    assert git("merge-base", "--is-ancestor", pin, "HEAD").returncode == 0, \
        f"the demo's pin {pin} is not a commit of this repository's history"
    actions = used_actions()
    assert actions, "the demo uses no gatekit action: the pattern above is out of date"
    missing = [a for a in sorted(actions) if git("cat-file", "-e", f"{pin}:{a}/action.yml").returncode != 0]
    assert not missing, f"the pinned commit {pin} lacks {missing}: move the pin to a commit that has them"


def test_the_pinned_commit_s_actions_declare_every_input_the_demo_passes(history):
    """An input the pinned action does not declare is only a warning on GitHub, and then does
    nothing: gate.yml's `verified: 'true'` at a commit that predates it would run unchecked
    tools in the job that holds the App's token."""
    (pin,) = pins()
    unknown = []
    for workflow, step in demo_steps():
        m = re.fullmatch(r"\./\.gatekit/(actions/[a-z-]+)", step.get("uses", ""))
        if not m:
            continue
        shown = git("show", f"{pin}:{m.group(1)}/action.yml")
        declared = yaml.safe_load(shown.stdout).get("inputs") or {} if shown.returncode == 0 else {}
        unknown += [f"{workflow}: {m.group(1)} input {name}" for name in (step.get("with") or {}) if name not in declared]
    assert not unknown, f"the pinned commit {pin} does not declare {unknown}: move the pin to a commit that does"
