"""suite-report growth --write-baseline: the next baseline is written while this run's report is
read once, and the file is byte for byte what gatekit wrote when it read the report a second
time for it (the goldens below were made by that version, suite-report as on main 7fe2e49, from
these same reports). Real files: small reports (the whole file in one write), reports over
1 MiB of lines (the lines go to a sibling file, copied behind the header), with and without a
test reported twice (its seconds are whole only at the end: the lines are written again). The
file appears at once: no sibling is left behind, and a baseline that cannot be written leaves
the old one as it was.

UPDATE_EXPECTED=1 rewrites the small goldens (tests/suite-report/data/next-baseline-*.json)
and prints the large ones' SHA-256: only ever from the older version's output, reviewed."""
import hashlib
import os
import re

import pytest

from suite_fixtures import run_tool

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
SELECTION = "version: 1\nlegs:\n  cpu: {markers: not gpu}\n"
KEY = ["--workflow", "cpu-tests.yml", "--job", "tests", "--python-version", "3.12"]
ENV = {"GITHUB_SHA": "c" * 40, "GITHUB_RUN_ID": "900"}


def identity(test_id: str) -> str:
    return hashlib.sha256(test_id.encode()).hexdigest()[:48]


# A version 2 baseline of the same key with a history of two main runs: the next one carries
# them on, this run last.
BASELINE = (
    '{"format":"gatekit-suite-baseline","version":2,"identity":"sha256-128+64","key":{"workflow":"cpu-tests.yml",'
    '"job":"tests","python":"3.12","selection":"(not gpu) and not nightly"},"history":['
    '{"sha":"' + "a" * 40 + '","run":"700","date":"2026-11-30T10:00:00Z","tests":3,"seconds":2.5E0},'
    '{"sha":"' + "b" * 40 + '","run":"800","date":"2026-12-01T10:00:00Z","tests":2,"seconds":2E0}],"tests":2}\n'
    '["' + identity("tests/test_a.py::test_plain") + '",1.5E0,"tests/test_a.py::test_plain"]\n'
    '["' + identity("tests/test_a.py::test_gone") + '",5E-1,"tests/test_a.py::test_gone"]\n'
)

# The names a report's ids are made of: quotes, backslashes, non-ASCII, a character
# reference for a line end, ids over 200 bytes (shown cut), two that differ only after byte 256.
ODD_CASES = [
    ('tests.test_a', 'test_plain', '1.5'),
    ('tests.test_a', 'test_q[a&quot;b\\c-\u00e9\u2713]', '0.25'),
    ('tests.test_a', 'test_nl[x&#10;y]', '1e-3'),
    ('tests.test_b', 'test_long[' + 'x' * 300 + ']', '2'),
    ('tests.test_b', 'test_long[' + 'x' * 300 + '-2]', '0'),
    ('tests.test_b', 'test_lt[&lt;&amp;&gt;]', '12.125'),
    (None, None, '0.5'),  # neither name nor classname: one test each
    (None, None, '0.75'),
    ('tests.test_c', 'test_no_time', None),
]


def case(classname, name, time) -> str:
    attrs = "".join(f' {key}="{value}"' for key, value in (("classname", classname), ("name", name), ("time", time))
                    if value is not None)
    return f"<testcase{attrs}/>"


def report(cases) -> str:
    return ('<?xml version="1.0" encoding="utf-8"?>\n<testsuites><testsuite name="pytest">\n' +
            "".join(case(*c) + "\n" for c in cases) + "</testsuite></testsuites>\n")


def many(n: int):
    """n tests of some 140 bytes a line, 70 of them the name: over 1 MiB of names from n = 16,000."""
    return [(f"tests.pkg{i // 1000}.test_mod{i // 50}", f"test_case[{i}-{'p' * 40}]", f"0.{i % 1000:03d}")
            for i in range(n)]


REPORTS = {
    "small": ODD_CASES,
    # A test reported twice (a rerun plugin's way): its line holds both times.
    "small-repeats": ODD_CASES + [ODD_CASES[1][:2] + ("0.5",)],
    "large": ODD_CASES + many(20_000),
    # The repeat comes after more than 1 MiB of names has gone to the sibling file.
    "large-repeats": ODD_CASES + many(20_000) + [("tests.pkg0.test_mod0", f"test_case[0-{'p' * 40}]", "1")],
}

# The older version's output, this run's date aside (DATE) and its header's version now 3 (ids by
# family; its lines are the same): small ones as files, large by hash.
LARGE = {
    "large": "d5b265ce9bb8c8b867672b1eafa459b04c439bc71f396e04eb4633cdc73c4519",
    "large-repeats": "f4fc0f0a9ca272e02ba8020ecbe4f619c3816d389878be2d08dbcfc0951e5186",
}


def write_next(tmp_path, name, baseline=True):
    (tmp_path / "suite.yml").write_text(SELECTION)
    (tmp_path / "r.xml").write_text(report(REPORTS[name]), encoding="utf-8")
    args = ["--baseline", tmp_path / "base.json"] if baseline else []
    if baseline:
        (tmp_path / "base.json").write_text(BASELINE)
    run = run_tool("growth", "--selection", "suite.yml", "--leg", "cpu", "--context", "main", "--report", "r.xml",
                   *args, "--write-baseline", tmp_path / "next.json", *KEY, cwd=tmp_path, env=ENV)
    assert run.code == 0, run.stdout + run.stderr
    assert "wrote the next baseline" in run.stdout, run.stdout
    return run


def undated(data: bytes) -> bytes:
    """The file with this run's date (the last of the header's history) as DATE."""
    header, _, rest = data.partition(b"\n")
    dates = list(re.finditer(rb'"date":"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z"', header))
    assert dates, header[:300]
    last = dates[-1]
    return header[:last.start()] + b'"date":"DATE"' + header[last.end():] + b"\n" + rest


@pytest.mark.parametrize("name", ["small", "small-repeats"])
def test_a_small_next_baseline_is_what_the_two_pass_version_wrote(tmp_path, name):
    write_next(tmp_path, name)
    actual = undated((tmp_path / "next.json").read_bytes())
    golden = os.path.join(DATA, f"next-baseline-{name}.json")
    if os.environ.get("UPDATE_EXPECTED") == "1":
        with open(golden, "wb") as f:
            f.write(actual)
    with open(golden, "rb") as f:
        assert actual == f.read()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("next")) == ["next.json"]


@pytest.mark.parametrize("name", ["large", "large-repeats"])
def test_a_next_baseline_over_a_mebibyte_is_what_the_two_pass_version_wrote(tmp_path, name):
    write_next(tmp_path, name)
    data = (tmp_path / "next.json").read_bytes()
    assert len(data) > 2 << 20
    digest = hashlib.sha256(undated(data)).hexdigest()
    if os.environ.get("UPDATE_EXPECTED") == "1":
        print(f"{name}: {digest}")
    assert digest == LARGE[name]
    header = data.partition(b"\n")[0]
    assert b'"tests":20009}' in header
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("next")) == ["next.json"]
