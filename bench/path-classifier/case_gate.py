"""The path gate against the shell gate it replaces: a bash `case` deny list over the changed
paths (case-gate.sh, the gate of the project gatekit started from), and path-classifier with
the same deny list as a `mode: deny` filter. The change touches only files on the list (a
documentation change, where the shell loop cannot stop early), so both read every path; the
decision must be the same (not relevant). Target: the path gate is no slower than the shell
gate (ratio >= 1)."""
from __future__ import annotations

import random
from pathlib import Path

import sys
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import Context, Figure, clean_env, failed, measure, run_ms, versus  # noqa: E402

HERE = Path(__file__).resolve().parent
BENCH = "path gate"

# The case patterns of case-gate.sh in the github dialect (`*` of a shell case crosses '/').
DENY = ["docs/**", "**/*.md", "**/*.rst", "**/*.txt", "LICENSE", ".github/ISSUE_TEMPLATE/**", ".github/CODEOWNERS",
        "mkdocs.yml", "examples/*/README*", "examples/*/**/README*", "notebooks/**", "**/*.ipynb", "**/*.png",
        "**/*.svg", "**/*.jpg", ".gitignore", ".editorconfig", "CITATION.cff", "benchmarks/results/**"]


def make_change(tmp: Path, n_paths: int) -> tuple[Path, Path]:
    rng = random.Random(11)
    paths = []
    for k in range(n_paths):
        kind = k % 5
        if kind == 0:
            paths.append(f"docs/section{rng.randrange(40)}/page_{k}.md")
        elif kind == 1:
            paths.append(f"src/pkg{rng.randrange(30)}/notes_{k}.md")
        elif kind == 2:
            paths.append(f"notebooks/tour_{k}.ipynb")
        elif kind == 3:
            paths.append(f"assets/img{rng.randrange(9)}/figure_{k}.png")
        else:
            paths.append(f"benchmarks/results/run_{k}.txt")
    changes = tmp / "case-changes.txt"
    changes.write_text("\n".join(paths) + "\n")
    rules = tmp / "case-rules.yml"
    rules.write_text("filters:\n  cpu:\n    mode: deny\n    paths:\n" + "".join(f"      - '{p}'\n" for p in DENY))
    return changes, rules


def figures(ctx: Context) -> list[Figure]:
    n_paths = 300 if ctx.quick else 3000
    changes, rules = make_change(ctx.tmp, n_paths)
    tool = ctx.tool("path-classifier")
    out = ctx.tmp / "case-out"
    env = clean_env(GITHUB_OUTPUT=str(out))
    name = f"docs-only change of {n_paths} paths vs a bash `case` deny list"
    print(f"  {name}", flush=True)

    def ours() -> float:
        out.write_text("")
        return run_ms([tool, "--rules", rules, "--files", changes], env=env)

    def shell() -> float:
        with open(changes) as stdin:
            import subprocess, time
            start = time.perf_counter()
            done = subprocess.run(["bash", str(HERE / "case-gate.sh")], stdin=stdin, capture_output=True, text=True)
            took = (time.perf_counter() - start) * 1000
        if done.stdout.strip() != "relevant=false":
            raise RuntimeError(f"case-gate.sh decided {done.stdout.strip()!r} on a documentation change")
        return took

    ours_sample, shell_sample = measure(ours, ctx.runs), measure(shell, ctx.runs)
    decided = dict(line.split("=", 1) for line in out.read_text().splitlines() if "=" in line and "<<" not in line)
    if decided.get("cpu") != "false":
        return [failed(BENCH, name, f"path-classifier decided cpu={decided.get('cpu')!r}, the shell gate false")]
    return [versus(BENCH, name, ours_sample, shell_sample, "bash case", 1.0)]
