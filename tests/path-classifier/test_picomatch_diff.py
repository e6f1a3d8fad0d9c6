"""Differential test of the `picomatch` dialect against the npm package picomatch 2.3.1:
patterns and paths generated from fixed seeds (picomatch_cases.js) are answered by picomatch
under node and by path-classifier --match-batch; every answer must agree. Seeds 6 and 7 add
line breaks to patterns and paths (JavaScript's `.` does not match them)."""
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from gate_helpers import TOOL

HERE = Path(__file__).resolve().parent


def cases(seed, count, newlines=False):
    done = subprocess.run(["node", str(HERE / "picomatch_cases.js"), str(seed), str(count)]
                          + (["newlines"] if newlines else []),
                          capture_output=True, text=True, check=True, env=dict(os.environ))
    return [json.loads(line) for line in done.stdout.splitlines() if line]


def ours(rows, dialect="picomatch"):
    # One "pattern<TAB>path" record a line, or NUL-terminated when a record holds a line break.
    end = "\0" if any("\n" in p + f or "\r" in p + f for p, f, _ in rows) else "\n"
    text = "".join(f"{p}\t{f}{end}" for p, f, _ in rows)
    done = subprocess.run([str(TOOL), "--match-batch", "--dialect", dialect], input=text.encode(),
                          capture_output=True, check=True)
    return done.stdout.decode().splitlines()


@pytest.mark.parametrize("seed,newlines", [(1, False), (2, False), (3, False), (4, False), (5, False),
                                           (6, True), (7, True)])
def test_generated_cases_agree_with_picomatch(seed, newlines):
    rows = cases(seed, 1500, newlines)
    if newlines:
        assert sum("\n" in f for _, f, _ in rows) > 500
    assert len(rows) > 3000
    answers = ours(rows)
    assert len(answers) == len(rows)
    mismatches, refused = [], []
    for (pattern, path, expected), got in zip(rows, answers):
        if got.startswith("E"):
            # gatekit refuses a pattern (config error) where picomatch would silently never
            # match (an invalid regular expression) or relies on an unsupported construct.
            if expected != "I":
                refused.append((pattern, expected, got))
            # Allowed: picomatch's regex is invalid too, it needs a back-reference (`\1`,
            # which no automaton can run), or it nests/overlaps quantified extglobs (whose
            # meaning differs between picomatch versions); gatekit then rejects the rules.
            documented = re.search(r"\\[1-9]", pattern) or "change meaning between picomatch versions" in got
            if expected != "I" and not documented:
                mismatches.append((pattern, path, expected, got))
            continue
        want = "0" if expected == "I" and pattern != path else expected
        if expected == "I" and pattern == path:
            want = "1"
        if got != want:
            mismatches.append((pattern, path, expected, got))
    assert not mismatches[:20], f"{len(mismatches)} of {len(rows)} disagree"
    assert len(refused) < len(rows) // 100  # refusing a pattern picomatch runs stays rare


def test_documented_vectors_run_through_the_cli():
    rows = [("*.jsx?", "page.js", "0"), ("file?.txt", "file1.txt", "1"), ("a+b", "a+b", "1"),
            ("x/**.js", "x/a/b.js", "0"), ("a**b", "a/x/b", "0"), ("*.{js,ts}", "a.ts", "1"),
            ("a.(js|ts)", "a.js", "1"), ("./src/**", "src/a", "1")]
    assert ours(rows) == [e for _, _, e in rows]
    assert ours(rows, "github") == ["1", "0", "0", "1", "1", "0", "0", "0"]


def picomatch_answers(rows):
    """picomatch 2.3.1's own answers ({dot: true}) for [(pattern, path)], from node."""
    done = subprocess.run(["node", str(HERE / "picomatch_cases.js"), "answer"], input=json.dumps(rows),
                          capture_output=True, text=True, check=True, env=dict(os.environ))
    return done.stdout.splitlines()


# JavaScript's `.` stops at four line terminators: \n, \r, U+2028 and U+2029 (and only those:
# U+0085 and U+202A are ordinary). picomatch's `**`, extglob bodies and the `.*` around a
# negated glob are that `.`; its `*` first asks for one `.` ((?=.)), then takes [^/].
TERMINATOR_PATTERNS = ["**", "a/**", "**/b", "src/**", "a/**/b", "**.js", "**/*.py", "*", "a*", "!*.js",
                       "@(a|x)*", "*(a|\u2028)b", "!(x)"]
TERMINATOR_PATHS = [f"a{c}b" for c in ["\n", "\r", "\u2028", "\u2029", "\u0085", "\u202a", "\u20a8"]] + [
    "a/\u2028/b", "\u2028/b", "a/\u2029", "src/a\u2028b", "src/\u2029/x.py", "a\u2028b.js", "x/a\u2029.py",
    "\u2028", "\u2029.js", "a\u2028", "a\u2028\u2029b", "a/b\u2028"]


def test_line_terminators_follow_picomatch():
    rows = [(p, f) for p in TERMINATOR_PATTERNS for f in TERMINATOR_PATHS]
    want = picomatch_answers(rows)
    assert "1" in want and "0" in want
    got = ours([(p, f, "") for p, f in rows])
    assert [(p, f, w, g) for (p, f), w, g in zip(rows, want, got) if w != g] == []


def test_line_breaks_follow_each_dialect():
    # picomatch: `*` and `?` are [^/] classes (they match a line break), `**` and the `.*$`
    # around a negated glob are JavaScript `.` (they do not). github: every byte is ordinary.
    rows = [("*", "a\nb"), ("a?", "a\n"), ("**", "a\nb"), ("a/**", "a/x\ny"), ("**/b", "a\n/b"),
            ("!*.js", "a\nb"), ("!*.js", "a\rb"), ("*.md", "x\n.md"), ("a\nb", "a\nb"), ("**", "\r")]
    assert ours([(p, f, "") for p, f in rows]) == ["1", "1", "0", "0", "0", "0", "0", "1", "1", "0"]
    assert ours([(p, f, "") for p, f in rows], "github") == ["1", "0", "1", "1", "1", "1", "1", "1", "1", "1"]
