"""Header weight: JSON, YAML, CLI11 and Boost.Process reach only the files that use them.

Every core header is preprocessed on its own and the headers it pulls in are listed
(`-H`). Only the headers whose purpose is one of these libraries may include it: json.hpp
(Boost.JSON), yaml.hpp (yaml-cpp), and the two GitHub headers for code that handles JSON
itself (github_json.hpp, github_decode.hpp). Boost.Process stays inside process.cpp and
CLI11 inside the core's frame (src/frame/cli.cpp): no header includes them, and a tool's
cli.cpp binds its options through cli.hpp's functions, which are no templates.

<regex> is compiled into the core once (gatekit/regex.hpp): no tool file includes it.

A tool's main.cpp only starts the tool: it declares `<tool>_main` itself rather than include
the tool's header, which brings some 70,000 lines of the standard library with it
(docs/contributing.md, "Build weight")."""
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
    # The detector itself: json.hpp must be seen to include Boost.JSON, yaml.hpp yaml-cpp.
    assert libraries_in(included_files("json.hpp")) == {"Boost.JSON"}
    assert libraries_in(included_files("yaml.hpp")) == {"yaml-cpp"}


@pytest.mark.parametrize("header", HEADERS)
def test_core_header_pulls_in_only_its_own_library(header):
    unexpected = libraries_in(included_files(header)) - ALLOWED.get(header, set())
    assert not unexpected, f"gatekit/{header} pulls in {sorted(unexpected)}"


TOOLS = sorted(d.name for d in (SOURCE / "tools").iterdir()
               if d.name != "core" and (d / "CMakeLists.txt").is_file())
MAIN_LINES_LIMIT = 1000


def preprocessed_lines(source, *include_dirs):
    done = subprocess.run(
        [COMPILER, "-std=c++20", "-E", "-o", "-", *[f"-I{d}" for d in include_dirs], str(source)],
        capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.count("\n")


def test_the_line_count_sees_the_standard_library():
    # The measure itself: the context header alone is tens of thousands of lines.
    header = INCLUDE / "gatekit" / "context.hpp"
    assert preprocessed_lines(header, INCLUDE) > 10 * MAIN_LINES_LIMIT


@pytest.mark.parametrize("tool", TOOLS)
def test_main_cpp_stays_light(tool):
    folder = SOURCE / "tools" / tool
    lines = preprocessed_lines(folder / "main.cpp", folder, INCLUDE, BUILD / "tools" / "core" / "generated")
    assert lines <= MAIN_LINES_LIMIT, f"tools/{tool}/main.cpp preprocesses to {lines} lines (at most {MAIN_LINES_LIMIT})"


def tool_files_including(text):
    return sorted(str(f.relative_to(SOURCE)) for tool in TOOLS
                  for f in (SOURCE / "tools" / tool).rglob("*.[ch]pp") if text in f.read_text())


def test_no_tool_file_includes_regex():
    # <regex> costs each translation unit that uses it some 2 s at -O2: tools match through
    # gatekit::Regex, compiled once in the core.
    including = tool_files_including("#include <regex>")
    assert not including, f"these tool files include <regex> (use gatekit/regex.hpp): {including}"


def test_no_tool_file_includes_cli11():
    # CLI11's templates cost each tool's unit some 2 to 4 s at -O2: the tools bind their
    # options through gatekit/cli.hpp (CliCommand), compiled once in the core.
    including = tool_files_including("#include <CLI/")
    assert not including, f"these tool files include CLI11 (use gatekit/cli.hpp's CliCommand): {including}"
