"""JUnit reports of the shapes gatekit reads (bench/junit/bench.py, docs/benchmarks.md).

- lean: one short element a case (classname, name, time), as CTest or a bare runner writes;
- pytest: pytest's xunit2 with what fills real reports: the `file` and `line` of xunit1, a
  <properties> block on every case (record_property), a long <system-out> (40 lines of
  captured log) and a <system-err> on every fiftieth case (about 290 MB at 1M cases);
- failures: pytest-shaped, every tenth case failing with a 30-line traceback, every
  hundredth erroring and every fiftieth skipped.

write(path, shape, cases) returns the size in bytes and the number of failed cases
(failures + errors) the report holds.
"""
from __future__ import annotations

from pathlib import Path

SHAPES = ("lean", "pytest", "failures")

LOG = "".join(f"2026-12-01 23:59:{i % 60:02d} INFO worker.pool: step {i} of the fixture done &amp; checked\n"
              for i in range(40))  
TRACE = "".join(f"tests/unit/pkg/test_module.py:{100 + i}: in helper_{i}\n    assert compute(x) == expected\n"
                for i in range(15))


def _ids(i: int) -> tuple[str, str, str]:
    # 1,000 cases a module, in order, as pytest writes them
    module = f"tests/unit/pkg{i // 1000 % 97:02d}/test_module_{i // 1000:04d}.py"
    return module, module[:-3].replace("/", "."), f"test_case_number_{i % 1000:03d}[param-{i % 7}]"


def write(path: Path, shape: str, cases: int) -> tuple[int, int]:
    if shape not in SHAPES:
        raise ValueError(f"unknown shape {shape!r}; the shapes: {', '.join(SHAPES)}")
    failed = 0
    with path.open("w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="utf-8"?>\n<testsuites name="pytest tests">'
                  f'<testsuite name="pytest" errors="0" failures="0" skipped="0" tests="{cases}" time="1.0">\n')
        parts = []
        for i in range(cases):
            module, classname, name = _ids(i)
            if shape == "lean":
                parts.append(f'<testcase classname="{classname}" name="{name}" time="0.00{i % 10}"/>\n')
            else:
                head = (f'<testcase classname="{classname}" name="{name}" file="{module}" line="{i % 500}" '
                        f'time="0.00{i % 10}">')
                body = ""
                if shape == "pytest":
                    body += f'<properties><property name="owner" value="team-{i % 13}"/></properties>'

                    if i % 50 == 0:
                        body += f"<system-out>{LOG}</system-out>"
                    if i % 50 == 0:
                        body += "<system-err>DeprecationWarning: the old API &lt;v2&gt; is going away\n</system-err>"
                else:
                    if i % 100 == 0:
                        body += f'<error message="fixture crashed: OSError(5)">{TRACE}OSError: [Errno 5]</error>'
                        failed += 1
                    elif i % 10 == 0:
                        body += (f'<failure message="AssertionError: assert {i} == {i + 1}">{TRACE}'
                                 f"E       AssertionError: assert {i} == {i + 1}</failure>")
                        failed += 1
                    elif i % 50 == 7:
                        body += f'<skipped type="pytest.skip" message="no GPU">{module}:{i % 500}: no GPU</skipped>'
                parts.append(head + body + "</testcase>\n")
            if len(parts) >= 2000:
                out.write("".join(parts))
                parts.clear()
        out.write("".join(parts))
        out.write("</testsuite></testsuites>\n")
    return path.stat().st_size, failed
