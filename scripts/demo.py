#!/usr/bin/env python3
"""gatekit's main job on the bundled demo project, stage by stage.

For each prepared change of examples/demo-project, in a scratch git clone:
  1. path gate        path-classifier decides which suites the change needs (git diff);
  2. CPU slice        pytest with the `cpu` leg's expression from .github/gatekit/suite.yml
                      (suite-report nightly), when the gate says cpu; the docs tests only when
                      the gate says the change is documentation only;
  3. GPU slice        the `gpu` leg split into 3 shards (suite-report shard), each run by pytest
                      on the simulated 2-GPU runner, then shard-report's predicted vs actual
                      time, when the gate says gpu;
  4. workload smokes  smoke-runner, pr tier, on the same simulated runner, when the gate says gpu;
  5. required checks  matrix-aggregator collapses the jobs into `CPU tests` and `GPU tests`.
Then the test selections themselves (suite-report): the partition proof on the demo project,
a GPU test without its marker caught on the CPU leg, a growth notice for a change that
adds 120 tests, compared with the baseline a main run stored, and the GPU filter check: the
path gate's gpu filter covers every file the GPU leg reads, until a change adds a GPU test
in a file outside it.
Then the required checks themselves (gatekit-doctor): the demo's rules and workflows, as the
GitHub API test server shows them, set up with the common mistakes and then fixed.
Then a second project shaped like an ML repository whose gatekit files the scaffold writes
(demo_ml.py), and ci-report over the runs.
A verdict table ends the run. Every tool's job summary is collected in OUT/summary.md.
Exit status: 0 when every required check and every selection check came out as the demo
expects, else 1.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from github_files import read_outputs  # scripts/, beside this file
import demo_flaky  # scripts/, beside this file: the flaky-tracker part
import demo_gpu_gate  # the GPU gate part
import demo_doctor  # the required checks and the gate's setup (gatekit-doctor)
import demo_ml  # a second project, shaped like an ML repository, adopted through the scaffold
import demo_ci_report  # the last stage: ci-report over the runs the demo made

PARTS = [("flaky tests (flaky-tracker)", demo_flaky.run_part), ("GPU gate (gpu-gate)", demo_gpu_gate.run_part),
         ("required checks (gatekit-doctor)", demo_doctor.run_part),
         ("an ML project adopts gatekit (gatekit-init)", demo_ml.run_part)]
PART_FOLDERS = ["flaky", "gpu-gate", "doctor", "ml-project", "ci-report"]

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "examples" / "demo-project"
RULES = ".github/gatekit/filters.yml"  # inside the demo project
SELECTION = ".github/gatekit/suite.yml"  # inside the demo project
DOCS_VARIANT = "3.13"  # the CPU job that runs the docs tests on a docs-only change (suite.yml)
SIMULATED_GPUS = "2"
GPU_SHARDS = 3  # the template's GPU_SHARDS: the GPU pytest leg over three (simulated) runners

BOLD, DIM, GREEN, RED, YELLOW, RESET = "\033[1m", "\033[2m", "\033[32m", "\033[31m", "\033[33m", "\033[0m"
if not sys.stdout.isatty() or os.environ.get("NO_COLOR"):
    BOLD = DIM = GREEN = RED = YELLOW = RESET = ""


# ---- prepared changes ----------------------------------------------------------------

def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    if old not in text:
        raise SystemExit(f"demo: prepared change no longer applies: {old!r} not in {path}")
    path.write_text(text.replace(old, new, 1))


def change_docs_only(repo: Path) -> None:
    with open(repo / "docs" / "kernels.md", "a") as f:
        f.write("\nThe attention kernel scales scores by 1/sqrt(d) before the softmax.\n")
    with open(repo / "CHANGELOG.md", "a") as f:
        f.write("\n- docs: explain the attention scaling.\n")


def change_kernel(repo: Path) -> None:
    edit(repo / "src" / "tinyml" / "kernels" / "attention.py",
         "    scores = tensor.scale(",
         "    # Scale before masking so masked scores stay exactly -inf.\n    scores = tensor.scale(")
    with open(repo / "docs" / "kernels.md", "a") as f:
        f.write("\nScores are scaled before the causal mask is applied.\n")


def change_breaks_softmax(repo: Path) -> None:
    path = repo / "src" / "tinyml" / "tensor.py"
    text = path.read_text()
    # Drop the normalisation: rows no longer sum to 1, and the CPU tests say so.
    marker = "def softmax"
    if marker not in text:
        raise SystemExit(f"demo: prepared change no longer applies: no softmax in {path}")
    path.write_text(text + "\n\ndef softmax(m):  # 'faster': skips the normalisation\n"
                    "    import math\n    return [[math.exp(x) for x in row] for row in m]\n")


@dataclass
class Scenario:
    key: str
    title: str
    apply: callable
    expect: dict  # check name -> expected verdict ("pass" / "fail")


SCENARIOS = [
    Scenario("docs-only", "Explain the attention scaling in the docs", change_docs_only,
             {"CPU tests": "pass", "GPU tests": "pass"}),
    Scenario("kernel", "Comment the attention kernel's masking order", change_kernel,
             {"CPU tests": "pass", "GPU tests": "pass"}),
    Scenario("broken", "A 'faster' softmax that forgets to normalise", change_breaks_softmax,
             {"CPU tests": "fail", "GPU tests": "fail"}),
]


# ---- running things ------------------------------------------------------------------

@dataclass
class StageResult:
    name: str
    result: str  # success | failure | skipped | cancelled
    detail: str = ""
    seconds: float = 0.0


@dataclass
class ScenarioReport:
    scenario: Scenario
    gate: dict = field(default_factory=dict)
    stages: list = field(default_factory=list)
    checks: dict = field(default_factory=dict)  # check name -> (exit code, verdict text)


class Runner:
    def __init__(self, bin_dir: Path, out: Path):
        self.bin_dir = bin_dir
        self.out = out

    def tool(self, name: str) -> str:
        path = self.bin_dir / name / name
        if not path.exists():
            raise SystemExit(f"demo: {path} is missing: build gatekit first (scripts/demo.sh does)")
        return str(path)

    def run(self, argv, cwd: Path, env_extra=None, summary: Path | None = None, outputs: Path | None = None,
            stdin: str | None = None):
        env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
        env.update(env_extra or {})
        if summary:
            env["GITHUB_STEP_SUMMARY"] = str(summary)
        if outputs:
            outputs.write_text("")
            env["GITHUB_OUTPUT"] = str(outputs)
        start = time.monotonic()
        done = subprocess.run(argv, cwd=cwd, env=env, input=stdin, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        for line in done.stdout.rstrip("\n").splitlines():
            print(f"    {DIM}│{RESET} {line}")
        return done.returncode, time.monotonic() - start


def git(repo: Path, *args: str) -> None:
    env = dict(os.environ, GIT_AUTHOR_NAME="Demo Dev", GIT_AUTHOR_EMAIL="dev@example.com",
               GIT_COMMITTER_NAME="Demo Dev", GIT_COMMITTER_EMAIL="dev@example.com",
               GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, stdout=subprocess.DEVNULL)


def make_repo(scenario: Scenario, work: Path) -> Path:
    repo = work / "demo-project"
    shutil.copytree(DEMO, repo, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache", "*.egg-info"))
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "demo project")
    git(repo, "switch", "-q", "-c", f"change/{scenario.key}")
    scenario.apply(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", scenario.title)
    return repo


def stage(number: int, title: str) -> None:
    print(f"\n  {BOLD}{number}. {title}{RESET}")


def leg_plan(runner: Runner, repo: Path, work: Path, leg: str, *extra: str) -> dict:
    """What a leg runs (suite-report nightly): {run: tests|docs|none, markers: ...}."""
    outputs = work / f"{leg}-select-output"
    code, _ = runner.run([runner.tool("suite-report"), "nightly", "--selection", SELECTION, "--leg", leg,
                          "--context", "pr", *extra], cwd=repo, outputs=outputs)
    if code != 0:
        raise SystemExit(f"demo: suite-report nightly --leg {leg} failed ({code})")
    return read_outputs(outputs)


def pytest_stage(runner: Runner, repo: Path, work: Path, name: str, marker: str, env_extra: dict,
                 docs: bool = False) -> StageResult:
    junit = work / f"{name}-junit.xml"
    code, seconds = runner.run(
        [sys.executable, "-m", "pytest", "-q", "--tb=line", "-p", "no:cacheprovider", "-m", marker, f"--junitxml={junit}"],
        cwd=repo, env_extra=env_extra)
    if code == 0:
        return StageResult(name, "docs" if docs else "success", "pytest passed", seconds)
    if code == 5:
        return StageResult(name, "failure", "pytest collected no tests (zero work is a failure)", seconds)
    return StageResult(name, "failure", f"pytest exit code {code}", seconds)


def gpu_shards_stage(runner: Runner, repo: Path, work: Path, env_extra: dict) -> StageResult:
    """The template's sharded GPU leg: each shard splits the leg the same way, writes its plan
    and runs its list; the matrix's result is success only when every shard succeeded, and
    shard-report's only when the shards ran the leg's selection, each test once."""
    results, seconds = [], 0.0
    shards = work / "gpu-shards"
    for k in range(1, GPU_SHARDS + 1):
        folder = shards / f"gpu-shard-{k}-attempt1"
        folder.mkdir(parents=True)
        outputs = work / f"gpu-shard-{k}-output"
        code, _ = runner.run([runner.tool("suite-report"), "shard", "--selection", SELECTION, "--leg", "gpu",
                              "--context", "pr", "--shards", str(GPU_SHARDS), "--index", str(k),
                              "--out", str(folder / "list.txt"), "--plan", str(folder / "plan.json"),
                              "--python", sys.executable],
                             cwd=repo, env_extra=env_extra, outputs=outputs)
        if code != 0:
            results.append("failure")
            continue
        if read_outputs(outputs).get("tests") == "0":
            results.append("success")  # an empty shard runs nothing
            continue
        code, took = runner.run([sys.executable, "-m", "pytest", "-q", "--tb=line", "-p", "no:cacheprovider",
                                 f"--junitxml={folder / 'junit.xml'}", f"@{folder / 'list.txt'}"],
                                cwd=repo, env_extra=env_extra)
        seconds += took
        results.append("success" if code == 0 else "failure")
    proof, _ = runner.run([runner.tool("suite-report"), "shard-report", "--leg", "gpu", "--shards", str(GPU_SHARDS),
                           "--reports", str(shards), "--out", str(work / "gpu-junit.xml")], cwd=repo)
    failed = [str(k) for k, r in enumerate(results, 1) if r != "success"]
    if failed:
        return StageResult("gpu-pytest", "failure", f"shard {', '.join(failed)} of {GPU_SHARDS} failed", seconds)
    if proof != 0:
        return StageResult("gpu-pytest", "failure", f"the shards did not run the leg once (shard-report exit {proof})",
                           seconds)
    return StageResult("gpu-pytest", "success", f"pytest passed on all {GPU_SHARDS} shards", seconds)


def run_scenario(index: int, scenario: Scenario, runner: Runner, out: Path) -> ScenarioReport:
    report = ScenarioReport(scenario)
    work = out / scenario.key
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    summary = work / "summary.md"
    summary.write_text(f"# Change {index}: {scenario.title}\n\n")
    print(f"\n{BOLD}━━ Change {index}: {scenario.title} {RESET}{DIM}(branch change/{scenario.key}){RESET}")
    repo = make_repo(scenario, work)
    changed = subprocess.run(["git", "diff", "--name-status", "refs/heads/main...HEAD"], cwd=repo, text=True,
                             capture_output=True, check=True).stdout
    for line in changed.splitlines():
        print(f"    {DIM}{line}{RESET}")

    stage(1, "Path gate: which suites does this change need?")
    outputs = work / "gate-output"
    code, _ = runner.run([runner.tool("path-classifier"), "--rules", RULES, "--base", "main", "--head", "HEAD"],
                         cwd=repo, summary=summary, outputs=outputs)
    gate = read_outputs(outputs)
    report.gate = {"result": "success" if code == 0 else "failure",
                   "outputs": {k: gate.get(k, "") for k in ("cpu", "gpu", "docs")}}
    cpu, gpu = gate.get("cpu") == "true", gate.get("gpu") == "true"

    docs_only = not cpu and gate.get("docs") == "true"
    cpu_plan = leg_plan(runner, repo, work, "cpu", "--variant", DOCS_VARIANT, *(["--docs-only"] if docs_only else []))
    stage(2, f"CPU slice (the py{DOCS_VARIANT} job): pytest -m \"{cpu_plan.get('markers') or '-'}\" (suite.yml, leg cpu)")
    if cpu or cpu_plan.get("run") == "docs":
        cpu_result = pytest_stage(runner, repo, work, "cpu-pytest", cpu_plan["markers"], {},
                                  docs=cpu_plan.get("run") == "docs")
    else:
        print(f"    {DIM}skipped: the gate says the CPU suite is not needed{RESET}")
        cpu_result = StageResult("cpu-pytest", "skipped", "not needed")
    report.stages.append(cpu_result)

    gpu_env = {"TINYML_FAKE_GPUS": SIMULATED_GPUS, "PYTHONPATH": "src"}
    gpu_markers = leg_plan(runner, repo, work, "gpu")["markers"]
    stage(3, f"GPU slice: -m \"{gpu_markers}\" (suite.yml, leg gpu) in {GPU_SHARDS} shards "
             f"(suite-report shard; simulated runners, {SIMULATED_GPUS} GPUs each)")
    if gpu:
        gpu_result = gpu_shards_stage(runner, repo, work, gpu_env)
    else:
        print(f"    {DIM}skipped: the gate says the GPU suite is not needed{RESET}")
        gpu_result = StageResult("gpu-pytest", "skipped", "not needed")
    report.stages.append(gpu_result)

    stage(4, "Workload smokes: smoke-runner --tier pr")
    if gpu:
        code, seconds = runner.run(
            [runner.tool("smoke-runner"), "--tier", "pr", "--gpus", SIMULATED_GPUS,
             "--report-dir", str(work / "smoke-reports")],
            cwd=repo, env_extra=gpu_env, summary=summary, outputs=work / "smoke-output")
        smoke_result = StageResult("smokes", "success" if code == 0 else "failure",
                                   "every pr-tier smoke passed" if code == 0 else f"smoke-runner exit code {code}",
                                   seconds)
    else:
        print(f"    {DIM}skipped: the gate says the GPU suite is not needed{RESET}")
        smoke_result = StageResult("smokes", "skipped", "not needed")
    report.stages.append(smoke_result)

    stage(5, "Required checks: matrix-aggregator")
    job_result = {"docs": "success"}.get(cpu_result.result, cpu_result.result)
    checks = {
        "CPU tests": ({"changes": report.gate, "tests": {"result": job_result, "outputs": {}}},
                      ["--gated", "tests=cpu|docs"]),  # the template's: the docs tests run on cpu or docs
        "GPU tests": ({"changes": report.gate,
                       "gpu-tests": {"result": gpu_result.result, "outputs": {}},
                       "workload-regression": {"result": smoke_result.result, "outputs": {}}},
                      ["--gated", "gpu-tests=gpu", "--gated", "workload-regression=gpu"]),
    }
    for name, (needs, gated) in checks.items():
        print(f"    {BOLD}{name}{RESET}")
        code, _ = runner.run([runner.tool("matrix-aggregator"), "--gate-job", "changes", *gated, "--title", name],
                             cwd=repo, env_extra={"GATEKIT_NEEDS": json.dumps(needs)}, summary=summary,
                             outputs=work / f"{name.split()[0].lower()}-check-output")
        report.checks[name] = code
    return report


# ---- the test selections (suite-report) ----------------------------------------------

UNMARKED_TEST = '''"""The hardware work queue on a GPU. It asks for the gpu_device fixture, but nobody marked
it `gpu`: the CPU leg selects it, and there it skips."""

from tinyml.stream.queue import WorkQueue


def test_hw_queue_eval(gpu_device):
    q = WorkQueue()
    q.put(gpu_device)
    q.close()
    assert q.get() == gpu_device
'''

OUTSIDE_GPU_FILTER_TEST = '''"""The work queue on a GPU, marked `gpu`, but in a file the gpu filter does not list:
a pull request that changes only this file would not run the GPU jobs."""

import pytest

from tinyml.stream.queue import WorkQueue


@pytest.mark.gpu
def test_queue_feeds_the_device(gpu_device):
    q = WorkQueue()
    q.put(gpu_device)
    assert q.get() == gpu_device
'''

GROWTH_TESTS = '''"""Softmax over 120 row lengths: one change, 120 new tests."""

import math

import pytest

from tinyml import tensor


@pytest.mark.parametrize("n", range(1, 121))
def test_softmax_row_sums_to_one(n):
    row = [float(i % 7) for i in range(n)]
    assert math.isclose(sum(tensor.softmax([row])[0]), 1.0)
'''

# The growth key as the CPU workflow's py3.13 job would have it.
GROWTH_KEY = ["--workflow", "cpu-tests.yml", "--job", "tests", "--python-version", DOCS_VARIANT]
NO_GPU = {"TINYML_FAKE_GPUS": "0"}  # a CPU runner: no GPU, whatever this machine has


@dataclass
class SelectionCheck:
    name: str
    ok: bool
    detail: str


def commit_change(repo: Path, branch: str, path: str, text: str, message: str) -> None:
    git(repo, "switch", "-q", "-c", branch, "main")
    (repo / path).write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def cpu_leg_report(runner: Runner, repo: Path, work: Path, name: str) -> Path:
    """The CPU leg as a pull request runs it, with its JUnit report."""
    markers = leg_plan(runner, repo, work, "cpu")["markers"]
    junit = work / f"{name}-junit.xml"
    runner.run([sys.executable, "-m", "pytest", "-q", "--tb=line", "-p", "no:cacheprovider", "-m", markers,
                f"--junitxml={junit}"], cwd=repo, env_extra=NO_GPU)
    return junit


def selections_part(runner: Runner, out: Path) -> list:
    print(f"\n{BOLD}━━ Test selections: suite-report on {SELECTION}{RESET}")
    work = out / "selections"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    summary = work / "summary.md"
    summary.write_text("# Test selections (suite-report)\n\n")
    repo = work / "demo-project"
    shutil.copytree(DEMO, repo, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache", "*.egg-info"))
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "demo project")
    tool = runner.tool("suite-report")
    checks = []

    stage(1, "Partition proof: in every context, every test is in exactly one leg")
    code, _ = runner.run([tool, "partition", "--selection", SELECTION, "--python", sys.executable], cwd=repo,
                         summary=summary, outputs=work / "partition-output")
    checks.append(SelectionCheck("partition proof", code == 0, "every test in one leg" if code == 0 else f"exit {code}"))

    stage(2, "Unmarked GPU test: a change adds tests/test_queue_eval.py without the `gpu` marker")
    commit_change(repo, "change/unmarked", "tests/test_queue_eval.py", UNMARKED_TEST, "Evaluate the queue on a GPU")
    junit = cpu_leg_report(runner, repo, work, "unmarked-cpu")
    code, _ = runner.run([tool, "unmarked", "--selection", SELECTION, "--leg", "cpu", "--report", str(junit)],
                         cwd=repo, summary=summary, outputs=work / "unmarked-output")
    found = read_outputs(work / "unmarked-output").get("unmarked", "")
    checks.append(SelectionCheck("unmarked GPU test caught", code == 1 and found == "1",
                                 f"{found} test named, exit {code}"))

    stage(3, "Growth: a push to main stores the baseline; a change adds 120 tests")
    git(repo, "switch", "-q", "main")
    junit = cpu_leg_report(runner, repo, work, "main-cpu")
    baseline = work / "suite-baseline.json"
    runner.run([tool, "growth", "--selection", SELECTION, "--leg", "cpu", "--context", "main", "--report", str(junit),
                "--write-baseline", str(baseline), *GROWTH_KEY], cwd=repo, outputs=work / "main-growth-output")
    commit_change(repo, "change/growth", "tests/test_softmax_shapes.py", GROWTH_TESTS, "Softmax over many shapes")
    junit = cpu_leg_report(runner, repo, work, "growth-cpu")
    code, _ = runner.run([tool, "growth", "--selection", SELECTION, "--leg", "cpu", "--context", "pr", "--report",
                          str(junit), "--baseline", str(baseline), *GROWTH_KEY], cwd=repo, summary=summary,
                         outputs=work / "growth-output")
    growth = read_outputs(work / "growth-output")
    checks.append(SelectionCheck("growth notice", code == 0 and growth.get("notice") == "true",
                                 f"{growth.get('new-tests', '?')} new tests, notice={growth.get('notice', '?')}"))

    stage(4, "GPU filter: every file the GPU leg reads is on the gpu filter; then a GPU test outside it")
    gpu_filter = [tool, "gpu-filter", "--selection", SELECTION, "--rules", RULES, "--python", sys.executable,
                  "--path-classifier", runner.tool("path-classifier")]
    git(repo, "switch", "-q", "main")
    code, _ = runner.run(gpu_filter, cwd=repo, summary=summary, outputs=work / "gpu-filter-main-output")
    checks.append(SelectionCheck("gpu filter covers the GPU leg", code == 0, f"exit {code}"))
    commit_change(repo, "change/gpu-outside", "tests/test_queue_gpu.py", OUTSIDE_GPU_FILTER_TEST,
                  "Feed the device from the queue")
    code, _ = runner.run(gpu_filter, cwd=repo, summary=summary, outputs=work / "gpu-filter-output")
    escapes = read_outputs(work / "gpu-filter-output").get("escapes", "")
    checks.append(SelectionCheck("GPU test outside the gpu filter caught", code == 1 and escapes == "1",
                                 f"{escapes} file named, exit {code}"))
    return checks


# ---- the verdict ---------------------------------------------------------------------

def mark(result: str) -> str:
    return {"success": f"{GREEN}passed{RESET}", "docs": f"{GREEN}docs passed{RESET}", "failure": f"{RED}FAILED{RESET}",
            "skipped": f"{DIM}skipped{RESET}"}.get(result, result)


def check_mark(code: int) -> str:
    return {0: f"{GREEN}✔ pass{RESET}", 1: f"{RED}✘ fail{RESET}"}.get(code, f"{YELLOW}? error {code}{RESET}")


def visible_len(text: str) -> int:
    for code in (BOLD, DIM, GREEN, RED, YELLOW, RESET):
        if code:
            text = text.replace(code, "")
    return len(text)


def print_table(header, rows) -> None:
    widths = [max(visible_len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    def line(cells):
        return "  " + "  ".join(str(c) + " " * (w - visible_len(str(c))) for c, w in zip(cells, widths))
    print(line([f"{BOLD}{h}{RESET}" for h in header]))
    print("  " + "  ".join("─" * w for w in widths))
    for row in rows:
        print(line(row))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", type=Path, default=ROOT / "build" / "release" / "tools",
                        help="folder with the built tools (default build/release/tools)")
    parser.add_argument("--out", type=Path, default=ROOT / "demo-output", help="scratch and report folder")
    parser.add_argument("--only", choices=[s.key for s in SCENARIOS], help="run one prepared change")
    opts = parser.parse_args()
    bin_dir, out = opts.bin.resolve(), opts.out.resolve()
    if not (DEMO / RULES).exists():
        raise SystemExit(f"demo: {DEMO / RULES} is missing")
    out.mkdir(parents=True, exist_ok=True)
    runner = Runner(bin_dir, out)

    print(f"{BOLD}gatekit demo{RESET}: gating prepared changes of {DEMO.relative_to(ROOT)}")
    print(f"{DIM}filters: {RULES} · tools: {bin_dir} · reports: {out}{RESET}")
    reports = []
    for index, scenario in enumerate(SCENARIOS, 1):
        if opts.only and scenario.key != opts.only:
            continue
        reports.append(run_scenario(index, scenario, runner, out))
    selection_checks = [] if opts.only else selections_part(runner, out)
    # Further parts, each in its own module beside this file: run_part(bin_dir, out) returns
    # checks (name, ok, detail) and writes OUT/<part>/summary.md.
    part_checks = [] if opts.only else [(title, run_part(bin_dir, out)) for title, run_part in PARTS]
    # The last stage: what the gates saved and spent over the runs above.
    if not opts.only:
        part_checks.append(("CI report (ci-report)", demo_ci_report.run_part(bin_dir, out, reports)))

    print(f"\n{BOLD}━━ Verdict{RESET}\n")
    rows, as_expected = [], True
    for r in reports:
        needed = [k for k, v in r.gate["outputs"].items() if v == "true"] or ["nothing"]
        stage_results = {s.name: s.result for s in r.stages}
        for check, expected in r.scenario.expect.items():
            got = {0: "pass", 1: "fail"}.get(r.checks.get(check, -1), "error")
            as_expected &= got == expected
        rows.append([r.scenario.key, ", ".join(needed), mark(stage_results["cpu-pytest"]),
                     mark(stage_results["gpu-pytest"]), mark(stage_results["smokes"]),
                     check_mark(r.checks["CPU tests"]), check_mark(r.checks["GPU tests"])])
    print_table(["change", "gate: needs", "CPU pytest", "GPU pytest", "smokes", "CPU tests ✱", "GPU tests ✱"], rows)
    if selection_checks:
        print()
        print_table(["selection check", "expected", "came out"],
                    [[c.name, "yes", (f"{GREEN}✔ {c.detail}{RESET}" if c.ok else f"{RED}✘ {c.detail}{RESET}")]
                     for c in selection_checks])
        as_expected &= all(c.ok for c in selection_checks)
    for title, checks in part_checks:
        print()
        print_table([title, "expected", "came out"],
                    [[c.name, "yes", (f"{GREEN}✔ {c.detail}{RESET}" if c.ok else f"{RED}✘ {c.detail}{RESET}")]
                     for c in checks])
        as_expected &= all(c.ok for c in checks)
    print(f"\n  ✱ the two required checks branch protection asks for (docs/admin/required-checks.md).")
    print("  A skipped suite still reports its required check: it passes because the gate said the")
    print("  change does not need it, never because nothing ran.")

    with open(out / "summary.md", "w") as combined:
        for r in reports:
            combined.write((out / r.scenario.key / "summary.md").read_text() + "\n")
        if selection_checks:
            combined.write((out / "selections" / "summary.md").read_text() + "\n")
        for name in PART_FOLDERS if not opts.only else []:
            if (out / name / "summary.md").exists():
                combined.write((out / name / "summary.md").read_text() + "\n")
    print(f"\n  Job summaries the tools wrote: {out / 'summary.md'}")
    if as_expected:
        print(f"  {GREEN}Every required check came out as expected for its change"
              f"{' and every selection check as expected' if selection_checks else ''}.{RESET}")
        return 0
    print(f"  {RED}Some check did not come out as the demo expects (see above).{RESET}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
