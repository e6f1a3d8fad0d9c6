"""The path gate and the GPU gate agree on what needs a GPU result (issue 43, item 12).

Both built tools judge the same change, on the same real git clone, by the same rules file
(.github/gatekit/filters.yml on the default branch): the path gate (path-classifier --base
main) says whether the `gpu` filter is relevant, `gpu-gate status` whether gate/gpu waits for
a result (pending) or needs none (success). The table holds the paths a real ML repository
changes: analysis scripts and notebooks, docs, Dockerfile, requirements*.txt, conftest.py,
pytest.ini, GPU kernels and tests, renames across the filter's edge. For every row:
gpu filter relevant <=> gate/gpu requires a result.

Before the gate read the filter, a change to analysis scripts only (15 of 36 December commits
on a real ML repository) left gate/gpu pending although the path gate ran no GPU job:
test_an_analysis_script_change_needs_no_gpu_result fails on that behaviour."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, os.path.join(os.environ["GATEKIT_SOURCE_DIR"], "tests", "support"))
from git_remote import clone_with_remote, git  # noqa: E402

BUILD = Path(os.environ["GATEKIT_BUILD_DIR"])
GATE = BUILD / "tools" / "gpu-gate" / "gpu-gate"
CLASSIFIER = BUILD / "tools" / "path-classifier" / "path-classifier"

# The rules as docs/guides/workflow-authors.md, section 5, has a project write them: the GPU
# suite's code and tests on the gpu allow list, the files every test run depends on in always.
RULES = """\
filters:
  cpu:
    mode: deny
    paths: ['.github/**', 'docs/**', '*.md']
  gpu:
    paths:
      - 'src/model/kernels/**'
      - src/model/__init__.py
      - 'tests/gpu/**'
      - 'docs/examples/**'   # the GPU tests run the docs' examples
    always:
      - Dockerfile
      - 'requirements*.txt'
      - pyproject.toml
      - pytest.ini
      - '**/conftest.py'
  docs:
    category: docs
"""

CONFIG = "scope:\n  folders: [tests/gpu]\n"

BASE_FILES = {
    ".github/gatekit/filters.yml": RULES,
    ".github/gatekit/gpu-gate.yml": CONFIG,
    "README.md": "# model\n",
    "docs/index.md": "# docs\n",
    "docs/examples/attention.md": "# attention\n",
    "Dockerfile": "FROM python:3.12\n",
    "requirements.txt": "torch\n",
    "requirements-dev.txt": "pytest\n",
    "pyproject.toml": "[project]\nname = 'model'\n",
    "pytest.ini": "[pytest]\ntestpaths = tests\n",
    "conftest.py": "",
    "src/model/__init__.py": "",
    "src/model/train.py": "EPOCHS = 1\n",
    "src/model/kernels/attn.py": "def attn(): return 1\n",
    "tests/conftest.py": "",
    "tests/test_train.py": "def test_train(): pass\n",
    "tests/gpu/test_attn.py": "def test_attn(): pass\n",
    "analysis/plot_loss.py": "print('loss')\n",
    "analysis/compare_runs.py": "print('runs')\n",
    "scripts/export_metrics.py": "print('metrics')\n",
    "notebooks/eval.ipynb": "{}\n",
}


def write(repo, files):
    for path, text in files.items():
        file = Path(repo) / path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(text)


def project(tmp_path):
    """A clone of a bare remote whose default branch holds BASE_FILES, on branch feature."""
    remote, work = clone_with_remote(tmp_path)
    write(work, BASE_FILES)
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "base")
    git(work, "push", "-q", "origin", "main")
    git(work, "remote", "set-head", "origin", "main")
    git(work, "checkout", "-q", "-b", "feature")
    return work


def change(work, edits):
    """One commit on feature: path -> text appended ("" adds nothing but creates the file),
    None deletes it, ("mv", new) renames it."""
    for path, edit in edits.items():
        if edit is None:
            git(work, "rm", "-q", path)
        elif isinstance(edit, tuple):
            (Path(work) / edit[1]).parent.mkdir(parents=True, exist_ok=True)
            git(work, "mv", path, edit[1])
        else:
            file = Path(work) / path
            file.parent.mkdir(parents=True, exist_ok=True)
            with open(file, "a") as f:
                f.write(edit)
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "change")


def clean_env(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_", "RUNNER_"))}
    env["HOME"] = str(tmp_path)
    return env


def path_gate_needs_gpu(tmp_path, work):
    out = tmp_path / "outputs.txt"
    out.write_text("")
    env = clean_env(tmp_path)
    env.update({"GITHUB_OUTPUT": str(out), "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")})
    done = subprocess.run([str(CLASSIFIER), "--rules", ".github/gatekit/filters.yml", "--repo-dir", ".",
                           "--base", "main", "--head", "feature", "--no-fetch"],
                          cwd=work, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    outputs = dict(line.split("=", 1) for line in out.read_text().splitlines() if "=" in line and "<<" not in line)
    return outputs["gpu"] == "true"


def gate_status(tmp_path, work):
    done = subprocess.run([str(GATE), "status", "-C", str(work), "--json", "--machine", "m1"],
                          cwd=work, env=clean_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


# (name, edits on feature, whether a GPU result is needed)
CASES = [
    ("analysis script", {"analysis/plot_loss.py": "print(2)\n"}, False),
    ("analysis scripts added and edited", {"analysis/plot_loss.py": "x\n", "analysis/new_report.py": "y\n"}, False),
    ("scripts and a notebook", {"scripts/export_metrics.py": "z\n", "notebooks/eval.ipynb": "\n"}, False),
    ("analysis script deleted", {"analysis/compare_runs.py": None}, False),
    ("CPU code outside the gpu filter", {"src/model/train.py": "EPOCHS = 2\n"}, False),
    ("docs only", {"docs/index.md": "more\n", "README.md": "more\n"}, False),
    ("a docs example the GPU tests run", {"docs/examples/attention.md": "more\n"}, True),
    ("analysis script and docs", {"analysis/plot_loss.py": "x\n", "docs/index.md": "more\n"}, False),
    ("GPU kernel", {"src/model/kernels/attn.py": "# faster\n"}, True),
    ("GPU kernel and analysis script", {"src/model/kernels/attn.py": "#\n", "analysis/plot_loss.py": "x\n"}, True),
    ("GPU test", {"tests/gpu/test_attn.py": "#\n"}, True),
    ("Dockerfile", {"Dockerfile": "RUN pip install numpy\n"}, True),
    ("requirements.txt", {"requirements.txt": "numpy\n"}, True),
    ("requirements-dev.txt", {"requirements-dev.txt": "hypothesis\n"}, True),
    ("root conftest.py", {"conftest.py": "# fixture\n"}, True),
    ("tests conftest.py", {"tests/conftest.py": "# fixture\n"}, True),
    ("new conftest.py beside analysis", {"analysis/conftest.py": "# fixture\n"}, True),
    ("pytest.ini", {"pytest.ini": "addopts = -q\n"}, True),
    ("the rules file itself", {".github/gatekit/filters.yml": "# more\n"}, True),
    ("analysis script moved into the kernels", {"analysis/plot_loss.py": ("mv", "src/model/kernels/plot_loss.py")}, True),
    ("kernel moved out to analysis", {"src/model/kernels/attn.py": ("mv", "analysis/attn.py")}, True),
    ("kernel deleted", {"src/model/kernels/attn.py": None}, True),
]


@pytest.mark.parametrize("name,edits,needs_gpu", CASES, ids=[c[0] for c in CASES])
def test_the_path_gate_and_the_gpu_gate_agree(tmp_path, name, edits, needs_gpu):
    work = project(tmp_path)
    change(work, edits)
    classified = path_gate_needs_gpu(tmp_path, work)
    status = gate_status(tmp_path, work)
    assert classified == needs_gpu, f"path gate on {name}"
    # The gate requires a result exactly when the path gate runs the GPU jobs.
    assert (status["state"] == "pending") == classified, status
    if not classified:
        assert status["state"] == "success"
        assert status["source_kind"] in ("no-code-change", "no-gpu-change")
    assert status["gpu_filter"] == {"filter": "gpu", "rules": "origin/HEAD:.github/gatekit/filters.yml"}


def test_an_analysis_script_change_needs_no_gpu_result(tmp_path):
    """The regression: before, gate/gpu stayed pending ("no gate result for this tree")."""
    work = project(tmp_path)
    change(work, {"analysis/plot_loss.py": "print(2)\n", "analysis/new_report.py": "print(3)\n"})
    base = git(work, "rev-parse", "main")
    status = gate_status(tmp_path, work)
    assert status["state"] == "success"
    assert status["source_kind"] == "no-gpu-change"
    assert status["description"] == f"no GPU-relevant change since {base[:12]}: 2 files outside the gpu filter"
    assert status["outside_filter"] == ["analysis/new_report.py", "analysis/plot_loss.py"]


def test_an_invalid_or_missing_filter_on_the_default_branch_never_lets_a_change_go(tmp_path):
    """Fail closed: rules the default branch cannot load stop the gate (exit 2, nothing
    posted), and a configuration naming a filter the rules lack is an error too. Without a
    rules file at all (and no gpu_filter setting) the gate reads no filter and waits for a
    result on every change outside the docs, as before."""
    work = project(tmp_path)
    git(work, "checkout", "-q", "main")
    write(work, {".github/gatekit/filters.yml": "filters:\n  gpu:\n    paths: ['[z-a]']\n"})
    git(work, "commit", "-q", "-am", "broken rules")
    git(work, "push", "-q", "origin", "main")
    git(work, "checkout", "-q", "feature")
    change(work, {"analysis/plot_loss.py": "print(2)\n"})
    done = subprocess.run([str(GATE), "status", "-C", str(work), "--json", "--machine", "m1"],
                          cwd=work, env=clean_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stdout
    assert done.stdout == ""
    assert "origin/HEAD:.github/gatekit/filters.yml:3:" in done.stderr

    git(work, "checkout", "-q", "main")
    write(work, {".github/gatekit/filters.yml": RULES.replace("  gpu:\n", "  gpu-suite:\n"),
                 ".github/gatekit/gpu-gate.yml": CONFIG})
    git(work, "commit", "-q", "-am", "the filter renamed")
    git(work, "push", "-q", "origin", "main")
    git(work, "checkout", "-q", "feature")
    done = subprocess.run([str(GATE), "status", "-C", str(work), "--json", "--machine", "m1"],
                          cwd=work, env=clean_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stdout
    assert done.stdout == ""
    assert "no filter 'gpu' (its filters: 'cpu', 'gpu-suite', 'docs')" in done.stderr

    git(work, "checkout", "-q", "main")
    git(work, "rm", "-q", ".github/gatekit/filters.yml")
    git(work, "commit", "-q", "-m", "no rules")
    git(work, "push", "-q", "origin", "main")
    git(work, "checkout", "-q", "feature")
    status = gate_status(tmp_path, work)
    assert status["state"] == "pending"
    assert status["description"] == "no gate result for this tree"
    assert status["gpu_filter"] is None
