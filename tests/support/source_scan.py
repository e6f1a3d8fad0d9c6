"""Reading gatekit's C++ sources the way the seam tests do (tests/core/test_file_calls.py,
test_run_info_reads.py, test_clock_calls.py): the code with comments blanked, and with string
and character literals blanked or kept, line breaks kept so that a finding names its line; and
the tool sources outside a seam's own files."""
import os
from pathlib import Path

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
TOOLS = SOURCE / "tools"
SUFFIXES = {".cpp", ".hpp", ".h", ".inc"}


def strip_comments(text, keep_strings=False):
    """The code with comments blanked, line breaks kept. String and char literals become
    empty ("" and '') unless keep_strings, which keeps them as written (a raw string literal
    as an ordinary one holding its text)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("\n" * text.count("\n", i, end))
            i = end
        elif text.startswith('R"', i):
            open_paren = text.find("(", i)
            delimiter = text[i + 2:open_paren]
            close = text.find(")" + delimiter + '"', open_paren)
            end = n if close < 0 else close + len(delimiter) + 2
            body = text[open_paren + 1:close if close >= 0 else n]
            kept = '"' + body.replace("\n", " ") + '"' if keep_strings else '""'
            out.append(kept + "\n" * text.count("\n", i, end))
            i = end
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1] if keep_strings else c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def strip_comments_and_strings(text):
    """The code with comments and string/char literals blanked, line breaks kept."""
    return strip_comments(text, keep_strings=False)


def sources(allowed=()):
    """(path relative to the source tree, path) of each C++ source under tools/ that does not
    start with one of `allowed`."""
    for path in sorted(TOOLS.rglob("*")):
        if path.suffix not in SUFFIXES or not path.is_file():
            continue
        relative = path.relative_to(SOURCE).as_posix()
        if not relative.startswith(tuple(allowed)):
            yield relative, path


def findings(allowed, violations):
    """"path:line: what" for each violation(text) -> [(line, what)] in each C++ source under
    tools/ outside `allowed`: what a seam test lists when it fails."""
    return [f"{relative}:{line}: {what}"
            for relative, path in sources(allowed)
            for line, what in violations(path.read_text(encoding="utf-8", errors="replace"))]
