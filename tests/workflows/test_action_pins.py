"""Every third-party action that gatekit's YAML uses is pinned to a recorded Node 24 release.

GitHub's runners run JavaScript actions on Node 24 and drop Node 20 (GitHub changelog,
2025-09-19, "Deprecation of Node 20 on GitHub Actions runners"), so an action pinned to a
Node 20 release stops working with no change on our side. The table below is the record: each
allowed commit SHA with the action and the release tag it is, checked when it was added (the
tag's `action.yml` says `using: node24`). A `uses:` line passes only when its SHA is in the
table for that action and its comment names the same release (`@<sha> # vX.Y.Z`), so the
comment a reviewer reads cannot drift from the code that runs.

Scanned: every YAML file of the repository (workflow templates, the demo's workflows,
gatekit's own workflows, the actions), except the workflow checker's deliberately bad and
old fixtures. Local actions (`./...`) and `docker://` images are not third-party actions.
To move a pin: check the new release's `action.yml` for `using: node24`, add its SHA here,
and change every `uses:` line in one pull request.
"""
import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))

# action -> {commit SHA: release tag}; every entry is a Node 24 (`using: node24`) release.
NODE24_RELEASES = {
    "actions/checkout": {"3d3c42e5aac5ba805825da76410c181273ba90b1": "v7.0.1"},
    "actions/setup-python": {"5fda3b95a4ea91299a34e894583c3862153e4b97": "v7.0.0"},
    "actions/upload-artifact": {"bbbca2ddaa5d8feaa63e36b76fdaad77386f024f": "v7.0.0"},
    "actions/download-artifact": {"3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c": "v8.0.1"},
    "actions/cache": {"27d5ce7f107fe9357f9df03efb73ab90386fccae": "v5.0.5"},
    "actions/create-github-app-token": {"1b10c78c7865c340bc4f6099eb2f838309f1e8c3": "v3.1.1"},
}
EXCLUDED = ("tests/workflows/fixtures/",  # the checker's own bad/old examples
            "tests/fleet/data/")  # a Helm chart (Go templates, not YAML until rendered)
USES_LINE = re.compile(r"^\s*(?:-\s+)?uses:\s*(?P<ref>[^\s#]+)(?:\s+#\s*(?P<comment>.*?))?\s*$")


def yaml_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.yml", "*.yaml"],
                            cwd=SOURCE, capture_output=True, text=True, check=True).stdout.splitlines()
    return sorted(SOURCE / name for name in listed
                  if not name.startswith(EXCLUDED) and (SOURCE / name).is_file())


def parsed_uses(document) -> list[str]:
    """Every `uses:` value of a workflow or action, found structurally (steps and reusable jobs)."""
    if not isinstance(document, dict):
        return []
    found = []
    jobs = document.get("jobs") if isinstance(document.get("jobs"), dict) else {}
    for job in jobs.values():
        if isinstance(job, dict):
            if isinstance(job.get("uses"), str):
                found.append(job["uses"])
            found += [s["uses"] for s in job.get("steps") or [] if isinstance(s, dict) and "uses" in s]
    runs = document.get("runs") if isinstance(document.get("runs"), dict) else {}
    found += [s["uses"] for s in runs.get("steps") or [] if isinstance(s, dict) and "uses" in s]
    return found


def pin_problems(path: Path, releases=NODE24_RELEASES) -> list[str]:
    """One message per third-party `uses:` of `path` that is not a recorded Node 24 release."""
    name = path.relative_to(SOURCE) if path.is_relative_to(SOURCE) else path
    text = path.read_text()
    lines = [(n, m) for n, line in enumerate(text.splitlines(), 1) if (m := USES_LINE.match(line))]
    problems = []
    expected = parsed_uses(yaml.safe_load(text))
    if sorted(m["ref"].strip("'\"") for _, m in lines) != sorted(expected):
        problems.append(f"{name}: a `uses:` is not on a line of its own (`uses: owner/repo@<sha> # vX.Y.Z`)")
    for number, match in lines:
        ref = match["ref"].strip("'\"")
        if ref.startswith("./") or ref.startswith("docker://"):
            continue
        where = f"{name}:{number}: {ref}"
        action, _, sha = ref.partition("@")
        action = "/".join(action.split("/")[:2])  # owner/repo of owner/repo/path@sha
        known = releases.get(action)
        if known is None:
            problems.append(f"{where}: {action} has no recorded Node 24 release (add one to NODE24_RELEASES)")
        elif sha not in known:
            allowed = ", ".join(f"{s} ({v})" for s, v in known.items())
            problems.append(f"{where}: not a recorded Node 24 release of {action} (allowed: {allowed})")
        elif match["comment"] != known[sha]:
            problems.append(f"{where}: the comment must be `# {known[sha]}`, found "
                            f"{'`# ' + match['comment'] + '`' if match['comment'] else 'none'}")
    return problems


def test_the_scan_covers_every_kind_of_yaml_file():
    names = {str(p.relative_to(SOURCE)) for p in yaml_files()}
    assert {"workflows/cpu-tests.yml", "workflows/gpu-tests.yml", ".github/workflows/ci.yml",
            "actions/setup-gatekit/action.yml", "examples/demo-project/.github/workflows/gpu-tests.yml"} <= names
    assert not [n for n in names if n.startswith("tests/workflows/fixtures/")]


@pytest.mark.parametrize("path", yaml_files(), ids=lambda p: str(p.relative_to(SOURCE)))
def test_every_third_party_action_is_a_recorded_node24_release(path):
    assert pin_problems(path) == []


def test_the_templates_use_the_pins_at_all():
    # The scan must see real pins: a template that lost its uses: lines would pass vacuously.
    text = (SOURCE / "workflows" / "gpu-tests.yml").read_text()
    for action in ("actions/checkout", "actions/setup-python", "actions/upload-artifact"):
        (sha, version), = NODE24_RELEASES[action].items()
        assert f"uses: {action}@{sha} # {version}" in text


def test_each_kind_of_bad_pin_is_reported(tmp_path):
    workflow = tmp_path / "w.yml"
    workflow.write_text(
        "on: push\npermissions: {}\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    steps:\n"
        "      - uses: actions/checkout@v7\n"
        "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n"
        "      - uses: actions/setup-python@5fda3b95a4ea91299a34e894583c3862153e4b97 # v6.0.0\n"
        "      - uses: actions/cache@27d5ce7f107fe9357f9df03efb73ab90386fccae\n"
        "      - uses: octo/tool/sub@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1\n"
        "      - uses: ./actions/path-gate\n"
        "      - uses: docker://alpine:3.20\n"
        "      - uses: actions/upload-artifact@bbbca2ddaa5d8feaa63e36b76fdaad77386f024f # v7.0.0\n")
    w = str(workflow)
    checkout = "3d3c42e5aac5ba805825da76410c181273ba90b1 (v7.0.1)"
    assert pin_problems(workflow) == [
        f"{w}:7: actions/checkout@v7: not a recorded Node 24 release of actions/checkout (allowed: {checkout})",
        f"{w}:8: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683: not a recorded Node 24 release of "
        f"actions/checkout (allowed: {checkout})",
        f"{w}:9: actions/setup-python@5fda3b95a4ea91299a34e894583c3862153e4b97: the comment must be `# v7.0.0`, "
        "found `# v6.0.0`",
        f"{w}:10: actions/cache@27d5ce7f107fe9357f9df03efb73ab90386fccae: the comment must be `# v5.0.5`, found none",
        f"{w}:11: octo/tool/sub@3d3c42e5aac5ba805825da76410c181273ba90b1: octo/tool has no recorded Node 24 "
        "release (add one to NODE24_RELEASES)",
    ]


def test_a_uses_the_line_scan_cannot_see_is_reported(tmp_path):
    action = tmp_path / "action.yml"
    action.write_text("name: a\ndescription: a\nruns:\n  using: composite\n  steps:\n"
                      "    - {uses: actions/checkout@v4}\n")
    assert pin_problems(action) == [
        f"{action}: a `uses:` is not on a line of its own (`uses: owner/repo@<sha> # vX.Y.Z`)"]
