"""The Python wheel (pyproject.toml, scikit-build-core): built from this checkout, installed
into a fresh virtual environment the way `pipx install gatekit` / `uv tool install gatekit`
install it, and every tool run from that environment's bin folder.

The CMake build lives in $GATEKIT_WHEEL_BUILD_DIR (default $GATEKIT_BUILD_DIR/wheel-build) and
is reused between runs (with ccache when installed), so only the first run pays for the
release build; its cache must hold the `release` preset's settings (the one source of them,
tests/packaging/test_release_settings.py).
"""
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BUILD = Path(os.environ.get("GATEKIT_BUILD_DIR", SOURCE / "build" / "dev"))
WHEEL_BUILD = Path(os.environ.get("GATEKIT_WHEEL_BUILD_DIR", BUILD / "wheel-build"))
sys.path.insert(0, str(SOURCE / "tests" / "support"))
from release_preset import cmake_cache, differences, preset_cache_variables  # noqa: E402


def tool_names():
    """Every tool folder under tools/ (the ones whose CMakeLists.txt is gatekit_tool(NAME))."""
    names = []
    for cmake in sorted(SOURCE.glob("tools/*/CMakeLists.txt")):
        match = re.search(r"gatekit_tool\(([A-Za-z0-9-]+)\)", cmake.read_text())
        if match:
            names.append(match.group(1))
    return names


def project_version():
    text = (SOURCE / "CMakeLists.txt").read_text()
    return re.search(r"project\(gatekit VERSION ([0-9.]+)", text).group(1)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    env = dict(os.environ)
    if shutil.which("ccache"):
        env.setdefault("CMAKE_CXX_COMPILER_LAUNCHER", "ccache")
    env.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(SOURCE), "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(out), f"--config-settings=build-dir={WHEEL_BUILD}"],
        env=env, capture_output=True, text=True, timeout=3600)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    wheels = list(out.glob("gatekit-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory):
    root = tmp_path_factory.mktemp("venv") / "gatekit"
    subprocess.run([sys.executable, "-m", "venv", str(root)], check=True, timeout=300)
    python = root / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--no-index", "--no-deps", str(wheel)],
                   check=True, capture_output=True, timeout=300)
    return root


def test_the_wheel_is_named_for_any_python_on_this_platform(wheel):
    # gatekit-0.1.0-py3-none-linux_x86_64.whl: the tools use no Python ABI.
    name = wheel.name
    assert name.startswith(f"gatekit-{project_version()}-py3-none-"), name
    with zipfile.ZipFile(wheel) as archive:
        scripts = sorted(Path(n).name for n in archive.namelist() if "/scripts/" in n)
        metadata = archive.read(f"gatekit-{project_version()}.dist-info/METADATA").decode()
    assert scripts == sorted(tool_names())
    assert "Name: gatekit" in metadata


def test_the_wheel_is_built_with_the_release_preset(wheel):
    # The cache of the build the wheel came from holds every setting of the release preset
    # (CMakePresets.json): the unity build, the precompiled header, -O2, no warning set.
    assert differences(preset_cache_variables(SOURCE), cmake_cache(WHEEL_BUILD)) == {}


def test_every_tool_runs_from_the_fresh_environment(venv):
    names = tool_names()
    assert len(names) >= 8, names
    for name in names:
        tool = venv / "bin" / name
        assert tool.is_file(), f"{name} is not in {venv / 'bin'}"
        version = subprocess.run([str(tool), "--version"], capture_output=True, text=True, timeout=60)
        assert version.returncode == 0, (name, version.stderr)
        assert version.stdout.strip() == f"{name} (gatekit) {project_version()}"
        help_ = subprocess.run([str(tool), "--help"], capture_output=True, text=True, timeout=60)
        assert help_.returncode == 0, (name, help_.stderr)
        assert f"Usage: {name} [OPTIONS]" in help_.stdout, help_.stdout[:300]


def test_a_tool_from_the_wheel_decides_like_the_built_one(venv, tmp_path):
    # Not only --help: the installed binary does real work (path-classifier on a rule file).
    rules = tmp_path / "rules.yml"
    rules.write_text("filters:\n  gpu:\n    mode: allow\n    paths:\n      - 'src/kernels/**'\n")
    changed = tmp_path / "files.txt"
    changed.write_text("src/kernels/a.cu\n")
    output = tmp_path / "github_output"
    output.write_text("")
    env = dict(os.environ, GITHUB_OUTPUT=str(output))
    env.pop("GITHUB_EVENT_PATH", None)
    result = subprocess.run([str(venv / "bin" / "path-classifier"), "--rules", str(rules), "--files", str(changed)],
                            capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "gpu=true" in output.read_text().splitlines()
