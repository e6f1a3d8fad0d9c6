"""Jobs that hold a token that writes run only checked tools and read back no state a pull
request's job can have written (docs/guides/workflow-authors.md, "Jobs that hold a token that
writes"; docs/actions/setup-gatekit.md, "Verified tools").

Over every workflow of the repository (the templates, the demo's, gatekit's own):
- a job whose permissions grant a write scope, or that mints a GitHub App token, and uses a
  gatekit action sets the tools up with `setup-gatekit` `verified: 'true'` (an `id`, before
  every other gatekit step), gives every other gatekit action that step's `bin` output as
  `gatekit-bin`, and runs no tool through `$GATEKIT_BIN` (a variable any earlier step can
  change through GITHUB_ENV);
- an Actions cache restore by prefix (`restore-keys`), in a workflow's step or in a step of a
  gatekit action a job uses, runs only in the default branch's own runs: GitHub's expression
  engine evaluates its `if:` to false for a pull request, a merge queue, pull_request_target,
  workflow_run, another branch, a tag named like the branch. In the default branch's own runs
  GitHub restores nothing but entries those runs saved
  (https://docs.github.com/en/actions/reference/workflows-and-actions/dependency-caching#restrictions-for-accessing-a-cache).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
WORKFLOWS = sorted([*SOURCE.glob("workflows/*.yml"), *SOURCE.glob("examples/*/.github/workflows/*.yml"),
                    *SOURCE.glob(".github/workflows/*.yml")])
EVAL_STEP_IF = SOURCE / "tests" / "suite-report" / "eval-step-if.mjs"
GATEKIT_ACTION = re.compile(r"^(?:\./(?:\.gatekit/)?actions/|gatekit/gatekit/actions/)(?P<name>[a-z-]+)(?:@[0-9a-f]{40})?$")
CACHE_RESTORE = re.compile(r"^actions/cache(?:/restore)?@")

# The runs GitHub builds, as the `github` context of a step (the repository's default branch
# is main). Only the first three are the default branch's own runs.
DEFAULT = {"repository": {"full_name": "o/r", "default_branch": "main"}}
OWN_RUNS = {
    # A scheduled run's payload names no repository; it always runs on the default branch.
    "schedule": {"event_name": "schedule", "ref": "refs/heads/main", "event": {"schedule": "30 5 * * *"}},
    "push to main": {"event_name": "push", "ref": "refs/heads/main", "event": DEFAULT},
    "dispatch of main": {"event_name": "workflow_dispatch", "ref": "refs/heads/main", "event": DEFAULT},
}
OTHER_RUNS = {
    "pull_request": {"event_name": "pull_request", "ref": "refs/pull/7/merge", "event": DEFAULT},
    # Runs in the base branch's context (its ref is the default branch) for a pull request.
    "pull_request_target": {"event_name": "pull_request_target", "ref": "refs/heads/main", "event": DEFAULT},
    "merge_group": {"event_name": "merge_group", "ref": "refs/heads/gh-readonly-queue/main/pr-7-" + "b" * 40,
                    "event": DEFAULT},
    "workflow_run": {"event_name": "workflow_run", "ref": "refs/heads/main", "event": DEFAULT},
    "issue_comment": {"event_name": "issue_comment", "ref": "refs/heads/main", "event": DEFAULT},
    "push to another branch": {"event_name": "push", "ref": "refs/heads/feature", "event": DEFAULT},
    "push of a tag named main": {"event_name": "push", "ref": "refs/tags/main", "event": DEFAULT},
    "dispatch of another branch": {"event_name": "workflow_dispatch", "ref": "refs/heads/feature", "event": DEFAULT},
    "dispatch of a tag named main": {"event_name": "workflow_dispatch", "ref": "refs/tags/main", "event": DEFAULT},
}


def rel(path: Path) -> str:
    return str(path.relative_to(SOURCE)) if path.is_relative_to(SOURCE) else str(path)


def load(path: Path) -> dict:
    document = yaml.safe_load(path.read_text())
    document["on"] = document.pop(True, document.get("on"))  # YAML 1.1 reads `on:` as True
    return document


def gatekit_action(step: dict) -> str | None:
    found = GATEKIT_ACTION.match(str(step.get("uses", "")))
    return found.group("name") if found else None


def writes(document: dict, job: dict) -> bool:
    """The job's token can write: a write scope (its own permissions, else the workflow's), or
    it mints a GitHub App token."""
    permissions = job.get("permissions", document.get("permissions"))
    if permissions == "write-all" or (isinstance(permissions, dict) and "write" in permissions.values()):
        return True
    return any(str(s.get("uses", "")).startswith("actions/create-github-app-token@") for s in job.get("steps", []))


def tool_problems(job_id: str, job: dict) -> list[str]:
    steps = job.get("steps", [])
    gatekit = [(i, s) for i, s in enumerate(steps) if gatekit_action(s)]
    found = []
    if not gatekit:
        return found
    first_index, first = gatekit[0]
    setup_id = first.get("id")
    if gatekit_action(first) != "setup-gatekit" or (first.get("with") or {}).get("verified") != "true" or not setup_id:
        found.append(f"{job_id}: holds a token that writes, but its first gatekit step is not "
                     f"setup-gatekit with an id and verified: 'true'")
        setup_id = next((s.get("id") for _, s in gatekit if gatekit_action(s) == "setup-gatekit"), None)
    want = "${{ steps.%s.outputs.bin }}" % setup_id
    for index, step in gatekit[1:]:
        name = gatekit_action(step)
        if name == "setup-gatekit":
            found.append(f"{job_id}: step {index + 1} sets the tools up again")
        elif (step.get("with") or {}).get("gatekit-bin") != want:
            found.append(f"{job_id}: step {index + 1} ({name}) does not take gatekit-bin: {want}")
    for index, step in enumerate(steps):
        if "GATEKIT_BIN" in str(step.get("run", "")) or "GATEKIT_BIN" in json.dumps(step.get("env") or {}):
            found.append(f"{job_id}: step {index + 1} runs a tool through $GATEKIT_BIN")
    return found


def action_steps(step: dict) -> list[dict]:
    """The steps of the local gatekit action a workflow step uses (its source in this tree),
    each with the inputs this use gives it (the action's defaults, then the step's `with`)."""
    name = gatekit_action(step)
    if not name:
        return []
    action = yaml.safe_load((SOURCE / "actions" / name / "action.yml").read_text())
    inputs = {k: str(v.get("default", "")) for k, v in (action.get("inputs") or {}).items()}
    inputs.update({k: str(v) for k, v in (step.get("with") or {}).items()})
    return [{**s, "_inputs": inputs, "_in": f"actions/{name}"} for s in action["runs"].get("steps", [])]


def step_runs(condition, cases: list[dict]) -> list[bool]:
    """A step-level `if:` evaluated by GitHub's expression engine (eval-step-if.mjs) per case."""
    done = subprocess.run(["node", str(EVAL_STEP_IF)], input=json.dumps({"if": condition, "cases": cases}),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def prefix_restores(document: dict) -> list[tuple[str, dict]]:
    """(where, step) of every cache restore with restore-keys, in the jobs' steps and in the
    steps of the gatekit actions they use."""
    found = []
    for job_id, job in document["jobs"].items():
        for index, step in enumerate(job.get("steps", [])):
            candidates = [(f"{job_id}: step {index + 1}", step)]
            candidates += [(f"{job_id}: step {index + 1} ({s['_in']}, step {s.get('id', '?')})", s)
                           for s in action_steps(step)]
            for where, candidate in candidates:
                if CACHE_RESTORE.match(str(candidate.get("uses", ""))) and (candidate.get("with") or {}).get("restore-keys"):
                    found.append((where, candidate))
    return found


def restore_problems(document: dict) -> list[str]:
    found = []
    runs = list(OTHER_RUNS.items())
    for where, step in prefix_restores(document):
        inputs = step.get("_inputs", {})
        answers = step_runs(step.get("if"), [{"github": github, "inputs": inputs} for _, github in runs])
        leaks = [name for (name, _), runs_there in zip(runs, answers) if runs_there]
        if leaks:
            found.append(f"{where}: restores the Actions cache by prefix in runs that are not the default "
                         f"branch's own: {', '.join(leaks)}")
    return found


def problems(path: Path) -> list[str]:
    document = load(path)
    found = []
    for job_id, job in document["jobs"].items():
        if writes(document, job):
            found += tool_problems(job_id, job)
    return found + restore_problems(document)


@pytest.mark.parametrize("path", WORKFLOWS, ids=rel)
def test_the_workflow_keeps_the_token_rules(path):
    assert problems(path) == []


def test_the_rules_cover_every_job_that_writes_with_a_gatekit_tool():
    """The jobs this file holds to the rules, so that a job that stops writing (or a template
    that loses its job) is seen here, not silently dropped from the check."""
    covered = sorted(f"{rel(p)}:{job_id}" for p in WORKFLOWS for job_id, job in load(p)["jobs"].items()
                     if writes(load(p), job) and any(gatekit_action(s) for s in job.get("steps", [])))
    assert covered == [
        "examples/demo-project/.github/workflows/cpu-tests.yml:tests",
        "examples/demo-project/.github/workflows/gate.yml:gate",
        "examples/demo-project/.github/workflows/gate.yml:post",
        "examples/demo-project/.github/workflows/gpu-tests.yml:gpu-tests",
        "workflows/cpu-tests-macos.yml:tests",
        "workflows/cpu-tests.yml:tests",
        "workflows/flaky-nightly.yml:daily",
        "workflows/flaky-nightly.yml:stress",
        "workflows/gate.yml:gate",
        "workflows/gate.yml:post",
        "workflows/gpu-tests.yml:gpu-tests",
    ]
    # The jobs with a prefix restore (their own, or in the gatekit actions they use), each
    # confined to the default branch's own runs by the test above.
    restores = sorted({f"{rel(p)}:{where.split(':')[0]}" for p in WORKFLOWS for where, _ in prefix_restores(load(p))})
    assert restores == [
        ".github/workflows/self-test-flaky-tracker.yml:flaky-tracker",
        "examples/demo-project/.github/workflows/cpu-tests.yml:tests",
        "examples/demo-project/.github/workflows/gpu-tests.yml:gpu-tests",
        "workflows/ci-report.yml:report",
        "workflows/cpu-tests-macos.yml:tests",
        "workflows/cpu-tests.yml:tests",
        "workflows/flaky-nightly.yml:daily",
        "workflows/flaky-nightly.yml:stress",
        "workflows/gpu-tests.yml:gpu-tests",
    ]


def test_the_journal_and_the_api_cache_are_kept_by_the_default_branch_s_own_runs():
    """The guard is not so tight that nothing is ever restored: the flaky-tracker journal in a
    scheduled run, a push to the default branch and its dispatch; ci-report's API cache in the
    runs its workflow has (schedule, dispatch)."""
    journal = next(s for s in action_steps({"uses": "./actions/flaky-tracker", "with": {"command": "issues"}})
                   if s.get("id") == "journal")
    cases = [{"github": github, "inputs": journal["_inputs"]} for github in OWN_RUNS.values()]
    assert step_runs(journal["if"], cases) == [True, True, True]
    # Not for another command, nor with journal: false.
    for inputs in ({**journal["_inputs"], "command": "rerun"}, {**journal["_inputs"], "journal": "false"}):
        assert step_runs(journal["if"], [{"github": OWN_RUNS["schedule"], "inputs": inputs}]) == [False]
    report = load(SOURCE / "workflows" / "ci-report.yml")["jobs"]["report"]["steps"]
    restore, save = (next(s for s in report if s.get("name") == name)
                     for name in ("Restore the API cache", "Save the API cache"))
    cases = [{"github": OWN_RUNS[name]} for name in ("schedule", "dispatch of main")]
    assert step_runs(restore["if"], cases) == [True, True]
    assert step_runs(save["if"], cases) == [True, True]
    # ci-report saves where it restores: never into another branch's or a pull request's scope.
    assert step_runs(save["if"], [{"github": g} for g in OTHER_RUNS.values()]) == [False] * len(OTHER_RUNS)


def test_each_broken_rule_is_named(tmp_path):
    text = (SOURCE / "workflows" / "flaky-nightly.yml").read_text()
    broken = text.replace("          verified: 'true'\n", "", 1)
    broken = broken.replace("          gatekit-bin: ${{ steps.gatekit.outputs.bin }}\n          command: stress\n",
                            "          command: stress\n", 1)
    broken = broken.replace("        run: python -m pytest -q -m \"$MARKERS\" --junitxml=reports/junit.xml\n",
                            "        run: python -m pytest -q -m \"$MARKERS\" --junitxml=reports/junit.xml && "
                            "\"$GATEKIT_BIN/flaky-tracker\" --version\n", 1)
    assert broken.count("verified: 'true'") == 1
    path = tmp_path / "flaky-nightly.yml"
    path.write_text(broken)
    assert problems(path) == [
        "daily: holds a token that writes, but its first gatekit step is not setup-gatekit with an id and "
        "verified: 'true'",
        "daily: step 6 runs a tool through $GATEKIT_BIN",
        "stress: step 6 (flaky-tracker) does not take gatekit-bin: ${{ steps.gatekit.outputs.bin }}",
    ]
    # A restore by prefix without the guard: in every run but the default branch's own.
    document = load(SOURCE / "workflows" / "ci-report.yml")
    restore = next(s for s in document["jobs"]["report"]["steps"] if s.get("name") == "Restore the API cache")
    del restore["if"]
    assert restore_problems(document) == [
        "report: step 3: restores the Actions cache by prefix in runs that are not the default branch's own: "
        + ", ".join(OTHER_RUNS)]
    # A guard on the branch's short name lets a tag named main in; one on the ref alone lets
    # pull_request_target and workflow_run in (their ref is the default branch).
    restore["if"] = "github.ref_name == 'main'"
    for github in OTHER_RUNS.values():
        github["ref_name"] = github["ref"].split("/", 2)[2]
    try:
        [problem] = restore_problems(document)
        assert problem.endswith("pull_request_target, workflow_run, issue_comment, push of a tag named main, "
                                "dispatch of a tag named main")
        restore["if"] = "github.ref == format('refs/heads/{0}', github.event.repository.default_branch)"
        [problem] = restore_problems(document)
        assert problem.endswith("pull_request_target, workflow_run, issue_comment")
    finally:
        for github in OTHER_RUNS.values():
            github.pop("ref_name")
