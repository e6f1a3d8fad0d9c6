"""The main job's second project: an ML repository gatekit never saw, adopted through the scaffold.

examples/ml-project (visionlab) is shaped like the ML repositories gatekit gates: a package
under src/, CPU tests and GPU tests that skip without a CUDA device (a `cuda` marker its
pyproject.toml registers), a Dockerfile and requirements files. It has no gatekit file:
  1. scaffold    scripts/gatekit-init.py writes them into a fresh clone, as the guide's fast
                 path says, and nothing is edited by hand afterwards: the rules put the
                 Dockerfile and the requirements into every filter, the selections use the
                 project's own `cuda` marker, and a conftest.py registers the two markers
                 the selections name that pyproject.toml lacks (`nightly`, `docs`);
  2. selections  suite-report partition proves every test is in one leg, and gpu-filter that
                 the scaffolded gpu filter holds every file the GPU leg reads;
  3. changes     four prepared pull requests, each through the scaffolded pipeline: the path
                 gate (the scaffolded rules, git diff), the CPU job the docs variant runs
                 (suite-report nightly, pytest, flaky-tracker rerun, suite-report unmarked), the
                 partition job, the GPU job on a simulated CUDA runner (suite-report shard,
                 pytest, flaky-tracker rerun, suite-report ran), and the two required checks
                 (matrix-aggregator with the `needs:`, `gate-job:` and `gated:` of the
                 scaffolded workflows, read from them).
Every verdict is checked against what the change deserves (EXPECTED).
run_part(bin_dir, out) returns the checks (name, ok, detail) and writes OUT/ml-project/summary.md.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from github_files import read_outputs  # scripts/, beside this file

ROOT = Path(__file__).resolve().parents[1]
PROJECT = ROOT / "examples" / "ml-project"
INIT = ROOT / "scripts" / "gatekit-init.py"
PIN = "0" * 40  # the scaffold pins gatekit's actions to a commit; the demo runs the tools directly
# The flags a user of the guide gives for this project: its Python versions, the GPU code and
# tests and everything they import, no smoke job, the install command of its CI.
FLAGS = ["--gatekit-sha", PIN, "--python", "3.11,3.12", "--no-smokes",
         "--gpu-paths", "src/visionlab/ops/**,src/visionlab/models/**,src/visionlab/device.py,tests/gpu/**",
         "--install", "python -m pip install -r requirements.txt -r requirements-dev.txt -e ."]
SELECTION, RULES = ".github/gatekit/suite.yml", ".github/gatekit/filters.yml"
CPU_RUNNER = {"VISIONLAB_FAKE_GPUS": "0", "PYTHONPATH": "src"}
GPU_RUNNER = {"VISIONLAB_FAKE_GPUS": "1", "PYTHONPATH": "src"}  # a simulated CUDA device
DIM, BOLD, RESET = ("\033[2m", "\033[1m", "\033[0m") if sys.stdout.isatty() and not os.environ.get("NO_COLOR") \
    else ("", "", "")
GIT_ENV = {"GIT_AUTHOR_NAME": "Demo Dev", "GIT_AUTHOR_EMAIL": "dev@example.com", "GIT_COMMITTER_NAME": "Demo Dev",
           "GIT_COMMITTER_EMAIL": "dev@example.com", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1"}


@dataclass
class Check:
    name: str
    ok: bool
    detail: str


# ---- the prepared changes ---------------------------------------------------------------

def replace(repo: Path, rel: str, old: str, new: str) -> None:
    text = (repo / rel).read_text()
    if old not in text:
        raise RuntimeError(f"prepared change no longer applies: {old!r} not in {rel}")
    (repo / rel).write_text(text.replace(old, new, 1))


UNMARKED_GPU_TEST = '''"""Batches through the fused op. Guarded by skipif like its neighbours, but the `cuda` marker
was forgotten: the CPU leg selects it, and there it skips."""

import pytest

from visionlab.device import cuda_available
from visionlab.ops import fused_bias_relu

pytestmark = pytest.mark.skipif(not cuda_available(), reason="CUDA not available")


def test_fused_bias_relu_on_a_batch():
    batch = [[1.0, -1.0], [0.5, 0.5]]
    assert [fused_bias_relu(row, [0.0, 0.0]) for row in batch] == [[1.0, 0.0], [0.5, 0.5]]
'''

# key -> (title, apply, the gate's outputs, CPU tests, GPU tests): what each change deserves.
CHANGES = {
    "docs-only": ("Document the configuration file's sections",
                  lambda r: replace(r, "docs/index.md", "the training schedule.", "the training schedule (epochs, "
                                    "learning rate)."),
                  {"cpu": "false", "gpu": "false", "docs": "true"}, "pass", "pass"),
    "image": ("Move the GPU image to CUDA 12.6",
              lambda r: replace(r, "Dockerfile", "nvidia/cuda:12.4.1-cudnn-runtime", "nvidia/cuda:12.6.3-cudnn-runtime"),
              {"cpu": "true", "gpu": "true", "docs": "true"}, "pass", "pass"),
    "kernel-bug": ("A 'faster' fused op that adds the bias after the ReLU",
                   lambda r: replace(r, "src/visionlab/ops/fused.py", "max(x + b, 0.0)", "max(x, 0.0) + b"),
                   {"cpu": "true", "gpu": "true", "docs": "false"}, "pass", "fail"),
    "unmarked": ("A GPU test that forgets its cuda marker",
                 lambda r: (r / "tests" / "gpu" / "test_fused_batch.py").write_text(UNMARKED_GPU_TEST),
                 {"cpu": "true", "gpu": "true", "docs": "false"}, "fail", "pass"),
}


# ---- running things ---------------------------------------------------------------------

def clean_env(extra: dict | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GATEKIT_", "GIT_", "VISIONLAB_"))}
    env.update(GIT_ENV)
    env.update(extra or {})
    return env


def run(argv, cwd: Path, extra: dict | None = None, outputs: Path | None = None, summary: Path | None = None,
        show: bool = True) -> tuple[int, dict]:
    env = clean_env(extra)
    if outputs:
        outputs.write_text("")
        env["GITHUB_OUTPUT"] = str(outputs)
    if summary:
        env["GITHUB_STEP_SUMMARY"] = str(summary)
    done = subprocess.run([str(a) for a in argv], cwd=cwd, env=env, text=True, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT)
    if show:
        for line in done.stdout.rstrip("\n").splitlines():
            print(f"    {DIM}│{RESET} {line}")
    return done.returncode, read_outputs(outputs) if outputs else {}


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=repo, env=clean_env(), text=True, capture_output=True)
    if done.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout.strip()


def step(title: str) -> None:
    print(f"\n  {BOLD}{title}{RESET}")


def aggregator_wiring(workflow: Path) -> tuple[list[str], list[str]]:
    """The aggregator job's `needs:` and its step's `gate-job` and `gated` inputs, as the
    scaffold wrote them (the job that uses actions/matrix-aggregator)."""
    text = workflow.read_text()
    jobs = re.split(r"(?m)^  (?=[A-Za-z0-9_-]+:\n)", text.split("\njobs:\n", 1)[1])
    job = next(j for j in jobs if "/actions/matrix-aggregator@" in j)
    needs = re.search(r"(?m)^    needs: \[([^\]]*)\]", job).group(1)
    gate = re.search(r"(?m)^          gate-job: (\S+)", job).group(1)
    gated = re.search(r"(?m)^          gated: (\S+)", job).group(1)
    return [n.strip() for n in needs.split(",")], ["--gate-job", gate, "--gated", gated]


def gated_runs(gated: str, gate_outputs: dict) -> dict:
    """job -> whether its `if:` lets it run: the scaffolded templates' jobs run when the gate's
    outputs their `gated` item names say so (test_job_conditions.py proves each `if:` agrees)."""
    runs = {}
    for item in gated.split(","):
        job, _, spec = item.partition("=")
        values = [gate_outputs[o] == "true" for o in re.split(r"[|&]", spec)]
        runs[job] = all(values) if "&" in spec else any(values)
    return runs


# ---- the jobs ---------------------------------------------------------------------------

def cpu_job(tools: dict, repo: Path, work: Path, gate: dict, variant: str, summary: Path) -> str:
    """The CPU matrix's job for the docs variant, as cpu-tests.yml runs it: its result."""
    docs_only = gate["cpu"] != "true"
    code, select = run([tools["suite-report"], "nightly", "--selection", SELECTION, "--leg", "cpu", "--context", "pr",
                        *(["--docs-only", "--variant", variant] if docs_only else [])], repo,
                       outputs=work / "cpu-select")
    if code != 0:
        return "failure"
    if select.get("run") == "none":
        return "success"
    junit = work / "cpu-junit.xml"
    run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", select["markers"],
         f"--junitxml={junit}"], repo, CPU_RUNNER, show=False)
    flaky, _ = run([tools["flaky-tracker"], "rerun", "--report", junit, "--command",
                    f"{sys.executable} -m pytest -p no:cacheprovider --junitxml={{junit}} -- {{tests}}"], repo, CPU_RUNNER,
                   outputs=work / "cpu-flaky", summary=summary)
    if select.get("run") != "tests":
        return "success" if flaky == 0 else "failure"
    unmarked, _ = run([tools["suite-report"], "unmarked", "--selection", SELECTION, "--leg", "cpu", "--report", junit],
                      repo, outputs=work / "cpu-unmarked", summary=summary)
    return "success" if flaky == 0 and unmarked == 0 else "failure"


def partition_job(tools: dict, repo: Path, work: Path, summary: Path) -> str:
    code, _ = run([tools["suite-report"], "partition", "--selection", SELECTION, "--python", sys.executable,
                   "--variants", "3.11,3.12"], repo, CPU_RUNNER, outputs=work / "partition", summary=summary, show=False)
    return "success" if code == 0 else "failure"


def gpu_job(tools: dict, repo: Path, work: Path, summary: Path) -> str:
    """One GPU shard of gpu-tests.yml on a simulated CUDA runner: its result."""
    code, select = run([tools["suite-report"], "nightly", "--selection", SELECTION, "--leg", "gpu", "--context", "pr"],
                       repo, outputs=work / "gpu-select")
    shard = work / "gpu-shards" / "gpu-shard-1-attempt1"  # the folder gpu-suite downloads it into
    shard.mkdir(parents=True, exist_ok=True)
    code2, planned = run([tools["suite-report"], "shard", "--selection", SELECTION, "--leg", "gpu", "--context", "pr",
                          "--shards", "1", "--index", "1", "--out", shard / "list.txt", "--plan", shard / "plan.json",
                          "--python", sys.executable], repo, GPU_RUNNER, outputs=work / "gpu-shard-output")
    if code or code2:
        return "failure"
    junit = shard / "junit.xml"
    run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tb=line", "-m", select["markers"],
         f"--junitxml={junit}", f"@{shard / 'list.txt'}"], repo, GPU_RUNNER)
    flaky, _ = run([tools["flaky-tracker"], "rerun", "--report", junit, "--command",
                    f"{sys.executable} -m pytest -p no:cacheprovider --junitxml={{junit}} -- {{tests}}"], repo, GPU_RUNNER,
                   outputs=work / "gpu-flaky", summary=summary)
    ran, _ = run([tools["suite-report"], "ran", "--selection", SELECTION, "--leg", "gpu", "--context", "pr",
                  "--report", junit, "--python", sys.executable], repo, GPU_RUNNER, outputs=work / "gpu-ran",
                 summary=summary)
    return "success" if flaky == 0 and ran == 0 else "failure"


def gpu_suite_job(tools: dict, repo: Path, work: Path, summary: Path) -> str:
    """gpu-tests.yml's gpu-suite: shard-report's proof that the shards ran the leg's selection,
    each test once (its result is one GPU tests needs)."""
    code, _ = run([tools["suite-report"], "shard-report", "--leg", "gpu", "--shards", "1", "--reports",
                   work / "gpu-shards", "--out", work / "gpu-junit.xml"], repo, outputs=work / "gpu-suite",
                  summary=summary)
    return "success" if code == 0 else "failure"


def required_check(tools: dict, repo: Path, work: Path, workflow: str, title: str, results: dict, gate: dict,
                   summary: Path) -> int:
    needs_list, args = aggregator_wiring(repo / ".github" / "workflows" / workflow)
    needs = {job: {"result": "success", "outputs": gate} if job == "changes" else
             {"result": results.get(job, "skipped"), "outputs": {}} for job in needs_list}
    code, _ = run([tools["matrix-aggregator"], *args, "--title", title], repo,
                  {"GATEKIT_NEEDS": json.dumps(needs)}, outputs=work / f"{workflow}-aggregate", summary=summary)
    return code


# ---- the part ---------------------------------------------------------------------------

def scaffold(repo: Path) -> tuple[list[str], str]:
    shutil.copytree(PROJECT, repo, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache", "*.egg-info"))
    git(repo, "init", "-q", "-b", "main")
    done = subprocess.run([sys.executable, str(INIT), "--target", str(repo), *FLAGS], env=clean_env(),
                          capture_output=True, text=True)
    for line in (done.stdout + done.stderr).rstrip("\n").splitlines():
        print(f"    {DIM}│{RESET} {line}")
    if done.returncode != 0:
        raise RuntimeError(f"gatekit-init exited {done.returncode}")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "visionlab, with gatekit's files from the scaffold")
    written = [line.removeprefix("wrote ") for line in done.stdout.splitlines() if line.startswith("wrote ")]
    return written, done.stdout


def gate_change(tools: dict, repo: Path, work: Path, key: str, summary: Path) -> tuple[dict, dict, dict]:
    """One prepared change through the scaffolded pipeline: the gate's outputs, the jobs'
    results, the two required checks' exit codes."""
    title, apply, *_ = CHANGES[key]
    git(repo, "switch", "-q", "-c", f"change/{key}", "main")
    apply(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", title)
    work.mkdir(parents=True)
    _, outputs = run([tools["path-classifier"], "--rules", RULES, "--base", "main", "--head", "HEAD"], repo,
                     outputs=work / "gate", summary=summary, show=False)
    gate = {k: outputs.get(k, "") for k in ("cpu", "gpu", "docs")}
    print(f"    path gate: cpu={gate['cpu']} gpu={gate['gpu']} docs={gate['docs']}")
    cpu_needs, cpu_args = aggregator_wiring(repo / ".github" / "workflows" / "cpu-tests.yml")
    gpu_needs, gpu_args = aggregator_wiring(repo / ".github" / "workflows" / "gpu-tests.yml")
    runs = {**gated_runs(cpu_args[3], gate), **gated_runs(gpu_args[3], gate)}
    results = {}
    if runs.get("partition"):
        results["partition"] = partition_job(tools, repo, work, summary)
    if runs.get("tests"):
        results["tests"] = cpu_job(tools, repo, work, gate, "3.12", summary)
    if runs.get("gpu-tests"):
        results["gpu-tests"] = gpu_job(tools, repo, work, summary)
    if runs.get("gpu-suite") and "gpu-tests" in results:  # if: always() && gpu-tests ran
        results["gpu-suite"] = gpu_suite_job(tools, repo, work, summary)
    print(f"    jobs: {', '.join(f'{job} {result}' for job, result in results.items()) or 'none ran'}")
    checks = {"CPU tests": required_check(tools, repo, work, "cpu-tests.yml", "CPU tests", results, gate, summary),
              "GPU tests": required_check(tools, repo, work, "gpu-tests.yml", "GPU tests", results, gate, summary)}
    return gate, results, checks


def run_part(bin_dir: Path, out: Path) -> list:
    work = out / "ml-project"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    summary = work / "summary.md"
    summary.write_text("# A second project: visionlab, adopted through the scaffold\n\n")
    print(f"\n{BOLD}━━ An ML project adopts gatekit: the scaffold's files, no hand edits, four changes{RESET}")
    tools = {name: str(bin_dir / name / name) for name in
             ("path-classifier", "suite-report", "flaky-tracker", "matrix-aggregator")}
    checks: list[Check] = []
    try:
        checks += stages(tools, work, summary)
    except (RuntimeError, OSError, subprocess.SubprocessError, KeyError, AttributeError, StopIteration) as error:
        checks.append(Check("the ML project part ran to its end", False, f"{error.__class__.__name__}: {error}"))
    return checks


def stages(tools: dict, work: Path, summary: Path) -> list:
    checks = []
    repo = work / "visionlab"
    step("1. gatekit-init writes gatekit's files into a fresh clone of examples/ml-project")
    written, said = scaffold(repo)
    suite = (repo / SELECTION).read_text()
    registers = "conftest.py registers them" in said  # the markers pyproject.toml lacks (nightly, docs)
    checks.append(Check("the scaffold wrote the workflows, rules, selections and markers; nothing edited by hand",
                        len(written) == 7 and "conftest.py" in written and registers
                        and git(repo, "status", "--porcelain") == "", f"{len(written)} files"))
    checks.append(Check("the selections use the project's own marker (cuda), not gpu",
                        "markers: not cuda\n" in suite and "markers: cuda\n" in suite,
                        "cpu: not cuda, gpu: cuda" if "markers: cuda\n" in suite else suite))

    step("2. the scaffolded selections: partition proof, and the gpu filter against the GPU leg's imports")
    code = partition_job(tools, repo, work, summary)
    checks.append(Check("partition proof: every test in exactly one leg", code == "success", code))
    code, found = run([tools["suite-report"], "gpu-filter", "--selection", SELECTION, "--rules", RULES, "--python",
                       sys.executable, "--path-classifier", tools["path-classifier"]], repo, GPU_RUNNER,
                      outputs=work / "gpu-filter", summary=summary)
    checks.append(Check("the scaffolded gpu filter holds every file the GPU leg reads", code == 0, f"exit {code}"))

    rows = []
    for number, key in enumerate(CHANGES, 3):
        title, _, want_gate, want_cpu, want_gpu = CHANGES[key]
        step(f"{number}. change {key}: {title}")
        with open(summary, "a") as f:
            f.write(f"\n## Change {key}: {title}\n\n")
        gate, results, codes = gate_change(tools, repo, work / key, key, summary)
        got = {name: {0: "pass", 1: "fail"}.get(code, f"error {code}") for name, code in codes.items()}
        checks.append(Check(f"{key}: the gate says {' '.join(f'{k}={v}' for k, v in want_gate.items())}",
                            gate == want_gate, " ".join(f"{k}={v}" for k, v in gate.items())))
        checks.append(Check(f"{key}: CPU tests {want_cpu}, GPU tests {want_gpu}",
                            got == {"CPU tests": want_cpu, "GPU tests": want_gpu},
                            f"CPU tests {got['CPU tests']}, GPU tests {got['GPU tests']}"))
        rows.append(f"| {key} | {title} | {' '.join(f'{k}={v}' for k, v in gate.items())} | "
                    f"{', '.join(f'{j} {r}' for j, r in results.items()) or 'none'} | {got['CPU tests']} | "
                    f"{got['GPU tests']} |")
    with open(summary, "a") as f:
        f.write("\n## The verdicts\n\n| change | title | path gate | jobs | `CPU tests` | `GPU tests` |\n"
                "| --- | --- | --- | --- | --- | --- |\n" + "\n".join(rows) + "\n")
    return checks


if __name__ == "__main__":  # by hand: python3 scripts/demo_ml.py BIN_DIR OUT
    results = run_part(Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve())
    for c in results:
        print(f"{'ok ' if c.ok else 'BAD'} {c.name}: {c.detail}")
    sys.exit(0 if results and all(c.ok for c in results) else 1)
