"""The main job's GPU gate part (gpu-gate), on a scratch clone of the demo project.

A developer's GPU machine and CI, end to end, with nothing outside this machine:
  1. setup     a clone of a local bare remote (file://); `gpu-gate setup` makes a plain
               `git push` carry the branch and this machine's results;
  2. run       a pull request branch changes a kernel; `gpu-gate run` tests its committed tree
               on a simulated 2-GPU machine: the core's GPU discovery loads a stand-in HIP
               runtime built here from tests/smoke-runner/stub/fake_hip.cpp (the real dlopen
               path), and the demo's tests see two fake GPUs (TINYML_FAKE_GPUS); the gate's
               scope comes from origin/HEAD (main), and the pass proves GPU tests ran on the tested
               tree's own package;
  3. push      a plain `git push` publishes the branch and the result ref;
  4. more      a documentation-only commit, an analysis script (outside the path gate's gpu
               filter, docs/gpu-gate.md "What needs a GPU result"), then a commit with new
               code, pushed without a run;
  5. CI side   strict mode, the template's default (docs/gpu-gate.md, "Trust model"): a
               pull_request run (the pull request's own workflow) is refused a post and posts
               nothing; then the workflow_run run (the default branch's workflow) runs
               `gpu-gate ci-status --mode=strict --post` for each of the three commits with the
               GitHub App's token, posting `gate/gpu` to the GitHub API test server
               (tests/github_api/server.py), which accepts that token only;
  6. table     the four statuses as the server recorded them: exact pass, docs-only
               inherited, the analysis script inherited (no GPU-relevant change), new code
               pending;
  7. trust     the trusted files come from the default branch, whatever base an event names:
               a branch pushed at the new code makes a docs commit on top of it look "docs
               only", and a run that names it as the base still posts pending.
run_part(bin_dir, out) returns the checks (name, ok, detail) and writes OUT/gpu-gate/summary.md.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "examples" / "demo-project"
sys.path.insert(0, str(ROOT / "tests" / "github_api"))
from server import FakeGitHub  # noqa: E402  (the API test server)

REPO = "demo/tinyml"
TOKEN = "demo-app-installation-token"  # the strict mode's GitHub App token: the only one the server takes
APP_BOT = "gatekit-demo-gate[bot]"  # the App's account: what its token posts is created by it
MACHINE = "demo-gpu-box"
GIT_ENV = {"GIT_AUTHOR_NAME": "Demo Dev", "GIT_AUTHOR_EMAIL": "dev@example.com", "GIT_COMMITTER_NAME": "Demo Dev",
           "GIT_COMMITTER_EMAIL": "dev@example.com", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1"}
DIM, BOLD, RESET = ("\033[2m", "\033[1m", "\033[0m") if sys.stdout.isatty() and not os.environ.get("NO_COLOR") \
    else ("", "", "")


@dataclass
class Check:
    name: str
    ok: bool
    detail: str


def clean_env(extra: dict | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GATEKIT_", "GIT_"))}
    env.update(GIT_ENV)
    env.update(extra or {})
    return env


def run(argv, cwd: Path, extra: dict | None = None, check: bool = True, show: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run([str(a) for a in argv], cwd=cwd, env=clean_env(extra), text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if show:
        for line in done.stdout.rstrip("\n").splitlines():
            print(f"    {DIM}│{RESET} {line}")
    if check and done.returncode != 0:
        raise RuntimeError(f"{' '.join(str(a) for a in argv)} exited {done.returncode}")
    return done


def git(repo: Path, *args: str) -> str:
    return run(["git", *args], repo, show=False).stdout.strip()


def step(number: int, title: str) -> None:
    print(f"\n  {BOLD}{number}. {title}{RESET}")


def fake_gpu_machine(work: Path) -> dict:
    """The environment of a simulated 2-GPU machine: a stand-in HIP runtime for the core's
    GPU discovery (compiled here, as the tests do), no CUDA, and the demo's fake GPUs."""
    library = work / "libfake_hip.so"
    source = ROOT / "tests" / "smoke-runner" / "stub" / "fake_hip.cpp"
    run([os.environ.get("CXX", "c++"), "-shared", "-fPIC", "-O1", "-o", library, source], work, show=False)
    return {"GATEKIT_HIP_LIBRARY": str(library), "GATEKIT_CUDA_LIBRARY": "none", "FAKE_HIP_DEVICES": "2",
            "TINYML_FAKE_GPUS": "2"}


def make_clones(work: Path) -> tuple[Path, Path]:
    remote, dev = work / "remote.git", work / "dev"
    shutil.copytree(DEMO, dev, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache", "*.egg-info"))
    run(["git", "init", "-q", "--bare", "-b", "main", remote], work, show=False)
    git(dev, "init", "-q", "-b", "main")
    git(dev, "add", "-A")
    git(dev, "commit", "-q", "-m", "demo project")
    git(dev, "remote", "add", "origin", f"file://{remote}")
    git(dev, "push", "-q", "-u", "origin", "main")
    git(dev, "remote", "set-head", "origin", "main")  # the base gpu-gate reads its configuration from
    return remote, dev


def commit(dev: Path, path: str, old: str, new: str, message: str) -> str:
    file = dev / path
    text = file.read_text()
    if old not in text:
        raise RuntimeError(f"prepared change no longer applies: {old!r} not in {path}")
    file.write_text(text.replace(old, new, 1))
    git(dev, "commit", "-q", "-am", message)
    return git(dev, "rev-parse", "HEAD")


def ci_status(tool: str, ci: Path, sha: str, server: FakeGitHub, summary: Path, event: str = "workflow_run",
              base: str = "") -> int:
    """`gpu-gate ci-status` as gate.yml's strict-mode jobs run it: the `post` job on
    workflow_run (the default branch's workflow, the App's token, the App's bot as the poster,
    no base: the tool asks the remote for its default branch); `event` pull_request is the pull
    request's own run, which strict mode refuses a post. `base`: a base an event names."""
    return run([tool, "ci-status", f"--sha={sha}", "--pr=1", f"--base={base}", f"--repository={REPO}", "--post",
                "--mode=strict", f"--poster={APP_BOT}", f"--target-url=https://github.example/{REPO}/actions/runs/1"], ci,
               {"GITHUB_API_URL": server.base_url, "GITHUB_TOKEN": TOKEN, "GITHUB_EVENT_NAME": event,
                "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_OUTPUT": str(ci.parent / f"ci-status-output-{sha[:12]}")},
               check=False, show=event == "workflow_run").returncode


def posted_statuses(server: FakeGitHub) -> dict:
    """sha -> (state, description) of the last gate/gpu status posted on it."""
    found = {}
    for request in server.requests:
        if request["method"] == "POST" and "/statuses/" in request["path"]:
            body = request["body"] or {}
            found[request["path"].rsplit("/", 1)[1]] = (body.get("state", ""), body.get("description", ""))
    return found


def status_table(rows) -> str:
    lines = ["| commit | change | gate run | `gate/gpu` | description |", "| --- | --- | --- | --- | --- |"]
    lines += [f"| `{sha[:12]}` | {change} | {ran} | {state} | {description} |"
              for sha, change, ran, state, description in rows]
    return "\n".join(lines) + "\n"


def run_part(bin_dir: Path, out: Path) -> list:
    tool = str(bin_dir / "gpu-gate" / "gpu-gate")
    work = out / "gpu-gate"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    summary = work / "summary.md"
    summary.write_text("# GPU gate (gpu-gate)\n\n")
    print(f"\n{BOLD}━━ GPU gate: a GPU machine tests the tree, CI posts gate/gpu{RESET}")
    checks: list[Check] = []
    try:
        checks += stages(tool, work, summary)
    except (RuntimeError, OSError, subprocess.SubprocessError) as error:
        checks.append(Check("the GPU gate part ran to its end", False, str(error)))
    return checks


def stages(tool: str, work: Path, summary: Path) -> list:
    checks = []
    remote, dev = make_clones(work)
    step(1, "gpu-gate setup: a plain `git push` carries the branch and this machine's results")
    run([tool, "setup"], dev)
    git(dev, "switch", "-q", "-c", "change/attention")
    exact = commit(dev, "src/tinyml/kernels/attention.py", '"""', '"""Scaled dot-product attention. ', "kernels: doc line")

    step(2, "gpu-gate run on a simulated 2-GPU machine (HIP stand-in, fake tinyml GPUs)")
    gpu_env = fake_gpu_machine(work)
    gpu_env.update({"GATEKIT_GATE_MACHINE": MACHINE, "GITHUB_STEP_SUMMARY": str(summary)})
    done = run([tool, "run", "--base=main"], dev, gpu_env, check=False)
    ran = done.returncode
    checks.append(Check("gpu-gate run passes the change on the simulated GPU machine", ran == 0, f"exit {ran}"))
    # The scope comes from the base branch, and the pass proves it ran GPU tests on the tested tree.
    said = [line for line in done.stdout.splitlines()
            if line.startswith(("configuration: ", "evidence of the gate pass: "))]
    checks.append(Check("the run read the gate's configuration from origin/HEAD and proved what it tested",
                        len(said) == 2 and " of origin/HEAD (" in said[0] and "GPU tests ran" in said[1]
                        and "all from the tested tree" in said[1], " / ".join(said) or "no such lines"))

    step(3, "git push: the branch and the result, in one plain push")
    run(["git", "push", "-q"], dev)
    tree = git(dev, "rev-parse", f"{exact}^{{tree}}")
    published = git(remote, "for-each-ref", "--format=%(refname)", "refs/gatekit-gate/")
    # One ref per run: refs/gatekit-gate/<tree>/<machine>@<time>-<record commit>.
    checks.append(Check("a plain git push published the result ref", f"refs/gatekit-gate/{tree}/{MACHINE}@" in published,
                        published or "no result ref on the remote"))

    step(4, "three more commits, pushed without a gate run: documentation only, an analysis script, then new code")
    docs = docs_commit(dev)
    analysis = analysis_commit(dev)
    code = commit(dev, "src/tinyml/kernels/attention.py", "Scaled dot-product attention. ",
                  "Scaled dot-product attention (softmax over keys). ", "kernels: another change")
    run(["git", "push", "-q"], dev)

    step(5, "CI side, strict mode: the pull request's own run posts nothing; the workflow_run run posts "
            "gate/gpu with the App's token (GitHub API test server)")
    ci = work / "ci"
    git(work, "clone", "-q", f"file://{remote}", str(ci))
    with FakeGitHub(token=TOKEN, login=APP_BOT) as server:
        server.load_state({"repos": {REPO: {}}})
        refused = ci_status(tool, ci, exact, server, summary, event="pull_request")
        from_pull_request = posted_statuses(server)
        checks.append(Check("strict mode: the pull_request run posts nothing", refused == 2 and not from_pull_request,
                            f"exit {refused}, {len(from_pull_request)} statuses posted"))
        codes = [ci_status(tool, ci, sha, server, summary) for sha in (exact, docs, analysis, code)]
        statuses = posted_statuses(server)
    checks.append(Check("the workflow_run run posted gate/gpu on all four commits", codes == [0, 0, 0, 0] and len(statuses) == 4,
                        f"exit codes {codes}, {len(statuses)} statuses posted"))

    step(6, "gate/gpu as the API test server recorded it")
    rows = []
    expected = [(exact, "kernel change", "yes", "success", "passed in "),
                (docs, "documentation only", "no", "success", f"inherited from {exact[:12]}, docs-only delta"),
                (analysis, "an analysis script (outside the gpu filter)", "no", "success",
                 f"no GPU-relevant change since {exact[:12]}: 1 file outside the gpu filter"),
                (code, "new kernel code", "no", "pending", "no gate result for this tree")]
    for sha, change, gated, want_state, want_description in expected:
        state, description = statuses.get(sha, ("(none)", ""))
        rows.append((sha, change, gated, state, description))
        ok = state == want_state and description.startswith(want_description)
        checks.append(Check(f"{change}: {want_state} \"{want_description}{'…' if want_description.endswith(' ') else ''}\"",
                            ok, f"{state}: {description}"))
    table = status_table(rows)
    for line in table.splitlines():
        print(f"    {line}")
    with open(summary, "a") as f:
        f.write("\n## gate/gpu for four commits of one pull request\n\n" + table + "\n" +
                history_chart(exact, docs, analysis, code))
    checks.append(trust_stage(tool, work, dev, summary))
    return checks


def trust_stage(tool: str, work: Path, dev: Path, summary: Path) -> Check:
    """Anyone with push access can push a branch and open a second pull request into it; the
    workflow_run after it names that branch as the base. Here the branch sits at the new code,
    so a docs commit on top of it would be "no code change" against it: the tool trusts the
    default branch instead, and the commit stays pending."""
    step(7, "trust: a base that an event names is only a candidate; the default branch's files decide")
    on_top = docs_commit(dev, "docs/more.md", "docs: more words")
    run(["git", "push", "-q", "origin", "HEAD", "HEAD~1:refs/heads/stepping-stone"], dev)
    ci = work / "ci-trust"
    git(work, "clone", "-q", f"file://{work / 'remote.git'}", str(ci))
    with FakeGitHub(token=TOKEN, login=APP_BOT) as server:
        server.load_state({"repos": {REPO: {}}})
        code = ci_status(tool, ci, on_top, server, summary, base="stepping-stone")
        state, description = posted_statuses(server).get(on_top, ("(none)", ""))
    with open(summary, "a") as f:
        f.write(f"\n## A base the event names\n\n`{on_top[:12]}` (docs on top of new code), with the base "
                f"`stepping-stone` (a branch at that code): `{state}` \"{description}\"\n")
    return Check('a pushed branch named as the base decides nothing: pending "no gate result for this tree"',
                 code == 0 and (state, description) == ("pending", "no gate result for this tree"),
                 f"exit {code}, {state}: {description}")


def docs_commit(dev: Path, path: str = "docs/gate.md", message: str = "docs: the GPU gate") -> str:
    (dev / path).write_text("# The GPU gate\n\nA GPU machine tests each tree before it merges.\n")
    git(dev, "add", path)
    git(dev, "commit", "-q", "-m", message)
    return git(dev, "rev-parse", "HEAD")


def analysis_commit(dev: Path) -> str:
    """A script that plots benchmark results: no GPU job reads it, so the path gate's gpu
    filter leaves it out, and gate/gpu needs no new result for it."""
    path = dev / "scripts" / "plot_bench.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('"""Plot the smoke benchmarks\' durations (an analysis script)."""\nimport json\nimport sys\n\n'
                    'print(json.load(sys.stdin))\n')
    git(dev, "add", "scripts/plot_bench.py")
    git(dev, "commit", "-q", "-m", "scripts: plot the benchmarks")
    return git(dev, "rev-parse", "HEAD")


def history_chart(exact: str, docs: str, analysis: str, code: str) -> str:
    return ("```mermaid\ngitGraph\n  commit id: \"main\"\n  branch change/attention\n"
            f"  commit id: \"{exact[:7]} gate run: pass\" tag: \"success\"\n"
            f"  commit id: \"{docs[:7]} docs only\" tag: \"success (inherited)\"\n"
            f"  commit id: \"{analysis[:7]} analysis script\" tag: \"success (no GPU-relevant change)\"\n"
            f"  commit id: \"{code[:7]} new code\" tag: \"pending\"\n```\n")


if __name__ == "__main__":  # by hand: python3 scripts/demo_gpu_gate.py BIN_DIR OUT
    results = run_part(Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve())
    for c in results:
        print(f"{'ok ' if c.ok else 'BAD'} {c.name}: {c.detail}")
    sys.exit(0 if results and all(c.ok for c in results) else 1)
