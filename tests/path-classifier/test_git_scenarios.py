"""The path gate on real git repositories: renames, merge_group and push events, shallow
clones that need fetching and deepening, and git errors that must fail open."""
import json

import pytest

from gate_helpers import RULES, commit_files, git, new_repo, run_tool


@pytest.fixture
def origin(tmp_path):
    """A repository with main and a feature branch 30 commits ahead of the fork point."""
    repo = new_repo(tmp_path / "origin")
    base = commit_files(repo, {"src/kernels/k.py": "k = 1\n", "src/app.py": "a = 1\n", "README.md": "# r\n"}, "base")
    for i in range(5):
        commit_files(repo, {"src/app.py": f"a = {i}\n"}, f"main {i}")
    git(repo, "checkout", "-q", "-b", "feature", base)
    for i in range(30):
        commit_files(repo, {f".github/notes/{i}.md": "x\n"}, f"ci {i}")
    (repo / "docs").mkdir()
    git(repo, "mv", "src/kernels/k.py", "docs/k_example.py")
    git(repo, "commit", "-q", "-m", "move the kernel into docs")
    git(repo, "checkout", "-q", "main")
    return repo


def test_local_diff_counts_both_sides_of_a_rename(tmp_path, origin):
    run = run_tool(tmp_path, ["--repo-dir", str(origin), "--base", "main", "--head", "feature"])
    assert run.code == 0, run.stderr
    assert run.outputs["gpu"] == "true"
    gpu = run.decision["filters"]["gpu"]
    assert gpu["file"] == "src/kernels/k.py"
    assert gpu["renamed_to"] == "docs/k_example.py"
    assert run.outputs["cpu"] == "true"  # docs/k_example.py is outside the deny list


def test_merge_group_in_a_shallow_clone_fetches_what_it_needs(tmp_path, origin):
    head = git(origin, "rev-parse", "feature~1")  # only .github/ changes up to here
    base = git(origin, "merge-base", "main", "feature")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", "--branch", "main", f"file://{origin}", str(clone))
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"merge_group": {"base_sha": base, "head_sha": head}}))
    run = run_tool(tmp_path, ["--repo-dir", str(clone)],
                   {"GITHUB_EVENT_NAME": "merge_group", "GITHUB_EVENT_PATH": str(event)})
    assert run.code == 0, run.stderr
    assert "fetched" in run.stdout
    assert run.outputs["changes"] == "[]", run.stdout
    assert run.outputs["cpu"] == "false"
    assert "No filter is relevant" in run.stdout


def test_pull_request_without_token_uses_three_dot_git_and_deepens(tmp_path, origin):
    head = git(origin, "rev-parse", "feature")
    base = git(origin, "rev-parse", "main")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", "--no-single-branch", f"file://{origin}", str(clone))
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"number": 3, "base": {"sha": base}, "head": {"sha": head}}}))
    run = run_tool(tmp_path, ["--repo-dir", str(clone)],
                   {"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event)})
    assert run.code == 0, run.stderr
    assert "deepened the clone" in run.stdout
    assert run.outputs["gpu"] == "true"
    assert run.decision["source"] == f"git diff {base}...{head}"


def test_push_is_relevant_unless_evaluated(tmp_path, origin):
    before = git(origin, "rev-parse", "feature~1")
    after = git(origin, "rev-parse", "feature~2")
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"before": before, "after": after}))
    env = {"GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": str(event)}
    plain = run_tool(tmp_path, ["--repo-dir", str(origin)], env)
    assert plain.outputs["changes"] == '["cpu","gpu"]'
    assert plain.decision["filters"]["cpu"]["reason"] == "non-pr-event"
    evaluated = run_tool(tmp_path, ["--repo-dir", str(origin)], env,
                         rules="non-pr-events: evaluate\n" + RULES)
    assert evaluated.code == 0, evaluated.stderr
    assert evaluated.outputs["changes"] == "[]"
    # A push that created the branch has no `before`: fail open.
    event.write_text(json.dumps({"before": "0" * 40, "after": after}))
    created = run_tool(tmp_path, ["--repo-dir", str(origin)], env,
                       rules="non-pr-events: evaluate\n" + RULES)
    assert created.outputs["changes"] == '["cpu","gpu"]'
    assert "::warning title=path gate::fail-open: the push created a branch" in created.stdout


def test_git_errors_fail_open_with_a_warning(tmp_path, origin):
    run = run_tool(tmp_path, ["--repo-dir", str(origin), "--base", "no-such-rev", "--no-fetch"])
    assert run.code == 0
    assert run.outputs["changes"] == '["cpu","gpu"]'
    assert run.decision["fail_open"] == "commit no-such-rev is not in the clone (fetching is disabled)"
    assert "::warning title=path gate::fail-open: commit no-such-rev is not in the clone" in run.stdout
    not_a_repo = run_tool(tmp_path, ["--repo-dir", str(tmp_path / "nothing"), "--base", "main"])
    assert not_a_repo.code == 0
    assert not_a_repo.outputs["cpu"] == "true"
    assert "| `cpu` | deny | ✅ runs |" in not_a_repo.summary
