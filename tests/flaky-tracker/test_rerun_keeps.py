"""flaky-tracker rerun --output keeps what the reruns did not change (#43.4): the merged report
is read back and compared with the run's report, byte for byte outside the cases the reruns
decided and the counts of the suites around them; inside those, every attribute, every other
child and the failure's text are kept. On real pytest reports (xunit1 and xunit2, with
properties, suite properties, extra attributes, captured output, pytest-rerunfailures'
attempts) and on every report of other runners in tests/core/data/junit (Surefire, TestNG,
jest-junit, gotestsum, CTest), rerun by a stand-in command that writes the run's own report
back, passing (every target flaky) or as it was (every target failed again)."""
from __future__ import annotations

import shutil
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from xml.parsers import expat

import pytest

from flaky_fixtures import SOURCE, pytest_run, run_tool

DATA = SOURCE / "tests" / "core" / "data" / "junit"
RESULTS = ("failure", "error")


def start_tag_end(data: bytes, begin: int) -> int:
    """The offset after the '>' of the start tag at `begin` (a '>' inside a quoted value is text)."""
    quote = None
    for at in range(begin + 1, len(data)):
        c = data[at:at + 1]
        if quote:
            quote = None if c == quote else quote
        elif c in (b'"', b"'"):
            quote = c
        elif c == b">":
            return at + 1
    raise AssertionError(f"no end of the tag at {begin}")


def elements(data: bytes) -> list[dict]:
    """Every element in document order: tag, attributes, where its start tag and the element
    begin and end, its parent (an index), read with expat as gatekit reads it."""
    parser = expat.ParserCreate()
    out, stack = [], []

    def start(tag, attrs):
        begin = parser.CurrentByteIndex
        out.append({"tag": tag, "attrs": attrs, "begin": begin, "tag_end": start_tag_end(data, begin),
                    "parent": stack[-1] if stack else None})
        stack.append(len(out) - 1)

    def end(tag):
        e = out[stack.pop()]
        at = parser.CurrentByteIndex
        e["end"] = data.index(b">", at) + 1 if data[at:at + 2] == b"</" else e["tag_end"]

    parser.StartElementHandler, parser.EndElementHandler = start, end
    parser.Parse(data, True)
    return out


def children(all_elements: list[dict], index: int) -> list[dict]:
    return [e for e in all_elements if e["parent"] == index]


def cut(data: bytes, spans: list[tuple[int, int]]) -> bytes:
    """`data` without the given spans (sorted, not overlapping)."""
    kept, at = [], 0
    for begin, end in sorted(spans):
        kept.append(data[at:begin])
        at = end
    return b"".join(kept) + data[at:]


def check_merge_keeps(before: bytes, after: bytes, flaky: set[str], failed: set[str]) -> dict:
    """The property: `after` is `before` with only the rerun cases changed (those named, by
    "classname::name", in `flaky` or `failed`), as docs/junit.md says, and the counts of the
    suites around a flaky one lowered. Returns what it checked, for the caller to assert on."""
    old, new = elements(before), elements(after)
    old_cases = [i for i, e in enumerate(old) if e["tag"] == "testcase"]
    new_cases = [i for i, e in enumerate(new) if e["tag"] == "testcase"]
    assert len(old_cases) == len(new_cases), "no case added or lost"

    def key(e):
        return f'{e["attrs"].get("classname", "")}::{e["attrs"].get("name", "")}'

    def deciding(cases, elems, at):
        """Whether the case at `at` decides its test: the last case of its (classname, name)."""
        k = key(elems[cases[at]])
        return all(key(elems[cases[later]]) != k for later in range(at + 1, len(cases)))

    edited, lowered = [], {}
    for n, (i, j) in enumerate(zip(old_cases, new_cases)):
        o, m = old[i], new[j]
        assert m["attrs"] == o["attrs"], f"case {n}: its attributes are kept"
        has_result = any(c["tag"] in RESULTS for c in children(old, i))
        if not (has_result and deciding(old_cases, old, n) and key(o) in flaky | failed):
            continue
        edited.append((n, key(o)))
        passed = key(o) in flaky
        old_results = [c for c in children(old, i) if c["tag"] in RESULTS]
        if not passed:  # every child as it was, then one rerun element per rerun
            was = [before[c["begin"]:c["end"]] for c in children(old, i)]
            now = [after[c["begin"]:c["end"]] for c in children(new, j)]
            assert now[:len(was)] == was, f"case {n}: its children byte for byte"
            assert now[len(was):] and all(c.startswith(b"<rerun") for c in now[len(was):])
            continue
        kept_old = [c for c in children(old, i) if c["tag"] not in RESULTS and not c["tag"].startswith("rerun")]
        kept_new = [c for c in children(new, j) if not c["tag"].startswith(("flaky", "rerun")) and c["tag"] not in RESULTS]
        assert [before[c["begin"]:c["end"]] for c in kept_old] == [after[c["begin"]:c["end"]] for c in kept_new], \
            f"case {n}: its other children byte for byte"
        if passed:  # each failure is now a flaky attempt with its attributes and its text
            flakies = [c for c in children(new, j) if c["tag"].startswith("flaky")]
            assert not [c for c in children(new, j) if c["tag"] in RESULTS]
            for r, f in zip(old_results, flakies):
                assert f["tag"] == "flaky" + r["tag"].capitalize() and f["attrs"] == r["attrs"]
                text = before[r["tag_end"]:r["end"] - len(f"</{r['tag']}>")] if r["end"] != r["tag_end"] else b""
                inner = after[f["tag_end"]:f["end"]]
                assert text == b"" or inner.startswith(b"<stackTrace>" + text + b"</stackTrace>")
            for parent in ancestors(old, i):
                lowered.setdefault(parent, {"failures": 0, "errors": 0})
                for r in old_results:
                    lowered[parent]["failures" if r["tag"] == "failure" else "errors"] += 1
    # Suites: only a declared count changes, lowered by the failures made flaky inside.
    old_suites = [i for i, e in enumerate(old) if e["tag"] in ("testsuite", "testsuites")]
    new_suites = [i for i, e in enumerate(new) if e["tag"] in ("testsuite", "testsuites")]
    retagged = []
    for i, j in zip(old_suites, new_suites):
        want = dict(old[i]["attrs"])
        for name, by in lowered.get(i, {}).items():
            if by and want.get(name, "").isdigit():
                want[name] = str(max(int(want[name]) - by, 0))
        assert new[j]["attrs"] == want, f"suite {old[i]['attrs'].get('name')}: every attribute, counts lowered"
        if want != old[i]["attrs"]:
            retagged.append((i, j))
    # Byte for byte everywhere else: the declaration, comments, properties, output, times, order.
    old_spans = [(old[old_cases[n]]["begin"], old[old_cases[n]]["end"]) for n, _ in edited] + \
        [(old[i]["begin"], old[i]["tag_end"]) for i, _ in retagged]
    new_spans = [(new[new_cases[n]]["begin"], new[new_cases[n]]["end"]) for n, _ in edited] + \
        [(new[j]["begin"], new[j]["tag_end"]) for _, j in retagged]
    assert cut(after, new_spans) == cut(before, old_spans)
    return {"edited": [k for _, k in edited], "retagged": len(retagged)}


def ancestors(elems: list[dict], index: int) -> list[int]:
    out, at = [], elems[index]["parent"]
    while at is not None:
        if elems[at]["tag"] in ("testsuite", "testsuites"):
            out.append(at)
        at = elems[at]["parent"]
    return out


# ---- real pytest runs -------------------------------------------------------------------

SUITE = '''\
import os
import pathlib
import sys

import pytest

RUNS = pathlib.Path(os.environ["FLAKY_RUN_DIR"])


def first_time(name):
    mark = RUNS / name
    if mark.exists():
        return False
    mark.write_text("seen")
    return True


@pytest.fixture(scope="session", autouse=True)
def suite_properties(record_testsuite_property):
    record_testsuite_property("commit", "abc123")
    record_testsuite_property("runner", "linux <x64> & \\"gpu\\"")


def test_ok(record_property):
    record_property("example_key", 1)
    print("captured stdout of test_ok")
    print("captured stderr", file=sys.stderr)


def test_flaky(record_property):
    record_property("attempt", "first")
    print("output before the failure")
    assert not first_time("flaky"), "failed the first time & <once>"


def test_broken():
    print("::error::printed by test_broken")
    assert 1 == 2, "always broken"


@pytest.mark.parametrize("arg", ["a", "b c"])
def test_param(arg):
    assert not first_time("param" + arg), f"param {arg} failed the first time"


def test_skipped():
    pytest.skip("not here")
'''


@pytest.mark.parametrize("family", ["xunit1", "xunit2"])
@pytest.mark.parametrize("reruns", [[], ["--reruns", "1"]], ids=["plain", "rerunfailures"])
def test_a_real_pytest_report_keeps_everything_the_reruns_did_not_change(tmp_path, family, reruns):
    if reruns:
        pytest.importorskip("pytest_rerunfailures", reason="tests/requirements.txt installs pytest-rerunfailures")
    project = tmp_path / "p"
    (project / "run-dir").mkdir(parents=True)
    (project / "test_keep.py").write_text(SUITE)
    options = ["-o", f"junit_family={family}", "-o", "junit_logging=all", "-o", "junit_duration_report=call"]
    if family == "xunit1":  # xunit1 only: an attribute of the runner's own on a case
        (project / "conftest.py").write_text(
            "import pytest\n\n@pytest.fixture(autouse=True)\ndef tag(record_xml_attribute):\n"
            "    record_xml_attribute('owner', 'team <ml>')\n")
    first = pytest_run(project, project / "report.xml", *(reruns or ["-p", "no:rerunfailures"]), *options)
    assert first.returncode == 1, first.stdout
    before = (project / "report.xml").read_bytes()
    assert b"<properties>" in before and b"<system-out>" in before
    run = run_tool("rerun", "--report", project / "report.xml", "--output", tmp_path / "merged.xml", cwd=project,
                   env={"FLAKY_RUN_DIR": str(project / "run-dir")})
    assert run.code == 1, run.stdout + run.stderr
    assert (project / "report.xml").read_bytes() == before  # --output: the run's report untouched
    after = (tmp_path / "merged.xml").read_bytes()
    flaky = {t.replace("test_keep.py::", "test_keep::") for t in run.outputs["flaky-tests"].splitlines()}
    checked = check_merge_keeps(before, after, flaky, {"test_keep::test_broken"})
    # With pytest-rerunfailures its own attempts made the flakes: only the broken test is rerun.
    expected = ["test_keep::test_broken"] if reruns else \
        ["test_keep::test_flaky", "test_keep::test_broken", "test_keep::test_param[a]", "test_keep::test_param[b c]"]
    assert checked["edited"] == expected
    assert checked["retagged"] == (0 if reruns else 1)  # the <testsuite>; pytest's root declares no count
    suite = ET.fromstring(after).find("testsuite")
    assert suite.get("failures") == "1" and [p.get("name") for p in suite.find("properties")] == ["commit", "runner"]
    # Read back by flaky-tracker itself, the merged report says what the rerun said.
    again = run_tool("rerun", "--report", tmp_path / "merged.xml", "--command", "false {junit} {tests}", cwd=project)
    assert again.outputs["flaky"] == "3" and again.outputs["failed"] == "1", again.stdout


# ---- other runners' reports, rerun by a stand-in ------------------------------------------

STAND_IN = Path(__file__).resolve().parent / "rerun_stand_in.py"

PYTEST_FAMILY = {"pytest-mixin-xunit1.xml", "pytest-prefix.xml", "pytest-rerunfailures-xunit1.xml",
                 "pytest-rerunfailures-xunit2.xml", "pytest-xunit1.xml", "pytest-xunit2.xml"}


@pytest.mark.parametrize("mode", ["pass", "fail"])
@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.xml")))
def test_every_runners_report_survives_a_merge_with_nothing_lost(tmp_path, name, mode):
    report = tmp_path / name
    shutil.copy(DATA / name, report)
    names = "{tests}" if name in PYTEST_FAMILY else "{names}"
    prefix = ["--junit-prefix", "py312"] if name == "pytest-prefix.xml" else []
    run = run_tool("rerun", "--report", report, "--output", tmp_path / "merged.xml", *prefix, "--command",
                   f"{sys.executable} {STAND_IN} {report} {mode} {{junit}} {names}", cwd=tmp_path)
    assert run.code in (0, 1), run.stdout + run.stderr
    before, after = report.read_bytes(), (tmp_path / "merged.xml").read_bytes()
    flaky = rerun_keys(decided(run.stdout, "flaky", "(failed, then passed on rerun"), before)
    failed = rerun_keys(decided(run.stdout, "failed", "(failed again on"), before)
    assert not flaky if mode == "fail" else not failed, run.stdout
    checked = check_merge_keeps(before, after, flaky, failed)
    if not checked["edited"]:
        assert after == before, "nothing rerun: a copy, byte for byte"


def decided(stdout: str, verdict: str, how: str) -> str:
    """The ids of the log's "VERDICT: ID (HOW ...)" lines: what the reruns decided (a flake
    that the report recorded already, "passed after N earlier attempts", was not rerun)."""
    return "\n".join(line.split(": ", 1)[1].split(" " + how, 1)[0]
                     for line in stdout.splitlines() if line.startswith(verdict + ": ") and " " + how in line)


def rerun_keys(ids: str, report: bytes) -> set[str]:
    """The "classname::name" of each case whose id (as flaky-tracker names it) is listed."""
    wanted = set(ids.splitlines())
    keys = set()
    for e in elements(report):
        if e["tag"] != "testcase":
            continue
        k = f'{e["attrs"].get("classname", "")}::{e["attrs"].get("name", "")}'
        if any(i == k or i.endswith("::" + k) or i.endswith("::" + e["attrs"].get("name", "")) for i in wanted):
            keys.add(k)
    return keys


def test_a_case_marked_both_failed_and_skipped_is_not_merged_when_its_rerun_passed(tmp_path):
    """The reader takes the worse result (failed); with the failure made a flaky attempt, the
    <skipped> left beside it would make a test that passed in the end read as skipped. Two
    contradicting results are not merged into a third: exit 3, nothing written."""
    report = tmp_path / "report.xml"
    report.write_text('<testsuite name="s" tests="2" failures="1" skipped="1">'
                      '<testcase classname="c" name="a"/>'
                      '<testcase classname="c" name="b"><failure message="f"/><skipped message="s"/></testcase>'
                      '</testsuite>')
    before = report.read_bytes()
    rerun = tmp_path / "rerun.xml"
    rerun.write_text('<testsuite name="s" tests="1"><testcase classname="c" name="b"/></testsuite>')
    run = run_tool("rerun", "--report", report, "--output", tmp_path / "merged.xml", "--",
                   "sh", "-c", 'cp "$0" "$1"', rerun, "{junit}", "{names}", cwd=tmp_path)
    assert run.code == 3, run.stdout + run.stderr
    assert "is marked both failed and skipped: a rerun that passed cannot be written into it" in run.stderr + run.stdout
    assert report.read_bytes() == before
    assert not (tmp_path / "merged.xml").exists()
    assert run.outputs.get("result") == "error"
