"""Header weight: JSON, YAML, CLI11 and Boost.Process reach only the files that use them.

Every core header is preprocessed on its own and the headers it pulls in are listed
(`-H`). Only the headers whose purpose is one of these libraries may include it: json.hpp
(Boost.JSON), yaml.hpp (yaml-cpp), cli.hpp (CLI11, included only by a tool's cli.cpp), and
the two GitHub headers for code that handles JSON itself (github_json.hpp, github_decode.hpp).
Boost.Process stays inside process.cpp: no header includes it."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BUILD = Path(os.environ.get("GATEKIT_BUILD_DIR", SOURCE / "build" / "dev"))
INCLUDE = SOURCE / "tools" / "core" / "include"
COMPILER = os.environ.get("CXX") or shutil.which("c++") or "g++"

HEAVY = {
    "Boost.JSON": "/boost/json",
    "yaml-cpp": "/yaml-cpp/",
    "CLI11": "/CLI/",
    "Boost.Process": "/boost/process",
}
ALLOWED = {
    "json.hpp": {"Boost.JSON"},
    "yaml.hpp": {"yaml-cpp"},
    "cli.hpp": {"CLI11"},
    "github_json.hpp": {"Boost.JSON"},
    "github_decode.hpp": {"Boost.JSON"},
}
HEADERS = sorted(p.name for p in (INCLUDE / "gatekit").glob("*.hpp"))


def included_files(header):
    """Every file the preprocessor opens for `#include "gatekit/<header>"`."""
    done = subprocess.run(
        [COMPILER, "-std=c++20", "-x", "c++", "-E", "-H", "-o", os.devnull,
         "-I", str(INCLUDE), "-I", str(BUILD / "tools" / "core" / "generated"), "-"],
        input=f'#include "gatekit/{header}"\n', capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    # -H prints one line per opened file: dots for the depth, a space, the path.
    return [line.lstrip(".").strip() for line in done.stderr.splitlines() if line.startswith(".")]


def libraries_in(files):
    return {name for name, marker in HEAVY.items() if any(marker in f for f in files)}


def test_the_check_sees_a_heavy_include():
    # The detector itself: json.hpp must be seen to include Boost.JSON, cli.hpp CLI11.
    assert libraries_in(included_files("json.hpp")) == {"Boost.JSON"}
    assert "CLI11" in libraries_in(included_files("cli.hpp"))


@pytest.mark.parametrize("header", HEADERS)
def test_core_header_pulls_in_only_its_own_library(header):
    unexpected = libraries_in(included_files(header)) - ALLOWED.get(header, set())
    assert not unexpected, f"gatekit/{header} pulls in {sorted(unexpected)}"
