"""The demo's GPU filter holds every file its GPU jobs read.

workflow-authors.md's rule for an allow list: include everything the GPU jobs read, the code
they call included. This test derives that set from the demo itself, so it cannot drift from
the sources: the Python modules the smoke manifest runs (`python3 -m MODULE`) and the
GPU-marked test files with their conftest.py files, then every module of the demo's own
packages they import, transitively (ast import analysis; a package's __init__.py runs on every
import below it), plus the manifest and pyproject.toml. Each such file, as a one-file change,
must make the built path-classifier say gpu=true with the demo's real rules.
"""
import ast
import json
import os
import subprocess
from pathlib import Path

import pytest
import yaml  # PyYAML, from tests/requirements.txt

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BUILD = Path(os.environ["GATEKIT_BUILD_DIR"]).resolve()
DEMO = SOURCE / "examples" / "demo-project"
SRC = DEMO / "src"  # pyproject.toml: [tool.setuptools.packages.find] where = ["src"]
RULES = DEMO / ".github" / "gatekit" / "filters.yml"
MANIFEST = DEMO / "config" / "ci" / "gpu_regression_smokes.yaml"
GPU_MARKS = {"gpu", "rocm"}  # pyproject.toml's GPU legs: -m "gpu or rocm"


def module_files(name: str) -> list:
    """The demo files Python runs to import NAME: each package's __init__.py, then the module."""
    files, parts = [], name.split(".")
    for i in range(1, len(parts) + 1):
        base = SRC.joinpath(*parts[:i])
        if (base / "__init__.py").is_file():
            files.append(base / "__init__.py")
        elif base.with_suffix(".py").is_file():
            files.append(base.with_suffix(".py"))
            break  # a module: any further part is a name inside it
        else:
            break  # not part of the demo's packages (stdlib, pytest, a name in a package)
    return files


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(path: Path) -> set:
    """Every module name PATH imports; `from P import N` also names P.N, which may be a module."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = ""  # relative imports resolve against it; test files are not in a package here
    if path.is_relative_to(SRC):
        package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package, up level - 1
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def closure(roots) -> set:
    """ROOTS and every demo source file they import, transitively."""
    seen, todo = set(), list(roots)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for name in imported_names(path):
            todo.extend(f for f in module_files(name) if f not in seen)
    return seen


def smoke_modules() -> list:
    modules = []
    for smoke in yaml.safe_load(MANIFEST.read_text())["smokes"]:
        argv = [str(a) for a in smoke["command"]]
        if Path(argv[0]).name.startswith("python") and "-m" in argv:
            modules.append(argv[argv.index("-m") + 1])
    return modules


def marks_gpu(path: Path) -> bool:
    """A test file with a pytest.mark.gpu / pytest.mark.rocm anywhere (decorator or pytestmark)."""
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Attribute) and node.attr in GPU_MARKS and isinstance(node.value, ast.Attribute) \
                and node.value.attr == "mark":
            return True
    return False


def gpu_test_files() -> list:
    tests = [p for p in sorted((DEMO / "tests").rglob("test_*.py")) if marks_gpu(p)]
    conftests = {folder / "conftest.py" for t in tests for folder in [t.parent, *t.parent.parents]
                 if folder.is_relative_to(DEMO / "tests") and (folder / "conftest.py").is_file()}
    return tests + sorted(conftests)


def read_by_gpu_jobs() -> list:
    roots = []
    for module in smoke_modules():
        files = module_files(module)
        assert files and files[-1].stem == module.rpartition(".")[2], f"smoke module {module} is not in {SRC}"
        roots.extend(files)
    roots.extend(gpu_test_files())
    return sorted({*closure(roots), MANIFEST, DEMO / "pyproject.toml"})


def gpu_verdict(path: str, tmp_path: Path) -> dict:
    """The demo's real rules on a change of the one file PATH, as the gate job decides it."""
    listing, output = tmp_path / "files.txt", tmp_path / "github_output"
    listing.write_text(path + "\n")
    output.write_text("")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    done = subprocess.run([str(BUILD / "tools" / "path-classifier" / "path-classifier"), "--rules", str(RULES),
                           "--files", str(listing)], cwd=DEMO, capture_output=True, text=True, timeout=60,
                          env={**env, "GITHUB_OUTPUT": str(output)})
    assert done.returncode == 0, done.stdout + done.stderr
    lines = output.read_text().splitlines()
    decision = json.loads(next(line.split("=", 1)[1] for line in lines if line.startswith("decision=")))
    assert decision["fail_open"] in (None, False), decision  # a fail-open "true" would prove nothing
    return decision["filters"]["gpu"]


def test_the_analysis_finds_what_the_gpu_jobs_read():
    """The import analysis itself: the smokes' module, code it reaches only through imports,
    and a package __init__.py; nothing the GPU jobs never load."""
    files = {str(p.relative_to(DEMO)) for p in read_by_gpu_jobs()}
    for expected in ["src/tinyml/smoke.py", "src/tinyml/__init__.py", "src/tinyml/stream/queue.py",
                     "src/tinyml/stream/__init__.py", "src/tinyml/kernels/attention.py",
                     "tests/kernels/test_attention_gpu.py", "tests/conftest.py"]:
        assert expected in files
    assert "tests/test_queue.py" not in files and "docs/index.md" not in files


@pytest.mark.parametrize("path", [str(p.relative_to(DEMO)) for p in read_by_gpu_jobs()])
def test_every_file_the_gpu_jobs_read_runs_them(path, tmp_path):
    verdict = gpu_verdict(path, tmp_path)
    assert verdict["relevant"] is True, (
        f"a change to {path} gives gpu=false, but the GPU jobs read it: add it to the gpu filter of "
        f"{RULES.relative_to(SOURCE)} ({verdict})")


@pytest.mark.parametrize("path", ["docs/index.md", "tests/test_queue.py", "README.md"])
def test_files_the_gpu_jobs_never_read_do_not_run_them(path, tmp_path):
    assert gpu_verdict(path, tmp_path)["relevant"] is False
