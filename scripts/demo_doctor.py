"""The main job's required-checks part (gatekit-doctor), on the demo project's workflows.

The GitHub API test server (tests/github_api/server.py) plays the demo's repository: its
workflow files are the demo project's, served by the contents API, and its rules are what an
admin set up, first with the mistakes people make, then fixed:
  1. broken   the ruleset requires "CPU test" (a typo: every pull request would wait for it),
              a matrix leg the path gate can skip ("pytest (CPU, py3.12)"), and gate/gpu from
              any source; the gate's environment lets every branch deploy. gatekit-doctor
              names each, with its fix (exit 1);
  2. fixed    the ruleset requires the two aggregators from GitHub Actions and gate/gpu from
              the gate's App; the environment allows the default branch only: all is well
              (exit 0).
run_part(bin_dir, out) returns the checks (name, ok, detail) and writes OUT/doctor/summary.md.
"""
from __future__ import annotations

import os
import subprocess
import sys
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
APP_ID = 424242  # the demo gate App's id
ACTIONS = 15368  # GitHub Actions
DIM, BOLD, RESET = ("\033[2m", "\033[1m", "\033[0m") if sys.stdout.isatty() and not os.environ.get("NO_COLOR") \
    else ("", "", "")


@dataclass
class Check:
    name: str
    ok: bool
    detail: str


def repository(server: FakeGitHub, required: list[dict], environment: dict) -> None:
    """The demo repository as the API shows it: its workflows, one ruleset on main, strict mode."""
    for path in sorted((DEMO / ".github" / "workflows").glob("*.yml")):
        server.add_file(REPO, f".github/workflows/{path.name}", path.read_text())
    server.set_rules(REPO, "main", [{"type": "required_status_checks", "ruleset_id": 1, "ruleset_source": REPO,
                                     "checks": required}, {"type": "pull_request", "ruleset_id": 1}])
    server.add_environment(REPO, "gatekit-gate", variables={"GATEKIT_GATE_APP_CLIENT_ID": "Iv23demo"},
                           secrets=["GATEKIT_GATE_APP_KEY"], **environment)


def doctor(tool: Path, server: FakeGitHub, work: Path, name: str, summary: Path) -> tuple[int, dict]:
    outputs = work / f"{name}-output"
    outputs.write_text("")
    env = {**os.environ, "GITHUB_API_URL": server.base_url, "GITHUB_TOKEN": TOKEN, "GITHUB_OUTPUT": str(outputs),
           "GITHUB_STEP_SUMMARY": str(summary)}
    env.pop("GITHUB_ACTIONS", None)
    done = subprocess.run([str(tool), "--repo", REPO, "--app-id", str(APP_ID)], env=env, capture_output=True,
                          text=True)
    print("\n".join("    " + line for line in done.stdout.splitlines()))
    if done.stderr.strip():
        print(f"    {DIM}{done.stderr.strip()}{RESET}")
    return done.returncode, read_outputs(outputs)


def run_part(bin_dir: Path, out: Path) -> list:
    work = out / "doctor"
    work.mkdir(parents=True, exist_ok=True)
    summary = work / "summary.md"
    summary.write_text("# Required checks and the gate's setup (gatekit-doctor)\n\n")
    tool = bin_dir / "gatekit-doctor" / "gatekit-doctor"
    checks = []
    print(f"\n{BOLD}━━ Required checks: gatekit-doctor on the demo's rules and workflows{RESET}")

    print(f"\n  {BOLD}1. broken{RESET}: a typo, a matrix leg, gate/gpu from any source, an open environment")
    with FakeGitHub(token=TOKEN) as server:
        repository(server, [{"context": "CPU test", "integration_id": ACTIONS},
                            {"context": "pytest (CPU, py3.12)", "integration_id": ACTIONS},
                            {"context": "GPU tests", "integration_id": ACTIONS},
                            {"context": "gate/gpu"}], {"branches": "all"})
        code, outputs = doctor(tool, server, work, "broken", summary)
    found = outputs.get("findings", "?")
    checks.append(Check("a broken setup: every mistake named with its fix", code == 1 and found == "4",
                        f"{found} findings, exit {code}"))

    print(f"\n  {BOLD}2. fixed{RESET}: the aggregators from GitHub Actions, gate/gpu from the App, main only")
    with FakeGitHub(token=TOKEN) as server:
        repository(server, [{"context": "CPU tests", "integration_id": ACTIONS},
                            {"context": "GPU tests", "integration_id": ACTIONS},
                            {"context": "gate/gpu", "integration_id": APP_ID}],
                   {"branches": "custom", "policies": [{"name": "main"}]})
        code, outputs = doctor(tool, server, work, "fixed", summary)
    checks.append(Check("the fixed setup: all is well", code == 0 and outputs.get("result") == "pass",
                        f"result={outputs.get('result', '?')}, exit {code}"))
    return checks
