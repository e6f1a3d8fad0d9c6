#!/usr/bin/env python3
"""Path-gate benchmark: whole-process, cold classification of N changed paths (with
renames) against P patterns in 10 filters, by path-classifier and, side by side in the same
run, by the same decision made with picomatch 2.3.1 under node (the anchor). Prints the
median wall times, the ratio, and the cost at three sizes to show it grows at most
linearly with paths x patterns. Then the same at full size with `--list-files json`, where
every filter also lists the files it matches (each allow filter then matches some paths, so
nothing can stop early): target under 15 ms and at least 10x faster than picomatch making the
same decision and lists. Not a test: figures only.

  cmake --preset bench -B build/h-pc-bench && cmake --build build/h-pc-bench --target path-classifier
  python3 bench/path-classifier/run.py --tool build/h-pc-bench/tools/path-classifier/path-classifier
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXTS = ["py", "cu", "md", "txt", "yml", "json", "cpp", "h"]


def make_case(tmp: Path, n_paths: int, n_patterns: int, seed: int = 7, lists: bool = False):
    rng = random.Random(seed)
    dirs = [f"pkg{i}/mod{j}" for i in range(40) for j in range(8)]
    changes = []
    for k in range(n_paths):
        d = rng.choice(dirs)
        new = f"{d}/file_{k}.{rng.choice(EXTS)}"
        if k % 10 == 0:  # every tenth file is a rename
            changes.append(f"R100\t{rng.choice(dirs)}/old_{k}.py\t{new}")
        else:
            changes.append(f"M\t{new}")
    filters = {}
    per = n_patterns // 10
    for f in range(10):
        pats = []
        for p in range(per):
            kind = p % 5
            # Patterns that mean the same in both dialects and match none of the changes,
            # so every filter must look at every path (the expensive case).
            if kind == 0:
                pats.append(f"area{f}/sub{p}/**")
            elif kind == 1:
                pats.append(f"**/gen{f}_{p}/*.{rng.choice(EXTS)}")
            elif kind == 2:
                pats.append(f"pkg{p % 40}/mod{p % 8}/only_{f}_{p}.py")
            elif kind == 3:
                pats.append(f"tools{f}/*/cfg{p}.yml")
            else:
                pats.append(f"!area{f}/sub{p}/keep/**")
        mode = "deny" if f < 2 else "allow"
        if mode == "deny":
            pats.append("pkg*/**")  # the deny filters exclude everything: also a full scan
        elif lists:
            pats.insert(0, f"pkg{f}*/**")  # about a fortieth of the paths (pkg3, pkg30..39), to be listed
        if lists and mode == "deny":
            pats.append(f"!pkg{f}/mod{f}/**")  # ... and the deny filters leave one folder over
        filters[f"f{f}"] = {"mode": mode, "paths": pats}
    rules_yaml = "filters:\n" + "".join(
        f"  {name}:\n    mode: {spec['mode']}\n    paths:\n" + "".join(f"      - '{p}'\n" for p in spec["paths"])
        for name, spec in filters.items())
    (tmp / "rules.yml").write_text(rules_yaml)
    (tmp / "rules.json").write_text(json.dumps({"filters": filters}))
    (tmp / "changes.txt").write_text("\n".join(changes) + "\n")
    return sum(len(s["paths"]) for s in filters.values())


SPREAD = {}  # command name -> (min, max) of its last timed() call, for the report


def timed(cmd, env, runs):
    times, out = [], None
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(cmd, env=env, capture_output=True, text=True)
        times.append((time.perf_counter() - start) * 1000)
        if done.returncode != 0:
            raise SystemExit(f"{cmd[0]} failed ({done.returncode}): {done.stderr}")
        out = done.stdout
    SPREAD[Path(cmd[1] if cmd[0] == "node" else cmd[0]).name] = (min(times), max(times))
    return statistics.median(times), out


def spread(name):
    low, high = SPREAD[name]
    return f"(runs {low:.2f}..{high:.2f})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--runs", type=int, default=21)
    args = ap.parse_args()
    tool = str(Path(args.tool).resolve())
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        out_file = tmp / "out"
        env = {"PATH": os.environ["PATH"], "GITHUB_OUTPUT": str(out_file)}
        rows = []
        floor, _ = timed([tool, "--version"], env, args.runs)
        for n_paths, n_patterns in [(750, 125), (1500, 250), (3000, 500)]:
            patterns = make_case(tmp, n_paths, n_patterns)
            ours_cmd = [tool, "--rules", str(tmp / "rules.yml"), "--files", str(tmp / "changes.txt")]
            ours, _ = timed(ours_cmd, env, args.runs)
            rows.append((n_paths, patterns, ours))
        # Side by side at the full size: same rules, same changes, same decision.
        out_file.write_text("")
        ours, _ = timed(ours_cmd, env, args.runs)
        pm_cmd = ["node", str(HERE / "picomatch-decide.js"), str(tmp / "rules.json"), str(tmp / "changes.txt")]
        anchor, anchor_out = timed(pm_cmd, env, args.runs)
        spreads = (spread(Path(tool).name), spread("picomatch-decide.js"))
        out_file.write_text("")
        subprocess.run(ours_cmd, env=env, capture_output=True, check=True)
        ours_flags = json.loads(next(line.split("=", 1)[1] for line in out_file.read_text().splitlines()
                                     if line.startswith("filters=")))
        same = ours_flags == json.loads(anchor_out)
        # list-files: json at the full size, side by side.
        make_case(tmp, 3000, 500, lists=True)
        lists_cmd = ours_cmd + ["--list-files", "json"]
        out_file.write_text("")
        lists_ours, _ = timed(lists_cmd, env, args.runs)
        lists_anchor, lists_anchor_out = timed(pm_cmd + ["lists"], env, args.runs)
        out_file.write_text("")
        subprocess.run(lists_cmd, env=env, capture_output=True, check=True)
        lists_flags = json.loads(next(line.split("=", 1)[1] for line in out_file.read_text().splitlines()
                                      if line.startswith("filters=")))
        lists_same = lists_flags == json.loads(lists_anchor_out)
        listed = sum(v for k, v in lists_flags.items() if k.endswith("_count"))
    print("path-classifier benchmark (whole process, cold, median of %d runs)" % args.runs)
    if hasattr(os, "getloadavg"):
        # Other work on the machine inflates every figure; the ratio is measured side by side.
        print("load average at the end: %.2f (%d CPUs)" % (os.getloadavg()[0], os.cpu_count() or 0))
    print(f"process start floor (`--version`): {floor:.2f} ms")
    print(f"{'paths':>6} {'patterns':>9} {'path x pattern':>15} {'median ms':>10} {'above floor':>12} {'ns/pair':>8}")
    for n_paths, patterns, ms in rows:
        pairs = n_paths * 1.1 * patterns  # renames add their old name
        work = max(ms - floor, 0.0)
        print(f"{n_paths:>6} {patterns:>9} {int(pairs):>15} {ms:>10.2f} {work:>12.2f} {work * 1e6 / pairs:>8.2f}")
    print(f"\n3000 paths x {rows[-1][1]} patterns in 10 filters:")
    print(f"  path-classifier        {ours:8.2f} ms  (target: <= 10 ms)  {spreads[0]}")
    print(f"    of which process start {floor:6.2f} ms  (`path-classifier --version`: loader and shared libraries)")
    print(f"  picomatch under node   {anchor:8.2f} ms  (anchor, same decision)  {spreads[1]}")
    print(f"  ratio                  {anchor / ours:8.1f}x  (target: >= 10x)")
    print(f"  decisions identical:   {same}")
    print(f"\nthe same with --list-files json ({listed} files listed over 10 filters):")
    print(f"  path-classifier        {lists_ours:8.2f} ms  (target: < 15 ms)  {spread(Path(tool).name)}")
    print(f"  picomatch under node   {lists_anchor:8.2f} ms  (anchor, same decision and lists)  "
          f"{spread('picomatch-decide.js')}")
    print(f"  ratio                  {lists_anchor / lists_ours:8.1f}x  (target: >= 10x)")
    print(f"  decisions and lists identical: {lists_same}")
    return 0 if same and lists_same else 1


if __name__ == "__main__":
    raise SystemExit(main())
