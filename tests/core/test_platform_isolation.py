"""Platform code stays in the platform part of the core (docs/architecture.md, "Platforms").

No file of tools/ outside tools/core/src/platform/ tests for the platform or reaches for a
call that only one platform has: Linux's prctl and /proc, macOS's sysctl process table and
kqueue, or a shared-library name with a platform's suffix in code."""
import os
import re
from pathlib import Path

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
TOOLS = SOURCE / "tools"
PLATFORM = TOOLS / "core" / "src" / "platform"

FORBIDDEN = [
    (re.compile(r"#\s*if(def|ndef)?\b.*\b(__linux__|__APPLE__|__MACH__|linux|__gnu_linux__)\b"), "a platform #if"),
    (re.compile(r"#\s*include\s*<sys/(prctl|sysctl|event)\.h>"), "a platform-only header"),
    (re.compile(r"#\s*include\s*<libproc\.h>"), "a platform-only header"),
    (re.compile(r"\bprctl\s*\("), "prctl"),
    (re.compile(r"\"/proc[/\"]"), "/proc"),
    (re.compile(r"\"[^\"]*lib[a-z0-9_]+(\.\d+)*\.(so(\.\d+)*|dylib)\""), "a shared-library file name"),
]


def offences():
    found = []
    for path in sorted(TOOLS.rglob("*")):
        if path.suffix not in {".cpp", ".hpp", ".inc"} or PLATFORM in path.parents:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for pattern, what in FORBIDDEN:
                if pattern.search(line):
                    found.append(f"{path.relative_to(SOURCE)}:{number}: {what}: {line.strip()}")
    return found


def test_platform_code_lives_in_the_platform_part():
    assert offences() == []


def test_the_check_sees_what_it_forbids():
    # The patterns match the calls this part moved out of process.cpp and gpu_detect.cpp.
    samples = [
        "#include <sys/prctl.h>",
        "  ::prctl(PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L);",
        '  for (std::filesystem::directory_iterator it("/proc", ec), end; ; ) {}',
        '  return {"libcuda.so.1", "libcuda.so"};',
        '  value_or("libcurl.4.dylib")',
        "#if defined(__APPLE__)",
        "#ifdef __linux__",
    ]
    for sample in samples:
        assert any(pattern.search(sample) for pattern, _ in FORBIDDEN), sample
    assert not any(pattern.search('kSuffixes{".py", ".so", ".pyd"}') for pattern, _ in FORBIDDEN)
