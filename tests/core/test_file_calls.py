"""The Files seam is the one way to the file system (docs/contributing.md, "Side effects").

No file under tools/ calls std::filesystem (path arithmetic aside: std::filesystem::path and
its members), opens a file stream (std::ifstream, std::ofstream, std::fstream, <fstream>) or
calls the C library's file functions, except the system implementation of the seam:
tools/core/src/frame/files.cpp (SystemFiles) and the platform folder
(tools/core/src/platform/, behind gatekit/platform.hpp). A call anywhere else is named by
file and line, with what to use instead."""
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
from source_scan import findings, strip_comments_and_strings  # noqa: E402

ALLOWED = ("tools/core/src/frame/files.cpp", "tools/core/src/platform/")

# Names under std::filesystem that are types and values, not calls on the file system.
FILESYSTEM_TYPES = {"path", "filesystem_error", "file_type", "perms", "file_time_type"}
STREAMS = re.compile(r"\bstd::(?:basic_)?(?:i|o)?fstream\b|#\s*include\s*<fstream>")
C_CALLS = re.compile(r"(?<![\w.>])(?:::)?\b(fopen|freopen|opendir|mkdtemp|mkstemp|getcwd|realpath)\s*\(")
GLOBAL_CALLS = re.compile(r"(?<![\w:])::(rename|unlink|rmdir|mkdir|remove|readlink|access|stat|open)\s*\(")
ALIAS = re.compile(r"namespace\s+(\w+)\s*=\s*std::filesystem\s*;")


def violations(text):
    """(line, what) for each file-system call outside the seam in one file's text."""
    code = strip_comments_and_strings(text)
    found = []
    aliases = ["std::filesystem"] + [re.escape(a) for a in ALIAS.findall(code)]
    qualified = re.compile(r"\b(?:std::filesystem|" + "|".join(aliases[1:] or ["(?!)"]) + r")::(\w+)")
    for number, line in enumerate(code.splitlines(), start=1):
        if re.search(r"using\s+namespace\s+std::filesystem\b", line):
            found.append((number, "using namespace std::filesystem"))
        for match in qualified.finditer(line):
            if match.group(1) not in FILESYSTEM_TYPES:
                found.append((number, match.group(0)))
        for pattern in (STREAMS, C_CALLS, GLOBAL_CALLS):
            for match in pattern.finditer(line):
                found.append((number, match.group(0).rstrip("(").strip()))
    return found


def test_the_check_sees_each_kind_of_call():
    sample = """#include <fstream>
namespace fs = std::filesystem;
// std::filesystem::rename(a, b) in a comment is fine
const char* s = "std::ofstream in a string is fine";
std::filesystem::path p = std::filesystem::path("a") / "b";
void f() {
  std::filesystem::create_directories(p);
  fs::remove_all(p);
  std::ifstream in(p);
  FILE* f = fopen("x", "r");
  ::rename("a", "b");
  files.rename("a", "b");
  char cwd[8]; getcwd(cwd, 8);
}
"""
    assert violations(sample) == [
        (1, "#include <fstream>"),
        (7, "std::filesystem::create_directories"),
        (8, "fs::remove_all"),
        (9, "std::ifstream"),
        (10, "fopen"),
        (11, "::rename"),
        (13, "getcwd"),
    ]


def test_no_file_system_call_outside_the_files_seam():
    problems = findings(ALLOWED, violations)
    assert not problems, (
        "file-system calls outside the Files seam (gatekit/files.hpp; add the operation to Files, "
        "SystemFiles and MemoryFiles, then call it through context.files):\n" + "\n".join(problems))


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-q"]))
