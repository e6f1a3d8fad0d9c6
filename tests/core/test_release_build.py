"""The release build's compile settings (docs/contributing.md, "Build weight"), read from the
compile commands of the `release` preset, configured (not built) in a temporary folder.

- With GCC, every release unit leaves out the three -O2 passes of GATEKIT_LEAN_OPTIONS
  (cmake/GatekitSettings.cmake), the precompiled headers included: they cost about a sixth of
  the cold build and nothing the benchmarks measure.
- A unit uses the precompiled header of its own optimisation level: GCC keeps the level a
  header was precompiled at, and a unit at another level can crash the compiler.
- The release build compiles without the warning set; the dev and asan builds keep it, and
  keep GCC's default passes (the lean options are for Release alone)."""
import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BUILD = Path(os.environ.get("GATEKIT_BUILD_DIR", SOURCE / "build" / "dev"))
LEAN = ["-fno-tree-pta", "-fno-gcse", "-fno-schedule-insns2"]


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    if shutil.which("cmake") is None:
        pytest.skip("cmake is not on PATH")
    build = tmp_path_factory.mktemp("release")
    env = dict(os.environ, CCACHE_DISABLE="1")
    done = subprocess.run(["cmake", "--preset", "release", "-B", str(build), "-DCMAKE_CXX_COMPILER_LAUNCHER="],
                          cwd=SOURCE, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    # CMake records the compiler it found in CMakeFiles/<version>/CMakeCXXCompiler.cmake.
    found = re.search(r'set\(CMAKE_CXX_COMPILER_ID "([^"]*)"\)',
                      next(build.glob("CMakeFiles/*/CMakeCXXCompiler.cmake")).read_text())
    assert found, "CMake recorded no compiler id"
    return found.group(1), units(build)


def units(build: Path, generated_only: bool = True) -> dict:
    """Each compiled file (its absolute path) -> its argv; with generated_only, only the files
    the build folder holds (the unity units and the precompiled headers of a release build)."""
    out = {}
    for entry in json.loads((build / "compile_commands.json").read_text()):
        argv = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
        path = Path(entry["directory"], entry["file"])
        if not generated_only or build in path.parents:
            out[str(path)] = argv
    return out


def level(argv) -> str:
    """The optimisation level in effect: the last -O wins."""
    levels = [a for a in argv if a.startswith("-O")]
    return levels[-1] if levels else "-O0"


def pch_of(argv):
    """The precompiled header a unit includes (a cmake_pch.hxx), or None."""
    for i, arg in enumerate(argv[:-1]):
        if arg == "-include" and argv[i + 1].endswith("cmake_pch.hxx"):
            return argv[i + 1]
    return None


def test_the_release_configuration_has_units_of_both_levels(release):
    _, found = release
    tool_units = {name: argv for name, argv in found.items() if name.endswith("_lib.dir/Unity/unity_0_cxx.cxx")}
    assert len(tool_units) >= 8, sorted(found)
    assert {level(argv) for argv in found.values()} >= {"-O1", "-O2"}


def test_release_units_leave_out_the_lean_passes(release):
    compiler, found = release
    if compiler != "GNU":
        pytest.skip(f"the lean options are GCC's; this build's compiler is {compiler}")
    lacking = {name: [o for o in LEAN if o not in argv] for name, argv in found.items()
               if "glibc_compat" not in name}
    assert {name: missing for name, missing in lacking.items() if missing} == {}
    assert any(name.endswith("cmake_pch.hxx.cxx") for name in lacking)


def test_each_unit_uses_the_precompiled_header_of_its_own_level(release):
    _, found = release
    # A precompiled header is compiled from cmake_pch.hxx.cxx beside it.
    pch_levels = {name[: -len(".cxx")]: level(argv) for name, argv in found.items()
                  if name.endswith("cmake_pch.hxx.cxx")}
    assert sorted(pch_levels.values()) == ["-O1", "-O2"], pch_levels
    users = {name: pch_of(argv) for name, argv in found.items()
             if pch_of(argv) and not name.endswith("cmake_pch.hxx.cxx")}
    assert len(users) >= 9, sorted(found)
    wrong = {name: (level(found[name]), pch, pch_levels.get(pch)) for name, pch in users.items()
             if pch_levels.get(pch) != level(found[name])}
    assert wrong == {}


def test_release_units_compile_without_the_warning_set(release):
    _, found = release
    assert [name for name, argv in found.items() if "-Wall" in argv] == []


def test_debug_builds_keep_the_default_passes():
    commands = BUILD / "compile_commands.json"
    if not commands.is_file():
        pytest.skip(f"no compile commands in {BUILD}")
    found = units(BUILD, generated_only=False)
    own = {name: argv for name, argv in found.items() if "-Wall" in argv}
    assert own, "the test build compiles gatekit's files with the warning set"
    carrying = {name: [o for o in LEAN if o in argv] for name, argv in own.items()}
    assert {name: lean for name, lean in carrying.items() if lean} == {}
