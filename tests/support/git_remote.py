"""Real git for gpu-gate's Python tests (test_gate_push.py, test_gate_on_a_real_gpu.py): git
with a fixed identity, and a clone on branch main of a bare remote reached over file://."""
import subprocess

IDENTITY = ["-c", "user.name=t", "-c", "user.email=t@example.com"]


def git(cwd, *args, check=True, env=None):
    """git's stdout, stripped; with check=False the completed process."""
    done = subprocess.run(["git", *IDENTITY, *args], cwd=cwd, capture_output=True, text=True, env=env)
    if check and done.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {done.stderr}")
    return done.stdout.strip() if check else done


def clone_with_remote(tmp_path):
    """tmp_path/remote.git (bare, branch main) and its clone tmp_path/work on main, empty."""
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    git(tmp_path, "clone", "-q", f"file://{remote}", "work")
    work = tmp_path / "work"
    git(work, "checkout", "-q", "-b", "main")
    return remote, work
