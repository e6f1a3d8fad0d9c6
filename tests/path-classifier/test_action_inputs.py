"""actions/path-gate with dorny/paths-filter's inputs: list-files formats (and that the shell
formats are safe to expand in a `run:` through `env:`), ref, working-directory, a push's
`base`, predicate-quantifier, initial-fetch-depth on shallow clones of a bare remote."""
import json
import subprocess

import pytest

from gate_helpers import BUILD, SOURCE, commit_files, git, new_repo, read_outputs

SCRIPT = SOURCE / "actions" / "path-gate" / "path-gate.sh"
PF_RULES = "src:\n  - 'src/**'\nmd:\n  - added|modified: '**/*.md'\n"
HOSTILE = ["src/a b.c", "src/it's.c", "src/$(touch PWNED).c", "src/`touch PWNED2`.c", "src/-rf",
           "src/new\nline.c", 'src/q"uote.c', "src/back\\slash.c", "src/tab\there.c", "src/*.c"]


def action(tmp_path, cwd=None, env=None, **inputs):
    out = tmp_path / "out.txt"
    out.write_text("")
    full = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "GITHUB_OUTPUT": str(out), "GITHUB_ACTIONS": "true",
            "INPUT_GATEKIT_BIN": str(BUILD / "tools" / "path-classifier")}
    full.update(env or {})
    full.update({f"INPUT_{k.upper()}": v for k, v in inputs.items()})
    done = subprocess.run(["bash", str(SCRIPT)], env=full, cwd=cwd or tmp_path, capture_output=True, text=True,
                          timeout=120)
    return done, read_outputs(out)


def nul_list(tmp_path, names):
    path = tmp_path / "changed.lst"
    path.write_bytes(b"".join(n.encode() + b"\0" for n in names))
    return str(path)


@pytest.mark.parametrize("fmt", ["shell", "escape"])
def test_shell_lists_expand_to_the_exact_names_through_env(tmp_path, fmt):
    done, outputs = action(tmp_path, filters="all: ['**']\n", dialect="github", list_files=fmt,
                           files_from=nul_list(tmp_path, HOSTILE))
    assert done.returncode == 0, done.stderr
    assert outputs["all_count"] == str(len(HOSTILE))
    # What a workflow does with it: env: {FILES: ${{ steps.gate.outputs.all_files }}}, then
    # eval "set -- $FILES" in run:.
    work = tmp_path / "run"
    work.mkdir()
    shown = subprocess.run(["bash", "-c", 'eval "set -- $FILES"; printf "%s\\0" "$@"'], cwd=work,
                           env={"PATH": "/usr/bin:/bin", "FILES": outputs["all_files"]}, capture_output=True)
    assert shown.returncode == 0, shown.stderr
    expected = [("./" + n if n.startswith("-") else n) for n in HOSTILE]
    assert shown.stdout.decode().split("\0")[:-1] == [n.replace("src/-rf", "src/-rf") for n in expected]
    assert list(work.iterdir()) == [] and not list(tmp_path.rglob("PWNED*"))


def test_a_leading_dash_is_written_as_a_path(tmp_path):
    done, outputs = action(tmp_path, filters="all: ['**']\n", list_files="shell",
                           files_from=nul_list(tmp_path, ["-rf", "--upload-pack=x"]))
    assert done.returncode == 0, done.stderr
    assert outputs["all_files"] == "./-rf './--upload-pack=x'"


def test_json_and_csv_lists_and_the_filters_entries(tmp_path):
    names = ["src/a,b.c", 'src/q"uote.c', "docs/new.md"]
    for fmt, expected in [("json", json.dumps(["src/a,b.c", 'src/q"uote.c'], separators=(",", ":"))),
                          ("csv", '"src/a,b.c","src/q""uote.c"')]:
        done, outputs = action(tmp_path, filters=PF_RULES, list_files=fmt.upper(), files_from=nul_list(tmp_path, names))
        assert done.returncode == 0, done.stderr
        assert outputs["src_files"] == expected
        filters = json.loads(outputs["filters"])
        assert filters["src"] is True and filters["src_count"] == 2 and filters["src_files"] == expected
        assert filters["md_count"] == 1  # a plain list has no status: every change-type rule applies
        assert outputs["files-complete"] == "true"


def test_counts_are_written_without_list_files_and_lists_go_to_runner_temp(tmp_path):
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    done, outputs = action(tmp_path, filters=PF_RULES, files_from=nul_list(tmp_path, ["src/a.c"]),
                           env={"RUNNER_TEMP": str(temp)})
    assert done.returncode == 0, done.stderr
    assert outputs["src_count"] == "1" and "src_files" not in outputs and "list-files-path" not in outputs
    many = [f"src/{i:05}/{'x' * 60}.c" for i in range(2000)]  # ~140 kB as JSON: over an output's share
    done, outputs = action(tmp_path, filters=PF_RULES, list_files="json", files_from=nul_list(tmp_path, many),
                           env={"RUNNER_TEMP": str(temp)})
    assert done.returncode == 0, done.stderr
    assert "src_files" not in outputs and outputs["src_count"] == "2000"
    assert "::warning title=path gate::the file list of filter 'src' (2000 files," in done.stdout
    path = outputs["list-files-path"]
    assert path.startswith(str(temp) + "/path-gate-files-")
    assert json.loads(open(path).read())["src"] == many


def test_list_files_as_a_path_still_reads_the_file_with_a_warning(tmp_path):
    files = tmp_path / "changed.txt"
    files.write_text("src/kernels/a.cu\n")
    done, outputs = action(tmp_path, filters=PF_RULES, list_files=str(files))
    assert done.returncode == 0, done.stderr
    assert outputs["src"] == "true"
    assert ("::warning title=path gate::list-files is not a format (none, json, csv, shell, escape): reading it as "
            "a file of changed paths; name that file in files-from instead") in done.stdout


def test_predicate_quantifier_input(tmp_path):
    rules = "backend:\n  - 'pkg/**'\n  - '!**/*.md'\n"
    files = nul_list(tmp_path, ["pkg/README.md"])
    assert action(tmp_path, filters=rules, files_from=files)[1]["backend"] == "true"  # some: '!**/*.md' matches
    assert action(tmp_path, filters=rules, files_from=files, predicate_quantifier="every")[1]["backend"] == "false"
    done, _ = action(tmp_path, filters=rules, files_from=files, predicate_quantifier="most")
    assert done.returncode == 2
    assert "--predicate-quantifier: most not in {some,every}" in done.stderr


@pytest.fixture
def remote(tmp_path):
    """A bare remote: main, and feature forked 40 commits back with src/ changes."""
    repo = new_repo(tmp_path / "seed")
    commit_files(repo, {"src/app.py": "a\n", "README.md": "r\n"}, "base")
    fork = git(repo, "rev-parse", "HEAD")
    for i in range(40):
        commit_files(repo, {"README.md": f"r{i}\n"}, f"main {i}")
    git(repo, "checkout", "-q", "-b", "feature", fork)
    commit_files(repo, {"src/app.py": "b\n"}, "feature")
    for i in range(40):
        commit_files(repo, {f"notes/{i}.txt": "n\n"}, f"note {i}")
    git(repo, "checkout", "-q", "--orphan", "unrelated")
    git(repo, "rm", "-r", "-q", "-f", ".")
    commit_files(repo, {"other.txt": "o\n"}, "unrelated root")
    git(repo, "checkout", "-q", "main")
    bare = tmp_path / "remote.git"
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(bare))
    return bare


def shallow_clone(tmp_path, remote, name="workspace"):
    clone = tmp_path / name
    git(tmp_path, "clone", "-q", "--depth", "1", "--no-single-branch", f"file://{remote}", str(clone))
    return clone


def test_initial_fetch_depth_deepens_from_it_until_the_merge_base(tmp_path, remote):
    clone = shallow_clone(tmp_path, remote)
    done, outputs = action(tmp_path, cwd=clone, filters=PF_RULES, base="origin/main", ref="origin/feature",
                           initial_fetch_depth="4", list_files="json")
    assert done.returncode == 0, done.stderr
    for depth in (4, 8, 16, 32):
        assert f"deepened the clone by {depth} commits" in done.stdout
    assert outputs["src"] == "true" and outputs["src_files"] == '["src/app.py"]'
    assert json.loads(outputs["decision"])["source"] == "git diff origin/main...origin/feature"


def test_no_merge_base_even_unshallowed_fails_open(tmp_path, remote):
    clone = shallow_clone(tmp_path, remote)
    done, outputs = action(tmp_path, cwd=clone, filters=PF_RULES, base="origin/main", ref="origin/unrelated",
                           initial_fetch_depth="1")
    assert done.returncode == 0, done.stderr
    decision = json.loads(outputs["decision"])
    assert decision["fail_open"] == ("no merge base of origin/main and origin/unrelated even after fetching the "
                                     "full history")
    assert outputs["src"] == "true" and outputs["md"] == "true" and outputs["files-complete"] == "false"


def test_working_directory_and_ref_head_conflict(tmp_path, remote):
    clone = shallow_clone(tmp_path, remote, "nested/repo")
    (clone / "gate.yml").write_text(PF_RULES)
    done, outputs = action(tmp_path, env={"GITHUB_WORKSPACE": str(tmp_path)}, working_directory="nested/repo",
                           filters="gate.yml", base="origin/main", head="origin/feature")
    assert done.returncode == 0, done.stderr
    assert outputs["src"] == "true"
    done, _ = action(tmp_path, env={"GITHUB_WORKSPACE": str(tmp_path)}, working_directory="missing",
                     filters="gate.yml")
    assert done.returncode == 2
    assert done.stdout == "::error title=path gate::the working-directory input names no folder in the workspace\n"
    done, _ = action(tmp_path, cwd=clone, filters="gate.yml", base="origin/main", ref="a", head="b")
    assert done.returncode == 2
    assert done.stdout == "::error title=path gate::give ref or head, not two different values\n"


def test_push_with_base_naming_the_pushed_branch_compares_with_before(tmp_path, remote):
    clone = shallow_clone(tmp_path, remote)
    after = git(remote, "rev-parse", "feature")
    before = git(remote, "rev-parse", "feature~1")  # only notes/ changed since; not in the clone
    event = tmp_path / "push.json"
    event.write_text(json.dumps({"before": before, "after": after}))
    env = {"GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": str(event), "GITHUB_REF": "refs/heads/feature"}
    done, outputs = action(tmp_path, cwd=clone, env=env, filters=PF_RULES, base="feature", list_files="csv")
    assert done.returncode == 0, done.stderr
    decision = json.loads(outputs["decision"])
    assert decision["source"] == f"git diff {before}..{after}"
    assert outputs["src"] == "false" and outputs["md"] == "false"
    event.write_text(json.dumps({"before": "0" * 40, "after": after}))
    done, outputs = action(tmp_path, cwd=clone, env=env, filters=PF_RULES, base="feature")
    assert json.loads(outputs["decision"])["fail_open"] == (
        "the push created the branch, so there is no previous commit to compare with")
