"""gpu-gate run cancelled mid-pass (SIGINT from Ctrl-C, SIGTERM from a job's cancellation),
through the built tool on a real repository: the test command's processes end, the temporary
worktree is removed (git's record of it too), nothing is recorded, and the run exits 3 saying
why. Cancelled while it pushes its result: the record stays and the error says cancelled. The
cancelled pass on a real GPU, with a test holding GPU memory: test_gate_on_a_real_gpu.py. A
`status` cancelled while it asks the remote prints no status."""
import os
import signal
import sys
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(SOURCE / "tests" / "support"))
from git_remote import clone_with_remote, git  # noqa: E402
from process_state import alive, start_until_pid_file  # noqa: E402

TOOL = (Path(os.environ.get("GATEKIT_BUILD_DIR", "build/dev")) / "tools" / "gpu-gate" / "gpu-gate").resolve()

SLOW_TEST = """\
import os
import time


def test_slow():
    with open(os.environ["GATE_TEST_PID_FILE"] + ".tmp", "w") as f:
        f.write(str(os.getpid()))
    os.rename(os.environ["GATE_TEST_PID_FILE"] + ".tmp", os.environ["GATE_TEST_PID_FILE"])
    time.sleep(120)
"""


def gated_clone(tmp_path, test_file: str, test_text: str, config_extra: str = ""):
    """A clone of a bare remote whose one commit holds `tests/<test_file>` and a gate
    configuration running pytest on tests/ (plus `config_extra`)."""
    _, work = clone_with_remote(tmp_path)
    (work / "tests").mkdir()
    (work / "tests" / test_file).write_text(test_text)
    (work / ".github" / "gatekit").mkdir(parents=True)
    (work / ".github" / "gatekit" / "gpu-gate.yml").write_text(
        f"command: [{sys.executable}, -m, pytest, -q, -p, no:cacheprovider, \"--junitxml={{junit}}\", \"{{tests}}\"]\n"
        "workers: 1\nscope:\n  folders: [tests]\n" + config_extra)
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", f"the gate and {test_file}")
    return work


def gate_env(**extra):
    """No GitHub variables, no GPU library, machine m1, plus `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_"))}
    env.update(GATEKIT_CUDA_LIBRARY="none", GATEKIT_HIP_LIBRARY="none", GATEKIT_GATE_MACHINE="m1", **extra)
    return env


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_cancelled_run_records_nothing_and_leaves_no_worktree_and_no_test_process(tmp_path, sig):
    work = gated_clone(tmp_path, "test_slow.py", SLOW_TEST)
    pid_file = tmp_path / "test.pid"
    gate, test_pid = start_until_pid_file([TOOL, "run", "--allow-no-gpu"], work,
                                          gate_env(GATE_TEST_PID_FILE=str(pid_file)), pid_file)
    assert len(git(work, "worktree", "list", "--porcelain").split("\n\n")) == 2  # the gate's is there

    gate.send_signal(sig)
    out, err = gate.communicate(timeout=30)
    name = "SIGINT" if sig == signal.SIGINT else "SIGTERM"
    assert gate.returncode == 3, out + err
    assert err.splitlines()[-1] == (f"gpu-gate: error: cancelled: gpu-gate received {name} during the gate pass; "
                                    "nothing is recorded")
    assert not alive(test_pid)
    assert git(work, "for-each-ref", "--format=%(refname)", "refs/gatekit-gate-mine/", "refs/gatekit-gate-nogpu/") == ""
    worktrees = git(work, "worktree", "list", "--porcelain")
    assert worktrees.split("\n\n") == [f"worktree {work}\nHEAD {git(work, 'rev-parse', 'HEAD')}\nbranch refs/heads/main"]
    assert not (work / ".git" / "worktrees").exists() or not any((work / ".git" / "worktrees").iterdir())


HANGING_SSH = """\
#!/bin/sh
echo $$ > "$GATE_SSH_PID_FILE.tmp" && mv "$GATE_SSH_PID_FILE.tmp" "$GATE_SSH_PID_FILE"
exec sleep 120
"""


def test_a_run_cancelled_while_it_pushes_keeps_its_record_and_says_it_was_cancelled(tmp_path):
    """The pass is over and the result recorded when SIGINT comes, during `--publish`'s push
    (to a remote whose ssh never answers): the push ends, the record stays, and the error
    says the run was cancelled before it names the push it stopped (the frame's rule for any
    step after the signal: gatekit/cli.hpp)."""
    work = gated_clone(tmp_path, "test_ok.py", "def test_ok():\n    pass\n", "cpu_gate: true\n")
    git(work, "remote", "set-url", "origin", "ssh://example.invalid/repo.git")
    ssh = tmp_path / "hanging-ssh"
    ssh.write_text(HANGING_SSH)
    ssh.chmod(0o755)
    pid_file = tmp_path / "ssh.pid"
    gate, ssh_pid = start_until_pid_file([TOOL, "run", "--allow-no-gpu", "--publish"], work,
                                         gate_env(GIT_SSH_COMMAND=str(ssh), GATE_SSH_PID_FILE=str(pid_file)), pid_file)

    gate.send_signal(signal.SIGINT)
    out, err = gate.communicate(timeout=30)
    assert gate.returncode == 3, out + err
    mine = git(work, "for-each-ref", "--format=%(refname)", "refs/gatekit-gate-mine/")
    assert mine.startswith("refs/gatekit-gate-mine/") and "\n" not in mine, mine
    published = mine.replace("refs/gatekit-gate-mine/", "refs/gatekit-gate/", 1)
    assert err.splitlines()[-1] == (
        "gpu-gate: error: cancelled: gpu-gate received SIGINT before it finished: the result is recorded here but was "
        f"not pushed: git push --porcelain --end-of-options origin +{mine}:{published} failed (killed by signal 15 "
        "(SIGTERM))")
    assert not alive(ssh_pid)


def test_a_status_cancelled_while_it_asks_the_remote_shows_no_status(tmp_path):
    """`gpu-gate status` waits on `git ls-remote` of a remote whose ssh never answers; Ctrl-C
    ends the ssh, and the tool says it was cancelled instead of printing a status whose
    'published' would read "origin could not be asked" (the killed git's answer)."""
    work = gated_clone(tmp_path, "test_ok.py", "def test_ok():\n    pass\n")
    git(work, "remote", "set-url", "origin", "ssh://example.invalid/repo.git")
    ssh = tmp_path / "hanging-ssh"
    ssh.write_text(HANGING_SSH)
    ssh.chmod(0o755)
    pid_file = tmp_path / "ssh.pid"
    status, ssh_pid = start_until_pid_file([TOOL, "status"], work,
                                           gate_env(GIT_SSH_COMMAND=str(ssh), GATE_SSH_PID_FILE=str(pid_file)), pid_file)

    status.send_signal(signal.SIGINT)
    out, err = status.communicate(timeout=30)
    assert status.returncode == 3, out + err
    assert out == ""
    assert "gate/gpu for" not in err
    assert err.splitlines()[-1] == (
        "gpu-gate: error: cancelled: gpu-gate received SIGINT while asking origin for its results; no status is shown")
    assert not alive(ssh_pid)
