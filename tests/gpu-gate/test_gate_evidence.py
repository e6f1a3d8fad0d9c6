"""What a gate pass proves (docs/gpu-gate.md, "What a pass proves"), through the built tool on
real repositories with a bare remote and real pytest runs:

- a GPU pass whose GPU tests all skipped ("CUDA not available") while the CPU tests in the
  scope ran records nothing (exit 3): the rule of `suite-report ran`, with the GPU tests the
  selection file's GPU legs select;
- a pass that imported the package from another clone (`pip install -e`, in a real virtual
  environment) instead of the tree under test records nothing (exit 3) and names the module
  and the file; once the tests import the tree (pytest's `pythonpath`), the tree's own
  defect fails the run."""
import os
import shutil
import subprocess
import sys
import textwrap
import venv
from pathlib import Path

import pytest

sys.path.insert(0, os.path.join(os.environ["GATEKIT_SOURCE_DIR"], "tests", "support"))
from git_remote import clone_with_remote, git  # noqa: E402

TOOL = Path(os.environ["GATEKIT_BUILD_DIR"]) / "tools" / "gpu-gate" / "gpu-gate"
FAKE_GPU = {"GATEKIT_HIP_LIBRARY": str(Path(os.environ["GATEKIT_BUILD_DIR"]) / "tests" / "smoke-runner" / "stub" /
                                      "libgatekit_fake_hip.so"),
            "GATEKIT_CUDA_LIBRARY": "none", "FAKE_HIP_DEVICES": "1"}


def gate(cwd, *args, python=sys.executable):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_", "PYTEST_", "PYTHONPATH"))}
    env.update(FAKE_GPU)
    return subprocess.run([str(TOOL), *args], cwd=cwd, capture_output=True, text=True, env=env)


def write(root, files):
    for path, text in files.items():
        file = Path(root) / path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(textwrap.dedent(text))


def project(tmp_path, files, python=sys.executable):
    """A repository whose base branch (origin/main) holds `files` and the gate's configuration."""
    remote, work = clone_with_remote(tmp_path)
    write(work, {
        ".gitignore": "__pycache__/\n*.egg-info/\n",
        ".github/gatekit/gpu-gate.yml": f"""\
            command: [{python}, -m, pytest, -q, -p, no:cacheprovider, "--junitxml={{junit}}", "{{tests}}"]
            scope:
              folders: [tests/gpu]
            """,
        **files})
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "project")
    git(work, "push", "-q", "origin", "main")
    git(work, "remote", "set-head", "origin", "main")
    return work


def results(repo):
    return git(repo, "for-each-ref", "--format=%(refname)", "refs/gatekit-gate-mine/").split()


def test_every_gpu_test_skipped_is_no_evidence_though_the_cpu_tests_in_scope_passed(tmp_path):
    work = project(tmp_path, {
        ".github/gatekit/suite.yml": """\
            version: 1
            legs:
              cpu: {markers: not gpu}
              gpu: {markers: gpu, device: gpu}
            """,
        "pytest.ini": "[pytest]\nmarkers =\n    gpu: needs a GPU\n    nightly: costly\n",
        # The GPU tests skip where the test environment sees no CUDA, as ROCm/aorta's did.
        "tests/gpu/test_kernels.py": """\
            import pytest

            @pytest.mark.gpu
            @pytest.mark.skipif(True, reason="CUDA not available")
            def test_attention():
                pass

            @pytest.mark.gpu
            @pytest.mark.skipif(True, reason="CUDA not available")
            def test_matmul():
                pass

            def test_shapes_on_the_cpu():
                assert (2, 3) == (2, 3)
            """,
    })
    done = gate(work, "run", "--machine", "m1")
    assert done.returncode == 3, done.stdout + done.stderr
    assert done.stderr.splitlines()[-1] == (
        "gpu-gate: error: no GPU evidence: zero GPU tests ran: all 2 GPU tests in the report were skipped (the GPU "
        "legs' tests: -m (gpu)); skipped: CUDA not available: 2. A GPU pass passes only with GPU tests that ran: the "
        "test environment may not see the GPU the probe saw; nothing is recorded")
    assert results(work) == []

    # Once one GPU test runs, the pass is evidence, and its verdict is recorded.
    text = (work / "tests/gpu/test_kernels.py").read_text().replace(
        '@pytest.mark.skipif(True, reason="CUDA not available")\ndef test_matmul', "def test_matmul", 1)
    (work / "tests/gpu/test_kernels.py").write_text(text)
    git(work, "commit", "-q", "-am", "matmul runs")
    done = gate(work, "run", "--machine", "m1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert ("evidence of the gate pass: 1 of 2 GPU tests ran (the GPU legs' tests: -m (gpu)); 0 modules of the "
            "repository, all from the tested tree") in done.stdout.splitlines()
    assert len(results(work)) == 1


def test_a_package_installed_from_another_clone_is_refused_and_the_fix_the_guide_gives_works(tmp_path):
    package = {
        "pyproject.toml": """\
            [build-system]
            requires = ["setuptools>=61"]
            build-backend = "setuptools.build_meta"

            [project]
            name = "metrics"
            version = "0.1.0"

            [tool.setuptools.packages.find]
            where = ["src"]
            """,
        "src/metrics/__init__.py": "def accuracy(hits, total):\n    return hits / total\n",
        "tests/gpu/test_metric.py": "from metrics import accuracy\n\n\ndef test_accuracy():\n    assert accuracy(3, 4) == 0.75\n",
    }
    # Another clone of the project, installed in editable mode into the test environment.
    other = tmp_path / "other"
    write(other, package)
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    installed = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                                "--no-build-isolation", "--no-index", "-e", str(other)], capture_output=True, text=True)
    if installed.returncode != 0:  # pip before 22.3 has no --python
        installed = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
                                    "--no-index", "-e", str(other)], capture_output=True, text=True)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    (tmp_path / "w").mkdir()
    work = project(tmp_path / "w", package, python=python)
    # The change under test breaks the metric; the other clone's copy is still right.
    (work / "src/metrics/__init__.py").write_text("def accuracy(hits, total):\n    return hits / (total + 1)\n")
    git(work, "commit", "-q", "-am", "a broken metric")

    done = gate(work, "run", "--machine", "m1")
    assert done.returncode == 3, done.stdout + done.stderr
    real = os.path.realpath(other / "src" / "metrics" / "__init__.py")
    assert done.stderr.splitlines()[-1] == (
        f"gpu-gate: error: the gate pass did not test this tree: metrics was imported from '{real}' (module metrics), "
        "not from the tested tree. A copy installed from elsewhere (pip install -e of another clone, or a release) "
        "shadows the tree's own package: make the tests import the tree under test (pytest's pythonpath = [\"src\"], "
        "or pip install -e of this checkout), then run again; nothing is recorded")
    assert results(work) == []

    # The guide's fix: pytest puts the tree's src/ first; now the tree's own (broken) metric runs.
    with open(work / "pyproject.toml", "a") as f:
        f.write('\n[tool.pytest.ini_options]\npythonpath = ["src"]\n')
    git(work, "commit", "-q", "-am", "tests import the tree")
    done = gate(work, "run", "--machine", "m1")
    assert done.returncode == 1, done.stdout + done.stderr
    assert ("evidence of the gate pass: 1 of 1 GPU tests ran; 1 modules of the repository, all from the tested tree"
            in done.stdout.splitlines())
    assert len(results(work)) == 1
