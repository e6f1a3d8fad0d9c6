""".github/workflows/release.yml: who can publish a release (docs/releasing.md, "Who can publish").

GitHub runs, for an event, the copy of a workflow that the event's commit holds: on a tag push
the tagged commit's copy. So a `push: tags` trigger lets anyone who can push a tag, on any
branch, run a copy of release.yml they edited, with the `contents: write` it asks for. The
release workflow therefore runs only when dispatched, and its jobs only for the default
branch's copy (GitHub's expression engine judges the `if:`s, tests/support/job_if.py); one
job writes, in the environment `release`, after checking the tag again, and it publishes
exactly what this run built, with the checksums of those files, never over an existing release
or asset. scripts/release-tag.sh and scripts/release-assets.sh have their own tests
(tests/release/); GitHub's parser, actionlint and zizmor read this file in test_linters.py and
test_check_workflows.py.
"""
import os
import re
import sys
from pathlib import Path

import yaml

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
RELEASE = SOURCE / ".github" / "workflows" / "release.yml"
sys.path.insert(0, str(SOURCE / "tests" / "support"))
from job_if import job_if_runs  # noqa: E402

BUILD_JOBS = ["archive", "archive-macos", "wheel"]


def workflow() -> dict:
    doc = yaml.safe_load(RELEASE.read_text())
    doc["on"] = doc.pop(True, doc.get("on"))  # YAML 1.1 reads `on:` as True
    return doc


def test_nothing_runs_on_a_tag_push_only_a_dispatch_naming_the_tag():
    on = workflow()["on"]
    assert list(on) == ["workflow_dispatch"]
    assert on["workflow_dispatch"]["inputs"]["tag"]["required"] is True


def github(ref: str, default_branch: str = "main") -> dict:
    return {"event_name": "workflow_dispatch", "ref": ref, "repository": "gatekit/gatekit",
            "event": {"repository": {"full_name": "gatekit/gatekit", "default_branch": default_branch},
                      "inputs": {"tag": "v1.2.3"}}}


def test_only_the_default_branch_s_copy_checks_and_publishes():
    """The dispatch form lets one pick the branch or tag whose copy runs: only the default
    branch's may. Every other job needs `check`, so it is skipped with it."""
    jobs = workflow()["jobs"]
    cases = [(github("refs/heads/main"), True), (github("refs/heads/side"), False),
             (github("refs/tags/v1.2.3"), False), (github("refs/heads/main", "trunk"), False),
             (github("refs/heads/trunk", "trunk"), True)]
    answers = job_if_runs([jobs["check"]["if"], jobs["publish"]["if"]], [{"github": g} for g, _ in cases])
    want = [w for _, w in cases]
    assert answers == [want, want]
    for name, job in jobs.items():
        if name != "check":
            assert "check" in ([job["needs"]] if isinstance(job["needs"], str) else job["needs"]), name


def test_one_job_writes_in_the_release_environment_after_every_build():
    jobs = workflow()["jobs"]
    writers = [name for name, job in jobs.items() if "write" in (job.get("permissions") or {}).values()]
    assert writers == ["publish"]
    assert workflow().get("permissions") == {}
    publish = jobs["publish"]
    assert publish["permissions"] == {"contents": "write"}
    assert publish["environment"] == "release"
    assert set(publish["needs"]) == {"check", *BUILD_JOBS}
    for name in ["check", *BUILD_JOBS]:
        assert jobs[name]["permissions"] == {"contents": "read"}, name


def test_the_builds_take_the_checked_commit_never_the_tag_name():
    jobs = workflow()["jobs"]
    assert "github.ref_name" not in RELEASE.read_text()
    for name in BUILD_JOBS:
        [checkout] = [s for s in jobs[name]["steps"] if s.get("uses", "").startswith("actions/checkout@")]
        assert checkout["with"]["ref"] == "${{ needs.check.outputs.sha }}", name


def test_publishing_replaces_nothing_and_uploads_what_it_checksummed():
    every_run = "\n".join(s.get("run", "") for job in workflow()["jobs"].values() for s in job["steps"])
    assert "--clobber" not in every_run
    assert "gh release upload" not in every_run  # every asset goes into the new release at once
    steps = workflow()["jobs"]["publish"]["steps"]
    runs = [s.get("run", "") for s in steps]
    order = {
        "recheck": next(i for i, r in enumerate(runs) if "scripts/release-tag.sh" in r and '--expect "$SHA"' in r),
        "download": min(i for i, s in enumerate(steps) if s.get("uses", "").startswith("actions/download-artifact@")),
        "sums": next(i for i, s in enumerate(steps) if s.get("name") == "SHA256SUMS and the checksums.txt lines"),
        "publish": next(i for i, r in enumerate(runs) if "gh release create" in r),
    }
    assert order["recheck"] < order["download"] < order["sums"] < order["publish"]
    assert "release-assets.sh" in runs[order["sums"]]
    publish = runs[order["publish"]]
    assert re.search(r'if gh release view "\$TAG" .*\n.*::error.*\n\s*exit 1', publish)  # an existing release stops it
    assert re.search(r'gh release create "\$TAG" --verify-tag --draft .*\n.*\n\s*gatekit-\* SHA256SUMS\n', publish)
    assert steps[order["sums"]]["working-directory"] == steps[order["publish"]]["working-directory"] == "dist"
    # Only the publish job talks to releases.
    for name, job in workflow()["jobs"].items():
        if name != "publish":
            assert all("gh release" not in s.get("run", "") for s in job["steps"]), name


def test_the_assets_script_expects_the_platforms_the_build_matrices_make():
    jobs = workflow()["jobs"]
    script = (SOURCE / "scripts" / "release-assets.sh").read_text()
    archives = re.search(r"^ARCHIVES=\((.*)\)$", script, re.M).group(1).split()
    wheels = re.findall(r"'([^']+)'", re.search(r"^WHEELS=\((.*)\)$", script, re.M).group(1))
    built = [f"linux-{leg['arch']}" for leg in jobs["archive"]["strategy"]["matrix"]["include"]]
    built += [f"darwin-{leg['arch']}" for leg in jobs["archive-macos"]["strategy"]["matrix"]["include"]]
    assert sorted(archives) == sorted(built)
    legs = [leg["name"] for leg in jobs["wheel"]["strategy"]["matrix"]["include"]]
    as_tags = {"manylinux-x86_64": "manylinux_2_34_x86_64", "manylinux-aarch64": "manylinux_2_34_aarch64",
               "macos-arm64": "macosx_*_arm64"}
    assert sorted(wheels) == sorted(as_tags[leg] for leg in legs)
