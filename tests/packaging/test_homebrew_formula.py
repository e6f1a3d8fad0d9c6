"""packaging/homebrew/gatekit.rb: Ruby parses it, and it stays in step with the build.

- `ruby -c` accepts it (ruby comes from apt: scripts/install-deps.sh);
- its dependencies are exactly the libraries cmake/GatekitDependencies.cmake finds with
  find_package (Threads is the system's; Catch2 builds the tests, which the formula skips);
- its test runs every tool (tools/*/ but the core);
- its minimum macOS is release.yml's MACOSX_DEPLOYMENT_TARGET.
No Homebrew here: whether `brew install` builds it is proven on a Mac only.
"""
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
FORMULA = SOURCE / "packaging" / "homebrew" / "gatekit.rb"
# Homebrew's formula name -> the CMake package it provides; None: a build tool, no package.
HOMEBREW_TO_CMAKE = {"boost": "Boost", "yaml-cpp": "yaml-cpp", "cli11": "CLI11", "curl": "CURL",
                     "expat": "EXPAT", "cmake": None, "ninja": None}
NOT_FROM_HOMEBREW = {"Threads", "Catch2"}
# macOS names Homebrew's `depends_on macos:` takes, by major version.
MACOS_NAMES = {"11": "big_sur", "12": "monterey", "13": "ventura", "14": "sonoma", "15": "sequoia"}


def formula_dependencies(text: str) -> set:
    """The CMake packages the formula's depends_on / uses_from_macos lines provide."""
    names = re.findall(r'^\s*(?:depends_on|uses_from_macos)\s+"([^"]+)"', text, re.MULTILINE)
    unknown = [n for n in names if n not in HOMEBREW_TO_CMAKE]
    if unknown:
        raise AssertionError(f"{FORMULA}: Homebrew dependencies this test cannot map to CMake: {unknown}")
    return {HOMEBREW_TO_CMAKE[n] for n in names} - {None}


def cmake_packages() -> set:
    text = (SOURCE / "cmake" / "GatekitDependencies.cmake").read_text()
    return set(re.findall(r"^\s*find_package\(\s*([A-Za-z0-9_-]+)", text, re.MULTILINE)) - NOT_FROM_HOMEBREW


def test_ruby_parses_the_formula():
    ruby = shutil.which("ruby")
    assert ruby, "ruby is not installed (scripts/install-deps.sh installs it from apt)"
    done = subprocess.run([ruby, "-c", str(FORMULA)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Syntax OK"


def test_ruby_rejects_a_broken_formula(tmp_path):
    # The check above can fail: an `end` too few is a syntax error.
    ruby = shutil.which("ruby")
    assert ruby, "ruby is not installed (scripts/install-deps.sh installs it from apt)"
    broken = tmp_path / "gatekit.rb"
    broken.write_text(FORMULA.read_text().rstrip()[: -len("end")])
    done = subprocess.run([ruby, "-c", str(broken)], capture_output=True, text=True)
    assert done.returncode != 0
    assert "syntax error" in done.stderr


def test_dependencies_are_the_find_package_list():
    assert cmake_packages() == {"Boost", "CURL", "yaml-cpp", "CLI11", "EXPAT"}
    assert formula_dependencies(FORMULA.read_text()) == cmake_packages()


@pytest.mark.parametrize("line", ['  depends_on "yaml-cpp"\n', '  uses_from_macos "expat"\n'])
def test_a_missing_dependency_is_noticed(line):
    text = FORMULA.read_text()
    assert line in text
    assert formula_dependencies(text.replace(line, "")) != cmake_packages()


def test_the_formula_tests_every_tool():
    tools = sorted(p.name for p in (SOURCE / "tools").iterdir()
                   if p.is_dir() and p.name != "core" and (p / "CMakeLists.txt").exists())
    listed = re.search(r"%w\[([^\]]*)\]\.each do \|tool\|", FORMULA.read_text())
    assert listed, "the formula's test names no tools"
    assert sorted(listed.group(1).split()) == tools


def test_minimum_macos_is_the_release_deployment_target():
    release = (SOURCE / ".github" / "workflows" / "release.yml").read_text()
    target = re.findall(r"MACOSX_DEPLOYMENT_TARGET:\s*['\"]?([0-9.]+)", release)
    assert target, "release.yml states no MACOSX_DEPLOYMENT_TARGET"
    assert len(set(target)) == 1, target
    major = target[0].split(".")[0]
    assert re.search(rf"depends_on macos: :{MACOS_NAMES[major]}\b", FORMULA.read_text())
