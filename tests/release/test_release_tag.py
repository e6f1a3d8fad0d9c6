"""scripts/release-tag.sh: which tags release.yml releases (docs/releasing.md, "Who can publish").

Real git: a bare remote reached over file://, a maintainer's clone that pushes main, a side
branch and tags, and the release job's clone of the remote as actions/checkout with
fetch-depth: 0 makes it (every branch under refs/remotes/origin/, every tag). The script runs
in that clone, as release.yml runs it; its messages are asserted verbatim.
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
SCRIPT = SOURCE / "scripts" / "release-tag.sh"
sys.path.insert(0, str(SOURCE / "tests" / "support"))
from git_remote import clone_with_remote, git  # noqa: E402


def cmake_lists(version: str) -> str:
    return f"cmake_minimum_required(VERSION 3.25)\nproject(gatekit VERSION {version} LANGUAGES CXX)\n"


def commit(work: Path, version: str, message: str, extra: dict | None = None) -> str:
    (work / "CMakeLists.txt").write_text(cmake_lists(version))
    for name, text in (extra or {}).items():
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        (work / name).write_text(text)
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", message)
    return git(work, "rev-parse", "HEAD")


class Repo:
    """The remote, the maintainer's clone (`work`) and the release job's clone (`ci`)."""

    def __init__(self, tmp_path: Path):
        self.tmp = tmp_path
        self.remote, self.work = clone_with_remote(tmp_path)
        self.main = commit(self.work, "1.2.3", "gatekit 1.2.3")
        git(self.work, "push", "-q", "origin", "main")

    def tag(self, name: str, rev: str = "HEAD", annotated: bool = True) -> None:
        git(self.work, "tag", *(["-a", "-m", name] if annotated else []), name, rev)
        git(self.work, "push", "-q", "origin", f"refs/tags/{name}")

    def checkout(self) -> Path:
        """The release job's clone of the default branch: fetch-depth 0, every tag."""
        ci = self.tmp / "ci"
        if not ci.exists():
            git(self.tmp, "clone", "-q", f"file://{self.remote}", str(ci))
        return ci

    def check(self, *args: str):
        ci = self.checkout()
        out = self.tmp / "github_output"
        out.write_text("")
        done = subprocess.run(["bash", str(SCRIPT), *args], cwd=ci, capture_output=True, text=True, timeout=60,
                              env={**os.environ, "GITHUB_OUTPUT": str(out)})
        done.outputs = dict(line.split("=", 1) for line in out.read_text().splitlines())
        return done


@pytest.fixture
def repo(tmp_path):
    return Repo(tmp_path)


@pytest.mark.parametrize("annotated", [True, False], ids=["annotated", "lightweight"])
def test_a_tag_on_the_default_branch_with_its_version_is_released(repo, annotated):
    repo.tag("v1.2.3", annotated=annotated)
    done = repo.check("--tag", "v1.2.3", "--branch", "main")
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"release-tag: v1.2.3 is commit {repo.main} on the history of main, gatekit 1.2.3\n"
    assert done.outputs == {"sha": repo.main, "version": "1.2.3"}


def test_a_tag_on_a_side_branch_is_never_released(repo):
    """Someone with push access: a branch whose release.yml is edited (publish on a tag push,
    with --clobber), tagged and pushed. Its copy of release.yml never runs here, and the default
    branch's refuses its tag."""
    git(repo.work, "checkout", "-q", "-b", "side")
    side = commit(repo.work, "1.2.4", "release from here", {
        ".github/workflows/release.yml": "on: {push: {tags: ['v*']}}\npermissions: {contents: write}\n"})
    git(repo.work, "push", "-q", "origin", "side")
    repo.tag("v1.2.4")
    done = repo.check("--tag", "v1.2.4", "--branch", "main")
    assert done.returncode == 2
    assert done.stderr == (f"release-tag: v1.2.4 names commit {side}, which is not on the history of main: releases "
                           "come only from the default branch's history (docs/releasing.md)\n")
    assert done.outputs == {}


def test_a_side_branch_merged_into_main_is_on_its_history(repo):
    git(repo.work, "checkout", "-q", "-b", "side")
    side = commit(repo.work, "1.3.0", "1.3.0 on a branch")
    git(repo.work, "checkout", "-q", "main")
    git(repo.work, "merge", "-q", "--no-ff", "-m", "merge", "side")
    git(repo.work, "push", "-q", "origin", "main")
    repo.tag("v1.3.0", rev=side)
    done = repo.check("--tag", "v1.3.0")
    assert done.returncode == 0, done.stderr
    assert done.outputs == {"sha": side, "version": "1.3.0"}


def test_a_tag_on_a_commit_of_another_version_is_refused(repo):
    repo.tag("v1.2.5")
    done = repo.check("--tag", "v1.2.5")
    assert done.returncode == 2
    assert done.stderr == (f"release-tag: v1.2.5 names commit {repo.main}, whose CMakeLists.txt says project(gatekit "
                           "VERSION 1.2.3): tag the commit that sets 1.2.5\n")


@pytest.mark.parametrize("tag", ["v1.2", "1.2.3", "v01.2.3", "v1.2.3-rc.1", "--upload-pack=touch x", "v1.2.3\n"])
def test_only_a_vmajor_minor_patch_tag_is_released(repo, tag):
    repo.tag("v1.2.3")
    done = repo.check("--tag", tag)
    assert done.returncode == 2
    assert done.stderr == f"release-tag: tag '{tag}' is not vMAJOR.MINOR.PATCH (e.g. v0.2.0): only such tags are released\n"
    assert not (repo.checkout() / "x").exists()


def test_a_branch_named_like_the_tag_is_not_the_tag(repo):
    git(repo.work, "push", "-q", "origin", "main:refs/heads/v1.2.3")
    done = repo.check("--tag", "v1.2.3")
    assert done.returncode == 2
    assert done.stderr == "release-tag: origin has no tag v1.2.3: push the tag (on a commit of main) first\n"


def test_a_tag_moved_after_the_clone_fetched_is_refused(repo):
    repo.tag("v1.2.3")
    repo.checkout()  # the job's clone has the tag on main's commit
    other = commit(repo.work, "1.2.3", "another commit", {"NEWS": "more\n"})
    git(repo.work, "push", "-q", "origin", "main")
    git(repo.work, "tag", "-f", "-a", "-m", "moved", "v1.2.3", other)
    git(repo.work, "push", "-q", "-f", "origin", "refs/tags/v1.2.3")
    done = repo.check("--tag", "v1.2.3")
    assert done.returncode == 3
    assert done.stderr == (f"release-tag: v1.2.3 moved: origin says {other}, this clone fetched {repo.main}. "
                           "Start the release again\n")


def test_publishing_checks_the_tag_still_names_the_commit_that_was_built(repo):
    repo.tag("v1.2.3")
    built = repo.check("--tag", "v1.2.3").outputs["sha"]
    assert repo.check("--tag", "v1.2.3", "--expect", built).returncode == 0
    other = "f" * 40
    done = repo.check("--tag", "v1.2.3", "--expect", other)
    assert done.returncode == 3
    assert done.stderr == (f"release-tag: v1.2.3 names {built} now, but {other} was checked and built: the tag moved "
                           "during the release. Nothing is published\n")


@pytest.mark.parametrize("args,message", [
    (["--tag", "v1.2.3", "--branch", "--upload-pack=x"], "--branch '--upload-pack=x' is not a branch name"),
    (["--tag", "v1.2.3", "--branch", "a..b"], "--branch 'a..b' is not a branch name"),
    (["--tag", "v1.2.3", "--expect", "HEAD"], "--expect 'HEAD' is not a full commit name"),
    (["--tag"], "--tag needs a value"),
    (["--tags", "v1.2.3"], "unknown argument '--tags' (usage: release-tag.sh --tag vX.Y.Z [--branch BRANCH] "
                           "[--remote REMOTE] [--expect SHA])"),
])
def test_bad_arguments_exit_2(repo, args, message):
    repo.tag("v1.2.3")
    done = repo.check(*args)
    assert (done.returncode, done.stderr) == (2, f"release-tag: {message}\n")
