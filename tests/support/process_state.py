"""Whether a process lives, and waiting for a condition, for the tests that check that
nothing a tool started outlives it (tests/smoke-runner/test_cancel.py,
tests/gpu-gate/test_gate_cancel.py, the real-GPU tests)."""
import os
import subprocess
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


def start_until_pid_file(argv, cwd, env, pid_file: Path, timeout=60.0):
    """Starts `argv` in a session of its own (so a signal sent to it is the test's alone) and
    waits until something it runs writes its PID to `pid_file`: (the process, that PID). An
    AssertionError with the tool's output when it ends first or the file never comes."""
    proc = subprocess.Popen([str(a) for a in argv], cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    wait_for(lambda: pid_file.exists() or proc.poll() is not None, timeout)
    if not pid_file.exists():
        if proc.poll() is None:
            proc.kill()
        out, err = proc.communicate(timeout=30)
        raise AssertionError(f"{pid_file} never came:\n{out}\n{err}")
    return proc, int(pid_file.read_text())
