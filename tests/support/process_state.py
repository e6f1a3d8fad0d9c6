"""Whether a process lives, and waiting for a condition, for the tests that check that
nothing a tool started outlives it (tests/smoke-runner/test_cancel.py,
tests/gpu-gate/test_gate_cancel.py, the real-GPU tests)."""
import os
import time
from pathlib import Path


def alive(pid: int) -> bool:
    """True while `pid` runs; a zombie (ended, not yet reaped) counts as dead."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    # The state follows the command name, which may hold spaces and parentheses.
    return stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"


def wait_for(predicate, timeout=15.0):
    """True once `predicate()` is, False when `timeout` seconds pass first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False
