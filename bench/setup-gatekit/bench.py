#!/usr/bin/env python3
"""setup-gatekit benchmark (not a test: it prints figures, it asserts nothing).

How long actions/setup-gatekit's script takes until the tools run, on each of its paths,
against a release server on 127.0.0.1 (a Python HTTP server in this process):

1. cold, from the release archive: probe + install with no cache hit: download, SHA-256
   check against checksums.txt, unpack, every tool run once (target: 5 s or less);
2. warm, from the Actions cache: probe + install with a cache hit (the restored folder is
   already there; actions/cache's own restore is GitHub's and not part of this figure);
3. warm, from PATH: the probe alone finds the tools (targets for both: 1 s or less);
4. the source build (the fallback), only with --source-build: configure and build the
   release preset's tools in a fresh folder (minutes).
Anchor, measured in the same run: the irreducible part of the cold path done directly
(curl the archive, sha256sum it, tar -x it); the cold figure is also printed as a ratio to it.

The archive is packed from a release build with scripts/package-release.sh --no-build.
The action runs from a copy of the source tree (the script builds and versions the tree it
lives in), with the copy's checksums.txt listing the archive.

Usage: bench/setup-gatekit/bench.py [--build-dir build/release] [--runs 5] [--source-build]
"""
import argparse
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2]


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(root: Path):
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(QuietHandler, directory=str(root)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


def pack(build_dir: Path, out: Path) -> Path:
    host_glibc = os.confstr("CS_GNU_LIBC_VERSION").split()[1]
    done = subprocess.run(["bash", str(SOURCE / "scripts" / "package-release.sh"), "--build-dir", str(build_dir),
                           "--no-build", "--out", str(out), "--glibc-baseline", host_glibc],
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"package-release.sh failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    [archive] = out.glob("gatekit-*.tar.gz")
    return archive


def source_copy(dest: Path, archive: Path | None) -> Path:
    """A copy of what the action reads of its source tree; checksums.txt lists `archive`."""
    for name in ["CMakeLists.txt", "CMakePresets.json", "README.md", "LICENSE"]:
        shutil.copy(SOURCE / name, dest / name)
    for folder in ["cmake", "tools", "actions", "docs", "workflows"]:
        shutil.copytree(SOURCE / folder, dest / folder)
    lines = ["repository bench/gatekit"]
    if archive is not None:
        name = archive.name[len("gatekit-"):-len(".tar.gz")]
        version, platform = name.split("-linux-")
        lines.append(f"{version} linux-{platform} {hashlib.sha256(archive.read_bytes()).hexdigest()}")
    (dest / "actions" / "setup-gatekit" / "checksums.txt").write_text("\n".join(lines) + "\n")
    return dest / "actions" / "setup-gatekit"


def action(action_dir: Path, work: Path, mode: str, **env) -> float:
    files = {k: work / k.lower() for k in ["GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STEP_SUMMARY"]}
    for f in files.values():
        f.write_text("")
    full = {"PATH": os.environ["PATH"], "HOME": str(work), "RUNNER_TEMP": str(work), "GITHUB_ACTION_PATH": str(action_dir),
            "RUNNER_ENVIRONMENT": "github-hosted", **{k: str(v) for k, v in files.items()}, **env}
    start = time.perf_counter()
    done = subprocess.run(["bash", str(action_dir / "setup-gatekit.sh"), mode], env=full, cwd=work,
                          capture_output=True, text=True)
    took = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"setup-gatekit.sh {mode} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return took


def median_of(runs: int, once) -> float:
    return statistics.median(once() for _ in range(runs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default=str(SOURCE / "build" / "release"),
                        help="a built release (or bench) preset folder (default build/release)")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure; the median is printed")
    parser.add_argument("--source-build", action="store_true", help="also time the fallback source build")
    args = parser.parse_args()
    build_dir = Path(args.build_dir).resolve()
    if not (build_dir / "CMakeCache.txt").is_file():
        sys.exit(f"{build_dir} is not a configured build: cmake --preset release && cmake --build --preset release")

    with tempfile.TemporaryDirectory(prefix="gatekit-bench-") as tmp_name:
        tmp = Path(tmp_name)
        archive = pack(build_dir, tmp / "dist")
        version = archive.name.split("-")[1]
        (tmp / "srv" / f"v{version}").mkdir(parents=True)
        shutil.copy(archive, tmp / "srv" / f"v{version}" / archive.name)
        httpd, url = serve(tmp / "srv")
        (tmp / "src").mkdir()
        action_dir = source_copy(tmp / "src", archive)
        size = archive.stat().st_size / 2**20
        print(f"gatekit {version}: {archive.name}, {size:.1f} MiB, served from {url}; median of {args.runs} runs")

        def anchor() -> float:
            work = Path(tempfile.mkdtemp(dir=tmp))
            start = time.perf_counter()
            subprocess.run(["curl", "-fsS", "-o", str(work / "a.tar.gz"), f"{url}/v{version}/{archive.name}"], check=True)
            subprocess.run(["sha256sum", str(work / "a.tar.gz")], check=True, capture_output=True)
            subprocess.run(["tar", "-xzf", str(work / "a.tar.gz"), "-C", str(work)], check=True)
            return time.perf_counter() - start

        def cold() -> float:
            work = Path(tempfile.mkdtemp(dir=tmp))
            env = {"GATEKIT_RELEASE_URL": url}
            return action(action_dir, work, "probe", **env) + action(action_dir, work, "install", **env)

        bin_dir = Path(tempfile.mkdtemp(dir=tmp))
        action(action_dir, bin_dir, "probe", GATEKIT_RELEASE_URL=url)
        action(action_dir, bin_dir, "install", GATEKIT_RELEASE_URL=url)
        tools = bin_dir / "gatekit-build" / "bin"

        def warm_cache() -> float:
            env = {"GATEKIT_CACHE_HIT": "true", "INPUT_BUILD_DIR": str(bin_dir / "gatekit-build")}
            return action(action_dir, bin_dir, "probe", **env) + action(action_dir, bin_dir, "install", **env)

        def warm_path() -> float:
            path = f"{tools}{os.pathsep}{os.environ['PATH']}"
            return action(action_dir, bin_dir, "probe", PATH=path)

        figures = [("anchor: curl + sha256sum + tar -x", median_of(args.runs, anchor), None),
                   ("cold: from the release archive", median_of(args.runs, cold), 5.0),
                   ("warm: from the Actions cache", median_of(args.runs, warm_cache), 1.0),
                   ("warm: from PATH", median_of(args.runs, warm_path), 1.0)]
        httpd.shutdown()
        if args.source_build:
            (tmp / "unlisted").mkdir()
            plain = source_copy(tmp / "unlisted", None)
            work = Path(tempfile.mkdtemp(dir=tmp))
            took = action(plain, work, "probe", INPUT_INSTALL_DEPS="false") + \
                action(plain, work, "install", INPUT_INSTALL_DEPS="false")
            figures.append((f"source build ({os.cpu_count()} CPUs, packages installed)", took, None))

    anchor_time = figures[0][1]
    print(f"{'path':<48} {'seconds':>8} {'target':>8} {'x anchor':>9}")
    for label, took, target in figures:
        goal = f"<= {target:g}" if target else "-"
        verdict = "" if target is None else ("  ok" if took <= target else "  OVER")
        print(f"{label:<48} {took:8.3f} {goal:>8} {took / anchor_time:9.1f}{verdict}")
    if not args.source_build:
        print("source build: not measured (--source-build; several minutes)")


if __name__ == "__main__":
    main()
