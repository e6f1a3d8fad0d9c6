"""The documentation's own tests (marker `docs`): a docs-only pull request runs only these.

Every page mkdocs.yml lists exists, every page is listed, and every ```python block of the
docs runs against the package as it is."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(p.name for p in DOCS.glob("*.md"))

pytestmark = pytest.mark.docs


def test_nav_lists_every_page_and_only_pages_that_exist():
    nav = re.findall(r":\s*([\w/-]+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(), re.M)
    assert sorted(nav) == PAGES


@pytest.mark.parametrize("page", PAGES)
def test_python_examples_run(page, capsys):
    blocks = re.findall(r"```python\n(.*?)```", (DOCS / page).read_text(), re.S)
    for block in blocks:
        if "(q, k, v, *," in block:  # a signature listing, not an example
            continue
        exec(compile(block, f"{page} example", "exec"), {})
