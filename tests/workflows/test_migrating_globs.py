"""The migration guide's table of `case` patterns and their github-dialect translations is true.

docs/guides/migrating.md ("From hand-written bash gates") translates the patterns of a bash
`case` deny list into gatekit's github dialect. For every row, the first github pattern must
match exactly the sample paths that bash's `case` matches with the row's pattern (bash itself
decides; the pattern reaches it as data, never as code), judged by the built path-classifier.
Where a row offers a second pattern for a narrower meaning (`'*.md'`: the top level only), it
must match a subset.
"""
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BUILD = Path(os.environ.get("GATEKIT_BUILD_DIR", SOURCE / "build" / "dev")).resolve()
CLASSIFIER = BUILD / "tools" / "path-classifier" / "path-classifier"
GUIDE = SOURCE / "docs" / "guides" / "migrating.md"
SAMPLES = [".github/workflows/ci.yml", ".github/dependabot.yml", "docs/index.md", "docs/img/a/b.png", "README.md",
           "src/kernels/README.md", "src/a.py", "src/x/y/b.py", "src/a.md", "mkdocs.yml", "docs/mkdocs.yml",
           "tests/test_a.py", "setup.py"]


def table_rows() -> list[tuple[str, list[str]]]:
    section = GUIDE.read_text().split("## From hand-written bash gates", 1)[1]
    table = section.split("| `case` pattern |", 1)[1].split("\n\n", 1)[0]
    rows = []
    for line in table.splitlines()[2:]:  # after the header's rest and the --- line
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3:
            github = [p.strip("'") for p in re.findall(r"`([^`]+)`", cells[2])]
            rows.append((cells[0].strip("`"), github))
    return rows


def case_matches(pattern: str) -> set[str]:
    script = 'for p in "${@:2}"; do case "$p" in $1) echo "$p";; esac; done'
    done = subprocess.run(["bash", "-c", script, "bash", pattern, *SAMPLES], capture_output=True, text=True, check=True)
    return set(done.stdout.splitlines())


def github_matches(patterns: list[str], tmp_path: Path) -> list[set[str]]:
    """For each pattern, the samples the github dialect matches (one allow filter per pattern)."""
    rules = "filters:\n" + "".join(f"  p{i}:\n    mode: allow\n    paths: [{json.dumps(p)}]\n"
                                   for i, p in enumerate(patterns))
    (tmp_path / "rules.yml").write_text(rules)
    found = [set() for _ in patterns]
    env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    for sample in SAMPLES:
        (tmp_path / "files.txt").write_text(sample + "\n")
        output = tmp_path / "output.txt"
        output.write_text("")
        done = subprocess.run([CLASSIFIER, "--rules", tmp_path / "rules.yml", "--files", tmp_path / "files.txt"],
                              env={**env, "GITHUB_OUTPUT": str(output)}, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        verdicts = json.loads(next(l for l in output.read_text().splitlines() if l.startswith("filters="))[8:])
        for i in range(len(patterns)):
            if verdicts[f"p{i}"]:
                found[i].add(sample)
    return found


def test_the_table_is_found():
    rows = dict(table_rows())
    assert rows[".github/*"] == [".github/**"] and rows["*.md"] == ["**.md", "*.md"] and len(rows) == 5


@pytest.mark.parametrize("case_pattern,github", table_rows(), ids=lambda v: str(v))
def test_the_translation_means_what_the_case_pattern_meant(case_pattern, github, tmp_path):
    expected = case_matches(case_pattern)
    assert expected, f"no sample path exercises {case_pattern}"
    same, *narrower = github_matches(github, tmp_path)
    assert same == expected
    for matched in narrower:
        assert matched < expected


def test_a_wrong_translation_is_caught(tmp_path):
    # `.github/*` in the github dialect stops at the first `/`: not what the case pattern meant.
    wrong, = github_matches([".github/*"], tmp_path)
    assert wrong == {".github/dependabot.yml"} != case_matches(".github/*")
