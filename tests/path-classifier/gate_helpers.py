"""Shared helpers for the path-classifier scenario tests: run the built tool, read its
GITHUB_OUTPUT, build throwaway git repositories."""
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from github_files import read_outputs  # noqa: E402  (re-exported for the tests)

BUILD = Path(os.environ.get("GATEKIT_BUILD_DIR", "build/dev"))
SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
TOOL = BUILD / "tools" / "path-classifier" / "path-classifier"

RULES = """\
filters:
  cpu:
    mode: deny
    paths: ['.github/**']
    always: [.github/workflows/cpu-tests.yml]
  gpu:
    paths: ['src/kernels/**', 'tests/kernels/**']
"""


class Run:
    def __init__(self, done, outputs, summary):
        self.code = done.returncode
        self.stdout = done.stdout
        self.stderr = done.stderr
        self.outputs = outputs
        self.summary = summary

    @property
    def decision(self):
        return json.loads(self.outputs["decision"])


def run_tool(tmp: Path, args, env_extra=None, rules=RULES, stdin=""):
    rules_file = tmp / "rules.yml"
    rules_file.write_text(rules)
    out, summary = tmp / "out.txt", tmp / "summary.md"
    out.write_text("")
    summary.write_text("")
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp), "GITHUB_ACTIONS": "true",
           "GITHUB_OUTPUT": str(out), "GITHUB_STEP_SUMMARY": str(summary)}
    env.update(env_extra or {})
    done = subprocess.run([str(TOOL), "--rules", str(rules_file), *args], env=env, cwd=tmp,
                          capture_output=True, text=True, input=stdin, timeout=120)
    return Run(done, read_outputs(out), summary.read_text())


def git(repo: Path, *args) -> str:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com")
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True,
                          env=env).stdout.strip()


def commit_files(repo: Path, files: dict, message: str) -> str:
    for name, text in files.items():
        path = repo / name
        if text is None:
            git(repo, "rm", "-q", name)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        git(repo, "add", name)
    git(repo, "commit", "-q", "--allow-empty", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def new_repo(path: Path) -> Path:
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    return path
