"""gpu-gate setup, status and prune through the built tool, on real git repositories with a
bare remote over file://, and the GitHub API test server for prune's open pull requests.

Results from "other machines" are written here the way gpu-gate writes them (the record
format of docs/gpu-gate.md), so their times can be set; `run` itself is tested in
test_gate_flow.cpp with real pytest runs."""
import datetime
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, os.path.join(os.environ["GATEKIT_SOURCE_DIR"], "tests", "github_api"))
sys.path.insert(0, os.path.join(os.environ["GATEKIT_SOURCE_DIR"], "tests", "support"))
from git_remote import IDENTITY, clone_with_remote, git  # noqa: E402
from server import FakeGitHub  # noqa: E402

TOOL = Path(os.environ["GATEKIT_BUILD_DIR"]) / "tools" / "gpu-gate" / "gpu-gate"


def gate(cwd, *args, env=None):
    full_env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_"))}
    full_env.update(env or {})
    return subprocess.run([str(TOOL), *args], cwd=cwd, capture_output=True, text=True, env=full_env)


def commit(repo, path, text, message):
    file = Path(repo) / path
    file.parent.mkdir(parents=True, exist_ok=True)
    with open(file, "a") as f:
        f.write(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def config_digest(repo):
    """The configuration digest a result must carry to count here, as `status --json` says it."""
    done = gate(repo, "status", "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["config"]


def record(repo, machine, when, verdict="pass", rev="HEAD", mine=True, run=False, key=None, config=None):
    """A result as gpu-gate records it: a commit of the tested tree, the message in the
    documented form, under refs/gatekit-gate-mine/<tree>/<machine>@<run> (run=True, as `run`
    writes it now) or refs/gatekit-gate-mine/<tree>/<machine> (the first layout). `config`:
    the configuration digest it carries (default: the one `status` expects here)."""
    config = config or config_digest(repo)
    sha = git(repo, "rev-parse", rev)
    tree = git(repo, "rev-parse", rev + "^{tree}")
    stamp = when.strftime("%Y-%m-%dT%H:%M:%SZ")
    message = (
        f"gpu-gate: {verdict} in 4m 05s (2 passed, 0 failed, 0 skipped, 0 errors)\n\n"
        "format: gatekit-gpu-gate/2\n"
        f"verdict: {verdict}\nduration-ms: 245000\npassed: 2\nfailed: 0\nskipped: 0\nerrors: 0\n"
        f"commit: {sha}\ntree: {tree}\ngatekit: 0.1.0\ntime: {stamp}\nmachine: {machine}\n"
        "gpu-backend: cuda\ngpu-count: 1\ngpu: Fake CUDA GPU 0\ndriver: 12.4\n"
        "scope: gate: 2 test files, 8 workers\nstress: not needed (no concurrency change)\n"
        f"config: {config}\n")
    env = dict(os.environ, GIT_AUTHOR_DATE=f"@{int(when.timestamp())} +0000", GIT_COMMITTER_DATE=f"@{int(when.timestamp())} +0000")
    sign = ["-c", "gpg.format=ssh", "-c", f"user.signingkey={key}", "commit-tree", "-S"] if key else ["commit-tree"]
    made = subprocess.run(["git", *IDENTITY, *sign, tree], cwd=repo, input=message, capture_output=True,
                          text=True, env=env, check=True).stdout.strip()
    ref = f"refs/gatekit-gate{'-mine' if mine else ''}/{tree}/{machine}"
    if run:
        ref += "@" + when.strftime("%Y%m%dT%H%M%SZ") + "-" + made[:12]
    git(repo, "update-ref", ref, made)
    return ref


def now():
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)


@pytest.fixture
def project(tmp_path):
    remote, work = clone_with_remote(tmp_path)
    commit(work, "src/lib.py", "x = 1\n", "first")
    git(work, "push", "-q", "origin", "main")
    git(work, "remote", "set-head", "origin", "main")
    return tmp_path, work, remote


def config_list(repo):
    return git(repo, "config", "--local", "--list")


def test_setup_then_a_plain_push_carries_the_branch_and_the_results(project):
    tmp, work, remote = project
    before = config_list(work)
    done = gate(work, "setup")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:3] == [
        "added   remote.origin.push HEAD: a plain `git push` pushes the current branch to the branch of the same name on "
        "origin (push.default no longer applies in this clone)",
        "added   remote.origin.push +refs/gatekit-gate-mine/*:refs/gatekit-gate/*: a plain `git push` also sends this "
        "machine's results (refs/gatekit-gate-mine/) to refs/gatekit-gate/",
        "added   remote.origin.fetch +refs/gatekit-gate/*:refs/gatekit-gate/*: `git fetch` brings everyone's results "
        "(refs/gatekit-gate/)"]
    again = gate(work, "setup")
    assert "nothing changed" in again.stdout.splitlines()

    git(work, "checkout", "-q", "-b", "feature")
    head = commit(work, "src/lib.py", "y = 2\n", "feature work")
    ref = record(work, "m1", now())
    status = json.loads(gate(work, "status", "--json", "--machine", "m1").stdout)
    assert status["state"] == "success" and status["description"] == "passed in 4m"
    assert status["published"] is False

    git(work, "push", "-q")  # plain: no remote, no refspec
    assert git(remote, "rev-parse", "refs/heads/feature") == head
    published = ref.replace("gatekit-gate-mine", "gatekit-gate")
    assert git(remote, "rev-parse", published) == git(work, "rev-parse", ref)
    status = json.loads(gate(work, "status", "--json", "--machine", "m1").stdout)
    assert status["published"] is True
    assert status["source"] == head and status["tree"] == git(work, "rev-parse", "HEAD^{tree}")

    # Another clone, set up, gets everyone's results with a plain fetch and sees the status.
    git(tmp, "clone", "-q", f"file://{remote}", "other")
    other = tmp / "other"
    assert gate(other, "setup").returncode == 0
    git(other, "fetch", "-q")
    git(other, "checkout", "-q", "feature")
    status = json.loads(gate(other, "status", "--json", "--machine", "m2").stdout)
    assert (status["state"], status["description"], status["published"]) == ("success", "passed in 4m", None)

    undo = gate(work, "setup", "--undo")
    assert undo.returncode == 0, undo.stderr
    assert config_list(work) == before
    assert "note: a plain `git push` follows push.default again" in undo.stdout.splitlines()


def test_setup_undo_keeps_a_value_added_by_hand_even_when_identical(project):
    tmp, work, remote = project
    git(work, "config", "--add", "remote.origin.fetch", "+refs/notes/*:refs/notes/*")  # the person's own
    assert gate(work, "setup").returncode == 0
    # After setup, the person adds by hand the very values setup added.
    git(work, "config", "--add", "remote.origin.push", "HEAD")
    git(work, "config", "--add", "remote.origin.fetch", "+refs/gatekit-gate/*:refs/gatekit-gate/*")
    undo = gate(work, "setup", "--undo")
    assert undo.returncode == 0, undo.stderr
    assert git(work, "config", "--get-all", "remote.origin.push").splitlines() == ["HEAD"]
    assert git(work, "config", "--get-all", "remote.origin.fetch").splitlines() == [
        "+refs/heads/*:refs/remotes/origin/*", "+refs/notes/*:refs/notes/*", "+refs/gatekit-gate/*:refs/gatekit-gate/*"]
    assert "note: remote.origin.push HEAD was also set by hand: that copy stays" in undo.stdout.splitlines()
    assert git(work, "config", "--get-all", "gatekit-gpu-gate.origin.added", check=False).returncode == 1


def test_a_detached_head_pushes_nothing_plainly_and_the_results_go_on_their_own(project):
    tmp, work, remote = project
    assert gate(work, "setup").returncode == 0
    commit(work, "src/lib.py", "z = 3\n", "more")
    git(work, "checkout", "-q", "--detach")
    ref = record(work, "m1", now())
    plain = git(work, "push", check=False)
    assert plain.returncode != 0
    assert "failed to push some refs" in plain.stderr
    assert git(remote, "for-each-ref", "refs/gatekit-gate") == ""
    git(work, "push", "-q", "origin", "+refs/gatekit-gate-mine/*:refs/gatekit-gate/*")
    assert git(remote, "rev-parse", ref.replace("gatekit-gate-mine", "gatekit-gate")) == git(work, "rev-parse", ref)


def test_status_text_names_the_state_the_result_and_how_to_publish(project):
    tmp, work, remote = project
    commit(work, "src/lib.py", "w = 4\n", "code")
    when = now()
    ref = record(work, "m1", when, verdict="fail", run=True)
    done = gate(work, "status", "--machine", "m1")
    assert done.returncode == 0, done.stderr
    tree = git(work, "rev-parse", "HEAD^{tree}")
    assert ref.startswith(f"refs/gatekit-gate-mine/{tree}/m1@{when.strftime('%Y%m%dT%H%M%SZ')}-")
    assert done.stdout.splitlines() == [
        f"gate/gpu for {git(work, 'rev-parse', 'HEAD')[:12]}: failure \"failed (result of "
        f"{when.strftime('%Y-%m-%dT%H:%M:%SZ')})\"",
        f"  counted result: {ref}",
        "  this machine (m1): not yet: run `git push` (after gpu-gate setup), or git push origin "
        "'+refs/gatekit-gate-mine/*:refs/gatekit-gate/*'",
        "  GPU filter: none: every change outside the docs needs a result (gpu_filter)",
        f"  configuration: origin/HEAD ({git(work, 'rev-parse', 'origin/main')[:12]}), digest {config_digest(work)[:19]}"]


def test_a_hostile_result_ref_is_ignored_and_named(project):
    tmp, work, remote = project
    tree = git(work, "rev-parse", "HEAD^{tree}")
    forged = subprocess.run(["git", *IDENTITY, "commit-tree", tree], cwd=work, input="gpu-gate: pass\n\nverdict: pass\n",
                            capture_output=True, text=True, check=True).stdout.strip()
    git(work, "update-ref", f"refs/gatekit-gate/{tree}/evil", forged)
    done = gate(work, "status", "--json")
    status = json.loads(done.stdout)
    assert status["state"] == "pending"
    assert status["ignored"] == [f"'refs/gatekit-gate/{tree}/evil': the record has no format line"]
    text = gate(work, "status")
    assert f"ignored result ref 'refs/gatekit-gate/{tree}/evil': the record has no format line" in text.stdout.splitlines()


def test_prune_deletes_expired_results_here_and_on_the_remote_but_spares_an_open_pull_requests_head(project):
    tmp, work, remote = project
    config = work / ".github/gatekit/gpu-gate.yml"
    config.parent.mkdir(parents=True)
    config.write_text("expiry_days: 7\n")
    base = commit(work, ".github/gatekit/gpu-gate.yml", "", "gate config")
    git(work, "push", "-q", "origin", "main")
    assert gate(work, "setup").returncode == 0
    fresh = record(work, "m1", now())
    git(work, "checkout", "-q", "-b", "pr1")
    pr1 = commit(work, "src/lib.py", "a = 1\n", "pr1 code")
    relied = record(work, "m1", now() - datetime.timedelta(days=10))
    commit(work, "docs/notes.md", "notes\n", "pr1 docs")  # the head inherits the code commit's result
    pr1_head = git(work, "rev-parse", "HEAD")
    git(work, "push", "-q")
    git(work, "checkout", "-q", "-b", "pr2", base)
    commit(work, "src/lib.py", "b = 2\n", "pr2 code")
    old = record(work, "m1", now() - datetime.timedelta(days=10))
    git(work, "push", "-q")
    old_published = old.replace("gatekit-gate-mine", "gatekit-gate")
    assert git(remote, "rev-parse", old_published)

    with FakeGitHub(token="t0ken") as srv:
        srv.add_pull("o/r", 1, head_sha=pr1_head, base_sha=base, head_ref="pr1")
        srv.add_issue("o/r", "PR 1", number=1, pull_request=True)
        srv.add_pull("o/r", 2, head_sha=git(work, "rev-parse", "HEAD"), base_sha=base, head_ref="pr2", state="closed")
        env = {"GITHUB_API_URL": srv.base_url, "GITHUB_TOKEN": "t0ken", "GITHUB_REPOSITORY": "o/r"}
        dry = gate(work, "prune", "--dry-run", env=env)
        assert dry.returncode == 0, dry.stderr
        assert sorted(line for line in dry.stdout.splitlines() if line.startswith(("would delete", "keeping"))) == sorted([
            f"would delete {old}", f"would delete {old_published}",
            f"keeping {relied}: an open pull request relies on it",
            f"keeping {relied.replace('gatekit-gate-mine', 'gatekit-gate')}: an open pull request relies on it"])
        assert git(work, "rev-parse", old)  # nothing deleted
        done = gate(work, "prune", env=env)
        assert done.returncode == 0, done.stderr
    for repo in (work, remote):
        refs = git(repo, "for-each-ref", "--format=%(refname)", "refs/gatekit-gate", "refs/gatekit-gate-mine").split()
        assert old not in refs and old_published not in refs
        assert relied.replace("gatekit-gate-mine", "gatekit-gate") in refs
    assert fresh in git(work, "for-each-ref", "--format=%(refname)").split()
    assert relied in git(work, "for-each-ref", "--format=%(refname)").split()


def test_prune_skips_an_open_fork_pull_request_whose_head_the_clone_lacks_and_says_so(project):
    tmp, work, remote = project
    config = work / ".github/gatekit/gpu-gate.yml"
    config.parent.mkdir(parents=True)
    config.write_text("expiry_days: 7\n")
    base = commit(work, ".github/gatekit/gpu-gate.yml", "", "gate config")
    git(work, "push", "-q", "origin", "main")
    assert gate(work, "setup").returncode == 0
    commit(work, "src/lib.py", "c = 3\n", "old code")
    old = record(work, "m1", now() - datetime.timedelta(days=10))
    git(work, "push", "-q", "origin", "HEAD:refs/heads/old")
    # A fork's pull request: GitHub keeps its head as refs/pull/3/head on the base repository,
    # which a clone never fetches unless asked.
    git(tmp, "clone", "-q", f"file://{remote}", "fork")
    fork_head = commit(tmp / "fork", "src/lib.py", "f = 4\n", "fork work")
    git(tmp / "fork", "push", "-q", "origin", "HEAD:refs/pull/3/head")
    assert subprocess.run(["git", "cat-file", "-e", fork_head], cwd=work).returncode != 0

    summary = tmp / "summary.md"
    with FakeGitHub(token="t0ken") as srv:
        srv.add_pull("o/r", 3, head_sha=fork_head, base_sha=base, head_ref="fork-work")
        srv.add_issue("o/r", "PR 3", number=3, pull_request=True)
        env = {"GITHUB_API_URL": srv.base_url, "GITHUB_TOKEN": "t0ken", "GITHUB_REPOSITORY": "o/r",
               "GITHUB_STEP_SUMMARY": str(summary)}
        done = gate(work, "prune", env=env)
    assert done.returncode == 0, done.stderr
    assert (f"skipped open pull request head {fork_head}: not in this clone (a fork's pull request?); its results "
            "are not kept for it") in done.stdout.splitlines()
    assert f"deleting {old}" in done.stdout.splitlines()
    assert (f"1 open pull request skipped: the head is not in this clone (`{fork_head[:12]}`), so nothing is kept "
            "for it; fetch `refs/pull/<number>/head` first to keep what it relies on.") in summary.read_text()
    assert old not in git(work, "for-each-ref", "--format=%(refname)").split()


FAKE_GPU = {"GATEKIT_HIP_LIBRARY": str(Path(os.environ["GATEKIT_BUILD_DIR"]) / "tests" / "smoke-runner" / "stub" /
                                      "libgatekit_fake_hip.so"),
            "GATEKIT_CUDA_LIBRARY": "none", "FAKE_HIP_DEVICES": "1"}
NO_GPU = {"GATEKIT_HIP_LIBRARY": "none", "GATEKIT_CUDA_LIBRARY": "none"}


def suite_project(tmp_path):
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    work = tmp_path / "work"
    import shutil
    shutil.copytree(Path(os.environ["GATEKIT_SOURCE_DIR"]) / "tests/gpu-gate/data/gate_suite", work)
    (work / ".gitignore").write_text("__pycache__/\n")
    git(work, "init", "-q", "-b", "main")
    git(work, "remote", "add", "origin", f"file://{remote}")
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "suite")
    git(work, "push", "-q", "-u", "origin", "main")
    git(work, "remote", "set-head", "origin", "main")
    git(work, "checkout", "-q", "-b", "feature")
    return remote, work


def results(repo, prefix="refs/gatekit-gate/"):
    return git(repo, "for-each-ref", "--format=%(refname)", prefix).split()


def test_run_publish_pushes_the_result_and_asks_ci_to_refresh(tmp_path):
    remote, work = suite_project(tmp_path)
    commit(work, "src/kernels.py", "# faster\n", "code")
    tree = git(work, "rev-parse", "HEAD^{tree}")
    with FakeGitHub(token="t0ken") as srv:
        srv.add_run("o/r", "c" * 40, workflow="gate.yml")
        env = {"GITHUB_API_URL": srv.base_url, "GITHUB_TOKEN": "t0ken", "GITHUB_REPOSITORY": "o/r", **FAKE_GPU}
        done = gate(work, "run", "--machine", "m1", "--publish", "--pr", "7", env=env)
        assert done.returncode == 0, done.stdout + done.stderr
        assert srv.dispatches == [{"repo": "o/r", "workflow": "gate.yml", "ref": "refs/heads/main", "inputs": {"pr": "7"}}]
    [mine] = results(work, "refs/gatekit-gate-mine/")
    assert mine.startswith(f"refs/gatekit-gate-mine/{tree}/m1@")
    published = mine.replace("gatekit-gate-mine", "gatekit-gate")
    assert results(remote) == [published]
    assert git(remote, "rev-parse", published) == git(work, "rev-parse", mine)
    assert "asked CI to refresh the status: gate.yml on main for pull request 7" in done.stdout.splitlines()
    # Without a token the result is still pushed, and the log says how to refresh by hand.
    commit(work, "src/kernels.py", "# again\n", "code 2")
    done = gate(work, "run", "--machine", "m1", "--publish", "--pr", "7", env=FAKE_GPU)
    assert done.returncode == 0, done.stdout + done.stderr
    assert ("CI was not asked to refresh the status (no token: GITHUB_TOKEN or GH_TOKEN); it reads the result on its "
            "next run, or: gh workflow run gate.yml -f pr=7") in done.stdout.splitlines()
    assert [r for r in results(remote) if f"/{git(work, 'rev-parse', 'HEAD^{tree}')}/m1@" in r]


def test_run_publish_without_pr_refreshes_the_pull_requests_whose_head_it_tested(tmp_path):
    """Strict mode posts gate/gpu only from the default branch's dispatch or workflow_run
    (docs/gpu-gate.md, "Trust model"), and the dispatch needs a pull request number: without
    --pr, `run --publish` dispatches once for each open pull request whose head is the tested
    commit, none for the others."""
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    work = tmp_path / "work"
    import shutil
    shutil.copytree(Path(os.environ["GATEKIT_SOURCE_DIR"]) / "tests/gpu-gate/data/gate_suite", work)
    (work / ".gitignore").write_text("__pycache__/\n")
    git(work, "init", "-q", "-b", "main")
    git(work, "remote", "add", "origin", f"file://{remote}")
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "suite")
    base = git(work, "rev-parse", "HEAD")
    git(work, "push", "-q", "-u", "origin", "main")
    git(work, "remote", "set-head", "origin", "main")
    git(work, "checkout", "-q", "-b", "feature")
    head = commit(work, "src/kernels.py", "# faster\n", "code")
    with FakeGitHub(token="t0ken") as srv:
        srv.add_run("o/r", "c" * 40, workflow="gate.yml")
        for number, sha, state in ((7, head, "open"), (8, "d" * 40, "open"), (9, head, "closed")):
            srv.add_pull("o/r", number, head_sha=sha, base_sha=base, head_ref=f"pr{number}", state=state)
            srv.add_issue("o/r", f"PR {number}", number=number, pull_request=True, state=state)
        env = {**FAKE_GPU, "GITHUB_API_URL": srv.base_url, "GITHUB_TOKEN": "t0ken", "GITHUB_REPOSITORY": "o/r"}
        done = gate(work, "run", "--machine", "m1", "--publish", env=env)
        assert done.returncode == 0, done.stdout + done.stderr
        assert srv.dispatches == [{"repo": "o/r", "workflow": "gate.yml", "ref": "refs/heads/main", "inputs": {"pr": "7"}}]
    assert "asked CI to refresh the status: gate.yml on main for pull request 7" in done.stdout.splitlines()
    # No open pull request has the new head: nothing is dispatched, and the log says how.
    later = commit(work, "src/kernels.py", "# again\n", "code 2")
    with FakeGitHub(token="t0ken") as srv:
        srv.add_run("o/r", "c" * 40, workflow="gate.yml")
        srv.add_pull("o/r", 7, head_sha=head, base_sha=base, head_ref="pr7")
        srv.add_issue("o/r", "PR 7", number=7, pull_request=True)
        env = {**FAKE_GPU, "GITHUB_API_URL": srv.base_url, "GITHUB_TOKEN": "t0ken", "GITHUB_REPOSITORY": "o/r"}
        done = gate(work, "run", "--machine", "m1", "--publish", env=env)
        assert done.returncode == 0, done.stdout + done.stderr
        assert srv.dispatches == []
    assert (f"no open pull request of o/r has {later} as its head: CI reads the result when a pull request's CPU "
            "or GPU workflow next finishes, or: gh workflow run gate.yml -f pr=<number>") in done.stdout.splitlines()


def test_a_result_without_a_gpu_stays_local_a_plain_push_leaves_it_and_status_says_why(tmp_path):
    remote, work = suite_project(tmp_path)
    assert gate(work, "setup").returncode == 0
    commit(work, "src/kernels.py", "# cpu only\n", "code")
    refused = gate(work, "run", "--machine", "laptop", env=NO_GPU)
    assert refused.returncode == 3
    done = gate(work, "run", "--machine", "laptop", "--allow-no-gpu", env=NO_GPU)
    assert done.returncode == 0, done.stdout + done.stderr
    [ref] = results(work, "refs/gatekit-gate-nogpu/")
    assert results(work, "refs/gatekit-gate-mine/") == []
    git(work, "push", "-q")  # plain, after setup
    assert git(remote, "rev-parse", "refs/heads/feature") == git(work, "rev-parse", "HEAD")
    assert results(remote, "refs/") == ["refs/heads/feature", "refs/heads/main"]
    status = json.loads(gate(work, "status", "--json", "--machine", "laptop").stdout)
    assert (status["state"], status["description"]) == ("pending", "no gate result for this tree")
    assert status["ignored"] == [f"'{ref}': recorded without a GPU (gpu-count 0): only a GPU machine's result counts "
                                 "(the configuration does not set cpu_gate)"]


def test_prune_keeps_the_newest_result_per_tree_and_machine_and_retires_the_first_layout(project):
    tmp, work, remote = project
    assert gate(work, "setup").returncode == 0
    commit(work, "src/lib.py", "c = 3\n", "code")
    tree = git(work, "rev-parse", "HEAD^{tree}")
    legacy = record(work, "m1", now() - datetime.timedelta(days=2))  # refs/gatekit-gate-mine/<tree>/m1
    other = record(work, "m2", now() - datetime.timedelta(days=2))
    git(work, "push", "-q")
    # A newer run of m1 on the same tree, in a ref of its own (as gpu-gate run writes it).
    newer = record(work, "m1", now() - datetime.timedelta(hours=1), run=True)
    git(work, "push", "-q")
    assert len(results(remote)) == 3
    done = gate(work, "prune")
    assert done.returncode == 0, done.stderr
    assert f"deleting {legacy} (superseded)" in done.stdout.splitlines()
    assert sorted(results(remote)) == sorted([other.replace("-mine", ""), newer.replace("-mine", "")])
    assert sorted(results(work, "refs/gatekit-gate-mine/")) == sorted([other, newer])
    status = json.loads(gate(work, "status", "--json", "--machine", "m1").stdout)
    assert (status["state"], status["result"]["ref"]) == ("success", newer)
    assert status["published"] is True


def ssh_key(tmp, name):
    """A real ed25519 key pair from ssh-keygen: (private key path, public key line)."""
    path = tmp / name
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(path)], check=True)
    return path, (tmp / (name + ".pub")).read_text().strip()


def test_prune_decides_the_newest_among_verified_results_so_a_hostile_newer_ref_deletes_no_signed_one(project):
    tmp, work, remote = project
    gpu_key, gpu_public = ssh_key(tmp, "gpu")
    stranger_key, _ = ssh_key(tmp, "stranger")
    (work / ".github/gatekit").mkdir(parents=True)
    (work / ".github/gatekit/allowed_signers").write_text(f"gpu@example.com {gpu_public}\n")
    (work / ".github/gatekit/gpu-gate.yml").write_text("signing:\n  allowed_signers: .github/gatekit/allowed_signers\n")
    commit(work, "src/lib.py", "d = 4\n", "code and signing")
    assert gate(work, "setup").returncode == 0
    older_signed = record(work, "m1", now() - datetime.timedelta(days=3), run=True, key=gpu_key)
    signed = record(work, "m1", now() - datetime.timedelta(days=2), run=True, key=gpu_key)
    git(work, "push", "-q")  # the branch and, after setup, this machine's results
    # A pusher without a key of the allowed-signers file sends later results of the same tree
    # and machine straight to the published namespace: one unsigned, one signed by a stranger.
    unsigned = record(work, "m1", now() - datetime.timedelta(hours=2), mine=False, run=True)
    foreign = record(work, "m1", now() - datetime.timedelta(hours=1), mine=False, run=True, key=stranger_key)
    git(work, "push", "-q", "origin", unsigned, foreign)
    git(work, "update-ref", "-d", unsigned)
    git(work, "update-ref", "-d", foreign)
    published = {ref: ref.replace("-mine", "") for ref in (older_signed, signed)}

    summary_file = tmp / "summary.md"
    done = gate(work, "prune", env={"GITHUB_STEP_SUMMARY": str(summary_file)})
    assert done.returncode == 0, done.stderr
    # The newest verified result stays on both sides; the older verified one and the older
    # unverified one go. The newest unverified ref stays until it expires: it counts for nothing.
    assert sorted(results(remote)) == sorted([published[signed], foreign])
    assert sorted(results(work)) == sorted([published[signed], foreign])
    assert results(work, "refs/gatekit-gate-mine/") == [signed]
    lines = done.stdout.splitlines()
    assert f"signature not verified (unsigned): {unsigned} replaces no verified result" in lines
    assert f"signature not verified (foreign): {foreign} replaces no verified result" in lines
    assert f"deleting {published[older_signed]} (superseded)" in lines
    assert f"deleting {unsigned} (superseded)" in lines  # the stranger's later ref replaced it
    assert ("2 published results whose signature does not verify against the allowed signers were judged apart: "
            "none of them replaces a verified result.") in summary_file.read_text()


def test_prune_refuses_an_allowed_signers_file_the_checkout_lacks(project):
    tmp, work, remote = project
    config = work / ".github/gatekit/gpu-gate.yml"
    config.parent.mkdir(parents=True)
    config.write_text("signing:\n  allowed_signers: keys/allowed_signers\n")
    done = gate(work, "prune")
    assert done.returncode == 2
    assert "gpu-gate: error: the allowed-signers file keys/allowed_signers is not in the checkout .\n" in done.stderr


def test_prune_refuses_a_signing_file_reached_through_a_link(project):
    tmp, work, remote = project
    (tmp / "elsewhere").mkdir()
    (tmp / "elsewhere" / "allowed_signers").write_text("mallory@example.com ssh-ed25519 AAAA\n")
    (work / "keys").symlink_to(tmp / "elsewhere")
    config = work / ".github/gatekit/gpu-gate.yml"
    config.parent.mkdir(parents=True)
    config.write_text("signing:\n  allowed_signers: keys/allowed_signers\n")
    done = gate(work, "prune")
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"gpu-gate: error: the allowed-signers file: 'keys/allowed_signers' passes through the symbolic "
                           f"link 'keys' (-> '{tmp / 'elsewhere'}'): it could lead outside the repository\n")


def test_status_leaves_out_a_result_the_remote_no_longer_has(project):
    tmp, work, remote = project
    assert gate(work, "setup").returncode == 0
    git(work, "checkout", "-q", "-b", "feature")
    commit(work, "src/lib.py", "s = 5\n", "code")
    ref = record(work, "m1", now(), run=True)
    git(work, "push", "-q")
    git(tmp, "clone", "-q", f"file://{remote}", "other")
    other = tmp / "other"
    assert gate(other, "setup").returncode == 0
    git(other, "fetch", "-q")
    git(other, "checkout", "-q", "feature")
    assert json.loads(gate(other, "status", "--json").stdout)["state"] == "success"
    published = ref.replace("gatekit-gate-mine", "gatekit-gate")
    git(work, "push", "-q", "origin", f":{published}")  # deleted on the remote; other's plain fetch keeps it
    git(other, "fetch", "-q")
    assert published in results(other)
    status = json.loads(gate(other, "status", "--json").stdout)
    assert (status["state"], status["description"]) == ("pending", "no gate result for this tree")
    assert status["ignored"] == [f"'{published}': no longer on origin (git fetch --prune origin drops it)"]
    # Offline (the remote cannot be asked), the clone's own view stands.
    git(other, "remote", "set-url", "origin", f"file://{tmp}/gone.git")
    assert json.loads(gate(other, "status", "--json").stdout)["state"] == "success"
