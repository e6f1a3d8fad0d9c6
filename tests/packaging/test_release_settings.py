"""One source for the release settings: the `release` preset of CMakePresets.json.

Every release build configures with it: setup-gatekit, package-release.sh, CI, the demo
(`cmake --preset release`), the Python wheel (pyproject.toml: `cmake.args`) and the Homebrew
formula (packaging/homebrew/gatekit.rb: `cmake --preset release`). A copy of the settings
drifts (the wheel and the formula once built without the precompiled header, with the
warning set and, the formula, at CMake's -O3), so each packager's settings are worked out
here as CMake would see them and compared with the preset's, setting by setting:

- pyproject.toml: the preset named by `cmake.args`, with `cmake.define` and `cmake.build-type`
  over it (scikit-build-core passes all three to the one configure);
- the formula: its configure command's `--preset` and `-D` arguments, Homebrew's
  std_cmake_args among them, and that command run here (configure only, Homebrew's standard
  arguments standing in for std_cmake_args) with the cache it leaves read back.

The wheel's real build is compared the same way in tests/wheel/test_wheel.py.
"""
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(SOURCE / "tests" / "support"))
from release_preset import cmake_cache, differences, preset_cache_variables  # noqa: E402

FORMULA = SOURCE / "packaging" / "homebrew" / "gatekit.rb"
PYPROJECT = SOURCE / "pyproject.toml"
# Homebrew's std_cmake_args (Library/Homebrew/formula.rb), less
# CMAKE_PROJECT_TOP_LEVEL_INCLUDES, a file of Homebrew's own.
STD_CMAKE_ARGS = ["-DCMAKE_INSTALL_PREFIX={prefix}", "-DCMAKE_INSTALL_LIBDIR=lib", "-DCMAKE_BUILD_TYPE=Release",
                  "-DCMAKE_FIND_FRAMEWORK=LAST", "-DCMAKE_VERBOSE_MAKEFILE=ON", "-Wno-dev", "-DBUILD_TESTING=OFF"]


def release() -> dict:
    return preset_cache_variables(SOURCE)


def apply_arguments(arguments: list) -> tuple:
    """(settings, conflicts) of one configure command's arguments: the cache variables of the
    preset it names, then each -D NAME[:TYPE]=VALUE over them; a -D that gives a preset's
    variable another value is a conflict (NAME -> (preset value, -D value))."""
    settings, conflicts, preset = {}, {}, None
    for i, arg in enumerate(arguments):
        if arg == "--preset" and i + 1 < len(arguments):
            preset = arguments[i + 1]
        elif arg.startswith("--preset="):
            preset = arg.split("=", 1)[1]
    if preset is not None:
        settings.update(preset_cache_variables(SOURCE, preset))
    from_preset = dict(settings)
    for arg in arguments:
        found = re.match(r"^-D([A-Za-z_][A-Za-z0-9_]*)(?::[A-Z]+)?=(.*)$", arg)
        if found:
            name, value = found.groups()
            if name in from_preset and from_preset[name] != value:
                conflicts[name] = (from_preset[name], value)
            settings[name] = value
    return settings, conflicts


def pyproject_arguments(text: str) -> list:
    """The arguments scikit-build-core gives CMake's configure from pyproject.toml's settings."""
    settings = tomllib.loads(text).get("tool", {}).get("scikit-build", {})
    cmake = settings.get("cmake", {})
    arguments = []
    if "build-type" in cmake:
        arguments.append(f"-DCMAKE_BUILD_TYPE:STRING={cmake['build-type']}")
    for name, value in cmake.get("define", {}).items():
        if isinstance(value, bool):
            value = "ON" if value else "OFF"
        arguments.append(f"-D{name}={value}")
    arguments += cmake.get("args", [])
    return arguments


def formula_arguments(text: str, prefix: str = "/usr/local/Cellar/gatekit/HEAD") -> list:
    """The arguments of the formula's configure command (`system "cmake", ...` that neither
    builds nor installs), with `*std_cmake_args` and `*args` (an `args = %w[...]`) expanded."""
    words = {}
    listed = re.search(r"^\s*args\s*=\s*%w\[([^\]]*)\]", text, re.MULTILINE)
    if listed:
        words["args"] = listed.group(1).split()
    words["std_cmake_args"] = [a.format(prefix=prefix) for a in STD_CMAKE_ARGS]
    calls = [line for line in re.findall(r'^\s*system\s+"cmake",\s*(.*)$', text, re.MULTILINE)
             if not re.match(r'"--(build|install)"', line)]
    assert len(calls) == 1, f"{FORMULA}: expected one configuring `system \"cmake\"` line, got {calls}"
    arguments = []
    for item in re.findall(r'"([^"]*)"|\*(\w+)', calls[0]):
        quoted, splat = item
        if splat:
            assert splat in words, f"{FORMULA}: *{splat} is not a list this test knows"
            arguments += words[splat]
        else:
            arguments.append(quoted)
    return arguments


def drift(arguments: list) -> dict:
    """What the configure command with `arguments` gets wrong of the release preset's settings:
    NAME -> (preset value, its value or None). Conflicting -D values count too."""
    settings, conflicts = apply_arguments(arguments)
    wrong = differences(release(), settings)
    wrong.update(conflicts)
    return wrong


def test_the_preset_holds_the_release_settings():
    # What the other release builds must not lose: the unity build, the precompiled header,
    # -O2, no warning set, the static runtime, no tests.
    assert release() == {
        "CMAKE_BUILD_TYPE": "Release",
        "CMAKE_CXX_FLAGS_RELEASE": "-O2 -DNDEBUG",
        "CMAKE_UNITY_BUILD": "ON",
        "CMAKE_UNITY_BUILD_BATCH_SIZE": "0",
        "BUILD_TESTING": "OFF",
        "GATEKIT_STATIC_RUNTIME": "ON",
        "GATEKIT_PCH": "ON",
        "GATEKIT_WARNINGS": "OFF",
    }


def test_the_wheel_builds_with_the_release_preset():
    assert drift(pyproject_arguments(PYPROJECT.read_text())) == {}


def test_the_formula_builds_with_the_release_preset():
    assert drift(formula_arguments(FORMULA.read_text())) == {}


# The copies as they were before the preset became their one source: each lost settings.
DRIFTED_PYPROJECT = """
[tool.scikit-build]
cmake.build-type = "Release"

[tool.scikit-build.cmake.define]
BUILD_TESTING = "OFF"
CMAKE_UNITY_BUILD = "ON"
CMAKE_UNITY_BUILD_BATCH_SIZE = "0"
CMAKE_CXX_FLAGS_RELEASE = "-O2 -DNDEBUG"
GATEKIT_STATIC_RUNTIME = "ON"
"""
DRIFTED_FORMULA = """
  def install
    args = %w[
      -DBUILD_TESTING=OFF
      -DCMAKE_UNITY_BUILD=ON
      -DCMAKE_UNITY_BUILD_BATCH_SIZE=0
      -DGATEKIT_STATIC_RUNTIME=ON
    ]
    system "cmake", "-S", ".", "-B", "build", "-G", "Ninja", *args, *std_cmake_args
    system "cmake", "--build", "build"
"""


def test_a_copy_of_the_settings_that_drifted_is_named():
    assert drift(pyproject_arguments(DRIFTED_PYPROJECT)) == {
        "GATEKIT_PCH": ("ON", None), "GATEKIT_WARNINGS": ("OFF", None)}
    assert drift(formula_arguments(DRIFTED_FORMULA)) == {
        "CMAKE_CXX_FLAGS_RELEASE": ("-O2 -DNDEBUG", None), "GATEKIT_PCH": ("ON", None),
        "GATEKIT_WARNINGS": ("OFF", None)}


@pytest.mark.parametrize("define", ['GATEKIT_PCH = "OFF"', 'CMAKE_CXX_FLAGS_RELEASE = "-O3 -DNDEBUG"'])
def test_a_setting_over_the_preset_is_named(define):
    text = PYPROJECT.read_text() + "\n[tool.scikit-build.cmake.define]\n" + define + "\n"
    name, value = (part.strip().strip('"') for part in define.split("="))
    assert drift(pyproject_arguments(text)) == {name: (release()[name], value)}
    formula = FORMULA.read_text().replace("*std_cmake_args", f'*std_cmake_args, "-D{name}={value}"')
    assert drift(formula_arguments(formula)) == {name: (release()[name], value)}


def test_the_formula_configures_with_the_preset_settings(tmp_path):
    # The formula's configure command as Homebrew runs it, from the source folder; then the
    # cache CMake wrote, compared with the preset.
    if shutil.which("cmake") is None or shutil.which("ninja") is None:
        pytest.skip("cmake and ninja are not on PATH")
    arguments = formula_arguments(FORMULA.read_text(), prefix=str(tmp_path / "prefix"))
    arguments = [str(tmp_path / "build") if a == "build" else a for a in arguments]
    env = {k: v for k, v in os.environ.items() if not k.startswith("CMAKE_")}
    done = subprocess.run(["cmake", *arguments], cwd=SOURCE, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert differences(release(), cmake_cache(tmp_path / "build")) == {}
