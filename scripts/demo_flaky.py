"""The main job's flaky-test part (flaky-tracker), on a scratch copy of the demo project.

A test that fails the first time it runs in a run directory, and the life of its issue,
with nothing outside this machine (the GitHub API test server, tests/github_api/server.py):
  1. pull request  pytest runs the CPU tests with the flaky one: it fails; `flaky-tracker
                   rerun` reruns it alone, it passes: the leg is green with a warning, and the
                   merged JUnit report records the attempt (<flakyFailure>);
  2. issue         `flaky-tracker issues --kind pr` opens one issue for the test, labelled
                   `flaky`, its state hidden in the body;
  3. main          20 green runs on main (pytest and `issues --kind main` each); the 20th
                   closes the issue with a comment saying why.
run_part(bin_dir, out) returns the checks (name, ok, detail) and writes OUT/flaky/summary.md.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "examples" / "demo-project"
sys.path.insert(0, str(ROOT / "tests" / "github_api"))
sys.path.insert(0, str(ROOT / "scripts"))
from github_files import read_outputs  # noqa: E402
from server import FakeGitHub  # noqa: E402  (the API test server)

REPO = "demo/tinyml"
TOKEN = "demo-token"
GREENS = 20
TESTS = ["tests/test_flaky_queue.py", "tests/test_queue.py"]
DIM, BOLD, RESET = ("\033[2m", "\033[1m", "\033[0m") if sys.stdout.isatty() and not os.environ.get("NO_COLOR") \
    else ("", "", "")

FLAKY_TEST = '''"""A queue test that depends on timing in real life; here it fails the first time it runs in a
run directory (DEMO_FLAKY_STATE) and passes after, so the demo is deterministic."""
import os
from pathlib import Path


def test_queue_drains_in_time():
    seen = Path(os.environ["DEMO_FLAKY_STATE"]) / "drain.seen"
    first = not seen.exists()
    seen.touch()
    assert not first, "the queue did not drain within 50 ms (first run of the day)"
'''


@dataclass
class Check:
    name: str
    ok: bool
    detail: str


def step(number: int, title: str) -> None:
    print(f"\n  {BOLD}{number}. {title}{RESET}", flush=True)


def clean_env(extra: dict) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GATEKIT_"))}
    env.update(extra)
    return env


def run(argv, cwd: Path, extra: dict, show: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run([str(a) for a in argv], cwd=cwd, env=clean_env(extra), text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if show:
        for line in done.stdout.rstrip("\n").splitlines():
            print(f"    {DIM}│{RESET} {line}")
    return done


def pytest(project: Path, report: Path, state: Path, show: bool = True) -> int:
    return run([sys.executable, "-m", "pytest", "-q", "--tb=line", "-p", "no:cacheprovider", "-m",
                "not gpu and not rocm", f"--junitxml={report}", *TESTS], project,
               {"DEMO_FLAKY_STATE": str(state)}, show).returncode


def tracker(tool: str, project: Path, work: Path, args: list, server=None, show: bool = True):
    outputs, summary = work / "github-output", work / "summary.md"
    outputs.write_text("")
    extra = {"GITHUB_OUTPUT": str(outputs), "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_ACTIONS": "true",
             "DEMO_FLAKY_STATE": str(work / "state")}
    if server is not None:
        extra.update({"GITHUB_API_URL": server.base_url, "GITHUB_TOKEN": TOKEN, "GITHUB_REPOSITORY": REPO})
    done = run([tool, *args], project, extra, show)
    return done, read_outputs(outputs)


def the_issue(server) -> dict:
    issues = list(server.repos[REPO]["issues"].values())
    return issues[0] if len(issues) == 1 else {}


def state_of(issue: dict) -> dict:
    lines = issue.get("body", "").split("\n")
    prefix = "<!-- gatekit-flaky-state: "
    return json.loads(lines[1][len(prefix):-4]) if len(lines) > 1 and lines[1].startswith(prefix) else {}


def run_part(bin_dir: Path, out: Path) -> list:
    tool = str(bin_dir / "flaky-tracker" / "flaky-tracker")
    work = out / "flaky"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    (work / "summary.md").write_text("# Flaky tests (flaky-tracker)\n\n")
    print(f"\n{BOLD}━━ Flaky tests: rerun alone, warn, keep one issue, close it after {GREENS} green main runs{RESET}")
    checks: list[Check] = []
    try:
        checks += stages(tool, work)
    except (RuntimeError, OSError, subprocess.SubprocessError, ValueError) as error:
        checks.append(Check("the flaky-test part ran to its end", False, str(error)))
    return checks


def stages(tool: str, work: Path) -> list:
    checks = []
    project = work / "demo-project"
    shutil.copytree(DEMO, project, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache", "*.egg-info"))
    (project / "tests" / "test_flaky_queue.py").write_text(FLAKY_TEST)
    (work / "state").mkdir()
    report = work / "pr-junit.xml"

    step(1, "pull request: pytest fails on the flaky test; flaky-tracker reruns it alone")
    first = pytest(project, report, work / "state")
    done, outputs = tracker(tool, project, work, ["rerun", "--report", report, "--command",
                                                  f"{sys.executable} -m pytest -p no:cacheprovider -p no:rerunfailures "
                                                  "--junitxml={junit} -- {tests}"])
    warned = [line for line in done.stdout.splitlines() if line.startswith("::warning")]
    checks.append(Check("pytest failed on the flaky test the first time", first == 1, f"pytest exit {first}"))
    checks.append(Check("rerun: the leg passes, with one warning naming the flaky test",
                        done.returncode == 0 and outputs.get("flaky") == "1" and len(warned) == 1
                        and "test_queue_drains_in_time is flaky" in warned[0],
                        f"exit {done.returncode}, flaky={outputs.get('flaky')}, {len(warned)} warning(s)"))
    recorded = [c for c in ET.parse(report).iter("testcase") if c.find("flakyFailure") is not None]
    checks.append(Check("the merged JUnit report records the failed attempt as <flakyFailure>", len(recorded) == 1,
                        f"{len(recorded)} case(s) with <flakyFailure>"))

    with FakeGitHub(token=TOKEN) as server:
        server.load_state({"repos": {REPO: {}}})
        step(2, "flaky-tracker issues --kind pr: one issue for the flaky test (GitHub API test server)")
        done, outputs = tracker(tool, project, work, ["issues", "--report", report, "--kind", "pr",
                                                      "--run-key", "pr-1"], server)
        issue = the_issue(server)
        checks.append(Check("an issue opened, labelled flaky, found by its hidden marker",
                            done.returncode == 0 and issue.get("labels") == ["flaky"]
                            and issue.get("body", "").startswith("<!-- gatekit-flaky-test: tests/test_flaky_queue.py"),
                            f"exit {done.returncode}: {issue.get('title', 'no issue')}"))

        step(3, f"{GREENS} green runs on main: pytest, then flaky-tracker issues --kind main")
        greens = []
        for n in range(1, GREENS + 1):
            main_report = work / f"main-{n}.xml"
            code = pytest(project, main_report, work / "state", show=False)
            done, _ = tracker(tool, project, work, ["issues", "--report", main_report, "--kind", "main",
                                                    "--run-key", f"main-{n}"], server, show=n == GREENS)
            issue = the_issue(server)
            greens.append((n, code, state_of(issue).get("greens"), issue.get("state")))
            print(f"    main run {n:2d}: pytest exit {code}, greens {greens[-1][2]}, issue {greens[-1][3]}", flush=True)
        issue = the_issue(server)
        closing = issue.get("comments", [{}])[-1].get("body", "")
        checks.append(Check(f"the issue closed after {GREENS} green main runs, with a comment saying why",
                            issue.get("state") == "closed" and closing.startswith(f"Closing: {GREENS} green runs")
                            and [g[3] for g in greens[:-1]] == ["open"] * (GREENS - 1),
                            f"{issue.get('state')}: {closing.splitlines()[0] if closing else 'no comment'}"))
    write_summary(work, greens, checks)
    return checks


def write_summary(work: Path, greens: list, checks: list) -> None:
    rows = "\n".join(f"| {n} | {code} | {count} | {state} |" for n, code, count, state in greens)
    chart = ("```mermaid\nstateDiagram-v2\n  [*] --> open: flaked on a pull request (rerun passed)\n"
             f"  open --> open: green main run (1..{GREENS - 1})\n  open --> closed: green main run {GREENS}\n```\n")
    marks = "\n".join(f"| {'pass' if c.ok else 'FAIL'} | {c.name} | {c.detail} |" for c in checks)
    with open(work / "summary.md", "a") as f:
        f.write("\n## The issue's life\n\n" + chart + "\n| main run | pytest exit | greens | issue |\n"
                "| --- | --- | --- | --- |\n" + rows + "\n\n## Checks\n\n| | check | detail |\n| --- | --- | --- |\n"
                + marks + "\n")
