"""The workflow authors' guide stays true to the actions, the linters' config and the other docs.

docs/guides/workflow-authors.md is meant to be enough on its own to adopt gatekit, so what it
states is checked here: its table lists every input and output of every action (from each
action.yml) and links each reference page; its actionlint.yaml snippet makes actionlint
accept the GPU runner label; it names the repository to pin as gatekit/gatekit, as the
README and the admin page do; and the admin page gives the guide's one remedy for fork pull
requests, by a link to a section that exists.
"""
import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from test_linters import actionlint, shellcheck

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
GUIDE = SOURCE / "docs" / "guides" / "workflow-authors.md"
REQUIRED_CHECKS = SOURCE / "docs" / "admin" / "required-checks.md"
ACTIONS = sorted(SOURCE.glob("actions/*/action.yml"))
# path-gate declares a fixed set of per-filter outputs (NAME, NAME_count, NAME_files); the
# guide lists the names once and the suffixes once.
PER_FILTER = re.compile(r"^(?P<name>[a-z]+)(?:_count|_files)?$")


def guide_row(text: str, action: str) -> tuple[str, str]:
    row = re.search(rf"^\| \[{re.escape(action)}\]\(\.\./actions/{re.escape(action)}\.md\) \|(.*)\|(.*)\|$",
                    text, re.MULTILINE)
    assert row, f"the guide's action table has no row for {action} linking ../actions/{action}.md"
    return row.group(1), row.group(2)


def missing_from_row(action_yml: Path, text: str) -> list[str]:
    action = action_yml.parent.name
    declared = yaml.safe_load(action_yml.read_text())
    inputs_cell, outputs_cell = guide_row(text, action)
    named_inputs = set(re.findall(r"`([a-z0-9_-]+)`", inputs_cell))
    named_outputs = set(re.findall(r"`([A-Za-z0-9_-]+)`", outputs_cell))
    missing = [f"input {name}" for name in declared.get("inputs") or {} if name not in named_inputs]
    for name in declared.get("outputs") or {}:
        per_filter = PER_FILTER.match(name)
        listed = name in named_outputs or (
            per_filter and per_filter["name"] in named_outputs and {"NAME_count", "NAME_files"} <= named_outputs)
        if not listed:
            missing.append(f"output {name}")
    return missing


@pytest.mark.parametrize("action_yml", ACTIONS, ids=lambda p: p.parent.name)
def test_the_guide_lists_every_input_and_output(action_yml):
    assert missing_from_row(action_yml, GUIDE.read_text()) == []
    assert (SOURCE / "docs" / "actions" / f"{action_yml.parent.name}.md").is_file()


def test_a_missing_input_is_named(tmp_path):
    action = tmp_path / "smoke-runner" / "action.yml"
    action.parent.mkdir()
    declared = yaml.safe_load((SOURCE / "actions" / "smoke-runner" / "action.yml").read_text())
    declared["inputs"]["new-knob"] = {"description": "x", "required": False, "default": ""}
    declared["outputs"]["new-output"] = {"description": "x", "value": "x"}
    action.write_text(yaml.safe_dump(declared))
    assert missing_from_row(action, GUIDE.read_text()) == ["input new-knob", "output new-output"]


def yaml_block_after(text: str, heading: str) -> str:
    section = text[text.index(heading):]
    return re.search(r"```yaml\n(.*?)```", section, re.DOTALL).group(1)


def test_the_actionlint_snippet_declares_the_gpu_label(tmp_path):
    config = tmp_path / "actionlint.yaml"
    config.write_text(yaml_block_after(GUIDE.read_text(), "## 8. actionlint"))
    workflow = tmp_path / "w.yml"
    workflow.write_text("on: push\npermissions: {}\njobs:\n  a:\n    runs-on: [self-hosted, gpu]\n    steps:\n"
                        "      - run: 'true'\n")
    done = subprocess.run([actionlint(), "-no-color", "-shellcheck", shellcheck(), "-config-file", config, workflow],
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (0, "")
    ours = yaml.safe_load((SOURCE / ".github" / "actionlint.yaml").read_text())["self-hosted-runner"]["labels"]
    assert yaml.safe_load(config.read_text())["self-hosted-runner"]["labels"] == ["gpu"] and "gpu" in ours


def test_one_repository_name_everywhere():
    guide, readme = GUIDE.read_text(), (SOURCE / "README.md").read_text()
    assert "**`gatekit/gatekit`**" in guide and "uses: gatekit/gatekit/actions/setup-gatekit@" in guide
    assert "`gatekit/gatekit`" in readme
    for page in (GUIDE, REQUIRED_CHECKS, SOURCE / "README.md"):
        assert "OWNER/gatekit" not in page.read_text(), page


def anchor(heading: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to dashes."""
    return re.sub(r"[^a-z0-9 -]", "", heading.lower()).replace(" ", "-")


def test_both_pages_give_the_one_fork_remedy():
    guide, admin = GUIDE.read_text(), REQUIRED_CHECKS.read_text()
    anchors = {anchor(h) for h in re.findall(r"^#+ (.+)$", guide, re.MULTILINE)}
    links = re.findall(r"\(\.\./guides/workflow-authors\.md#([a-z0-9-]+)\)", admin)
    assert "13-fork-pull-requests-that-need-gpu-tests" in links and set(links) <= anchors, (links, anchors)
    remedy = "pushes its commits to a branch of this repository and opens a pull request from that branch"
    assert remedy in " ".join(admin.split())
    assert "pushes the reviewed commits to a\nbranch of this repository and opens a pull request from it" in guide
    for page in (guide, admin):  # the other remedy the pages used to give
        assert "by dispatch" not in page and "*Run workflow*" not in page


GATEKIT_USES = re.compile(r"uses:\s*['\"]?(\S*actions/(?:setup-gatekit|path-gate|matrix-aggregator|smoke-runner|"
                          r"suite-report|flaky-tracker|gpu-gate-status)(?:@<[^>]*>|@[^\s'\"]*)?)")
PINNED = re.compile(r"^gatekit/gatekit/actions/[a-z-]+@(?:[0-9a-f]{40}|FULL-40-HEX-COMMIT-SHA|<full commit SHA>|<sha>)$")


def uses_forms(text: str) -> list[str]:
    return [m.group(1) for m in GATEKIT_USES.finditer(text) if not PINNED.match(m.group(1).strip("'\""))]


def test_one_uses_form_throughout_the_docs():
    """Every gatekit action a page shows is used as gatekit/gatekit/actions/NAME@SHA."""
    pages = [SOURCE / "README.md", *sorted(SOURCE.glob("docs/**/*.md"))]
    # gatekit's own contributors' pages describe gatekit's repository, where ./actions/ is right.
    others = {p.relative_to(SOURCE).as_posix(): uses_forms(p.read_text()) for p in pages
              if p.name not in ("contributing.md", "architecture.md")}
    assert {page: forms for page, forms in others.items() if forms} == {}
    assert uses_forms("- uses: ./.gatekit/actions/path-gate\n- uses: ./actions/smoke-runner\n") == [
        "./.gatekit/actions/path-gate", "./actions/smoke-runner"]


def test_section_references_are_links_to_that_section():
    """"section N" is always a link, to the anchor of the heading numbered N (no stale numbers)."""
    text = GUIDE.read_text()
    anchors = {anchor(h) for h in re.findall(r"^#+ (.+)$", text, re.MULTILINE)}
    bare = [m.group(0) for m in re.finditer(r"(?<!\[)sections? \d+(?: to \d+)?", text)]
    assert bare == ["sections 4 to 8"]  # the one range, in section 2
    for number, target in re.findall(r"\[section (\d+)\]\(#([a-z0-9-]+)\)", text):
        assert target.startswith(f"{number}-") and target in anchors, (number, target)


def test_every_command_block_is_run_by_a_test_or_marked_illustrative():
    """A shell block of the guide is either gatekit-init's (run by tests/scaffold/) or says,
    in the paragraph before it, that it is illustrative."""
    text = GUIDE.read_text()
    unmarked = []
    for block in re.finditer(r"^( *)```sh\n(.*?)^\1```", text, re.DOTALL | re.MULTILINE):
        before = text[:block.start()].rstrip().rsplit("\n\n", 1)[-1]
        if block.group(2).lstrip().startswith("python3 scripts/gatekit-init.py"):
            continue
        if "illustrative" not in before:
            unmarked.append(block.group(2).splitlines()[0].strip())
    assert unmarked == []
