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


@pytest.fixture
def tagged(tmp_path):
    """main, and a feature branch whose first commit changes GPU code and whose second only
    docs; a tag named main, pushed by someone who may push tags, on the feature's first commit.
    Against the tag the feature reads as a docs-only change."""
    repo = new_repo(tmp_path / "tagged")
    commit_files(repo, {"src/kernels/k.py": "k = 1\n", "README.md": "# r\n"}, "base")
    git(repo, "checkout", "-q", "-b", "feature")
    kernel = commit_files(repo, {"src/kernels/k.py": "k = 2\n"}, "the kernel")
    commit_files(repo, {".github/notes.md": "n\n"}, "notes")
    git(repo, "tag", "main", kernel)
    git(repo, "checkout", "-q", "main")
    return repo


def test_a_tag_named_like_the_base_branch_never_stands_for_it(tmp_path, tagged):
    """Issue 42, item 7: git's own lookup prefers refs/tags/main to refs/heads/main, so
    `--base main` compared with the tag, and the kernel change read as .github-only."""
    run = run_tool(tmp_path, ["--repo-dir", str(tagged), "--base", "main", "--head", "feature"])
    assert run.code == 0, run.stderr
    assert run.decision["fail_open"] is None
    assert run.outputs["gpu"] == "true", run.stdout
    assert run.decision["filters"]["gpu"]["file"] == "src/kernels/k.py"


def test_a_tag_named_like_the_base_branch_is_not_what_a_shallow_clone_fetches(tmp_path, tagged):
    """The clone lacks main: `git fetch origin main` fetched the remote's tag main, not the
    branch. The branch is fetched by its full name into the tracking branch."""
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", "--no-tags", "--branch", "feature", f"file://{tagged}", str(clone))
    run = run_tool(tmp_path, ["--repo-dir", str(clone), "--base", "main", "--head", "HEAD"])
    assert run.code == 0, run.stderr
    assert run.decision["fail_open"] is None, run.stdout
    assert "fetched main from origin" in run.stdout
    assert git(clone, "rev-parse", "refs/remotes/origin/main") == git(tagged, "rev-parse", "refs/heads/main")
    assert run.outputs["gpu"] == "true", run.stdout
    assert run.decision["filters"]["gpu"]["file"] == "src/kernels/k.py"


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


# ---- option injection: nothing from the command line or the event reaches git as an option --

EVIL = "--upload-pack=touch PWNED;"


def clone_of(tmp_path, origin):
    """A full clone whose `origin` is a real remote: a fetch through it runs upload-pack."""
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--no-single-branch", f"file://{origin}", str(clone))
    return clone


def assert_nothing_ran(tmp_path):
    assert sorted(str(p) for p in tmp_path.rglob("PWNED*")) == []


@pytest.mark.parametrize("args, message", [
    (["--base", EVIL], f"--base: revision '{EVIL}' starts with '-': git would read it as an option"),
    (["--base=main", f"--head={EVIL}"], f"--head: revision '{EVIL}' starts with '-': git would read it as an option"),
    (["--base=main", f"--remote={EVIL}"], f"--remote: the remote '{EVIL}' starts with '-': git would read it as an option"),
    (["--base=main..feature"], "--base: revision 'main..feature' is not a commit SHA or ref name (such as main, "
                               "origin/main or v1.2) optionally followed by ~N, ^N or ^{commit}: it contains '..' "
                               "(ranges are not accepted)"),
])
def test_a_revision_git_could_misread_is_a_usage_error_and_runs_nothing(tmp_path, origin, args, message):
    clone = clone_of(tmp_path, origin)
    git(clone, "update-ref", "-d", "refs/remotes/origin/feature")  # a fetch would be needed
    run = run_tool(tmp_path, ["--repo-dir", str(clone), *args])
    assert run.code == 2
    assert run.stderr == f"path-classifier: error: {message}\nRun 'path-classifier --help' for usage.\n"
    assert_nothing_ran(tmp_path)


def test_a_checked_base_still_fetches_through_the_remote(tmp_path, origin):
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", "--branch", "main", f"file://{origin}", str(clone))
    feature = git(origin, "rev-parse", "feature")
    run = run_tool(tmp_path, ["--repo-dir", str(clone), "--base", "main", "--head", feature])
    assert run.code == 0, run.stderr
    assert run.decision["fail_open"] is None
    assert run.outputs["gpu"] == "true"
    assert f"fetched {feature} from origin" in run.stdout


EVENTS = {
    "push": lambda base, head: {"before": base, "after": head},
    "merge_group": lambda base, head: {"merge_group": {"base_sha": base, "head_sha": head}},
    "pull_request": lambda base, head: {"pull_request": {"number": 3, "base": {"sha": base}, "head": {"sha": head}}},
}
FIELDS = {"push": ("before", "after"), "merge_group": ("merge_group.base_sha", "merge_group.head_sha"),
          "pull_request": ("pull_request.base.sha", "pull_request.head.sha")}


@pytest.mark.parametrize("event", sorted(EVENTS))
@pytest.mark.parametrize("side", [0, 1])
def test_an_event_payload_option_fails_open_and_runs_nothing(tmp_path, origin, event, side):
    clone = clone_of(tmp_path, origin)
    shas = [git(origin, "rev-parse", "main"), git(origin, "rev-parse", "feature")]
    shas[side] = EVIL
    payload = tmp_path / "event.json"
    payload.write_text(json.dumps(EVENTS[event](*shas)))
    # no token: a pull_request is listed with git too
    run = run_tool(tmp_path, ["--repo-dir", str(clone)], {"GITHUB_EVENT_NAME": event, "GITHUB_EVENT_PATH": str(payload)},
                   rules="non-pr-events: evaluate\n" + RULES)
    assert run.code == 0, run.stderr
    field = FIELDS[event][side]
    cause = f"the {event} event payload's `{field}` is not a commit SHA (40 or 64 hexadecimal digits): '{EVIL}'"
    assert run.decision["fail_open"] == cause
    assert run.outputs["changes"] == '["cpu","gpu"]'
    assert f"::warning title=path gate::fail-open: {cause}" in run.stdout
    assert_nothing_ran(tmp_path)


# ---- git's quoted names in a --files list --------------------------------------------------

QUOTED_RULES = """\
filters:
  umlaut: ['src/kernels/ä.cu']
  tab: ['src/kernels/tab*here.cu']
  newline: ['src/kernels/new*line.cu']
  moved: ['docs/ö.cu']
  moved_from: ['src/kernels/old.cu']
  other: ['lib/**']
"""


def test_quoted_names_from_real_git_diff_name_status_are_decoded(tmp_path):
    repo = new_repo(tmp_path / "repo")
    commit_files(repo, {"src/kernels/old.cu": "k\n", "README.md": "r\n"}, "base")
    names = ["src/kernels/ä.cu", "src/kernels/tab\there.cu", "src/kernels/new\nline.cu"]
    commit_files(repo, {name: "x\n" for name in names}, "odd names")
    (repo / "docs").mkdir()
    git(repo, "mv", "src/kernels/old.cu", "docs/ö.cu")
    git(repo, "commit", "-q", "-m", "move")
    listing = git(repo, "-c", "core.quotePath=true", "diff", "--name-status", "-M", "HEAD~2", "HEAD") + "\n"
    # git quoted every one of them: the tool must decode, not guess
    assert 'A\t"src/kernels/\\303\\244.cu"\n' in listing
    assert 'A\t"src/kernels/tab\\there.cu"\n' in listing
    assert 'A\t"src/kernels/new\\nline.cu"\n' in listing
    assert 'R100\tsrc/kernels/old.cu\t"docs/\\303\\266.cu"' in listing
    run = run_tool(tmp_path, ["--files", "-"], rules=QUOTED_RULES, stdin=listing)
    assert run.code == 0, run.stderr
    assert run.decision["fail_open"] is None
    assert run.decision["files"] == 4
    filters = run.decision["filters"]
    assert {name: f["relevant"] for name, f in filters.items()} == {
        "umlaut": True, "tab": True, "newline": True, "moved": True, "moved_from": True, "other": False}
    assert filters["umlaut"]["file"] == "src/kernels/ä.cu"
    assert filters["tab"]["file"] == "src/kernels/tab\there.cu"
    assert filters["newline"]["file"] == "src/kernels/new\nline.cu"
    assert filters["moved"]["file"] == "docs/ö.cu"
    assert (filters["moved_from"]["file"], filters["moved_from"]["renamed_to"]) == ("src/kernels/old.cu", "docs/ö.cu")


def test_malformed_quoting_fails_open_naming_the_line(tmp_path):
    listing = 'M\tsrc/app.py\nA\t"src/kernels/\\303\\244.cu"\nA\t"src/kernels/broken.cu\n'
    run = run_tool(tmp_path, ["--files", "-"], stdin=listing)
    assert run.code == 0, run.stderr
    cause = ("the list on stdin cannot be read: line 3: malformed git quoting in '\"src/kernels/broken.cu': "
             "no closing quote")
    assert run.decision["fail_open"] == cause
    assert run.outputs["changes"] == '["cpu","gpu"]'
    assert f"::warning title=path gate::fail-open: {cause}; every filter is relevant" in run.stdout


def test_git_statuses_drive_change_type_rules_and_lists(tmp_path, origin):
    """`git diff --name-status` letters reach dorny/paths-filter's change-type rules: the
    rename is its old path deleted and its new path added."""
    rules = "gone:\n  - deleted: 'src/**'\nnew:\n  - added: 'docs/**'\nmodified:\n  - modified: '**'\n"
    run = run_tool(tmp_path, ["--repo-dir", str(origin), "--base", "main", "--head", "feature", "--list-files", "json"],
                   rules=rules)
    assert run.code == 0, run.stderr
    assert json.loads(run.outputs["gone_files"]) == ["src/kernels/k.py"]
    assert json.loads(run.outputs["new_files"]) == ["docs/k_example.py"]
    assert run.outputs["modified"] == "false" and run.outputs["modified_count"] == "0"
