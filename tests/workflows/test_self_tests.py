"""Every action has a self-test workflow (.github/workflows/self-test-<action>.yml) that uses
it from this checkout (`uses: ./actions/<action>`), so a pull request that breaks an action's
wiring goes red on GitHub, not in a user's repository."""
import os
from pathlib import Path

import pytest
import yaml

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
ACTIONS = sorted(p.parent.name for p in SOURCE.glob("actions/*/action.yml"))


def test_there_are_actions():
    assert "path-gate" in ACTIONS


@pytest.mark.parametrize("action", ACTIONS)
def test_each_action_has_a_self_test_that_uses_it(action):
    path = SOURCE / ".github" / "workflows" / f"self-test-{action}.yml"
    assert path.exists(), f"no self-test workflow for actions/{action}: add {path.relative_to(SOURCE)}"
    jobs = yaml.safe_load(path.read_text()).get("jobs") or {}
    uses = {step.get("uses") for job in jobs.values() for step in job.get("steps") or []}
    assert f"./actions/{action}" in uses, f"{path.name} never uses ./actions/{action}"
