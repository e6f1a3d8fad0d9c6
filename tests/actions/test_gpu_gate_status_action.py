"""actions/gpu-gate-status: its step, taken from action.yml and run as the runner would (inputs
only through env, GITHUB_ACTION_PATH the action folder, GITHUB_OUTPUT a file), against a real
git clone of a bare remote over file:// and the GitHub API test server (tests/github_api/).

What the step itself adds to `gpu-gate ci-status` is checked here: the inputs become options
(values as `--name=value`, so one starting with '-' stays a value), the token reaches git only
through the step's environment (GIT_CONFIG_* variables with a masked header) and never its
argv or .git/config, a bad `post`, `setup` or `mode` is a usage error (2), strict mode (the
default) posts nothing from a pull request's own run, and a missing tool is exit 3 with
`result=error`. The exact statuses are the C++ tests' (tests/gpu-gate/test_ci_status.cpp).
"""
import base64
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BUILD = Path(os.environ["GATEKIT_BUILD_DIR"]).resolve()
ACTION = SOURCE / "actions" / "gpu-gate-status"
sys.path.insert(0, str(SOURCE / "tests" / "github_api"))
from server import FakeGitHub  # noqa: E402

GIT_ENV = {"GIT_AUTHOR_NAME": "Dev", "GIT_AUTHOR_EMAIL": "dev@example.com", "GIT_COMMITTER_NAME": "Dev",
           "GIT_COMMITTER_EMAIL": "dev@example.com", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1"}


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, env={**os.environ, **GIT_ENV}, capture_output=True, text=True,
                          check=True)
    return done.stdout.strip()


@pytest.fixture
def repo(tmp_path):
    """A remote with main and a pull request #3 touching code, and the CI clone of main."""
    remote, dev, ci = tmp_path / "remote.git", tmp_path / "dev", tmp_path / "ci"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    git(tmp_path, "init", "-q", "-b", "main", str(dev))
    (dev / "src").mkdir()
    (dev / "src" / "kernel.py").write_text("X = 1\n")
    git(dev, "add", "-A")
    git(dev, "commit", "-q", "-m", "project")
    git(dev, "remote", "add", "origin", f"file://{remote}")
    git(dev, "push", "-q", "origin", "main")
    git(dev, "switch", "-q", "-c", "feature")
    (dev / "src" / "kernel.py").write_text("X = 2\n")
    git(dev, "commit", "-q", "-am", "code")
    git(dev, "push", "-q", "origin", "feature", "HEAD:refs/pull/3/head")
    git(tmp_path, "clone", "-q", f"file://{remote}", str(ci))
    return {"ci": ci, "head": git(dev, "rev-parse", "HEAD"), "main": git(dev, "rev-parse", "main")}


def step() -> dict:
    return yaml.safe_load((ACTION / "action.yml").read_text())["runs"]["steps"][0]


def run_step(cwd: Path, tmp: Path, **inputs):
    """The step with the action's defaults, then `inputs` (INPUT_* names); returns the process
    and its outputs as a dict."""
    action = yaml.safe_load((ACTION / "action.yml").read_text())
    env = {}
    for key, value in step()["env"].items():
        name = value.removeprefix("${{ inputs.").removesuffix(" }}")
        default = str(action["inputs"][name].get("default", ""))
        env[key] = "" if "${{" in default else default
    out = tmp / "github_output"
    out.write_text("")
    env.update(PATH=f"{tmp / 'bin'}:/usr/bin:/bin", HOME=str(tmp), GITHUB_ACTION_PATH=str(ACTION),
               GITHUB_OUTPUT=str(out), GITHUB_REPOSITORY="o/r", GITHUB_SERVER_URL="https://github.example",
               GITHUB_RUN_ID="77", INPUT_GATEKIT_BIN=str(BUILD / "tools" / "gpu-gate"), **GIT_ENV)
    env.update(inputs)
    done = subprocess.run(["bash", "-c", step()["run"]], env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=120)
    outputs = dict(line.split("=", 1) for line in out.read_text().splitlines() if "=" in line)
    return done, outputs


def wrap_git(tmp: Path) -> Path:
    """A `git` first on PATH that logs its argv and the header variables, then runs git."""
    (tmp / "bin").mkdir(exist_ok=True)
    log = tmp / "git.log"
    wrapper = tmp / "bin" / "git"
    wrapper.write_text('#!/bin/sh\nprintf "%s|%s|%s\\n" "$*" "${GIT_CONFIG_KEY_0:-}" "${GIT_CONFIG_VALUE_0:-}" >> '
                       f'"{log}"\nexec /usr/bin/git "$@"\n')
    wrapper.chmod(0o755)
    return log


def test_the_step_posts_the_status_of_the_head_with_the_token_in_git_s_environment_only(repo, tmp_path):
    log = wrap_git(tmp_path)
    with FakeGitHub(token="t0ken") as server:
        server.load_state({"repos": {"o/r": {}}})
        done, outputs = run_step(repo["ci"], tmp_path, INPUT_SHA=repo["head"], INPUT_PR="3", INPUT_BASE="main",
                                 INPUT_POSTER="gatekit-gate[bot]", GITHUB_API_URL=server.base_url,
                                 GITHUB_TOKEN="t0ken", GITHUB_EVENT_NAME="workflow_run")
        posts = [r for r in server.requests if r["method"] == "POST"]
    assert done.returncode == 0, done.stdout + done.stderr
    assert outputs["result"] == "pass" and outputs["posted"] == "true"
    assert (outputs["state"], outputs["description"]) == ("pending", "no gate result for this tree")
    assert [(p["path"], p["body"]) for p in posts] == [(f"/repos/o/r/statuses/{repo['head']}", {
        "state": "pending", "context": "gate/gpu", "description": "no gate result for this tree",
        "target_url": "https://github.example/o/r/actions/runs/77"})]
    header = "AUTHORIZATION: basic " + base64.b64encode(b"x-access-token:t0ken").decode()
    calls = log.read_text().splitlines()
    fetches = [c for c in calls if c.startswith("-C ") and " fetch " in c]
    assert fetches and all(c.endswith(f"|http.https://github.example/.extraheader|{header}") for c in fetches)
    assert not any("t0ken" in c.split("|")[0] or header in c.split("|")[0] for c in calls)  # never in argv
    assert f"::add-mask::{base64.b64encode(b'x-access-token:t0ken').decode()}" in done.stdout
    assert "t0ken" not in done.stdout.replace("::add-mask::", "") + done.stderr
    assert "extraheader" not in (repo["ci"] / ".git" / "config").read_text()


def test_pr_alone_sets_the_status_of_its_head(repo, tmp_path):
    with FakeGitHub(token="t0ken") as server:
        server.load_state({"repos": {"o/r": {}}})
        done, outputs = run_step(repo["ci"], tmp_path, INPUT_PR="3", INPUT_POSTER="gatekit-gate[bot]",
                                 GITHUB_API_URL=server.base_url, GITHUB_TOKEN="t0ken", GITHUB_EVENT_NAME="workflow_dispatch")
        paths = [r["path"] for r in server.requests if r["method"] == "POST"]
    assert done.returncode == 0, done.stdout + done.stderr
    assert paths == [f"/repos/o/r/statuses/{repo['head']}"]
    assert outputs["tree"] == git(repo["ci"], "rev-parse", f"{repo['head']}^{{tree}}")


STRICT_REFUSAL = ("gpu-gate: error: strict mode posts gate/gpu only from a workflow_run or workflow_dispatch run of "
                  "the default branch's workflow, not from a {event} run, which may execute the pull request's own "
                  "workflow file: compute it with post: false there (docs/gpu-gate.md, \"Trust model\")\n")


@pytest.mark.parametrize("event", ["pull_request", "merge_group", "push"])
def test_strict_mode_by_default_posts_nothing_from_a_pull_request_s_own_run(repo, tmp_path, event):
    with FakeGitHub(token="t0ken") as server:
        server.load_state({"repos": {"o/r": {}}})
        done, outputs = run_step(repo["ci"], tmp_path, INPUT_SHA=repo["head"], INPUT_PR="3", INPUT_BASE="main",
                                 GITHUB_API_URL=server.base_url, GITHUB_TOKEN="t0ken", GITHUB_EVENT_NAME=event)
        posts = [r for r in server.requests if r["method"] == "POST"]
    assert done.returncode == 2
    assert done.stderr == STRICT_REFUSAL.format(event=event)
    assert (outputs["result"], outputs["posted"]) == ("error", "false")
    assert posts == []  # not even an error status


def test_pull_request_mode_posts_from_the_pull_request_s_run(repo, tmp_path):
    with FakeGitHub(token="t0ken") as server:
        server.load_state({"repos": {"o/r": {}}})
        done, outputs = run_step(repo["ci"], tmp_path, INPUT_SHA=repo["head"], INPUT_BASE="main",
                                 INPUT_MODE="pull-request", GITHUB_API_URL=server.base_url, GITHUB_TOKEN="t0ken",
                                 GITHUB_EVENT_NAME="pull_request")
        paths = [r["path"] for r in server.requests if r["method"] == "POST"]
    assert done.returncode == 0, done.stdout + done.stderr
    assert paths == [f"/repos/o/r/statuses/{repo['head']}"]


def test_a_mode_other_than_strict_or_pull_request_is_a_usage_error(repo, tmp_path):
    done, outputs = run_step(repo["ci"], tmp_path, INPUT_SHA=repo["head"], INPUT_BASE="main", INPUT_MODE="lenient")
    assert done.returncode == 2
    assert done.stdout == "::error title=gpu-gate-status::input mode must be 'strict' or 'pull-request', got 'lenient'\n"
    assert outputs == {"result": "error"}


def test_an_empty_base_reaches_the_tool_as_an_empty_value(repo, tmp_path):
    """`--base=` is an empty value to the tool (the default branch, which the tool asks the
    remote for), never the next argument (`--target-url=...`)."""
    log = wrap_git(tmp_path)
    done, outputs = run_step(repo["ci"], tmp_path, INPUT_SHA=repo["head"], INPUT_POST="false", INPUT_BASE="")
    assert done.returncode == 0, done.stdout + done.stderr
    assert (outputs["result"], outputs["state"], outputs["posted"]) == ("pass", "pending", "false")
    calls = [c.split("|")[0] for c in log.read_text().splitlines()]
    assert any(c.endswith("ls-remote --symref --end-of-options origin HEAD") for c in calls), calls
    assert any("fetch" in c and "+refs/heads/main:refs/gatekit-ci/default" in c for c in calls), calls


def test_strict_mode_posts_only_with_the_app_s_login_as_its_poster(repo, tmp_path):
    """Without `poster` a strict-mode post is a usage error: the failures it remembers are those
    the App's bot posted, and nobody else's; a poster that is no login stays a value."""
    with FakeGitHub(token="t0ken") as server:
        server.load_state({"repos": {"o/r": {}}})
        done, outputs = run_step(repo["ci"], tmp_path, INPUT_SHA=repo["head"], GITHUB_API_URL=server.base_url,
                                 GITHUB_TOKEN="t0ken", GITHUB_EVENT_NAME="workflow_run")
        odd, _ = run_step(repo["ci"], tmp_path, INPUT_SHA=repo["head"], INPUT_POSTER="--upload-pack=touch x",
                          GITHUB_API_URL=server.base_url, GITHUB_TOKEN="t0ken", GITHUB_EVENT_NAME="workflow_run")
    assert done.returncode == 2
    assert done.stderr == ("gpu-gate: error: posting needs --poster, the login that creates gatekit's statuses (strict "
                           "mode: the App's <app-slug>[bot]): only its own earlier failures are remembered\n")
    assert (outputs["result"], outputs["posted"]) == ("error", "false")
    assert odd.returncode == 2
    assert odd.stderr == ("gpu-gate: error: --poster must be a GitHub login (NAME, or SLUG[bot] for an app), "
                          "got '--upload-pack=touch x'\n")
    assert not (repo["ci"] / "x").exists()


def test_merge_group_reaches_the_tool_as_a_value(repo, tmp_path):
    done, outputs = run_step(repo["ci"], tmp_path, INPUT_SHA=repo["head"], INPUT_POST="false",
                             INPUT_MERGE_GROUP="--upload-pack=touch x")
    assert done.returncode == 2
    assert done.stderr == ("gpu-gate: error: --merge-group must be a merge queue branch, "
                           "gh-readonly-queue/<branch>/pr-<number>-<commit>, got '--upload-pack=touch x'\n")
    assert not (repo["ci"] / "x").exists()


def test_post_false_computes_without_a_token(repo, tmp_path):
    done, outputs = run_step(repo["ci"], tmp_path, INPUT_SHA=repo["head"], INPUT_BASE="main", INPUT_POST="false",
                             GITHUB_TOKEN="")
    assert done.returncode == 0, done.stdout + done.stderr
    assert (outputs["state"], outputs["description"], outputs["posted"]) == (
        "pending", "no gate result for this tree", "false")


@pytest.mark.parametrize("value, shown", [("yes", "yes"), ("true\n::error::x", "true%0A::error::x")])
def test_a_post_value_other_than_true_or_false_is_a_usage_error(repo, tmp_path, value, shown):
    done, outputs = run_step(repo["ci"], tmp_path, INPUT_SHA=repo["head"], INPUT_BASE="main", INPUT_POST=value)
    assert done.returncode == 2
    assert done.stdout == f"::error title=gpu-gate-status::input post must be 'true' or 'false', got '{shown}'\n"
    assert outputs == {"result": "error"}


def test_a_value_starting_with_a_dash_stays_a_value(repo, tmp_path):
    done, outputs = run_step(repo["ci"], tmp_path, INPUT_SHA=repo["head"], INPUT_BASE="--upload-pack=touch x",
                             INPUT_POST="false")
    assert done.returncode == 2
    assert done.stderr == ("gpu-gate: error: --base: revision '--upload-pack=touch x' starts with '-': "
                           "git would read it as an option\n")
    assert outputs["result"] == "error"
    assert not (repo["ci"] / "x").exists()


def test_with_setup_false_a_missing_tool_is_an_error_not_a_pass(repo, tmp_path):
    done, outputs = run_step(repo["ci"], tmp_path, INPUT_SHA=repo["head"], INPUT_BASE="main", INPUT_POST="false",
                             INPUT_GATEKIT_BIN=str(tmp_path / "no-such-bin"), INPUT_SETUP="false")
    assert done.returncode == 3
    assert done.stdout == "::error title=gpu-gate-status::gpu-gate not found (gatekit-bin input, GATEKIT_BIN or PATH)\n"
    assert outputs == {"result": "error"}


def look_alike_gpu_gate(folder: Path, marker: Path) -> Path:
    """A gpu-gate that answers --version as gatekit's does and leaves `marker` when it runs."""
    folder.mkdir(parents=True, exist_ok=True)
    tool = folder / "gpu-gate"
    tool.write_text(f'#!/bin/sh\necho "$*" >> "{marker}"\necho "gpu-gate (gatekit) 0.1.0"\n')
    tool.chmod(0o755)
    return folder


def test_a_step_that_posts_takes_its_tool_from_gatekit_bin_only(repo, tmp_path):
    """Posting holds a token: the tool is never one GATEKIT_BIN or a PATH lookup finds (a
    look-alike earlier on a self-hosted runner's PATH). With setup: false and no tool in the
    gatekit-bin input's folder, that is exit 3, and the look-alikes never ran."""
    marker = tmp_path / "look-alike-ran"
    look_alike_gpu_gate(tmp_path / "bin", marker)  # first on the step's PATH (run_step)
    done, outputs = run_step(repo["ci"], tmp_path, INPUT_SHA=repo["head"], INPUT_BASE="main", INPUT_GATEKIT_BIN="",
                             INPUT_SETUP="false", GATEKIT_BIN=str(look_alike_gpu_gate(tmp_path / "env-bin", marker)))
    assert done.returncode == 3
    assert done.stdout == ("::error title=gpu-gate-status::gpu-gate not found in the gatekit-bin input's folder: a step "
                           "that writes with a token runs its tool from there (setup-gatekit's bin output) or sets "
                           "the tools up itself (setup: auto), never from GATEKIT_BIN or PATH\n")
    assert outputs == {"result": "error"}
    assert not marker.exists()
    # The same step computing only (post: false) may take the tool from GATEKIT_BIN.
    done, _ = run_step(repo["ci"], tmp_path, INPUT_SHA=repo["head"], INPUT_BASE="main", INPUT_GATEKIT_BIN="",
                       INPUT_SETUP="false", INPUT_POST="false", GATEKIT_BIN=str(tmp_path / "env-bin"))
    assert done.returncode == 0 and marker.exists()


def test_a_step_that_posts_needs_an_absolute_gatekit_bin(repo, tmp_path):
    done, outputs = run_step(repo["ci"], tmp_path, INPUT_SHA=repo["head"], INPUT_BASE="main", INPUT_GATEKIT_BIN="bin")
    assert done.returncode == 2
    assert done.stderr == ("::error title=gpu-gate-status::input gatekit-bin must be an absolute folder in a step that "
                           "writes with a token (setup-gatekit's bin output), got 'bin'\n")
    assert outputs == {"result": "error"}


def test_a_setup_value_other_than_auto_or_false_is_a_usage_error(repo, tmp_path):
    done, outputs = run_step(repo["ci"], tmp_path, INPUT_SHA=repo["head"], INPUT_BASE="main", INPUT_SETUP="yes")
    assert done.returncode == 2
    assert done.stderr == "::error title=gpu-gate-status::input setup must be 'auto' or 'false', got 'yes'\n"
    assert outputs == {"result": "error"}


def test_inputs_reach_the_script_through_env_only():
    s = step()
    assert "${{" not in s["run"]
    assert all(v.startswith("${{ inputs.") for v in s["env"].values())
    assert s["env"]["INPUT_SETUP"] == "${{ inputs.setup }}"
    assert s["env"]["INPUT_POSTER"] == "${{ inputs.poster }}"
    assert "gatekit_require_tool tool gpu-gate" in s["run"]
    assert "gatekit_require_verified_tool tool gpu-gate" in s["run"]
