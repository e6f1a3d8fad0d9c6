"""Outside text from the GitHub API (file names, error messages) stays inert in the gate's log:
the API test server (tests/github_api/server.py) lists hostile file names, the built tool runs
as under GitHub Actions, and its stdout is split into lines the way the runner splits them
(LF, CR and CRLF). Every line must be one the tool meant; none may read as a workflow command."""
import json
import os
import re
import subprocess
import sys
import unicodedata

import pytest

from gate_helpers import SOURCE, TOOL, RULES, read_outputs

sys.path.insert(0, str(SOURCE / "tests" / "github_api"))
from server import FakeGitHub  # noqa: E402

TOKEN = "test-token-123"
HOSTILE = ["a\n::error::pwned", "src/kernels/b\n::stop-commands::x", "docs/##[warning]c.md", "d\r::notice::cr"]


@pytest.fixture
def api():
    srv = FakeGitHub(token=TOKEN)
    url = srv.start()
    yield srv, url
    srv.stop()


def run_gate(tmp_path, url):
    """The tool on pull request #1 of o/r, stdout kept as bytes (no newline translation)."""
    (tmp_path / "rules.yml").write_text(RULES)
    payload = tmp_path / "event.json"
    payload.write_text(json.dumps({"pull_request": {"number": 1, "base": {"sha": "b" * 40},
                                                    "head": {"sha": "a" * 40}}}))
    out, summary = tmp_path / "out.txt", tmp_path / "summary.md"
    out.write_text("")
    summary.write_text("")
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "GITHUB_ACTIONS": "true",
           "GITHUB_OUTPUT": str(out), "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_EVENT_NAME": "pull_request",
           "GITHUB_EVENT_PATH": str(payload), "GITHUB_REPOSITORY": "o/r", "GITHUB_API_URL": url,
           "GITHUB_TOKEN": TOKEN}
    done = subprocess.run([str(TOOL), "--rules", str(tmp_path / "rules.yml"), "--repo-dir", str(tmp_path / "none")],
                          env=env, cwd=tmp_path, capture_output=True, timeout=120)
    return done, read_outputs(out), summary.read_text()


def runner_lines(data: bytes):
    """Lines as the runner's StreamReader.ReadLine yields them."""
    text = data.decode("utf-8", errors="replace")
    lines = re.split(r"\r\n|\r|\n", text)
    return lines[:-1] if lines and lines[-1] == "" else lines


def reads_as_command(line: str) -> bool:
    """Strict reading of the runner's rules: `::` after leading whitespace, or `##[` anywhere,
    with controls and format characters (which culture-aware search may skip) removed."""
    folded = "".join(c for c in line if unicodedata.category(c) not in ("Cc", "Cf") or c.isspace())
    return folded.lstrip().startswith("::") or "##[" in folded


# Lines the tool itself prints as commands.
OWN_COMMANDS = ("::add-mask::", "::group::", "::endgroup::", "::warning ")


def test_hostile_file_names_from_the_api_stay_on_their_lines(tmp_path, api):
    srv, url = api
    srv.add_pull("o/r", 1, files=HOSTILE)
    done, outputs, summary = run_gate(tmp_path, url)
    assert done.returncode == 0, done.stderr
    lines = runner_lines(done.stdout)
    # The listing note's wording (pages, requests) is the GitHub client's; its shape is enough here.
    assert re.fullmatch(r"GitHub API: 4 files in \d+ \w+", lines[1]), lines[1]
    assert lines[:1] + lines[2:] == [
        f"::add-mask::{TOKEN}",
        "::group::Path gate decision",
        "Changed files: 4 from GitHub API, pull request #1 (event pull_request)",
        "cpu (deny): relevant - `a\\n::error::pwned` matches no deny pattern",
        "gpu (allow): relevant - `src/kernels/b\\n::stop-commands::x` is included by `src/kernels/**`",
        "Relevant: cpu, gpu",
        "::endgroup::",
    ]
    assert [l for l in lines if reads_as_command(l) and not l.startswith(OWN_COMMANDS)] == []
    assert runner_lines(done.stderr) == []
    # The files are not the log: GITHUB_OUTPUT carries the names exactly (JSON-escaped).
    assert json.loads(outputs["decision"])["filters"]["cpu"]["file"] == "a\n::error::pwned"
    assert "| `cpu` | deny | ✅ runs | `a\\n::error::pwned` | — | `a\\n::error::pwned` matches no deny pattern |" in summary


def test_api_error_text_stays_inert_in_the_fail_open_warning(tmp_path, api):
    srv, url = api
    srv.add_pull("o/r", 1, files=["src/kernels/a.cu"])
    srv.add_fault("GET", r"/pulls/1/files$", "status", times=None, status=422,
                  message="bad\n::error::pwned\r##[warning]legacy")
    done, outputs, summary = run_gate(tmp_path, url)
    assert done.returncode == 0, done.stderr
    lines = runner_lines(done.stdout)
    failed = "the GitHub API failed while listing files: GET /repos/o/r/pulls/1/files?per_page=100: HTTP 422: "
    docs = " (https://docs.github.com/rest)"  # the error's documentation_url
    assert lines == [
        f"::add-mask::{TOKEN}",
        # Annotation data: the runner unescapes %0A and %0D into the message, on one line.
        f"::warning title=path gate::fail-open: {failed}bad%0A::error::pwned%0D##\\x5bwarning]legacy{docs}; "
        "every filter is relevant",
        "::group::Path gate decision",
        "Changed files: 0 from GitHub API, pull request #1 (event pull_request)",
        f"cpu (deny): relevant - fail-open: {failed}bad\\n::error::pwned\\r##\\x5bwarning]legacy{docs}",
        f"gpu (allow): relevant - fail-open: {failed}bad\\n::error::pwned\\r##\\x5bwarning]legacy{docs}",
        "Relevant: cpu, gpu",
        "::endgroup::",
    ]
    assert [l for l in lines if reads_as_command(l) and not l.startswith(OWN_COMMANDS)] == []
    assert outputs["cpu"] == "true" and outputs["gpu"] == "true"
    assert ("> Fail-open: the GitHub API failed while listing files: GET /repos/o/r/pulls/1/files?per\\_page=100: "
            f"HTTP 422: bad\\\\n::error::pwned\\\\r##\\[warning\\]legacy{docs}. Every filter is relevant.") in summary
