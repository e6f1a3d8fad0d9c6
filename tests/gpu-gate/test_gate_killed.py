"""gpu-gate run killed outright (SIGKILL: no handler runs, so its worktree stays behind),
through the built tool on a real repository: the next run finds the worktree the killed run
left and removes it, says so, and never touches the worktree of a run that is still going."""
import os
import signal
import subprocess
import sys
from pathlib import Path

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(SOURCE / "tests" / "support"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from git_remote import git  # noqa: E402
from process_state import alive, start_until_pid_file, wait_for  # noqa: E402
from test_gate_cancel import TOOL, gate_env, gated_clone  # noqa: E402

# Slow only when asked (GATE_TEST_PID_FILE): one commit serves the held run and the quick ones.
MAYBE_SLOW_TEST = """\
import os
import time


def test_maybe_slow():
    pid_file = os.environ.get("GATE_TEST_PID_FILE")
    if not pid_file:
        return
    with open(pid_file + ".tmp", "w") as f:
        f.write(str(os.getpid()))
    os.rename(pid_file + ".tmp", pid_file)
    time.sleep(120)
"""


def worktrees(work):
    """The linked worktrees' paths (the main one left out)."""
    return [block.split("\n")[0][len("worktree "):]
            for block in git(work, "worktree", "list", "--porcelain").strip().split("\n\n")[1:]]


def quick_run(work):
    done = subprocess.run([str(TOOL), "run", "--allow-no-gpu"], cwd=work, env=gate_env(), capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def test_the_next_run_removes_the_worktree_of_a_killed_run_and_never_a_live_runs(tmp_path):
    work = gated_clone(tmp_path, "test_maybe_slow.py", MAYBE_SLOW_TEST)
    pid_file = tmp_path / "test.pid"
    held, test_pid = start_until_pid_file([TOOL, "run", "--allow-no-gpu"], work,
                                          gate_env(GATE_TEST_PID_FILE=str(pid_file)), pid_file)
    [live] = worktrees(work)

    # A run beside it leaves the live run's worktree alone.
    beside = quick_run(work)
    assert worktrees(work) == [live] and Path(live, "tests", "test_maybe_slow.py").exists()
    assert "removed the worktree" not in beside.stdout + beside.stderr
    assert held.poll() is None and alive(test_pid)

    held.send_signal(signal.SIGKILL)  # no handler runs: the worktree stays
    held.communicate(timeout=30)
    if alive(test_pid):
        os.kill(test_pid, signal.SIGKILL)
    assert wait_for(lambda: not alive(test_pid))
    assert worktrees(work) == [live]

    after = quick_run(work)
    assert worktrees(work) == []
    assert not Path(live).parent.exists()
    assert f"gpu-gate: removed the worktree a killed run left: {live}\n" in after.stdout + after.stderr
