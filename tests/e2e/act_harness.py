"""Runs the demo project's workflows (gatekit's templates, as a user derives them) with
nektos/act on this machine, for tests/e2e/test_templates_act.py.

One scenario = one pull request: a scratch git repository holding a copy of
examples/demo-project (base commit on `main`, the change on `feature`), the GitHub API test
server (tests/github_api/server.py) serving that pull request's files, and one `act
pull_request` run of every workflow in the copy's .github/workflows/ but gate.yml. gate.yml
runs on its own (`workflow="gate.yml"`, any event): it fetches the GPU gate's result refs from
origin, which gate_remote makes a local bare repository.

How GitHub is emulated (nothing here contacts any address but 127.0.0.1):
- every runner label the workflows name runs as a process on this machine
  (`-P <label>=-self-hosted`): there is no container engine, so a job's `container:` is
  removed from the copy and its steps run on the host;
- act's artifact and cache servers bind 127.0.0.1 (their defaults are an address outside
  this machine);
- every pinned third-party action maps, whatever its SHA, to its stand-in under
  tests/e2e/stand-ins/ (`--local-repository`, `--action-offline-mode`); the checkout of
  another repository (the demo checks gatekit out into .gatekit/), and a pinned reference to
  one of gatekit's actions, get a copy of this source tree;
- the tools come from the build (GATEKIT_BUILD_DIR) through PATH, so setup-gatekit takes
  its PATH path; Python is a venv of this machine's Python with pip offline;
- a job that holds a token that writes (gate.yml's posting jobs, the test legs with
  `issues: write`, the daily flaky run) sets its tools up `verified: true`, which never takes
  them from PATH: every run (unless `serve_release=False`) lists a release archive of the
  built tools in the gatekit copies' checksums.txt and serves it on 127.0.0.1
  (GATEKIT_RELEASE_URL), as tests/actions/test_release_end_to_end.py does, so those jobs
  download and check it.
"""
from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml  # PyYAML, from tests/requirements.txt

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BUILD = Path(os.environ.get("GATEKIT_BUILD_DIR", SOURCE / "build" / "dev"))
DEMO = SOURCE / "examples" / "demo-project"
STAND_INS = Path(__file__).resolve().with_name("stand-ins")
REPO = "tinyml/tinyml"  # the demo's repository name (act reads it from the `origin` remote)
TOKEN = "e2e-t0ken"
PR_NUMBER = 7
# gate.yml's strict mode posts with a GitHub App's token: the stand-in of
# actions/create-github-app-token hands out E2E_APP_TOKEN when given these.
APP_TOKEN = "app-inst4llation-t0ken"
APP_SLUG = "gatekit-gate"  # the stand-in's app-slug: what the App posts is created by gatekit-gate[bot]
APP = {"secrets": {"GATEKIT_GATE_APP_KEY": "-----BEGIN PRIVATE KEY-----stand-in"},
       "variables": {"GATEKIT_GATE_APP_CLIENT_ID": "Iv1.gatekit-gate"}}
# The gatekit source the demo's `repository: <gatekit>` checkout receives: what setup-gatekit
# and the actions read (their scripts, the version in CMakeLists.txt, the tool list).
GATEKIT_PARTS = ("actions", "tools", "cmake", "CMakeLists.txt", "CMakePresets.json")

sys.path.insert(0, str(SOURCE / "tests" / "github_api"))
sys.path.insert(0, str(SOURCE / "tests" / "actions"))
from release_archives import ARCH, ReleaseServer, archive, archive_name, built_tools  # noqa: E402
from server import FakeGitHub  # noqa: E402

VERSION = re.search(r"project\(gatekit VERSION ([0-9.]+)", (SOURCE / "CMakeLists.txt").read_text()).group(1)
_RELEASE: dict = {}


def release_of_the_build() -> bytes:
    """A release archive of the built tools, as scripts/package-release.sh lays it out (made
    once per test process: the tools are big; fast compression)."""
    if "body" not in _RELEASE:
        _RELEASE["body"] = archive(VERSION, built_tools(BUILD, tool_names()), compresslevel=1)
    return _RELEASE["body"]

JOB_DONE = re.compile(r"^\[(?P<wf>[^/\]]+)/(?P<job>[^\]]*?)\s*\] 🏁  Job (?P<result>succeeded|failed)\s*$")
OUTPUT = re.compile(r"^\[(?P<wf>[^/\]]+)/(?P<job>[^\]]*?)\s*\]\s+⚙  ::set-output:: (?P<key>[^=]+)=(?P<value>.*)$")
USES = re.compile(r"^\s*(?:-\s+)?uses:\s*['\"]?(?P<repo>[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)(?P<sub>/[^@\s'\"]*)?@(?P<ref>[0-9a-f]{40})\b",
                  re.M)


def act_binary() -> str:
    for found in [os.environ.get("GATEKIT_ACT"), str(SOURCE / "build" / "ci-tools" / "bin" / "act"), "act"]:
        if found and shutil.which(found):
            return shutil.which(found)
    raise AssertionError("act not found (set GATEKIT_ACT, or run scripts/install-deps.sh: it builds "
                         "nektos/act into build/ci-tools/bin)")


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.name=e2e", "-c", "user.email=e2e@example.invalid",
                           "-c", "commit.gpgsign=false", *args], cwd=repo, capture_output=True, text=True)
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
    return done.stdout.strip()


def tool_names() -> list[str]:
    return sorted(p.parent.name for p in (SOURCE / "tools").glob("*/CMakeLists.txt") if p.parent.name != "core")


def third_party_uses(files: list[Path]) -> set[tuple[str, str, str]]:
    """(owner/name, /sub/path or '', sha) of every SHA-pinned action the workflows and
    gatekit's actions use."""
    found = set()
    for f in files:
        for m in USES.finditer(f.read_text()):
            found.add((m.group("repo"), m.group("sub") or "", m.group("ref")))
    return found


def local_folder(repo: str, sub: str, root: Path) -> Path:
    """Where a pinned action comes from here: its stand-in, or for a reference to one of
    gatekit's actions (`<gatekit repository>/actions/<name>@<sha>`) the gatekit copy."""
    if repo.startswith("actions/"):
        stand_in = STAND_INS / repo.split("/", 1)[1]
        assert (stand_in / "action.yml").is_file(), \
            f"{repo} has no stand-in under tests/e2e/stand-ins/ (add one: the e2e tests have no network)"
        return stand_in
    assert sub.startswith("/actions/") and (SOURCE / sub.lstrip("/") / "action.yml").is_file(), \
        f"{repo}{sub} is neither one of GitHub's actions (with a stand-in) nor one of gatekit's"
    return root / "gatekit"


def other_checkouts(workflows: list[Path]) -> set[str]:
    """Repositories the workflows check out besides their own (the demo: gatekit)."""
    names = set()
    for wf in workflows:
        for job in (yaml.safe_load(wf.read_text()).get("jobs") or {}).values():
            for step in job.get("steps") or []:
                repo = (step.get("with") or {}).get("repository")
                if str(step.get("uses", "")).startswith("actions/checkout@") and repo and repo != REPO:
                    names.add(str(repo))
    return names


def copy_gatekit(dest: Path) -> None:
    for part in GATEKIT_PARTS:
        src = SOURCE / part
        (shutil.copytree if src.is_dir() else shutil.copy2)(src, dest / part)


def drop_job_containers(workflow: Path) -> list[str]:
    """Removes each job's `container:` block (act runs a container job only with a container
    engine, which this machine lacks): the job's steps then run on the host. Returns the
    removed images. A text edit, so that the rest of the file stays byte for byte."""
    lines = workflow.read_text().splitlines(keepends=True)
    kept, images, skipping = [], [], False
    for line in lines:
        if skipping and (not line.strip() or len(line) - len(line.lstrip(" ")) > 4):
            if line.strip().startswith("image:"):
                images.append(line.split("image:", 1)[1].strip())
            continue
        skipping = False
        if re.match(r"^ {4}container:", line):
            skipping = True
            rest = line.split("container:", 1)[1].strip()
            if rest:
                images.append(rest)
            continue
        kept.append(line)
    workflow.write_text("".join(kept))
    return images


def config_digest(repo: Path) -> str:
    """The configuration digest a result must carry to count (docs/gpu-gate.md, "Where the
    configuration comes from"), as the built gpu-gate's `status --json` says it for `repo`."""
    tool = Path(os.environ["GATEKIT_BUILD_DIR"]) / "tools" / "gpu-gate" / "gpu-gate"
    done = subprocess.run([str(tool), "status", "--json", "-C", str(repo)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["config"]


def record(repo: Path, rev: str, verdict: str = "pass") -> str:
    """A gate result as `gpu-gate run` records it (docs/gpu-gate.md, "Results in git"), under
    refs/gatekit-gate/<tree>/gpu-box, with the configuration digest of `repo`'s checkout (the
    main branch's, which CI trusts); returns the ref name."""
    config = config_digest(repo)
    sha, tree = git(repo, "rev-parse", rev), git(repo, "rev-parse", rev + "^{tree}")
    stamp = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M:%SZ")
    message = (f"gpu-gate: {verdict} in 4m 05s (2 passed, 0 failed, 0 skipped, 0 errors)\n\n"
               "format: gatekit-gpu-gate/2\n"
               f"verdict: {verdict}\nduration-ms: 245000\npassed: 2\nfailed: 0\nskipped: 0\nerrors: 0\n"
               f"commit: {sha}\ntree: {tree}\ngatekit: 0.1.0\ntime: {stamp}\nmachine: gpu-box\n"
               "gpu-backend: cuda\ngpu-count: 1\ngpu: Fake CUDA GPU 0\n"
               "scope: gate: 2 test files, 8 workers\nstress: not needed (no concurrency change)\n"
               f"config: {config}\n")
    made = subprocess.run(["git", "-c", "user.name=e2e", "-c", "user.email=e2e@example.invalid", "commit-tree", tree],
                          cwd=repo, input=message, capture_output=True, text=True, check=True).stdout.strip()
    ref = f"refs/gatekit-gate/{tree}/gpu-box"
    git(repo, "update-ref", ref, made)
    return ref


def gate_remote(scenario: "Scenario") -> Path:
    """A bare remote over file:// holding main, the branch, refs/pull/7/head and a published
    pass for the head's tree, which git reaches through an `insteadOf` in the GIT_CONFIG_GLOBAL
    of gate_env (the workflow's origin stays https://github.com/tinyml/tinyml)."""
    remote = scenario.root / "remote.git"
    git(scenario.root, "init", "-q", "--bare", "-b", "main", str(remote))
    result = record(scenario.repo, scenario.head)
    git(scenario.repo, "push", "-q", str(remote), "main", "feature", f"{scenario.head}:refs/pull/{PR_NUMBER}/head", result)
    (scenario.root / "gitconfig").write_text(f'[url "file://{remote}"]\n\tinsteadOf = https://github.com/{REPO}.git\n')
    return remote


def gate_env(root: Path) -> dict:
    return {"GIT_CONFIG_GLOBAL": str(root / "gitconfig"), "E2E_APP_TOKEN": APP_TOKEN}


def workflow_run_payload(event: str, head_sha: str, head_branch: str, pulls: list) -> dict:
    """A workflow_run event after `CPU tests` completed (what gate.yml's `post` runs on)."""
    return {"action": "completed",
            "workflow_run": {"name": "CPU tests", "event": event, "conclusion": "success", "head_sha": head_sha,
                             "head_branch": head_branch, "pull_requests": pulls},
            "workflow": {"name": "CPU tests"},
            "repository": {"full_name": REPO, "default_branch": "main"}}


@dataclass
class Outcome:
    log: str
    returncode: int
    jobs: dict = field(default_factory=dict)     # (workflow, job name) -> "succeeded" | "failed"
    outputs: dict = field(default_factory=dict)  # (workflow, job name) -> {key: [values, in order]}
    requests: list = field(default_factory=list)

    def verdict(self, workflow: str, job: str) -> str | None:
        return self.jobs.get((workflow, job))

    def output(self, workflow: str, job: str, key: str) -> str | None:
        """The last non-empty value the job's steps set for `key` (a composite action's
        outputs are logged again, some empty, when the action ends)."""
        values = [v for v in self.outputs.get((workflow, job), {}).get(key, []) if v]
        return values[-1] if values else None

    def json_output(self, workflow: str, job: str, key: str):
        text = self.output(workflow, job, key)
        assert text is not None, f"{workflow}/{job} set no output {key!r}\n{self.tail()}"
        return json.loads(text)

    def tail(self, n: int = 80) -> str:
        return "\n".join(self.log.splitlines()[-n:])

    def status_posts(self) -> list:
        """The commit statuses posted to the API test server: (path, state, description)."""
        return [(r["path"], (r.get("body") or {}).get("state"), (r.get("body") or {}).get("description"))
                for r in self.requests if r["method"] == "POST" and "/statuses/" in r["path"]]


def parse(log: str, returncode: int) -> Outcome:
    log = re.sub(r"\x1b\[[0-9;]*m", "", log)  # the colours of pytest's output
    out = Outcome(log=log, returncode=returncode)
    for line in log.splitlines():
        if m := JOB_DONE.match(line):
            out.jobs[(m["wf"], m["job"])] = m["result"]
        elif m := OUTPUT.match(line):
            out.outputs.setdefault((m["wf"], m["job"]), {}).setdefault(m["key"], []).append(m["value"])
    return out


class Scenario:
    """A scratch pull request on a copy of the demo project, run with act."""

    def __init__(self, root: Path, shipped_templates: bool = False):
        """shipped_templates: replace the demo's workflows by gatekit's templates as shipped
        (workflows/*.yml, which use `./actions/...`), with gatekit's source at the root."""
        self.root = root
        self.repo = root / "repo"
        shutil.copytree(DEMO, self.repo, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", ".pytest_cache"))
        if shipped_templates:
            for wf in self.workflows():
                wf.unlink()
            for wf in sorted((SOURCE / "workflows").glob("*.yml")):
                shutil.copy2(wf, self.repo / ".github" / "workflows" / wf.name)
            copy_gatekit(self.repo)
            # The shipped CPU matrix is the template's, so the demo's docs variant becomes one of
            # its values (suite-report refuses a docs variant no matrix job has).
            matrix = yaml.safe_load((SOURCE / "workflows" / "cpu-tests.yml").read_text())["jobs"]["tests"]["strategy"]["matrix"]
            suite = self.repo / ".github" / "gatekit" / "suite.yml"
            text = re.sub(r"(?m)^(\s*variant:\s*)'[^']*'", rf"\g<1>'{matrix['python'][-1]}'", suite.read_text(), count=1)
            suite.write_text(text)
        self.containers = {wf.name: drop_job_containers(wf) for wf in self.workflows()}
        git(self.repo, "init", "-q", "-b", "main")
        # Never contacted: act derives github.repository from this URL.
        git(self.repo, "remote", "add", "origin", f"https://github.com/{REPO}.git")
        git(self.repo, "add", "-A")
        git(self.repo, "commit", "-q", "-m", "base")
        self.base = git(self.repo, "rev-parse", "HEAD")
        git(self.repo, "checkout", "-q", "-b", "feature")
        self.head = self.base

    def write(self, rel: str, text: str) -> None:
        path = self.repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    def append(self, rel: str, text: str) -> None:
        self.write(rel, (self.repo / rel).read_text() + text)

    def commit(self, message: str = "change") -> list[str]:
        git(self.repo, "add", "-A")
        git(self.repo, "commit", "-q", "-m", message)
        self.head = git(self.repo, "rev-parse", "HEAD")
        return git(self.repo, "diff", "--name-only", self.base, self.head).splitlines()

    def workflows(self) -> list[Path]:
        return sorted((self.repo / ".github" / "workflows").glob("*.yml"))

    def _ci_workflows(self) -> str:
        """The folder a run of every workflow reads: the copy's workflows but gate.yml, which
        fetches result refs from origin (never reachable here): it runs on its own
        (`workflow="gate.yml"`), with the remote of gate_remote and gate_env."""
        folder = self.root / "ci-workflows"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        for wf in self.workflows():
            if wf.name != "gate.yml":
                shutil.copy2(wf, folder / wf.name)
        return str(folder)

    def _prepare(self, fork: bool) -> dict:
        root = self.root
        bin_dir = root / "bin"
        if not bin_dir.exists():
            bin_dir.mkdir()
            for name in tool_names():
                built = BUILD / "tools" / name / name
                assert built.is_file(), f"{built} is missing: build the tools first (cmake --build)"
                (bin_dir / name).symlink_to(built)
            # The runner's own Python (the GPU jobs have no setup-python): a venv, so that
            # `pip install -e .` never touches this machine's Python.
            subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip",
                            str(root / "runner-python")], check=True)
            gatekit = root / "gatekit"
            gatekit.mkdir()
            copy_gatekit(gatekit)
            for name in other_checkouts(self.workflows()):
                link = root / "repos" / name
                link.parent.mkdir(parents=True, exist_ok=True)
                link.symlink_to(gatekit)
        head_repo = "contributor/tinyml" if fork else REPO
        event = {
            "action": "synchronize", "number": PR_NUMBER,
            "pull_request": {
                "number": PR_NUMBER,
                "base": {"ref": "main", "sha": self.base, "repo": {"full_name": REPO, "fork": False}},
                "head": {"ref": "feature", "sha": self.head, "repo": {"full_name": head_repo, "fork": fork}},
            },
            "repository": {"full_name": REPO},
        }
        (root / "event.json").write_text(json.dumps(event))
        return event

    def run(self, *, fork: bool = False, matrix: str | None = None, env: dict | None = None,
            files: list[str] | None = None, workflow: str | None = None, timeout: int = 300,
            event_name: str = "pull_request", payload: dict | None = None, server_token: str = TOKEN,
            secrets: dict | None = None, variables: dict | None = None, serve_release: bool = True,
            tools_on_path: bool = True, path_first: list[Path] | None = None,
            server_state: dict | None = None, job: str | None = None) -> Outcome:
        """act pull_request over the copy's workflows but gate.yml (or one, `workflow`); files: what the
        pull-request files API lists (default: git's diff of base and head). Another event:
        `event_name` with its `payload`; `secrets` and `variables` (the `vars` context) are
        added to GITHUB_TOKEN; the API test server accepts `server_token` only, and starts with
        `server_state` (tests/github_api/README.md: the token's `login`, statuses...) when given. serve_release:
        list and serve a release archive of the built tools (the module docstring); job: run only
        that job (act -j);
        tools_on_path: the built tools on the runner's PATH; path_first: folders put before
        everything else on the runner's PATH (a self-hosted runner's look-alikes)."""
        self._prepare(fork)
        with contextlib.ExitStack() as stack:
            release_env = self._serve_release(stack) if serve_release else {}
            return self._run(fork=fork, matrix=matrix, env={**release_env, **(env or {})}, files=files,
                             workflow=workflow, timeout=timeout, event_name=event_name, payload=payload,
                             server_token=server_token, secrets=secrets, variables=variables,
                             tools_on_path=tools_on_path, path_first=path_first or [],
                             server_state=server_state, job=job)

    def _serve_release(self, stack: contextlib.ExitStack) -> dict:
        """Lists the build's release archive in every gatekit copy's checksums.txt (the demo's
        checkout of gatekit, and gatekit's source in a shipped-templates repository) and serves
        it; returns the runner's GATEKIT_RELEASE_URL."""
        body = release_of_the_build()
        line = f"{VERSION} linux-{ARCH} {hashlib.sha256(body).hexdigest()}\n"
        shipped = (SOURCE / "actions" / "setup-gatekit" / "checksums.txt").read_text()
        for copy in (self.root / "gatekit", self.repo):
            checksums = copy / "actions" / "setup-gatekit" / "checksums.txt"
            if checksums.is_file():
                checksums.write_text(shipped.rstrip("\n") + "\n" + line)
        server = ReleaseServer()
        stack.callback(server.close)
        server.files[f"/release/v{VERSION}/{archive_name(VERSION)}"] = body
        self.release_server = server
        return {"GATEKIT_RELEASE_URL": f"{server.url}/release"}

    def _run(self, *, fork, matrix, env, files, workflow, timeout, event_name, payload, server_token, secrets,
             variables, tools_on_path, path_first, server_state, job) -> Outcome:
        if payload is not None:
            (self.root / "event.json").write_text(json.dumps(payload))
        if files is None:
            files = git(self.repo, "diff", "--name-only", self.base, self.head).splitlines()
        actions = list((SOURCE / "actions").rglob("action.yml"))
        labels = set()
        for wf in self.workflows():
            for definition in (yaml.safe_load(wf.read_text()).get("jobs") or {}).values():
                runs_on = definition.get("runs-on", [])
                labels.update([runs_on] if isinstance(runs_on, str) else runs_on)
        cmd = [act_binary(), event_name, "-e", str(self.root / "event.json"),
               "-W", str(self.repo / ".github" / "workflows" / workflow) if workflow else self._ci_workflows(),
               "--artifact-server-addr", "127.0.0.1", "--cache-server-addr", "127.0.0.1",
               "--cache-server-path", str(self.root / "act-cache-server"),
               "--action-offline-mode", "--action-cache-path", str(self.root / "act-cache"),
               "--concurrent-jobs", "1", "-s", f"GITHUB_TOKEN={TOKEN}"]
        for key, value in (secrets or {}).items():
            cmd += ["-s", f"{key}={value}"]
        for key, value in (variables or {}).items():
            cmd += ["--var", f"{key}={value}"]
        for label in sorted(labels | {"ubuntu-latest"}):
            cmd += ["-P", f"{label}=-self-hosted"]
        for repo, sub, sha in sorted(third_party_uses(self.workflows() + actions)):
            cmd += ["--local-repository", f"{repo}@{sha}={local_folder(repo, sub, self.root)}"]
        if matrix:
            cmd += ["--matrix", matrix]
        if job:
            cmd += ["-j", job]
        run_env = {"E2E_REPOS": str(self.root / "repos"), "E2E_ARTIFACTS": str(self.root / "artifacts"),
                   "PIP_NO_INDEX": "1", "PIP_NO_BUILD_ISOLATION": "0", "PIP_DISABLE_PIP_VERSION_CHECK": "1",
                   **(env or {})}
        with FakeGitHub(token=server_token) as srv:
            if server_state:
                srv.load_state(server_state)
            srv.add_pull(REPO, PR_NUMBER, files=files, head_sha=self.head, base_sha=self.base)
            run_env["GITHUB_API_URL"] = srv.base_url
            for key, value in run_env.items():
                cmd += ["--env", f"{key}={value}"]
            # The host's own Actions variables (when this runs inside a CI job) must not leak in.
            host = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "RUNNER_", "ACTIONS_", "INPUT_"))}
            tools = [str(self.root / "bin")] if tools_on_path else []
            path = [*map(str, path_first), *tools, str(self.root / "runner-python" / "bin"), os.environ["PATH"]]
            host.update({"PATH": ":".join(path),
                         # act would otherwise ask api.nektosact.com for notices on every start.
                         "ACT_DISABLE_VERSION_CHECK": "1",
                         "XDG_CONFIG_HOME": str(self.root / "xdg"), "XDG_CACHE_HOME": str(self.root / "xdg")})
            done = subprocess.run(cmd, cwd=self.repo, env=host, capture_output=True, text=True, timeout=timeout)
            outcome = parse(done.stdout + done.stderr, done.returncode)
            outcome.requests = list(srv.requests)
        (self.root / "act.log").write_text(outcome.log)
        return outcome
