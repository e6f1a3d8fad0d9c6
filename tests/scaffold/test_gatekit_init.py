"""scripts/gatekit-init.py: a new repository adopts gatekit from the scaffold alone.

A fresh git repository holding a small Python project of its own (CPU tests, GPU tests
marked `gpu`, a docs test marked `docs`) gets its files from the scaffold, as the guide's
fast path says; its workflows then pass the linters and run under nektos/act for a
documentation-only and a code pull request, with the verdicts the guide documents. The act
runs use tests/e2e/act_harness.py (what is emulated and how: its docstring); the pinned
`gatekit/gatekit/actions/NAME@SHA` references get this source tree.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(SOURCE / "tests" / "e2e"))
sys.path.insert(0, str(SOURCE / "tests" / "workflows"))
import act_harness as h  # noqa: E402
from test_linters import actionlint, shellcheck  # noqa: E402

INIT = SOURCE / "scripts" / "gatekit-init.py"
PIN = "0123456789abcdef0123456789abcdef01234567"
CPU, GPU, GATE = "CPU tests", "GPU tests", "path gate"
PROJECT = {
    "pyproject.toml": '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n\n'
                      '[project]\nname = "mini"\nversion = "0.1.0"\n\n[tool.setuptools.packages.find]\nwhere = ["src"]\n',
    "src/mini/__init__.py": "",
    "src/mini/core.py": "def add(a, b):\n    return a + b\n",
    "src/mini/gpu/__init__.py": "",
    "src/mini/gpu/kernel.py": "def scale(xs, k):\n    return [x * k for x in xs]\n",
    "tests/test_core.py": "from mini.core import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
    "tests/gpu/test_kernel.py": (
        "import os\n\nimport pytest\n\nfrom mini.gpu.kernel import scale\n\n\n"
        "@pytest.mark.gpu\n@pytest.mark.skipif(not os.environ.get('MINI_GPUS'), reason='no GPU visible')\n"
        "def test_scale():\n    assert scale([1, 2], 3) == [3, 6]\n"),
    "tests/test_docs.py": ("from pathlib import Path\n\nimport pytest\n\n\n@pytest.mark.docs\n"
                           "def test_docs_have_a_title():\n"
                           "    assert Path(__file__).parents[1].joinpath('docs/index.md').read_text().startswith('#')\n"),
    "docs/index.md": "# mini\n\nA small project.\n",
    "README.md": "# mini\n",
}
FLAGS = ["--gatekit-sha", PIN, "--python", "3.11,3.12", "--gpu-paths", "src/mini/gpu/**,tests/gpu/**",
         "--gpu-labels", "self-hosted,gpu", "--no-smokes"]


def init(target: Path, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, INIT, "--target", str(target), *flags],
                          capture_output=True, text=True, timeout=60)


def fresh_repo(root: Path) -> Path:
    repo = root / "repo"
    for rel, text in PROJECT.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    h.git(repo, "init", "-q", "-b", "main")
    return repo


class ScaffoldedPR(h.Scenario):
    """A pull request on a fresh repository whose gatekit files the scaffold wrote."""

    def __init__(self, root: Path):  # noqa: super().__init__ copies the demo; this repository is new
        self.root = root
        self.repo = fresh_repo(root)
        done = init(self.repo, *FLAGS)
        assert done.returncode == 0, done.stderr
        self.containers = {wf.name: h.drop_job_containers(wf) for wf in self.workflows()}
        h.git(self.repo, "remote", "add", "origin", f"https://github.com/{h.REPO}.git")
        h.git(self.repo, "add", "-A")
        h.git(self.repo, "commit", "-q", "-m", "base")
        self.base = self.head = h.git(self.repo, "rev-parse", "HEAD")
        h.git(self.repo, "checkout", "-q", "-b", "feature")


def test_writes_every_file_and_pins_one_form(tmp_path):
    repo = fresh_repo(tmp_path)
    done = init(repo, *FLAGS)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "wrote .github/workflows/cpu-tests.yml", "wrote .github/workflows/gpu-tests.yml",
        "wrote .github/gatekit/filters.yml", "wrote .github/gatekit/suite.yml",
        "wrote .github/gatekit/required-checks.txt", "wrote .github/actionlint.yaml", "wrote pytest.ini",
        "the GPU tests' markers: gpu (the GPU leg runs `gpu`, the CPU legs `not gpu`)",
        "next: commit these files, then require the checks listed in .github/gatekit/required-checks.txt"]
    for name in ("cpu-tests.yml", "gpu-tests.yml"):
        text = (repo / ".github" / "workflows" / name).read_text()
        assert "./actions/" not in text.replace("runs ./actions/setup-gatekit", "")
        uses = {line.split("uses:")[1].split()[0] for line in text.splitlines() if "gatekit/gatekit/actions/" in line
                and "uses:" in line}
        assert uses and all(u.startswith("gatekit/gatekit/actions/") and u.endswith("@" + PIN) for u in uses), uses
    gpu = yaml.safe_load((repo / ".github" / "workflows" / "gpu-tests.yml").read_text())
    assert set(gpu["jobs"]) == {"changes", "gpu-baseline", "gpu-tests", "gpu-suite", "gpu-aggregate"}  # --no-smokes
    assert gpu["jobs"]["gpu-aggregate"]["needs"] == ["changes", "gpu-tests", "gpu-suite"]  # the shards' proof too
    assert "container" not in gpu["jobs"]["gpu-tests"]
    assert "on the machine itself (no container)." in (repo / ".github" / "workflows" / "gpu-tests.yml").read_text()
    cpu = yaml.safe_load((repo / ".github" / "workflows" / "cpu-tests.yml").read_text())
    assert cpu["jobs"]["tests"]["strategy"]["matrix"]["python"] == ["3.11", "3.12"]
    assert yaml.safe_load((repo / ".github" / "gatekit" / "suite.yml").read_text())["docs"]["variant"] == "3.12"
    assert (repo / ".github" / "gatekit" / "required-checks.txt").read_text().splitlines()[-2:] == [CPU, GPU]


def test_the_markers_are_registered(tmp_path):
    repo = fresh_repo(tmp_path)
    assert init(repo, *FLAGS).returncode == 0
    for expression in ("not gpu and not nightly", "gpu and not nightly", "docs and not nightly"):
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--collect-only",
                               "-m", expression], cwd=repo, capture_output=True, text=True, timeout=120,
                              env={**os.environ, "PYTHONPATH": str(repo / "src")})
        assert done.returncode == 0, done.stdout + done.stderr
    listed = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--markers"], cwd=repo,
                            capture_output=True, text=True, timeout=120).stdout
    for marker in ("gpu", "nightly", "docs"):
        assert f"@pytest.mark.{marker}: " in listed, listed


def test_the_workflows_pass_the_linters(tmp_path):
    repo = fresh_repo(tmp_path)
    assert init(repo, *FLAGS, "--nightly", "--gpu-install-deps", "--gpu-gate").returncode == 0
    files = sorted((repo / ".github" / "workflows").glob("*.yml"))
    assert [f.name for f in files] == ["cpu-tests.yml", "flaky-nightly.yml", "gate.yml", "gpu-tests.yml"]
    nightly = files[1].read_text()
    assert "./actions/" not in nightly.split("\njobs:", 1)[1] and f"gatekit/gatekit/actions/flaky-tracker@{PIN}" in nightly
    assert "python-version: '3.12'" in nightly and "python -m pip install -e .\n" in nightly
    (tmp_path / "none").mkdir()  # a ROOT without templates: only the --file workflows are checked
    done = subprocess.run(["node", SOURCE / "tests" / "workflows" / "check-workflows.mjs", tmp_path / "none",
                           *[a for f in files for a in ("--file", f)]], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    done = subprocess.run([actionlint(), "-no-color", "-shellcheck", shellcheck(), "-config-file",
                           repo / ".github" / "actionlint.yaml", *files], capture_output=True, text=True, timeout=300)
    assert (done.returncode, done.stdout) == (0, "")


def test_the_gpu_gate_strict_mode_pinned_and_required(tmp_path):
    repo = fresh_repo(tmp_path)
    done = init(repo, *FLAGS, "--gpu-gate")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "wrote .github/workflows/cpu-tests.yml", "wrote .github/workflows/gpu-tests.yml",
        "wrote .github/gatekit/filters.yml", "wrote .github/gatekit/suite.yml",
        "wrote .github/gatekit/required-checks.txt", "wrote .github/actionlint.yaml",
        "wrote .github/workflows/gate.yml", "wrote .github/gatekit/gpu-gate.yml", "wrote pytest.ini",
        "the GPU tests' markers: gpu (the GPU leg runs `gpu`, the CPU legs `not gpu`)",
        "next: commit these files, then require the checks listed in .github/gatekit/required-checks.txt",
        "gate.yml posts gate/gpu with a GitHub App's token from the environment gatekit-gate: create both first "
        '(docs/gpu-gate.md, "Setting up strict mode", in gatekit)']
    # The template as shipped, only its gatekit actions pinned: strict mode, the App's environment,
    # the workflow_run trigger naming the two workflows the scaffold wrote.
    gate = yaml.safe_load((repo / ".github" / "workflows" / "gate.yml").read_text())
    template = yaml.safe_load((SOURCE / "workflows" / "gate.yml").read_text())
    for job in template["jobs"].values():
        for step in job["steps"]:
            if step.get("uses", "").startswith("./actions/"):
                step["uses"] = "gatekit/gatekit/actions/" + step["uses"].removeprefix("./actions/") + "@" + PIN
    assert gate == template
    assert gate[True]["workflow_run"]["workflows"] == [
        yaml.safe_load((repo / ".github" / "workflows" / name).read_text())["name"]
        for name in ("cpu-tests.yml", "gpu-tests.yml")]
    assert gate["jobs"]["post"]["environment"] == "gatekit-gate"
    assert (repo / ".github" / "gatekit" / "required-checks.txt").read_text().splitlines()[-3:] == [CPU, GPU, "gate/gpu"]
    config = yaml.safe_load((repo / ".github" / "gatekit" / "gpu-gate.yml").read_text())
    assert config["scope"] == {"folders": ["tests/gpu"], "modules": [], "extras": []}  # from --gpu-paths


def test_the_gpu_gate_configuration_is_one_gpu_gate_reads(tmp_path):
    """The starter configuration passes gpu-gate's strict reader (an unknown key, a bad
    placeholder: exit 2): `gpu-gate scope` on the scaffolded repository lists its GPU tests."""
    tool = h.BUILD / "tools" / "gpu-gate" / "gpu-gate"
    if not tool.is_file():
        pytest.skip(f"{tool} is not built")
    repo = fresh_repo(tmp_path)
    assert init(repo, *FLAGS, "--gpu-gate").returncode == 0
    h.git(repo, "add", "-A")
    h.git(repo, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "base")
    done = subprocess.run([tool, "scope"], cwd=repo, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "tests/gpu/test_kernel.py" in done.stdout, done.stdout


def test_keeping_the_smokes_and_a_container(tmp_path):
    repo = fresh_repo(tmp_path)
    image = "nvcr.io/nvidia/pytorch:24.01-py3@sha256:" + "a" * 64
    done = init(repo, "--gatekit-sha", PIN, "--gpu-paths", "src/**", "--smokes", "ci/smokes.yaml", "--gpu-install-deps",
                "--container", image, "--container-options", "--gpus all", "--gpu-labels", "self-hosted,linux,a100")
    assert done.returncode == 0, done.stderr
    text = (repo / ".github" / "workflows" / "gpu-tests.yml").read_text()
    assert "ROCm" not in text and "in a container pinned by digest." in text  # the template's image is gone
    gpu = yaml.safe_load(text)
    for job in ("gpu-tests", "workload-regression"):
        assert gpu["jobs"][job]["container"] == {"image": image, "options": "--gpus all"}
        assert gpu["jobs"][job]["runs-on"] == ["self-hosted", "linux", "a100"]
    # The shard job holds issues: write: its tools are the checked ones (verified), built in a
    # fresh folder until a release lists its archive; the smokes' job holds no token.
    for job, given in (("gpu-tests", {"verified": "true", "install-deps": True}),
                       ("workload-regression", {"install-deps": True})):
        setup = [st for st in gpu["jobs"][job]["steps"] if "actions/setup-gatekit@" in st.get("uses", "")]
        assert [st.get("with") for st in setup] == [given]
    for job in ("changes", "gpu-aggregate"):  # GitHub-hosted: setup-gatekit installs what it needs there
        setup = [st for st in gpu["jobs"][job]["steps"] if "actions/setup-gatekit@" in st.get("uses", "")]
        assert [st.get("with") for st in setup] == [None]
    smokes = next(s for s in gpu["jobs"]["workload-regression"]["steps"] if s.get("id") == "smokes")
    assert smokes["with"]["manifest"] == "ci/smokes.yaml"
    rules = yaml.safe_load((repo / ".github" / "gatekit" / "filters.yml").read_text())
    assert "ci/smokes.yaml" in rules["filters"]["gpu"]["paths"]
    assert yaml.safe_load((repo / ".github" / "actionlint.yaml").read_text()) == {
        "self-hosted-runner": {"labels": ["linux", "a100"]}}


def test_it_never_overwrites(tmp_path):
    repo = fresh_repo(tmp_path)
    (repo / ".github" / "gatekit").mkdir(parents=True)
    (repo / ".github" / "gatekit" / "suite.yml").write_text("mine\n")
    done = init(repo, *FLAGS)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("gatekit-init: error: these files exist already; nothing was written (move them away, "
                           "or merge by hand): .github/gatekit/suite.yml\n")
    assert (repo / ".github" / "gatekit" / "suite.yml").read_text() == "mine\n"
    assert not (repo / ".github" / "workflows").exists() and not (repo / "pytest.ini").exists()


@pytest.mark.parametrize("rel", [".github/workflows/gate.yml", ".github/gatekit/gpu-gate.yml"])
def test_it_never_overwrites_the_gpu_gate(tmp_path, rel):
    repo = fresh_repo(tmp_path)
    (repo / rel).parent.mkdir(parents=True)
    (repo / rel).write_text("mine\n")
    done = init(repo, *FLAGS, "--gpu-gate")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("gatekit-init: error: these files exist already; nothing was written (move them away, "
                           f"or merge by hand): {rel}\n")
    assert (repo / rel).read_text() == "mine\n" and not (repo / ".github" / "gatekit" / "suite.yml").exists()
    assert init(repo, *FLAGS).returncode == 0  # without --gpu-gate the file is none of the scaffold's


def test_an_existing_pytest_configuration_is_left_alone(tmp_path):
    """pyproject.toml configures pytest without the selections' markers: it is not edited and no
    pytest.ini shadows it; a root conftest.py registers them, and every leg collects as
    suite-report collects it (--strict-markers, where an unregistered marker in -m is an error)."""
    repo = fresh_repo(tmp_path)
    with open(repo / "pyproject.toml", "a") as f:
        f.write('\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n')
    before = (repo / "pyproject.toml").read_text()
    done = init(repo, *FLAGS)
    assert done.returncode == 0 and not (repo / "pytest.ini").exists()
    assert (repo / "pyproject.toml").read_text() == before
    assert done.stdout.splitlines()[-3:-1] == [
        "the GPU tests' markers: gpu (the GPU leg runs `gpu`, the CPU legs `not gpu`)",
        "pytest is configured in pyproject.toml, which does not register gpu, nightly, docs: conftest.py registers "
        "them (suite-report collects with --strict-markers); or move them into pyproject.toml"]
    for expression in ("(not gpu) and not nightly", "(gpu) and not nightly", "(docs) and not nightly"):
        collected = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--collect-only",
                                    "--strict-markers", "-o", "addopts=", "-m", expression], cwd=repo,
                                   capture_output=True, text=True, timeout=120,
                                   env={**os.environ, "PYTHONPATH": str(repo / "src")})
        assert collected.returncode in (0, 5), collected.stdout + collected.stderr  # 5: no docs test selected


def test_an_existing_root_conftest_is_never_written_over(tmp_path):
    repo = fresh_repo(tmp_path)
    with open(repo / "pyproject.toml", "a") as f:
        f.write('\n[tool.pytest.ini_options]\nmarkers = ["gpu: needs a GPU"]\n')
    (repo / "conftest.py").write_text("# the project's own\n")
    done = init(repo, *FLAGS)
    assert done.returncode == 0, done.stderr
    assert (repo / "conftest.py").read_text() == "# the project's own\n"
    lines = done.stdout.splitlines()
    at = lines.index("pytest is configured in pyproject.toml: register these markers there (suite-report collects "
                     "with --strict-markers, so every marker the selections name must be registered):")
    assert lines[at + 1:at + 3] == ["    nightly: costly: run only by the daily schedule (and gpu-gate's full run)",
                                    "    docs: tests of the documentation: a docs-only change runs only these"]


def test_the_projects_own_device_marker_is_read_from_its_tests(tmp_path):
    """GPU tests marked `cuda` in a project without a pytest configuration: the selections and
    the pytest.ini the scaffold writes name `cuda`, and pytest collects every leg strictly."""
    repo = fresh_repo(tmp_path)
    gpu_test = repo / "tests" / "gpu" / "test_kernel.py"
    gpu_test.write_text(gpu_test.read_text().replace("@pytest.mark.gpu", "@pytest.mark.cuda"))
    done = init(repo, *FLAGS)
    assert done.returncode == 0, done.stderr
    assert "the GPU tests' markers: cuda (the GPU leg runs `cuda`, the CPU legs `not cuda`)" in done.stdout.splitlines()
    suite = yaml.safe_load((repo / ".github" / "gatekit" / "suite.yml").read_text())
    assert suite["legs"] == {"cpu": {"markers": "not cuda"}, "gpu": {"device": "gpu", "markers": "cuda"}}
    assert {d["marker"] for d in suite["device-skips"]} == {"cuda"}
    assert "    cuda: needs a GPU: runs on the GPU runners only\n" in (repo / "pytest.ini").read_text()
    for expression, count in (("cuda and not nightly", 1), ("not cuda and not nightly", 2)):
        collected = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--collect-only",
                                    "-m", expression], cwd=repo, capture_output=True, text=True, timeout=120,
                                   env={**os.environ, "PYTHONPATH": str(repo / "src")})
        assert collected.returncode == 0, collected.stdout + collected.stderr
        assert f"{count}/3 tests collected" in collected.stdout, collected.stdout


@pytest.mark.parametrize("where", ["conftest.py", "pyproject.toml", "setup.cfg", "tox.ini"])
def test_device_markers_registered_anywhere_pytest_reads_them_are_used(tmp_path, where):
    repo = fresh_repo(tmp_path)
    if where == "conftest.py":
        (repo / "conftest.py").write_text('def pytest_configure(config):\n'
                                          '    config.addinivalue_line("markers", "rocm: needs an AMD GPU")\n')
    elif where == "pyproject.toml":
        with open(repo / "pyproject.toml", "a") as f:
            f.write('\n[tool.pytest.ini_options]\nmarkers = ["rocm: needs an AMD GPU", "docs: the docs"]\n')
    else:
        section = "tool:pytest" if where == "setup.cfg" else "pytest"
        (repo / where).write_text(f"[{section}]\nmarkers =\n    rocm: needs an AMD GPU\n    docs: the docs\n")
    done = init(repo, *FLAGS)
    assert done.returncode == 0, done.stderr
    # The tests carry `gpu`, the configuration registers `rocm`: the GPU leg takes both.
    suite = yaml.safe_load((repo / ".github" / "gatekit" / "suite.yml").read_text())
    assert suite["legs"]["gpu"]["markers"] == "gpu or rocm" and suite["legs"]["cpu"]["markers"] == "not (gpu or rocm)"
    if where == "conftest.py":
        assert (repo / "pytest.ini").exists()  # conftest.py registers, but configures nothing
        return
    assert not (repo / "pytest.ini").exists()
    # `gpu` is carried but not registered, `nightly` not registered: the root conftest.py registers
    # them; `rocm` and `docs` are registered already.
    registered = re.findall(r'addinivalue_line\("markers", "(\w+):', (repo / "conftest.py").read_text())
    assert registered == ["gpu", "nightly"]


def test_gpu_markers_named_outright(tmp_path):
    repo = fresh_repo(tmp_path)
    done = init(repo, *FLAGS, "--gpu-markers", "gpu,multi_gpu")
    assert done.returncode == 0, done.stderr
    suite = yaml.safe_load((repo / ".github" / "gatekit" / "suite.yml").read_text())
    assert suite["legs"]["gpu"]["markers"] == "gpu or multi_gpu"
    bad = init(tmp_path / "other", *FLAGS, "--gpu-markers", "gpu,not-a-marker")
    assert (bad.returncode, bad.stderr) == (2, "gatekit-init: error: --gpu-markers: 'not-a-marker' is not allowed here "
                                               "(expected ^[A-Za-z_][A-Za-z0-9_]*$)\n")


@pytest.mark.parametrize("flags,message", [
    (["--gatekit-sha", "main"], "--gatekit-sha: 'main' is not a full commit SHA (40 lowercase hex digits)"),
    ([*FLAGS, "--container", "rocm/dev:7"], "--container: 'rocm/dev:7' must be pinned by digest: "
                                            "NAME[:TAG]@sha256:<64 hex>"),
    ([*FLAGS, "--python", "3.12;rm"], "--python: '3.12;rm' is not allowed here (expected ^3\\.[0-9]{1,2}$)"),
    ([*FLAGS, "--install", "pip install $(x)"],
     "--install, --container-options: '\"', '$', '`', '\\', ': ', ' #' and newlines are not allowed (edit the "
     "workflow by hand for more)"),
    (["--gatekit-sha", PIN], "--gpu-paths: give at least one value"),
])
def test_bad_flags_are_refused(tmp_path, flags, message):
    repo = fresh_repo(tmp_path)
    done = init(repo, *flags)
    assert (done.returncode, done.stderr) == (2, f"gatekit-init: error: {message}\n")
    assert not (repo / ".github").exists()


# ---- the target: checked before anything is written (issue 42, item 13) ----

def written(root: Path) -> list[str]:
    """Every file and folder under root but the .git folder: what a refused run must not add."""
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if ".git" not in p.relative_to(root).parts)


def test_a_missing_target_is_refused(tmp_path):
    done = init(tmp_path / "nowhere", *FLAGS)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"gatekit-init: error: --target: {tmp_path / 'nowhere'} does not exist\n"
    assert written(tmp_path) == []


@pytest.mark.parametrize("git_entry", ["none", "a .git file that is no gitdir link", "an empty .git folder"])
def test_a_folder_that_is_no_git_repository_is_refused(tmp_path, git_entry):
    folder = tmp_path / "plain"
    folder.mkdir()
    if git_entry == "a .git file that is no gitdir link":
        (folder / ".git").write_text("not a link\n")
    elif git_entry == "an empty .git folder":
        (folder / ".git").mkdir()
    before = written(tmp_path)
    done = init(folder, *FLAGS)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"gatekit-init: error: --target: {folder} is not a git repository (git: "), done.stderr
    assert written(tmp_path) == before


def test_a_folder_inside_a_repository_is_refused(tmp_path):
    repo = fresh_repo(tmp_path)
    done = init(repo / "src", *FLAGS)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"gatekit-init: error: --target: {repo / 'src'} is inside the git repository {repo}, not "
                           "its root: give the root\n")
    assert not (repo / "src" / ".github").exists() and not (repo / ".github").exists()


def test_a_dangling_symbolic_link_is_an_existing_file(tmp_path):
    repo = fresh_repo(tmp_path)
    (repo / ".github" / "gatekit").mkdir(parents=True)
    (repo / ".github" / "gatekit" / "suite.yml").symlink_to(tmp_path / "missing.yml")
    before = written(repo)
    done = init(repo, *FLAGS)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("gatekit-init: error: these files exist already; nothing was written (move them away, or "
                           "merge by hand): .github/gatekit/suite.yml (a symbolic link to a missing path)\n")
    assert written(repo) == before and not (tmp_path / "missing.yml").exists()


def test_a_symbolic_link_or_a_file_on_the_way_is_refused(tmp_path):
    repo = fresh_repo(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (repo / ".github").symlink_to(outside)  # writing through it would write outside the repository
    done = init(repo, *FLAGS)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("gatekit-init: error: .github is a symbolic link: gatekit-init writes only into real "
                           "folders of the repository (.github/workflows/cpu-tests.yml would go through it)\n")
    assert list(outside.iterdir()) == [] and not (repo / "pytest.ini").exists()
    (repo / ".github").unlink()
    (repo / ".github").mkdir()
    (repo / ".github" / "gatekit").write_text("a file\n")
    done = init(repo, *FLAGS)
    assert (done.returncode, done.stderr) == (2, "gatekit-init: error: .github/gatekit is a file where "
                                                 ".github/gatekit/filters.yml needs a folder\n")
    assert written(repo / ".github") == ["gatekit"] and not (repo / "pytest.ini").exists()


def in_namespace(script: str, *args) -> subprocess.CompletedProcess:
    """Runs `sh -c script` as root of a new user and mount namespace (a read-only bind mount or a
    small tmpfs, whoever runs the test); skips where the kernel offers no user namespaces."""
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script, *map(str, args)], capture_output=True, text=True,
                          timeout=120)
    if done.returncode != 0 and "unshare:" in done.stderr:
        pytest.skip(f"no user namespace here: {done.stderr.strip()}")
    return done


def test_an_unwritable_folder_is_refused_before_anything_is_written(tmp_path):
    repo = fresh_repo(tmp_path)
    (repo / ".github" / "workflows").mkdir(parents=True)  # writable; .github/gatekit goes into the read-only one
    before = written(repo)
    # .github read-only, as root too (permission bits would not stop root): cpu-tests.yml's folder
    # is writable, filters.yml's is not, so a run that writes as it goes leaves a partial scaffold.
    script = ('mount --bind "$0/.github" "$0/.github" && mount -o remount,bind,ro "$0/.github" && '
              'mount --bind "$0/.github/workflows" "$0/.github/workflows" && '
              'mount -o remount,bind,rw "$0/.github/workflows" && exec "$@"')
    done = in_namespace(script, repo, sys.executable, INIT, "--target", repo, *FLAGS)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr == (f"gatekit-init: error: cannot write .github/gatekit/filters.yml: {repo / '.github'} is not "
                           "writable (a read-only file system)\n")
    assert written(repo) == before


def test_a_write_that_fails_midway_keeps_nothing(tmp_path):
    """A disk that fills after every check passed: the files written before the failure are
    removed, the folders made for them too (exit 3)."""
    script = ('mount -t tmpfs -o size=32k tmpfs "$0" && cd "$0" && git init -q --template= . && '
              '"$@" --target .; echo "exit $?"; find . -path ./.git -prune -o -print')
    done = in_namespace(script, tmp_path, sys.executable, INIT, *FLAGS)
    lines = done.stdout.splitlines()
    assert lines[-2:] == ["exit 3", "."], done.stdout + done.stderr
    assert done.stderr.startswith("gatekit-init: error: cannot write "), done.stderr
    assert done.stderr.endswith(": No space left on device; nothing was kept (the files written before it were "
                                "removed)\n"), done.stderr
    assert "wrote" not in done.stdout


# ---- the scaffolded repository's pull requests, under act ----

def test_docs_only_pr(tmp_path):
    pr = ScaffoldedPR(tmp_path)
    pr.append("docs/index.md", "\nMore words.\n")
    pr.commit()
    o = pr.run(matrix="python:3.12", timeout=900)
    for wf in (CPU, GPU):
        assert o.verdict(wf, GATE) == "succeeded", o.tail()
        assert sorted(o.json_output(wf, GATE, "changes")) == ["docs"]
    assert o.output(CPU, "pytest (CPU, py3.12)", "run") == "docs"
    assert o.output(CPU, "pytest (CPU, py3.12)", "markers") == "(docs) and not nightly"
    assert "1 passed" in o.log
    assert all(o.verdict(GPU, shard) is None for shard in GPU_SHARDS)  # gated off: never started
    assert (o.verdict(CPU, CPU), o.verdict(GPU, GPU)) == ("succeeded", "succeeded"), o.tail()


GPU_SHARDS = [f"pytest (GPU, shard {k})-{k}" for k in (1, 2, 3)]  # act's names for the matrix jobs


def test_code_pr_touching_the_gpu_code(tmp_path):
    pr = ScaffoldedPR(tmp_path)
    pr.write("src/mini/gpu/kernel.py", "def scale(xs, k):\n    return [k * x for x in xs]\n")
    pr.commit()
    o = pr.run(matrix="python:3.11", env={"MINI_GPUS": "1"}, timeout=900)
    for wf in (CPU, GPU):
        assert sorted(o.json_output(wf, GATE, "changes")) == ["cpu", "gpu"], o.tail()
    assert o.output(CPU, "pytest (CPU, py3.11)", "markers") == "(not gpu) and not nightly"
    for shard in GPU_SHARDS:  # the template's 3 shards
        assert o.output(GPU, shard, "markers") == "(gpu) and not nightly"
        assert o.verdict(GPU, shard) == "succeeded", o.tail()
    assert o.verdict(CPU, "test partition") == "succeeded", o.tail()
    assert (o.verdict(CPU, CPU), o.verdict(GPU, GPU)) == ("succeeded", "succeeded"), o.tail()


def test_the_guides_command_works_as_written(tmp_path):
    """The command of the guide's section 2, run as shown (only the path and the SHA filled in)."""
    guide = (SOURCE / "docs" / "guides" / "workflow-authors.md").read_text()
    command = re.search(r"```sh\n(python3 scripts/gatekit-init\.py .*?)```", guide, re.DOTALL).group(1)
    assert "--target ../myproject" in command and "FULL-40-HEX-COMMIT-SHA" in command
    repo = fresh_repo(tmp_path)
    command = command.replace("../myproject", str(repo)).replace("FULL-40-HEX-COMMIT-SHA", PIN)
    done = subprocess.run(["bash", "-c", command], cwd=SOURCE, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    gpu = (repo / ".github" / "workflows" / "gpu-tests.yml").read_text()
    assert f"uses: gatekit/gatekit/actions/path-gate@{PIN}" in gpu and "run: python -m pip install -e '.[test]'" in gpu
    rules = yaml.safe_load((repo / ".github" / "gatekit" / "filters.yml").read_text())
    assert rules["filters"]["gpu"]["paths"][:2] == ["src/myproject/gpu/**", "tests/gpu/**"]
