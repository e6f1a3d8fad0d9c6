"""Time goes through the Clock seam (gatekit/clock.hpp; docs/contributing.md, "Side effects").

No file under tools/ reads a standard clock (std::chrono's system_clock, steady_clock,
high_resolution_clock, utc_clock, file_clock; the C library's time, clock_gettime,
gettimeofday) or turns an instant into a count (time_since_epoch) except the seam itself:
tools/core/include/gatekit/clock.hpp and tools/core/src/frame/clock.cpp (now as epoch seconds
is Clock::epoch_seconds, an instant's is epoch_seconds_of). And no file measures a duration on
the wall clock: a reading of now() is never an operand of a subtraction (`clock.now() -
started`); durations and deadlines are readings of Clock::monotonic, which a change of the
system time cannot stretch or shrink. A finding is named by file and line."""
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
from source_scan import findings, strip_comments_and_strings  # noqa: E402

ALLOWED = ("tools/core/include/gatekit/clock.hpp", "tools/core/src/frame/clock.cpp")

STANDARD_CLOCKS = re.compile(r"\b(?:system_clock|steady_clock|high_resolution_clock|utc_clock|file_clock|tai_clock|gps_clock)\b")
EPOCH_COUNT = re.compile(r"\btime_since_epoch\b")
C_CALLS = re.compile(r"(?<![\w.>])(?:::|std::)?\b(time|clock_gettime|gettimeofday|clock|timespec_get)\s*\(\s*(?:nullptr|NULL|0|&|CLOCK_|\))")
# now() as the left or right operand of a binary minus.
WALL_DURATION = re.compile(r"\bnow\(\)\s*-(?![-=>])|(?<![-=<>])-\s*(?:[\w]+(?:\.|->))*now\(\)")


def violations(text):
    """(line, what) for each clock read outside the seam in one file's text."""
    found = []
    for number, line in enumerate(strip_comments_and_strings(text).splitlines(), start=1):
        for pattern, what in ((STANDARD_CLOCKS, None), (EPOCH_COUNT, None), (C_CALLS, None),
                              (WALL_DURATION, "a duration on the wall clock")):
            for match in pattern.finditer(line):
                name = match.group(1) if pattern is C_CALLS else match.group(0)
                found.append((number, what or name))
    return found


def test_the_check_sees_each_kind_of_read():
    sample = """// std::chrono::system_clock::now() in a comment is fine
const char* s = "steady_clock in a string is fine";
auto a = std::chrono::system_clock::now();
using steady = std::chrono::steady_clock;
auto s = std::chrono::duration_cast<std::chrono::seconds>(clock.now().time_since_epoch()).count();
std::time_t t = ::time(nullptr);
clock_gettime(CLOCK_MONOTONIC, &ts);
auto took = context.clock.now() - started;
auto left = deadline - clock.now();
auto took = clock.monotonic() - started;
auto seconds = context.clock.epoch_seconds() - record.created;
auto age = epoch_seconds_of(now) - map.created;
notify_now(); runtime(0); const auto wait = reset_at - now;
"""
    assert violations(sample) == [
        (3, "system_clock"),
        (4, "steady_clock"),
        (5, "time_since_epoch"),
        (6, "time"),
        (7, "clock_gettime"),
        (8, "a duration on the wall clock"),
        (9, "a duration on the wall clock"),
    ]


def test_no_clock_read_outside_the_clock_seam():
    problems = findings(ALLOWED, violations)
    assert not problems, (
        "clock reads outside the Clock seam (gatekit/clock.hpp: now as epoch seconds is "
        "context.clock.epoch_seconds(), an instant's epoch_seconds_of(t); a duration or a "
        "deadline is measured on context.clock.monotonic()):\n" + "\n".join(problems))


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-q"]))
