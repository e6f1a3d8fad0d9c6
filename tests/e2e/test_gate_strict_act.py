"""workflows/gate.yml's modes (docs/gpu-gate.md, "Trust model"), run by a real local runner
(nektos/act, tests/e2e/act_harness.py) and judged by GitHub's expression engine.

Strict mode, the template's default: a `pull_request` run executes the pull request's own copy
of the workflow, so it computes gate/gpu and posts nothing; the status is posted by the
`workflow_run` run (the default branch's copy) with the GitHub App's token. Here the API test
server accepts only that App token (the stand-in for actions/create-github-app-token hands it
out), so a status posted with the workflow's own token could not land either.

Each act run is one event on a copy of the demo project with the templates as shipped
(`workflows/*.yml`, gatekit's source at the root), a bare remote over file:// that holds the
branches, refs/pull/7/head and a published gate result (git reaches it through an `insteadOf`
in GIT_CONFIG_GLOBAL: the workflow's origin stays https://github.com/tinyml/tinyml), and
only gate.yml run (`-W`). The posting job sets its tools up `verified: true`, so those runs
serve a release archive of the built tools (act_harness, `serve_release`).
"""
from __future__ import annotations

import datetime
import stat
import sys
from pathlib import Path

import yaml

import act_harness as h

sys.path.insert(0, str(h.SOURCE / "tests" / "support"))
from job_if import job_if_runs  # noqa: E402

WORKFLOW = "GPU gate"
APP_TOKEN, APP = h.APP_TOKEN, h.APP
TEMPLATE = h.SOURCE / "workflows" / "gate.yml"


def scenario(tmp_path: Path) -> tuple[h.Scenario, Path]:
    """A pull request #7 changing code, gated (a pass for its head's tree), on the shipped
    templates; the remote holds main, the branch, refs/pull/7/head and the result."""
    pr = h.Scenario(tmp_path, shipped_templates=True)
    pr.append("src/tinyml/kernels/attention.py", "\n# a kernel change\n")
    pr.commit("kernel change")
    return pr, h.gate_remote(pr)


def env(tmp_path: Path) -> dict:
    return h.gate_env(tmp_path)


def status_posts(o: h.Outcome) -> list:
    return o.status_posts()


workflow_run_payload = h.workflow_run_payload


def test_strict_a_pull_request_run_posts_nothing(tmp_path):
    pr, _ = scenario(tmp_path)
    o = pr.run(workflow="gate.yml", env=env(tmp_path), server_token=APP_TOKEN, **APP)
    assert o.verdict(WORKFLOW, "gate/gpu preview") == "succeeded", o.tail()
    assert o.output(WORKFLOW, "gate/gpu preview", "state") == "success"
    assert o.output(WORKFLOW, "gate/gpu preview", "description") == "passed in 4m"
    assert o.output(WORKFLOW, "gate/gpu preview", "posted") == "false"
    assert o.verdict(WORKFLOW, "gate/gpu status") is None  # the posting job: not on pull_request
    assert o.verdict(WORKFLOW, "gate/gpu status (pull-request mode)") is None
    assert status_posts(o) == []


def test_strict_the_workflow_run_posts_with_the_app_token(tmp_path):
    pr, _ = scenario(tmp_path)
    h.git(pr.repo, "checkout", "-q", "main")  # workflow_run runs the default branch's copy
    payload = workflow_run_payload("pull_request", pr.head, "feature",
                                   [{"number": h.PR_NUMBER, "base": {"ref": "main"}, "head": {"sha": pr.head}}])
    o = pr.run(workflow="gate.yml", env=env(tmp_path), server_token=APP_TOKEN, event_name="workflow_run",
               payload=payload, serve_release=True, **APP)
    assert o.verdict(WORKFLOW, "gate/gpu status") == "succeeded", o.tail()
    assert o.verdict(WORKFLOW, "gate/gpu preview") is None
    assert status_posts(o) == [(f"/repos/{h.REPO}/statuses/{pr.head}", "success", "passed in 4m")]
    assert "create-github-app-token stand-in: client-id=Iv1.gatekit-gate statuses=write contents=read" in o.log


def test_strict_a_merge_group_gets_the_head_s_result_from_the_workflow_run(tmp_path):
    pr, remote = scenario(tmp_path)
    # main moves on with documentation only; the queue merges the pull request onto it.
    h.git(pr.repo, "checkout", "-q", "main")
    pr.write("docs/queue.md", "# The queue\n")
    h.git(pr.repo, "add", "-A")
    h.git(pr.repo, "commit", "-q", "-m", "docs on main")
    main_tip = h.git(pr.repo, "rev-parse", "HEAD")
    h.git(pr.repo, "checkout", "-q", "--detach")
    h.git(pr.repo, "merge", "-q", "--no-ff", "--no-edit", "feature")
    group = h.git(pr.repo, "rev-parse", "HEAD")
    queue = f"gh-readonly-queue/main/pr-{h.PR_NUMBER}-{main_tip}"
    h.git(pr.repo, "push", "-q", str(remote), "main", f"HEAD:refs/heads/{queue}")
    h.git(pr.repo, "checkout", "-q", "main")
    o = pr.run(workflow="gate.yml", env=env(tmp_path), server_token=APP_TOKEN, event_name="workflow_run",
               payload=workflow_run_payload("merge_group", group, queue, []), serve_release=True, **APP)
    assert o.verdict(WORKFLOW, "gate/gpu status") == "succeeded", o.tail()
    assert status_posts(o) == [(f"/repos/{h.REPO}/statuses/{group}", "success",
                                f"inherited from {pr.head[:12]} (pull request head), the queue adds docs only")]


# ---- the posting job runs only tools it checked (docs/actions/setup-gatekit.md, "Verified tools") ----

def look_alikes(folder: Path, marker: Path) -> None:
    """Every gatekit tool as a script that answers --version as this version's does, leaves
    `marker` whenever it runs, and otherwise succeeds without doing anything."""
    folder.mkdir(parents=True, exist_ok=True)
    for tool in h.tool_names():
        script = folder / tool
        script.write_text(f'#!/bin/sh\necho "$0 $*" >> "{marker}"\necho "{tool} (gatekit) {h.VERSION}"\n')
        script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def workflow_run_on_main(tmp_path: Path) -> tuple[h.Scenario, dict]:
    pr, _ = scenario(tmp_path)
    h.git(pr.repo, "checkout", "-q", "main")
    return pr, workflow_run_payload("pull_request", pr.head, "feature",
                                    [{"number": h.PR_NUMBER, "base": {"ref": "main"}, "head": {"sha": pr.head}}])


def test_strict_the_posting_job_never_runs_a_look_alike_on_path(tmp_path):
    """A self-hosted runner whose PATH has, before anything else, tools of this version that are
    not gatekit's (left by an earlier job): the job holding the App's token downloads the
    release archive, checks it against checksums.txt, and runs gpu-gate from that folder."""
    pr, payload = workflow_run_on_main(tmp_path)
    marker = tmp_path / "look-alike-ran"
    look_alikes(tmp_path / "earlier-on-path", marker)
    o = pr.run(workflow="gate.yml", env=env(tmp_path), server_token=APP_TOKEN, event_name="workflow_run",
               payload=payload, serve_release=True, path_first=[tmp_path / "earlier-on-path"], **APP)
    assert o.verdict(WORKFLOW, "gate/gpu status") == "succeeded", o.tail()
    assert not marker.exists(), marker.read_text()
    assert status_posts(o) == [(f"/repos/{h.REPO}/statuses/{pr.head}", "success", "passed in 4m")]
    assert "verified: true: not using tools on PATH (only tools checked here run)" in o.log
    assert len(pr.release_server.requests) == 1


def test_strict_a_cache_entry_another_job_saved_is_never_run(tmp_path):
    """The Actions cache restores, under the key the posting job asks for, an entry a job of the
    same scope saved first (a test job that ran a pull request's code): tools and an archive of
    them that are not gatekit's. Nothing of it runs: the archive is checked, refused, and the
    release downloaded. No tools on PATH, so nothing but the cache and the release can serve."""
    pr, payload = workflow_run_on_main(tmp_path)
    marker = tmp_path / "cached-entry-ran"
    entry = tmp_path / "cache-entry"
    look_alikes(entry, marker)
    poisoned = h.archive(h.VERSION, {t: (entry / t).read_bytes() for t in h.tool_names()})
    (entry / h.archive_name(h.VERSION)).write_bytes(poisoned)
    o = pr.run(workflow="gate.yml", env={**env(tmp_path), "E2E_CACHE_SEED": str(entry)}, server_token=APP_TOKEN,
               event_name="workflow_run", payload=payload, serve_release=True, tools_on_path=False, **APP)
    assert o.verdict(WORKFLOW, "gate/gpu status") == "succeeded", o.tail()
    assert not marker.exists(), marker.read_text()
    assert status_posts(o) == [(f"/repos/{h.REPO}/statuses/{pr.head}", "success", "passed in 4m")]
    assert "cache stand-in: restored the seeded entry for key gatekit-archive-linux-" in o.log
    assert f"the {h.archive_name(h.VERSION)} restored from the Actions cache has SHA-256 " in o.log
    assert len(pr.release_server.requests) == 1


def test_strict_the_posting_job_trusts_the_default_branch_whatever_base_the_event_names(tmp_path):
    """Anyone with push access can push a branch and open a second pull request from the same
    head into it; the workflow_run then names that branch as the pull request's base. Here the
    branch sits at new kernel code and the head adds docs on top: against that branch the head
    would be "no code change". The status is posted on the head, which is the real pull
    request's head too, so the default branch's files must decide: pending."""
    pr, remote = scenario(tmp_path)
    pr.append("src/tinyml/kernels/attention.py", "\n# new code, never gated\n")
    pr.commit("more kernel code")
    code = pr.head
    pr.write("docs/notes.md", "# Notes\n")
    pr.commit("docs on top")
    h.git(pr.repo, "push", "-q", "-f", str(remote), "feature", f"{pr.head}:refs/pull/{h.PR_NUMBER}/head",
          f"{code}:refs/heads/stepping-stone")
    h.git(pr.repo, "checkout", "-q", "main")
    payload = workflow_run_payload("pull_request", pr.head, "feature",
                                   [{"number": h.PR_NUMBER, "base": {"ref": "stepping-stone"}, "head": {"sha": pr.head}}])
    o = pr.run(workflow="gate.yml", env=env(tmp_path), server_token=APP_TOKEN, event_name="workflow_run",
               payload=payload, **APP)
    assert o.verdict(WORKFLOW, "gate/gpu status") == "succeeded", o.tail()
    assert status_posts(o) == [(f"/repos/{h.REPO}/statuses/{pr.head}", "pending", "no gate result for this tree")]


def test_strict_a_failure_posted_by_another_workflow_is_not_remembered(tmp_path):
    """Any workflow with `statuses: write` posts as github-actions[bot]; a `gate/gpu` failure in
    gatekit's own words posted that way is not the App's, so `post` does not keep it."""
    pr, _ = scenario(tmp_path)
    h.git(pr.repo, "checkout", "-q", "main")
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    forged = {"state": "failure", "context": "gate/gpu", "description": f"failed (result of {now})",
              "creator": "github-actions[bot]"}
    payload = workflow_run_payload("pull_request", pr.head, "feature",
                                   [{"number": h.PR_NUMBER, "base": {"ref": "main"}, "head": {"sha": pr.head}}])
    o = pr.run(workflow="gate.yml", env=env(tmp_path), server_token=APP_TOKEN, event_name="workflow_run",
               payload=payload, server_state={"login": f"{h.APP_SLUG}[bot]",
                                              "repos": {h.REPO: {"statuses": {pr.head: [forged]}}}}, **APP)
    assert o.verdict(WORKFLOW, "gate/gpu status") == "succeeded", o.tail()
    assert status_posts(o) == [(f"/repos/{h.REPO}/statuses/{pr.head}", "success", "passed in 4m")]


def jobs_that_run(github: dict, variables: dict) -> list[str]:
    doc = yaml.safe_load(TEMPLATE.read_text())
    names = list(doc["jobs"])
    answers = job_if_runs([doc["jobs"][j]["if"] for j in names], [{"github": github, "vars": variables}])
    return [j for j, runs in zip(names, answers) if runs[0]]


def github(event_name: str, ref: str = "refs/pull/7/merge", **event) -> dict:
    return {"event_name": event_name, "ref": ref, "repository": h.REPO,
            "event": {"repository": {"full_name": h.REPO, "default_branch": "main"}, **event}}


SAME_REPO = {"pull_request": {"number": 7, "head": {"repo": {"full_name": h.REPO}}}}
FORK = {"pull_request": {"number": 7, "head": {"repo": {"full_name": "contributor/tinyml"}}}}


def test_which_jobs_run_with_github_expressions():
    """GitHub's expression engine (tests/support/job-if.mjs) on the jobs' `if:` for the
    contexts GitHub builds. Strict mode (no GATEKIT_GATE_MODE): nothing that runs on a pull
    request's or a queue's own run can post; `post` runs only for workflow_run and
    workflow_dispatch of the default branch."""
    strict, weak = {}, {"GATEKIT_GATE_MODE": "pull-request"}
    main = "refs/heads/main"
    cases = [
        (github("pull_request", **SAME_REPO), strict, ["preview"]),
        (github("pull_request", **FORK), strict, ["preview"]),
        (github("merge_group", ref="refs/heads/gh-readonly-queue/main/pr-7-" + "b" * 40), strict, ["preview"]),
        (github("workflow_run", ref=main, workflow_run={"event": "pull_request"}), strict, ["post"]),
        (github("workflow_run", ref=main, workflow_run={"event": "merge_group"}), strict, ["post"]),
        (github("workflow_run", ref=main, workflow_run={"event": "push"}), strict, []),
        (github("workflow_dispatch", ref=main), strict, ["post"]),
        # a dispatch of another branch runs that branch's copy: refused (and the environment
        # would not hand it the key)
        (github("workflow_dispatch", ref="refs/heads/feature"), strict, []),
        (github("pull_request", **SAME_REPO), weak, ["gate"]),
        (github("pull_request", **FORK), weak, []),
        (github("merge_group", ref="refs/heads/gh-readonly-queue/main/pr-7-" + "b" * 40), weak, ["gate"]),
        (github("workflow_run", ref=main, workflow_run={"event": "pull_request"}), weak, ["gate"]),
        (github("workflow_dispatch", ref=main), weak, ["gate"]),
    ]
    got = [jobs_that_run(g, v) for g, v, _ in cases]
    assert got == [want for *_, want in cases]


def test_only_the_app_token_job_can_post_in_strict_mode():
    """What the jobs that run on a pull request's own run hold: no statuses: write, post: false.
    `post` posts with the App's token from the environment limited to the default branch."""
    jobs = yaml.safe_load(TEMPLATE.read_text())["jobs"]
    assert jobs["preview"]["permissions"] == {"contents": "read"}
    status_step = next(s for s in jobs["preview"]["steps"] if s.get("uses") == "./actions/gpu-gate-status")
    assert (status_step["with"]["post"], status_step["with"]["mode"]) == ("false", "strict")
    assert jobs["post"]["permissions"] == {"contents": "read"}
    assert jobs["post"]["environment"] == "gatekit-gate"
    post_step = next(s for s in jobs["post"]["steps"] if s.get("uses") == "./actions/gpu-gate-status")
    assert post_step["with"]["token"] == "${{ steps.app.outputs.token }}"
    assert post_step["with"]["mode"] == "strict"
    # The jobs that post run the tools setup-gatekit checked, from the folder it names.
    for job in ("post", "gate"):
        setup = next(s for s in jobs[job]["steps"] if s.get("uses") == "./actions/setup-gatekit")
        assert (setup["id"], setup["with"]) == ("gatekit", {"verified": "true"})
        status = next(s for s in jobs[job]["steps"] if s.get("uses") == "./actions/gpu-gate-status")
        assert status["with"]["gatekit-bin"] == "${{ steps.gatekit.outputs.bin }}"
    app = next(s for s in jobs["post"]["steps"] if s.get("id") == "app")
    assert app["uses"].startswith("actions/create-github-app-token@")
    assert app["with"]["permission-statuses"] == "write"
    assert jobs["gate"]["permissions"] == {"contents": "read", "statuses": "write"}
    # The App's bot is the poster whose failures are remembered; no job names a base: the tool
    # trusts the default branch, whichever pull request (and base) the event names.
    assert post_step["with"]["poster"] == "${{ steps.app.outputs.app-slug }}[bot]"
    status_steps = [s for job in jobs.values() for s in job["steps"] if s.get("uses") == "./actions/gpu-gate-status"]
    assert len(status_steps) == 3 and not any("base" in s["with"] for s in status_steps)
    assert "base.ref" not in TEMPLATE.read_text()
