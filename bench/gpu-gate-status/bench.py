#!/usr/bin/env python3
"""gpu-gate status benchmark (figures only; it asserts nothing).

A repository with 1,000 commits and 10,000 result refs (results of ten or eleven machines for
each of the first 950 commits' trees, packed like a clone that fetched them), whose HEAD sits on 50
docs-only commits: `gpu-gate status` walks them and finds the inherited result. Measured:

1. the whole process, `gpu-gate status --json` (target: at most 100 ms), beside the anchor,
   a naive per-ref loop that reads each result ref's message with its own `git log -1`
   (what a script without gatekit's batching does; one git process per ref);
2. the git processes gpu-gate starts (target: a handful, one per kind of query, whatever the
   number of refs), counted through a `git` wrapper on PATH, against the loop's.

Run with every other benchmark by scripts/bench.py (docs/benchmarks.md); alone:
  python3 bench/gpu-gate-status/bench.py --build-dir build/bench [--quick]
"""
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import Context, Figure, Sample, at_most, clean_env, measure, run_ms  # noqa: E402

BENCH = "gpu-gate status"
MACHINES = 10
NOW = int(time.time())


def git(repo: Path, *args: str, stdin: str = None) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], input=stdin, capture_output=True, text=True,
                          check=True).stdout


def record_message(commit: str, tree: str, machine: str, when: int, config: str) -> str:
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(when))
    return (f"gpu-gate: pass in 4m 05s (2 passed, 0 failed, 0 skipped, 0 errors)\n\n"
            "format: gatekit-gpu-gate/2\nverdict: pass\nduration-ms: 245000\npassed: 2\nfailed: 0\nskipped: 0\n"
            f"errors: 0\ncommit: {commit}\ntree: {tree}\ngatekit: 0.1.0\ntime: {stamp}\nmachine: {machine}\n"
            "gpu-backend: cuda\ngpu-count: 1\ngpu: Bench GPU\nscope: gate: 2 test files, 8 workers\n"
            f"stress: not needed (no concurrency change)\nconfig: {config}\n")


def build(repo: Path, commits: int, docs_tail: int, tool: Path) -> int:
    """The history through fast-import, the records through one hash-object, the refs through
    one update-ref, then everything packed. Returns the number of result refs. The records
    carry the configuration digest the tool's `status --json` names for the repository."""
    git(repo.parent, "init", "-q", "-b", "main", repo.name)
    stream = []
    for i in range(commits):
        path = f"docs/page{i}.md" if i >= commits - docs_tail else f"src/mod{i % 50}.py"
        body = f"v{i}\n"
        stream += [f"commit refs/heads/main", f"mark :{i + 1}",
                   f"committer bench <bench@example.com> {NOW - (commits - i) * 60} +0000",
                   "data 4", f"c{i:03d}" if i < 1000 else "cXXX",
                   *([f"from :{i}"] if i else []),
                   f"M 100644 inline {path}", f"data {len(body)}", body.rstrip("\n")]
    subprocess.run(["git", "-C", str(repo), "fast-import", "--quiet"], input="\n".join(stream) + "\n", text=True, check=True)
    git(repo, "checkout", "-q", "main")
    config = json.loads(subprocess.run([str(tool), "status", "--json", "-C", str(repo)], env=clean_env(),
                                       capture_output=True, text=True, check=True).stdout)["config"]
    log = git(repo, "log", "--format=%H %T", "main").split("\n")
    pairs = [line.split() for line in log if line][::-1]  # oldest first
    objects = repo / "bench-records"
    objects.mkdir()
    files = []
    gated = pairs[: commits - docs_tail]
    for i in range(commits * MACHINES):  # every gated tree, by ten machines or more
        n = i % len(gated)
        commit, tree = gated[n]
        machine = f"machine{i // len(gated)}"
        when = NOW - 3600 - n
        f = objects / f"{i}"
        f.write_text(f"tree {tree}\nauthor gatekit gpu-gate <gpu-gate@gatekit.invalid> {when} +0000\n"
                     f"committer gatekit gpu-gate <gpu-gate@gatekit.invalid> {when} +0000\n\n"
                     + record_message(commit, tree, machine, when, config))
        files.append((f, tree, machine))
    ids = git(repo, "hash-object", "-t", "commit", "-w", "--stdin-paths", stdin="\n".join(str(f) for f, _, _ in files) + "\n").split()
    updates = "".join(f"create refs/gatekit-gate/{tree}/{machine} {oid}\n" for (_, tree, machine), oid in zip(files, ids))
    git(repo, "update-ref", "--stdin", stdin=updates)
    shutil.rmtree(objects)
    git(repo, "pack-refs", "--all")
    git(repo, "repack", "-adq")
    git(repo, "checkout", "-q", "main")
    return len(ids)


def git_wrapper(folder: Path, log: Path) -> dict:
    """PATH with a `git` that notes each start in `log`, then runs the real git."""
    folder.mkdir()
    real = shutil.which("git")
    wrapper = folder / "git"
    wrapper.write_text(f"#!/bin/sh\necho x >> '{log}'\nexec '{real}' \"$@\"\n")
    wrapper.chmod(0o755)
    return clean_env(PATH=f"{folder}:{os.environ.get('PATH', '')}")


def naive_loop(repo: Path) -> float:
    """The anchor: list the refs, then one `git log -1` per ref for its message."""
    start = time.perf_counter()
    refs = git(repo, "for-each-ref", "--format=%(refname)", "refs/gatekit-gate").split()
    for ref in refs:
        subprocess.run(["git", "-C", str(repo), "log", "-1", "--format=%B", ref], capture_output=True, check=True)
    return (time.perf_counter() - start) * 1000


def figures(ctx: Context) -> list[Figure]:
    commits, tail = (100, 5) if ctx.quick else (1000, 50)
    repo = ctx.tmp / "repo"
    print(f"[{BENCH}] building {commits} commits and their result refs ...", flush=True)
    tool = ctx.tool("gpu-gate")
    refs = build(repo, commits, tail, tool)
    args = [tool, "status", "--json", "-C", repo, "--machine", "bench"]
    env = clean_env()
    print(f"[{BENCH}] {refs} result refs; timing gpu-gate status ...", flush=True)
    ours = measure(lambda: run_ms(args, env=env), ctx.runs)
    print(f"[{BENCH}] timing the naive per-ref loop ...", flush=True)
    anchor = measure(lambda: naive_loop(repo), 1 if not ctx.quick else min(ctx.runs, 3))
    out = subprocess.run([str(a) for a in args], env=env, capture_output=True, text=True, check=True).stdout
    print(f"[{BENCH}] status: {out.strip()[:160]}", flush=True)
    log = ctx.tmp / "git-starts.log"
    subprocess.run([str(a) for a in args], env=git_wrapper(ctx.tmp / "bin", log), capture_output=True, check=True)
    starts = len(log.read_text().splitlines())
    time_fig = at_most(BENCH, f"whole process, {refs} result refs, {commits} commits", ours, 100.0, anchor=anchor,
                       anchor_name="per-ref git log loop")
    count_fig = Figure(BENCH, "git processes started", "", float(starts), float(refs + 1), "per-ref git log loop",
                       target="<= 8", met=starts <= 8, ratio=(refs + 1) / starts if starts else None, runs=1)
    return [time_fig, count_fig]


if __name__ == "__main__":
    from common import main_for
    raise SystemExit(main_for(figures))
