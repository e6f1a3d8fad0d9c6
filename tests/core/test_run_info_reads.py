"""The CI run's identity comes from the Context (`context.run`, gatekit/run_info.hpp), resolved
once by the frame (docs/contributing.md, "Side effects"; docs/architecture.md, "The Context").

No file under tools/ names a GitHub Actions variable (a string literal that is a whole
`GITHUB_*` name: what `env.get(...)` takes) except the core's readers of each:
tools/core/src/frame/run_info.cpp (the run's identity: GITHUB_REPOSITORY, GITHUB_EVENT_NAME,
GITHUB_SHA, GITHUB_RUN_ID, ...), the Workflow seam (tools/core/src/frame/workflow.cpp: the
step's files, GITHUB_OUTPUT ..., and GITHUB_ACTIONS, which picks the protocol) and the GitHub
client (tools/core/src/github/github_client.cpp: the token, GITHUB_TOKEN). A message that names
a variable ("give --repo or set GITHUB_REPOSITORY") is text, not a read, and is fine. A read
anywhere else is named by file and line."""
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
from source_scan import sources, strip_comments  # noqa: E402

STEP_FILES = {"GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STEP_SUMMARY", "GITHUB_STATE"}
# file -> the variables it may name; None: any.
READERS = {
    "tools/core/src/frame/run_info.cpp": None,
    "tools/core/src/frame/workflow.cpp": STEP_FILES | {"GITHUB_ACTIONS"},
    "tools/core/src/github/github_client.cpp": {"GITHUB_TOKEN"},
}
# A literal that is a variable's name, or the start of one ("GITHUB_" + name).
VARIABLE = re.compile(r"""(?<![\w"])(?:u8|u|U|L)?(["'])(GITHUB_[A-Z0-9_]*)\1""")


def reads(text, allowed=frozenset()):
    """(line, variable) for each GITHUB_* variable one file's code names, less `allowed`."""
    found = []
    for number, line in enumerate(strip_comments(text, keep_strings=True).splitlines(), start=1):
        for match in VARIABLE.finditer(line):
            if match.group(2) not in allowed:
                found.append((number, match.group(2)))
    return found


def test_the_check_sees_each_kind_of_read():
    sample = """// env.get("GITHUB_SHA") in a comment is fine
const char* hint = "give --repo or set GITHUB_REPOSITORY";
auto repo = context.env.get("GITHUB_REPOSITORY");
/* "GITHUB_RUN_ID" */ auto id = env.get_nonempty("GITHUB_RUN_ID").value_or("");
std::string name = "GITHUB_" + std::string("EVENT_NAME");
constexpr std::string_view kRef = "GITHUB_REF";
auto attempt = read(R"(GITHUB_RUN_ATTEMPT)");
fail_bad_input("GITHUB_RUN_ATTEMPT is not a number: " + text);
"""
    assert reads(sample) == [
        (3, "GITHUB_REPOSITORY"),
        (4, "GITHUB_RUN_ID"),
        (5, "GITHUB_"),
        (6, "GITHUB_REF"),
        (7, "GITHUB_RUN_ATTEMPT"),
    ]
    assert reads('auto out = env.get("GITHUB_OUTPUT");', allowed=STEP_FILES) == []


def test_no_github_variable_read_outside_its_reader():
    problems = []
    for relative, path in sources():
        allowed = READERS.get(relative, frozenset())
        if allowed is None:
            continue
        for line, variable in reads(path.read_text(encoding="utf-8", errors="replace"), allowed):
            problems.append(f"{relative}:{line}: {variable}")
    assert not problems, (
        "GitHub Actions variables read outside the core's readers (the run's identity is "
        "context.run, gatekit/run_info.hpp: add a field to RunInfo and run_info_from, then read "
        "it there; the step's files go through context.workflow, the token through "
        "github::options_for):\n" + "\n".join(problems))


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-q"]))
