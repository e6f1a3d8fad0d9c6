"""Migration from dorny/paths-filter: real configurations (its README and issues) run through
paths-filter's own rules (reimplemented in paths_filter_reference.js over the npm picomatch)
and through path-gate, unchanged; every filter's verdict, count and file list in every
list-files format must agree."""
import json
import os
import subprocess
from pathlib import Path

import pytest

from gate_helpers import TOOL, read_outputs

HERE = Path(__file__).resolve().parent

README = """\
shared: &shared
  - common/**
  - config/**
src:
  - *shared
  - src/**
addedOrModified:
  - added|modified: '**'
allChanges:
  - added|deleted|modified: '**'
addedOrModifiedAnchors:
  - added|modified: *shared
markdown:
  - added|modified: '*.md'
changed:
  - '**'
"""

EVERY = """\
backend:
  - 'pkg/a/b/c/**'
  - '!**/*.jpeg'
  - '!**/*.md'
"""

# The change most cases use, as the pull-request files API lists it.
CHANGE = [
    {"filename": "src/app.ts", "status": "modified"},
    {"filename": "src/new.ts", "status": "renamed", "previous_filename": "config/old.ts"},
    {"filename": "README.md", "status": "removed"},
    {"filename": "CHANGELOG.md", "status": "added"},
    {"filename": "common/util.ts", "status": "copied", "previous_filename": "src/util.ts"},
    {"filename": "scripts/run.sh", "status": "changed"},
    {"filename": ".github/workflows/ci.yml", "status": "modified"},
    {"filename": "docs/guide.md", "status": "modified"},
]
PKG = [
    {"filename": "pkg/a/b/c/photo.jpeg", "status": "added"},
    {"filename": "pkg/a/b/c/README.md", "status": "modified"},
    {"filename": "pkg/a/b/c/main.go", "status": "modified"},
]
HOSTILE = [{"filename": name, "status": "added"} for name in [
    "a b.txt", "it's.md", "it's $(touch PWNED).sh", "src/$(touch PWNED).c", "src/`id`.c", 'q"uote.c',
    "back\\slash.c", "semi;colon.c", "comma,name.c", "tab\tname.c", "star*.c", "percent%40.c", "plus+at@.c",
    "brace{a,b}.c", "excl!.c", "caf\u00e9.md",
]]

CASES = {
    "readme: anchors and change types": (README, "some", CHANGE),
    "readme: predicate-quantifier every": (EVERY, "every", PKG),
    "readme: the every example under some": (EVERY, "some", PKG),
    "issue 97: a negation beside a positive pattern": (
        "backend:\n  - 'src/share/services/**'\n  - '!src/share/services/**/**.md'\n", "some",
        [{"filename": ".github/workflows/ci.yml", "status": "modified"},
         {"filename": "src/share/services/a/README.md", "status": "modified"}]),
    "issue 97: the extglob answer": (
        "backend:\n  - 'src/share/services/**/!(*.md)'\n", "some",
        [{"filename": "src/share/services/a/README.md", "status": "modified"},
         {"filename": "src/share/services/a/x.ts", "status": "added"}]),
    "issue 228: two negations, some": ("backend:\n  - '!docs/**'\n  - '!frontend/**'\n", "some",
                                       [{"filename": "docs/a.md", "status": "modified"}]),
    "issue 228: two negations, every": ("backend:\n  - '!docs/**'\n  - '!frontend/**'\n", "every",
                                        [{"filename": "docs/a.md", "status": "modified"},
                                         {"filename": "api/x.py", "status": "added"}]),
    "issue 200: excluding folders per filter": (
        "ga:\n  - '!.github/**'\ninfra:\n  - '!infrastructure/**'\nga-infra:\n  - '!.github/**'\n"
        "  - '!infrastructure/**'\n", "some",
        [{"filename": "infrastructure/src/a.ts", "status": "modified"},
         {"filename": ".github/workflows/t.yml", "status": "modified"},
         {"filename": "src/main/F.java", "status": "modified"}]),
    "issue 135: a negated group": (
        "backend:\n  - '!(**/*.tsx|**/*.less)'\n", "some",
        [{"filename": "src/ui.tsx", "status": "modified"}, {"filename": "root.tsx", "status": "modified"},
         {"filename": "src/server.py", "status": "modified"}]),
    "braces, dot files and deleted renames": (
        "ci:\n  - '.github/**'\n  - '**/*.{yml,yaml}'\ngone:\n  - deleted: 'config/**'\n"
        "copies:\n  - copied|changed: '**'\n", "some", CHANGE),
    "hostile names in every format": ("all:\n  - '**'\nmd:\n  - added: '**/*.md'\n", "some", HOSTILE),
}

LETTERS = {"added": "A", "modified": "M", "removed": "D", "changed": "T"}


def c_quote(name: str) -> str:
    """git's C-style quoting, as `git diff --name-status` writes a name."""
    if not any(c in name for c in '"\\\t\n') and name.isascii():
        return name
    out = ""
    for byte in name.encode():
        ch = chr(byte)
        out += {'"': '\\"', "\\": "\\\\", "\t": "\\t", "\n": "\\n"}.get(ch, ch if 32 <= byte < 127 else f"\\{byte:03o}")
    return f'"{out}"'


def name_status(rows) -> str:
    lines = []
    for row in rows:
        if row["status"] in ("renamed", "copied"):
            letter = "R100" if row["status"] == "renamed" else "C100"
            lines.append(f"{letter}\t{c_quote(row['previous_filename'])}\t{c_quote(row['filename'])}")
        else:
            lines.append(f"{LETTERS[row['status']]}\t{c_quote(row['filename'])}")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def reference():
    cases = [{"filters": f, "quantifier": q, "files": files} for f, q, files in CASES.values()]
    done = subprocess.run(["node", str(HERE / "paths_filter_reference.js")], input=json.dumps(cases).encode(),
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    return dict(zip(CASES, json.loads(done.stdout)))


def gate(tmp_path, filters, quantifier, rows, fmt):
    out = tmp_path / f"out-{fmt}.txt"
    out.write_text("")
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "GITHUB_OUTPUT": str(out)}
    done = subprocess.run([str(TOOL), f"--rules-text={filters}", "--files=-", f"--list-files={fmt}",
                           f"--predicate-quantifier={quantifier}"], input=name_status(rows).encode(), env=env,
                          cwd=tmp_path, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    return read_outputs(out)


@pytest.mark.parametrize("case", list(CASES))
def test_verdicts_and_lists_equal_paths_filters(tmp_path, reference, case):
    filters, quantifier, rows = CASES[case]
    expected = reference[case]
    for fmt in ("json", "csv", "shell", "escape"):
        outputs = gate(tmp_path, filters, quantifier, rows, fmt)
        for name, want in expected.items():
            assert outputs[name] == ("true" if want["value"] else "false"), (fmt, name)
            assert outputs[f"{name}_count"] == str(want["count"]), (fmt, name)
            assert outputs[f"{name}_files"] == want["files"][fmt], (fmt, name)
        assert json.loads(outputs["changes"]) == [n for n, want in expected.items() if want["value"]]


def test_the_reference_is_paths_filters_own_behaviour(reference):
    """Anchors for the table: what paths-filter's issues report it does."""
    assert reference["issue 97: a negation beside a positive pattern"]["backend"]["count"] == 2
    assert reference["issue 228: two negations, some"]["backend"]["value"] is True
    assert reference["issue 135: a negated group"]["backend"]["files"]["json"] == '["root.tsx","src/server.py"]'
    readme = reference["readme: anchors and change types"]
    assert json.loads(readme["allChanges"]["files"]["json"]) == [
        "src/app.ts", "src/new.ts", "config/old.ts", "README.md", "CHANGELOG.md", ".github/workflows/ci.yml",
        "docs/guide.md"]
