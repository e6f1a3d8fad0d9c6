"""The documentation check: every relative link and every #anchor in docs/ and README.md resolves.

A link is `[text](target)` outside code (fenced blocks and inline code spans). Web links
(`https:`, `http:`, `mailto:`) are not fetched. A relative target must name a file or folder
of the repository; a `#anchor` on a Markdown page (or alone, on the page itself) must be one
of that page's heading anchors, made by GitHub's rules (`slug`).
"""
import os
import re
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
PAGES = sorted([SOURCE / "README.md", *SOURCE.glob("docs/**/*.md")])

FENCE = re.compile(r"^ {0,3}(```|~~~)")
INLINE_CODE = re.compile(r"(`+)(.+?)\1")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")


def slug_text(heading: str) -> str:
    """GitHub's anchor for one heading's text (before duplicates are numbered).

    The rendered text is used: inline code loses its backticks, a link keeps its text, emphasis
    marks go. Then: lower case; every character that is not a letter, a digit, a space, '-' or
    '_' is dropped; every space becomes '-' (runs of spaces are not merged).
    """
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = INLINE_CODE.sub(lambda m: m.group(2).strip(), text)
    text = re.sub(r"<[^>]+>", "", text)
    text = text.lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def slugs(headings: list[str]) -> list[str]:
    """The anchors of a page's headings, in order: a repeated anchor gets -1, -2, ..."""
    seen: dict[str, int] = {}
    taken: set[str] = set()
    out = []
    for heading in headings:
        base = slug_text(heading)
        anchor = base
        count = seen.get(base, 0)
        while anchor in taken:
            count += 1
            anchor = f"{base}-{count}"
        seen[base] = count
        taken.add(anchor)
        out.append(anchor)
    return out


def prose_lines(text: str):
    """(line number, line) of every line outside fenced code blocks, inline code removed."""
    fence = None
    for number, line in enumerate(text.splitlines(), 1):
        opener = FENCE.match(line)
        if fence:
            if opener and opener.group(1) == fence:
                fence = None
            continue
        if opener:
            fence = opener.group(1)
            continue
        yield number, INLINE_CODE.sub("", line)


def headings(text: str) -> list[str]:
    found = []
    fence = None
    for line in text.splitlines():
        opener = FENCE.match(line)
        if fence:
            if opener and opener.group(1) == fence:
                fence = None
            continue
        if opener:
            fence = opener.group(1)
            continue
        heading = HEADING.match(line)
        if heading:
            found.append(heading.group(2))
    return found


def anchors_of(page: Path) -> set[str]:
    return set(slugs(headings(page.read_text(encoding="utf-8"))))


def broken_links(page: Path, root: Path = SOURCE) -> list[str]:
    """Every link of `page` that does not resolve, as 'file:line: target: why'."""
    problems = []
    for number, line in prose_lines(page.read_text(encoding="utf-8")):
        for match in LINK.finditer(line):
            target = match.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
                continue  # https:, mailto: ...
            path_part, _, fragment = target.partition("#")
            where = f"{page.relative_to(root)}:{number}: {target}"
            resolved = (page.parent / path_part).resolve() if path_part else page
            if path_part:
                try:
                    resolved.relative_to(root.resolve())
                except ValueError:
                    problems.append(f"{where}: points outside the repository")
                    continue
                if not resolved.exists():
                    problems.append(f"{where}: no such file")
                    continue
            if fragment and resolved.suffix == ".md" and resolved.is_file():
                if fragment not in anchors_of(resolved):
                    problems.append(f"{where}: no heading with anchor #{fragment}")
    return problems


# GitHub's anchors for headings of these kinds, as github.com renders them.
SLUG_CASES = [
    ("9. setup-gatekit and the runners", "9-setup-gatekit-and-the-runners"),
    ("Checksums: pinning the action pins the binaries", "checksums-pinning-the-action-pins-the-binaries"),
    ("path-gate — which suites a change needs, decided right and explained",
     "path-gate--which-suites-a-change-needs-decided-right-and-explained"),
    ("The `unmarked` command", "the-unmarked-command"),
    ("Migrating from re-actors/alls-green", "migrating-from-re-actorsalls-green"),
    ("snake_case stays", "snake_case-stays"),
    ("[A link](x.md) in a heading", "a-link-in-a-heading"),
    ("Two  spaces", "two--spaces"),
    ("Café *ünïcode*", "café-ünïcode"),
    ("What's new? (2.0)", "whats-new-20"),
]


@pytest.mark.parametrize("heading,anchor", SLUG_CASES)
def test_slug_follows_github(heading, anchor):
    assert slugs([heading]) == [anchor]


def test_repeated_headings_are_numbered():
    assert slugs(["Usage", "Inputs", "Usage", "Usage", "Usage-1"]) == [
        "usage", "inputs", "usage-1", "usage-2", "usage-1-1"]


def test_headings_in_code_blocks_do_not_count():
    text = "# Real\n```sh\n# not a heading\n```\n~~~\n## nor this\n~~~\n## Also real\n"
    assert headings(text) == ["Real", "Also real"]


def test_a_broken_link_and_anchor_are_named(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "other.md").write_text("# Other page\n## The part\n")
    page = tmp_path / "docs" / "page.md"
    page.write_text("# Page\n\nSee [ok](other.md#the-part), [self](#page), [web](https://x.invalid/#y).\n"
                    "`[code](missing.md)` and\n```\n[fenced](missing.md)\n```\n"
                    "[gone](missing.md) [bad](other.md#the-parts) [here](#nowhere) [up](../../x.md)\n")
    assert broken_links(page, tmp_path) == [
        "docs/page.md:8: missing.md: no such file",
        "docs/page.md:8: other.md#the-parts: no heading with anchor #the-parts",
        "docs/page.md:8: #nowhere: no heading with anchor #nowhere",
        "docs/page.md:8: ../../x.md: points outside the repository",
    ]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(SOURCE)))
def test_every_link_resolves(page):
    assert broken_links(page) == []


# ---- the actions' inputs and outputs, as the reference pages and the examples name them ----

ACTION_YMLS = sorted(SOURCE.glob("actions/*/action.yml"))
PER_FILTER_PLACEHOLDER = {"NAME", "NAME_count", "NAME_files"}


def table_names(text: str, kind: str) -> set[str]:
    """The names in the first column of the page's `| input |` (or `| output |`) table."""
    names: set[str] = set()
    in_table = False
    for line in text.splitlines():
        if re.match(rf"^\|\s*{kind}\s*\|", line):
            in_table = True
            continue
        if in_table:
            if not line.startswith("|"):
                in_table = False
                continue
            first = line.split("|")[1]
            names.update(re.findall(r"`([A-Za-z0-9_-]+)`", first))
    return names


def declared(action_yml: Path, kind: str) -> set[str]:
    import yaml
    return set((yaml.safe_load(action_yml.read_text()) or {}).get(kind) or {})


def table_mismatch(action_yml: Path, page_text: str) -> list[str]:
    problems = []
    for kind, header in (("inputs", "input"), ("outputs", "output")):
        in_yml, in_page = declared(action_yml, kind), table_names(page_text, header)
        if PER_FILTER_PLACEHOLDER <= in_page:  # path-gate: one row for its per-filter outputs
            in_page = (in_page - PER_FILTER_PLACEHOLDER) | {
                n for n in in_yml if re.fullmatch(r"[a-z]+(_count|_files)?", n)}
        problems += [f"{header} {n}: in action.yml, not in the page's table" for n in sorted(in_yml - in_page)]
        problems += [f"{header} {n}: in the page's table, not in action.yml" for n in sorted(in_page - in_yml)]
    return problems


@pytest.mark.parametrize("action_yml", ACTION_YMLS, ids=lambda p: p.parent.name)
def test_the_reference_page_lists_exactly_the_declared_inputs(action_yml):
    page = SOURCE / "docs" / "actions" / f"{action_yml.parent.name}.md"
    assert table_mismatch(action_yml, page.read_text(encoding="utf-8")) == []


def test_an_input_missing_from_either_side_is_named():
    action_yml = SOURCE / "actions" / "smoke-runner" / "action.yml"
    page = (SOURCE / "docs" / "actions" / "smoke-runner.md").read_text(encoding="utf-8")
    page = page.replace("| `serial` |", "| `serial-mode` |")
    assert table_mismatch(action_yml, page) == [
        "input serial: in action.yml, not in the page's table",
        "input serial-mode: in the page's table, not in action.yml"]


USES_ACTION = re.compile(r"^(?:\./|\./\.gatekit/|gatekit/gatekit/)actions/([a-z-]+)(?:@[0-9a-f]{40})?$")


def example_steps(text: str):
    """(line, action, with-keys) of every step in the page's yaml blocks that uses a gatekit action."""
    import yaml
    for block in re.finditer(r"^```ya?ml\n(.*?)^```", text, re.DOTALL | re.MULTILINE):
        line = text[:block.start()].count("\n") + 1
        try:
            data = yaml.safe_load(block.group(1))
        except yaml.YAMLError:
            continue  # a fragment (an elided step); nothing to check
        stack = [data]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                uses = node.get("uses")
                if isinstance(uses, str) and USES_ACTION.search(uses):
                    yield line, USES_ACTION.search(uses).group(1), sorted(node.get("with") or {})
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)


EXAMPLE_PAGES = sorted([SOURCE / "README.md", *SOURCE.glob("docs/**/*.md"), *SOURCE.glob("workflows/*.yml")])


@pytest.mark.parametrize("page", [p for p in EXAMPLE_PAGES if p.suffix == ".md"], ids=lambda p: str(p.relative_to(SOURCE)))
def test_every_input_an_example_passes_exists(page):
    unknown = []
    for line, action, keys in example_steps(page.read_text(encoding="utf-8")):
        action_yml = SOURCE / "actions" / action / "action.yml"
        if not action_yml.is_file():
            unknown.append(f"{page.relative_to(SOURCE)}:{line}: no action {action}")
            continue
        inputs = declared(action_yml, "inputs")
        unknown += [f"{page.relative_to(SOURCE)}:{line}: {action} has no input {k}" for k in keys if k not in inputs]
    assert unknown == []
