"""One GPU backend table (docs/architecture.md, "The core's parts": gpu/): a vendor is one
entry of tools/core/src/gpu/gpu_backends.cpp, and no other file of tools/ names a backend.

What the table names is read from it: each entry's name (`.name = "cuda"`) and every word it
spells in a string literal (its variables, GATEKIT_CUDA_LIBRARY and CUDA_VISIBLE_DEVICES; its
runtime's entry points, cuInit). Outside the table and its header, a C++ file of tools/ (its
comments and #include lines left out) may not hold:
- a string literal that is one of those words, or holds a backend's name as a word
  ("cuda", "must be cuda, hip, metal") or any *_VISIBLE_DEVICES variable;
- "override", "none" or "fake" as a string literal on a line that speaks of a backend or
  builds a GpuInventory: those are the table header's kGpuOverride, kGpuNone and kGpuFake.
Each is named by file and line, with what to use instead. The library file names a runtime
loads live in the platform part (tools/core/src/platform/names.cpp), as every name that
differs between Linux and macOS does (tests/core/test_platform_isolation.py).
"""
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
from source_scan import SOURCE, TOOLS, findings  # noqa: E402

TABLE = TOOLS / "core" / "src" / "gpu" / "gpu_backends.cpp"
ALLOWED = ("tools/core/src/gpu/gpu_backends.cpp", "tools/core/include/gatekit/gpu_backends.hpp")
PSEUDO = {"override", "none", "fake"}
PSEUDO_CONTEXT = re.compile(r"backend|GpuInventory", re.IGNORECASE)
VISIBILITY = re.compile(r"\b[A-Z][A-Z0-9_]*_VISIBLE_DEVICES\b")


TOKENS = re.compile(
    r'//[^\n]*'                                            # a line comment
    r'|/\*.*?(?:\*/|\Z)'                                   # a block comment
    r'|(?<![\w])(?:u8|u|U|L)?R"(?P<delim>[^(\s]*)\((?P<raw>.*?)\)(?P=delim)"'  # a raw string
    r'|(?<![\w])(?:u8|u|U|L)?"(?P<text>(?:[^"\\\n]|\\.)*)"'   # a string literal
    r"|(?<![\w])[0-9][\w']*"                                # a number (digit separators: 10'000)
    r"|'(?:[^'\\\n]|\\.)*'",                                # a character literal
    re.DOTALL)


def code_and_literals(text):
    """(code, literals): the text with comments removed and string literals replaced by "",
    line breaks kept; and (line, content) of each string literal, raw strings included."""
    code, literals, last = [], [], 0
    for token in TOKENS.finditer(text):
        code.append(text[last:token.start()])
        last = token.end()
        kind = token.group(0)
        line = text.count("\n", 0, token.start()) + 1
        if token.group("raw") is not None or token.group("text") is not None:
            literals.append((line, token.group("raw") if token.group("raw") is not None else token.group("text")))
            code.append('""' + "\n" * kind.count("\n"))
        elif kind.startswith(("//", "/*")):
            code.append("\n" * kind.count("\n"))
        else:
            code.append(kind)
    code.append(text[last:])
    return "".join(code), literals


def table_words(table_text):
    """(names, words) of the table: its entries' names, and every identifier-like word its
    string literals spell (names, variables, entry points)."""
    _, literals = code_and_literals(table_text)
    names = set(re.findall(r'\.name\s*=\s*"([^"]+)"', table_text))
    words = {content for _, content in literals if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", content)}
    return names, words | names


def spellings(text, names, words):
    """(line, what) for each place `text` names a backend outside the table."""
    code, literals = code_and_literals(text)
    lines = code.splitlines()
    includes = {number for number, content in enumerate(lines, 1) if re.match(r"\s*#\s*include\b", content)}
    found = []
    for number, content in literals:
        if number in includes:
            continue
        if content in words:
            found.append((number, f'"{content}"'))
            continue
        # A name as a word; one inside a path or a dotted name (/usr/local/cuda/lib, mx.metal) is not.
        named = sorted(name for name in names if re.search(rf"(?<![\w./]){re.escape(name)}(?![\w/]|\.\w)", content))
        named += sorted(set(VISIBILITY.findall(content)))
        named += sorted(word for word in words - names if word in content and not VISIBILITY.fullmatch(word))
        if named:
            found.append((number, f'"{content}" names {", ".join(named)}'))
        elif content in PSEUDO and number <= len(lines) and PSEUDO_CONTEXT.search(lines[number - 1]):
            found.append((number, f'"{content}" as a backend'))
    return found


def test_the_table_names_the_backends_and_their_variables():
    names, words = table_words(TABLE.read_text())
    assert names == {"cuda", "hip", "metal"}
    assert {"CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "GATEKIT_CUDA_LIBRARY",
            "GATEKIT_HIP_LIBRARY", "cuInit", "hipGetDeviceCount"} <= words


def test_the_check_sees_each_kind_of_spelling():
    names, words = {"cuda", "hip"}, {"cuda", "hip", "CUDA_VISIBLE_DEVICES", "cuInit"}
    sample = """#include "gatekit/cuda.hpp"
// "cuda" in a comment is fine
/* and "hip" here */
const char* a = "cuda";
auto b = env.get("CUDA_VISIBLE_DEVICES");
std::string c = "must be cuda, hip or none";  // "on hip." in a comment
void* d = dlsym(h, "cuInit");
inventory.backend = "none";
GpuInventory{0, "override"};
if (*v == "none") return {};
const char* e = "NEW_VISIBLE_DEVICES is unset";
const char* f = "hipster cudaMalloc /opt/cuda/lib mx.metal.info";
auto g = R"(x "hip" y)";
int h = 1'000; const char* i = "hip";
const char* j = "it runs on hip.";
"""
    assert spellings(sample, names, words) == [
        (4, '"cuda"'),
        (5, '"CUDA_VISIBLE_DEVICES"'),
        (6, '"must be cuda, hip or none" names cuda, hip'),
        (7, '"cuInit"'),
        (8, '"none" as a backend'),
        (9, '"override" as a backend'),
        (11, '"NEW_VISIBLE_DEVICES is unset" names NEW_VISIBLE_DEVICES'),
        (13, '"x "hip" y" names hip'),
        (14, '"hip"'),
        (15, '"it runs on hip." names hip'),
    ]


def test_no_file_outside_the_table_names_a_backend():
    names, words = table_words(TABLE.read_text())
    problems = findings(ALLOWED, lambda text: spellings(text, names, words))
    assert not problems, (
        "GPU backends named outside the backend table (gatekit/gpu_backends.hpp: read the entry "
        "through gpu_backends() or find_gpu_backend(), its variables through gpu_visibility_variables(), "
        "visibility_variables() or the entry's fields, the pseudo-backends as kGpuOverride, kGpuNone, "
        "kGpuFake; a new vendor is a new entry):\n" + "\n".join(problems))


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-q"]))
