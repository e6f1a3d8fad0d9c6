#!/usr/bin/env python3
"""Runs one CLI scenario: the built tool on fixtures, then checks its exit code, stdout,
stderr, GITHUB_OUTPUT and job summary against the expected files in the scenario folder.

Scenario folder:
  args      one argument per line (required)
  env       KEY=VALUE lines added to a minimal environment (optional)
  setup     a bash script run in the scratch folder first, e.g. to build a git repo (optional)
  stdin     fed to the tool's standard input (optional)
  exit      the expected exit code (required)
  stdout, stderr, output, summary   expected texts (each optional; checked when present)
  normalize lines `REGEX => REPLACEMENT` applied to every actual text (optional)
  github    a state for the GitHub API test server (tests/github_api/README.md, "State JSON"):
            the server runs in this process for the tool's run and stops after it; its base
            URL is the placeholder {api} (optional)
  github-faults  a JSON list of faults for that server (README.md, "Faults") (optional)

Placeholders {scenario} {tmp} {source} {build} {api} are replaced in args, env and setup; in
the actual texts the scratch and scenario paths and the server's URL are replaced back by
{tmp}, {scenario} and {api}.
Random heredoc delimiters in GITHUB_OUTPUT are replaced by EOF.
UPDATE_EXPECTED=1 rewrites the expected files from the actual run (review the diff!).
"""
import argparse
import contextlib
import difflib
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path


def read(path: Path):
    return path.read_text() if path.exists() else None


@contextlib.contextmanager
def github_server(scenario: Path, source: Path):
    """The GitHub API test server with the scenario's `github` state (and `github-faults`), for
    the length of the run; yields its base URL, or "" for a scenario without one."""
    state = read(scenario / "github")
    if state is None:
        yield ""
        return
    sys.path.insert(0, str(source / "tests" / "github_api"))
    from server import FakeGitHub  # noqa: E402  (tests/github_api/server.py)
    server = FakeGitHub(state=json.loads(state))
    faults = read(scenario / "github-faults")
    if faults:
        server.load_faults(json.loads(faults))
    server.start()
    try:
        yield server.base_url
    finally:
        server.stop()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    parser.add_argument("--scenario", required=True, type=Path)
    opts = parser.parse_args()
    scenario = opts.scenario.resolve()
    source = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
    build = Path(os.environ.get("GATEKIT_BUILD_DIR", Path(opts.tool).resolve().parents[2]))

    with tempfile.TemporaryDirectory(prefix="gatekit-cli-") as tmp_name, github_server(scenario, source) as api:
        tmp = Path(tmp_name).resolve()

        def fill(text: str) -> str:
            return (text.replace("{scenario}", str(scenario)).replace("{tmp}", str(tmp))
                    .replace("{source}", str(source)).replace("{build}", str(build)).replace("{api}", api))

        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp), "LANG": "C.UTF-8",
               "GITHUB_OUTPUT": str(tmp / "github_output"), "GITHUB_STEP_SUMMARY": str(tmp / "github_summary")}
        for key in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
            if key in os.environ:
                env[key] = os.environ[key]
        env_file = read(scenario / "env")
        if env_file:
            for line in env_file.splitlines():
                if line.strip() and not line.startswith("#"):
                    key, _, value = line.partition("=")
                    env[key] = fill(value)
        for key in ("GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY"):
            if env.get(key):
                Path(env[key]).touch()

        setup = read(scenario / "setup")
        if setup is not None:
            done = subprocess.run(["bash", "-euo", "pipefail", "-c", fill(setup)], cwd=tmp, env=env,
                                  capture_output=True, text=True)
            if done.returncode != 0:
                print(f"setup failed ({done.returncode}):\n{done.stdout}{done.stderr}")
                return 1

        args = [fill(a) for a in (read(scenario / "args") or "").splitlines() if a != ""]
        stdin = read(scenario / "stdin")
        done = subprocess.run([opts.tool, *args], cwd=tmp, env=env, input=stdin if stdin is not None else "",
                              capture_output=True, text=True, timeout=120)

        rules = []
        for line in (read(scenario / "normalize") or "").splitlines():
            if "=>" in line:
                pattern, _, replacement = line.partition("=>")
                rules.append((re.compile(pattern.strip()), replacement.strip()))

        def normalize(text: str) -> str:
            # Summaries print paths as Markdown text, where the `_` a scratch folder's random
            # name may hold is escaped: that form is the scratch folder too.
            text = text.replace(str(tmp).replace("_", "\\_"), "{tmp}")
            text = text.replace(str(tmp), "{tmp}").replace(str(scenario), "{scenario}")
            text = text.replace(str(source), "{source}").replace(str(build), "{build}")
            if api:
                text = text.replace(api, "{api}")
            text = re.sub(r"ghadelimiter_[0-9a-f]{16}", "EOF", text)
            for pattern, replacement in rules:
                text = pattern.sub(replacement, text)
            return text

        actual = {
            "exit": f"{done.returncode}\n",
            "stdout": normalize(done.stdout),
            "stderr": normalize(done.stderr),
            "output": normalize(read(tmp / "github_output") or ""),
            "summary": normalize(read(tmp / "github_summary") or ""),
        }
        failures = []
        for name, text in actual.items():
            expected_path = scenario / name
            if os.environ.get("UPDATE_EXPECTED") == "1" and (expected_path.exists() or name in ("exit", "stdout", "stderr")):
                expected_path.write_text(text)
                continue
            expected = read(expected_path)
            if expected is None:
                continue
            if name == "exit":
                expected = expected.strip() + "\n"
            if expected != text:
                diff = difflib.unified_diff(expected.splitlines(True), text.splitlines(True),
                                            f"expected {name}", f"actual {name}")
                failures.append("".join(diff))
        if failures:
            print(f"scenario {scenario.name}: command: {opts.tool} {' '.join(args)}")
            print("\n".join(failures))
            if "stderr" not in [f for f in failures]:
                print("--- stderr of the run ---\n" + actual["stderr"])
            return 1
        print(f"scenario {scenario.name}: ok")
        return 0


if __name__ == "__main__":
    sys.exit(main())
