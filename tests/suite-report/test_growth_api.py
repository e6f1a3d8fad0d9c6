"""suite-report growth --find-baseline against the GitHub API test server: the baseline is
the artifact of the newest completed push run on main of the same workflow; pull-request
runs (a fork's branch may be called main), expired artifacts, other branches and a tag named
main (its push runs carry head_branch main) never supply one; no baseline and an API failure
are notices, never failures."""
import os
import subprocess
import sys

from suite_fixtures import make_project, run_tool

sys.path.insert(0, os.path.join(os.environ.get("GATEKIT_SOURCE_DIR", "."), "tests", "github_api"))
from server import FakeGitHub  # noqa: E402

KEY = ["--workflow", "cpu-tests.yml", "--job", "tests", "--python-version", "3.12", "--repo", "o/r"]


def find(project, srv, *extra, token="t0ken"):
    return run_tool("growth", "--find-baseline", "--selection", "suite.yml", "--leg", "cpu", "--context", "pr", *KEY,
                    *extra, cwd=project, env={"GITHUB_API_URL": srv.base_url, "GITHUB_TOKEN": token})


def artifact_name(project, srv):
    """The name the tool gives this configuration's baseline (asked with nothing to find)."""
    srv.add_run("o/r", workflow="cpu-tests.yml", status="in_progress", conclusion=None, run_id=1)
    return find(project, srv).outputs["artifact"]


def test_the_newest_push_run_on_main_with_the_artifact_supplies_the_baseline(tmp_path):
    project = make_project(tmp_path / "p", {})
    with FakeGitHub(token="t0ken") as srv:
        name = artifact_name(project, srv)
        assert name.startswith("suite-baseline-cpu-tests-tests-py3.12-")
        for sha in "acf":  # the commits refs/heads/main was pushed to
            srv.add_activity("o/r", "refs/heads/main", sha * 40)
        srv.add_run("o/r", "a" * 40, workflow="cpu-tests.yml", run_id=500, artifacts=[{"name": name, "size_in_bytes": 9}])
        # Newer runs that must not be taken: a fork's pull request from its own `main`
        # branch, an expired artifact, another workflow, another branch, a run of another key.
        srv.add_run("o/r", "b" * 40, workflow="cpu-tests.yml", event="pull_request", run_id=501,
                    artifacts=[{"name": name, "size_in_bytes": 9}])
        srv.add_run("o/r", "c" * 40, workflow="cpu-tests.yml", run_id=502,
                    artifacts=[{"name": name, "size_in_bytes": 9, "expired": True}])
        srv.add_run("o/r", "d" * 40, workflow="gpu-tests.yml", run_id=503, artifacts=[{"name": name, "size_in_bytes": 9}])
        srv.add_run("o/r", "e" * 40, workflow="cpu-tests.yml", head_branch="dev", run_id=504,
                    artifacts=[{"name": name, "size_in_bytes": 9}])
        srv.add_run("o/r", "f" * 40, workflow="cpu-tests.yml", run_id=505,
                    artifacts=[{"name": name.replace("py3.12", "py3.11"), "size_in_bytes": 9}])
        run = find(project, srv)
        assert run.code == 0, run.stdout + run.stderr
        assert run.outputs["found"] == "true"
        assert run.outputs["run-id"] == "500"
        assert run.outputs["artifact"] == name
        assert f"baseline: artifact {name} of run 500 ({'a' * 40})" in run.stdout
        paths = [r["path"] for r in srv.requests]
        assert "/repos/o/r/actions/runs/501/artifacts" not in paths  # a pull request's artifacts are never read
        assert "/repos/o/r/actions/runs/504/artifacts" not in paths


def git(cwd, *args):
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.com", GIT_CONFIG_GLOBAL="/dev/null")
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout.strip()


def branch_updates(remote, ref):
    """What GitHub's activity reports for `ref`: each update of it on the remote, oldest first
    (the remote's own reflog)."""
    lines = git(remote, "reflog", "show", "--format=%H", ref).splitlines()
    return list(reversed(lines))


def test_a_tag_named_like_the_branch_never_supplies_the_baseline(tmp_path):
    """Issue 42, item 7. Someone who may push tags, but not main, pushes a tag named main on a
    commit whose workflow uploads an artifact under the baseline's name, then deletes the tag.
    GitHub reports that tag push's run with event `push` and head_branch main, like the
    branch's: by its short name the lookup took it (the tag check only saw a tag that still
    existed). By its full name, refs/heads/main, it never does, whether the tag is there or not."""
    project = make_project(tmp_path / "p", {})
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    git(remote, "config", "core.logAllRefUpdates", "always")
    work = tmp_path / "work"
    git(tmp_path, "init", "-q", "-b", "main", str(work))
    git(work, "commit", "-q", "--allow-empty", "-m", "main")
    git(work, "push", "-q", str(remote), "refs/heads/main:refs/heads/main")
    branch = git(work, "rev-parse", "refs/heads/main")
    git(work, "switch", "-q", "--detach")
    git(work, "commit", "-q", "--allow-empty", "-m", "a workflow that uploads a baseline of its own")
    git(work, "tag", "main")
    git(work, "push", "-q", str(remote), "refs/tags/main:refs/tags/main")
    tagged = git(remote, "rev-parse", "refs/tags/main")
    assert git(remote, "rev-parse", "main") == tagged != branch  # the short name is the tag's
    with FakeGitHub(token="t0ken") as srv:
        name = artifact_name(project, srv)
        for after in branch_updates(remote, "refs/heads/main"):
            srv.add_activity("o/r", "refs/heads/main", after)
        srv.add_run("o/r", branch, workflow="cpu-tests.yml", run_id=800, artifacts=[{"name": name, "size_in_bytes": 9}])
        # The tag's push run, newer, as GitHub lists it under the branch's name.
        srv.add_run("o/r", tagged, workflow="cpu-tests.yml", head_branch="main", event="push", run_id=801,
                    artifacts=[{"name": name, "size_in_bytes": 9}])
        for tag_present in (True, False):
            if not tag_present:
                git(work, "push", "-q", str(remote), ":refs/tags/main")
            run = find(project, srv)
            assert run.code == 0, run.stdout + run.stderr
            assert (run.outputs["found"], run.outputs["run-id"]) == ("true", "800")
            assert (f"baseline: artifact {name} of run 800 ({branch})\n"
                    "passed over 1 newer push run(s) named main whose commit the branch was never updated to (a "
                    "tag's push runs are reported under the tag's name)") in run.stdout
            assert "/repos/o/r/actions/runs/801/artifacts" not in [r["path"] for r in srv.requests]
        # Asked by its full name: refs/heads/main, never main.
        assert {r["query"].get("ref") for r in srv.requests if r["path"] == "/repos/o/r/activity"} == {"refs/heads/main"}


def test_a_tag_s_run_alone_is_no_baseline_and_the_notice_says_why(tmp_path):
    project = make_project(tmp_path / "p", {})
    with FakeGitHub(token="t0ken") as srv:
        name = artifact_name(project, srv)
        srv.add_activity("o/r", "refs/heads/main", "a" * 40)
        srv.add_run("o/r", "9" * 40, workflow="cpu-tests.yml", run_id=811, artifacts=[{"name": name, "size_in_bytes": 9}])
        run = find(project, srv, "--branch", "refs/heads/main")
        assert run.code == 0, run.stdout + run.stderr
        assert run.outputs["found"] == "false"
        assert ("notice: suite growth: no suite baseline yet for this configuration (no completed push run of "
                "cpu-tests.yml on refs/heads/main yet; 1 push run named main ran a commit refs/heads/main was never "
                "updated to (a tag named main?), and was not taken); the next push to refs/heads/main stores one"
                ) in run.stdout


def test_the_branch_s_activity_failing_is_a_notice_never_a_baseline(tmp_path):
    project = make_project(tmp_path / "p", {})
    with FakeGitHub(token="t0ken") as srv:
        name = artifact_name(project, srv)
        srv.add_activity("o/r", "refs/heads/main", "a" * 40)
        srv.add_run("o/r", "a" * 40, workflow="cpu-tests.yml", run_id=810, artifacts=[{"name": name, "size_in_bytes": 9}])
        srv.add_fault("GET", r"/activity", "status", status=503, times=None)
        run = find(project, srv, "--api-budget", "2")
        assert run.code == 0, run.stdout + run.stderr
        assert run.outputs["found"] == "false"
        assert "notice: suite growth: could not look up the suite baseline (GET " in run.stdout
        assert "/repos/o/r/actions/runs/810/artifacts" not in [r["path"] for r in srv.requests]


def test_no_baseline_yet_is_a_notice(tmp_path):
    project = make_project(tmp_path / "p", {})
    with FakeGitHub(token="t0ken") as srv:
        artifact_name(project, srv)  # only this run, still in progress
        run = find(project, srv)
        assert run.code == 0
        assert run.outputs["found"] == "false"
        assert run.outputs["run-id"] == ""
        assert ("notice: suite growth: no suite baseline yet for this configuration (no completed push run of "
                "cpu-tests.yml on refs/heads/main yet); the next push to main stores one") in run.stdout
        srv.add_activity("o/r", "refs/heads/main", "c" * 40)
        srv.add_run("o/r", workflow="cpu-tests.yml", run_id=600)
        run = find(project, srv)
        assert run.outputs["found"] == "false"
        assert ("(none of the last 1 push runs of cpu-tests.yml on refs/heads/main stored "
                "suite-baseline-cpu-tests-tests-py3.12-") in run.stdout


def test_an_api_failure_is_a_notice_never_a_failure(tmp_path):
    project = make_project(tmp_path / "p", {})
    with FakeGitHub(token="t0ken") as srv:
        artifact_name(project, srv)
        srv.add_fault("GET", r"/actions/workflows/", "status", status=503, times=None)
        run = find(project, srv, "--api-budget", "2")
        assert run.code == 0, run.stdout + run.stderr
        assert run.outputs["found"] == "false"
        assert "notice: suite growth: could not look up the suite baseline (GET " in run.stdout
        assert "growth is not compared this time" in run.stdout


def test_a_wrong_token_is_a_notice_and_the_token_never_printed(tmp_path):
    project = make_project(tmp_path / "p", {})
    with FakeGitHub(token="t0ken") as srv:
        artifact_name(project, srv)
        run = find(project, srv, token="s3cret-token-value")
        assert run.code == 0
        assert "could not look up the suite baseline" in run.stdout
        assert "401" in run.stdout
        assert "s3cret-token-value" not in run.stdout + run.stderr


def test_find_baseline_needs_a_repository(tmp_path):
    project = make_project(tmp_path / "p", {})
    run = run_tool("growth", "--find-baseline", "--selection", "suite.yml", "--leg", "cpu", "--context", "pr",
                   "--python-version", "3.12", cwd=project)
    assert run.code == 2
    assert run.stderr == "suite-report: error: --find-baseline needs --repo or GITHUB_REPOSITORY\n"


def test_without_a_workflow_file_no_lookup_is_made(tmp_path):
    # GITHUB_WORKFLOW is a display name; the runs API takes a file name or an id, so asking
    # with it would only find nothing (act sets no GITHUB_WORKFLOW_REF, for one).
    project = make_project(tmp_path / "p", {})
    with FakeGitHub(token="t0ken") as srv:
        srv.add_run("o/r", workflow="cpu-tests.yml", run_id=700)
        run = run_tool("growth", "--find-baseline", "--selection", "suite.yml", "--leg", "cpu", "--context", "pr",
                       "--job", "tests", "--python-version", "3.12", "--repo", "o/r", cwd=project,
                       env={"GITHUB_API_URL": srv.base_url, "GITHUB_TOKEN": "t0ken", "GITHUB_WORKFLOW": "CPU tests"})
        assert run.code == 0, run.stdout + run.stderr
        assert run.outputs["found"] == "false"
        assert ("notice: suite growth: no suite baseline looked up: the workflow file is not known (give --workflow; "
                "GITHUB_WORKFLOW_REF is not set)") in run.stdout
        assert not [r for r in srv.requests if "/actions/" in r["path"]]
