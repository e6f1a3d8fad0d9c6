#!/usr/bin/env python3
"""gatekit's main job on the bundled demo project, stage by stage.

For each prepared change of examples/demo-project, in a scratch git clone:
  1. path gate        path-classifier decides which suites the change needs (git diff);
  2. CPU slice        pytest -m "not gpu and not rocm and not nightly", when the gate says cpu;
  3. GPU slice        pytest -m "gpu or rocm" on a simulated 2-GPU runner, when the gate says gpu;
  4. workload smokes  smoke-runner, pr tier, on the same simulated runner, when the gate says gpu;
  5. required checks  matrix-aggregator collapses the jobs into `CPU tests` and `GPU tests`.
A verdict table ends the run. Every tool's job summary is collected in OUT/summary.md.
Exit status: 0 when every required check came out as the demo expects, else 1.
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

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "examples" / "demo-project"
RULES = ".github/gatekit/filters.yml"  # inside the demo project
SIMULATED_GPUS = "2"

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


def read_github_output(path: Path) -> dict:
    values, lines, i = {}, path.read_text().splitlines() if path.exists() else [], 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            body = []
            i += 1
            while i < len(lines) and lines[i] != delimiter:
                body.append(lines[i])
                i += 1
            values[name] = "\n".join(body)
        elif "=" in line:
            name, value = line.split("=", 1)
            values[name] = value
        i += 1
    return values


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


def pytest_stage(runner: Runner, repo: Path, work: Path, name: str, marker: str, env_extra: dict) -> StageResult:
    junit = work / f"{name}-junit.xml"
    code, seconds = runner.run(
        [sys.executable, "-m", "pytest", "-q", "--tb=line", "-p", "no:cacheprovider", "-m", marker, f"--junitxml={junit}"],
        cwd=repo, env_extra=env_extra)
    if code == 0:
        return StageResult(name, "success", "pytest passed", seconds)
    if code == 5:
        return StageResult(name, "failure", "pytest collected no tests (zero work is a failure)", seconds)
    return StageResult(name, "failure", f"pytest exit code {code}", seconds)


def run_scenario(index: int, scenario: Scenario, runner: Runner, out: Path) -> ScenarioReport:
    report = ScenarioReport(scenario)
    work = out / scenario.key
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    summary = work / "summary.md"
    summary.write_text(f"# Change {index}: {scenario.title}\n\n")
    print(f"\n{BOLD}━━ Change {index}: {scenario.title} {RESET}{DIM}(branch change/{scenario.key}){RESET}")
    repo = make_repo(scenario, work)
    changed = subprocess.run(["git", "diff", "--name-status", "main...HEAD"], cwd=repo, text=True,
                             capture_output=True, check=True).stdout
    for line in changed.splitlines():
        print(f"    {DIM}{line}{RESET}")

    stage(1, "Path gate: which suites does this change need?")
    outputs = work / "gate-output"
    code, _ = runner.run([runner.tool("path-classifier"), "--rules", RULES, "--base", "main", "--head", "HEAD"],
                         cwd=repo, summary=summary, outputs=outputs)
    gate = read_github_output(outputs)
    report.gate = {"result": "success" if code == 0 else "failure",
                   "outputs": {k: gate.get(k, "") for k in ("cpu", "gpu", "docs")}}
    cpu, gpu = gate.get("cpu") == "true", gate.get("gpu") == "true"

    stage(2, "CPU slice: pytest -m \"not gpu and not rocm and not nightly\"")
    if cpu:
        cpu_result = pytest_stage(runner, repo, work, "cpu-pytest", "not gpu and not rocm and not nightly", {})
    else:
        print(f"    {DIM}skipped: the gate says the CPU suite is not needed{RESET}")
        cpu_result = StageResult("cpu-pytest", "skipped", "not needed")
    report.stages.append(cpu_result)

    gpu_env = {"TINYML_FAKE_GPUS": SIMULATED_GPUS, "PYTHONPATH": "src"}
    stage(3, f"GPU slice: pytest -m \"gpu or rocm\" (simulated runner, {SIMULATED_GPUS} GPUs)")
    if gpu:
        gpu_result = pytest_stage(runner, repo, work, "gpu-pytest", "gpu or rocm", gpu_env)
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
    checks = {
        "CPU tests": ({"changes": report.gate, "tests": {"result": cpu_result.result, "outputs": {}}},
                      ["--gated", "tests=cpu"]),
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


# ---- the verdict ---------------------------------------------------------------------

def mark(result: str) -> str:
    return {"success": f"{GREEN}passed{RESET}", "failure": f"{RED}FAILED{RESET}",
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
    print(f"\n  ✱ the two required checks branch protection asks for (docs/admin/required-checks.md).")
    print("  A skipped suite still reports its required check: it passes because the gate said the")
    print("  change does not need it, never because nothing ran.")

    with open(out / "summary.md", "w") as combined:
        for r in reports:
            combined.write((out / r.scenario.key / "summary.md").read_text() + "\n")
    print(f"\n  Job summaries the tools wrote: {out / 'summary.md'}")
    if as_expected:
        print(f"  {GREEN}Every required check came out as expected for its change.{RESET}")
        return 0
    print(f"  {RED}Some required check did not come out as the demo expects (see above).{RESET}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
