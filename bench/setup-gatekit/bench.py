#!/usr/bin/env python3
"""setup-gatekit benchmark (not a test: it prints figures, it asserts nothing).

How long actions/setup-gatekit's script takes until the tools run, on each of its paths,
against a release server on 127.0.0.1 (a Python HTTP server in this process):

1. cold, from the release archive: probe + install with no cache hit: download, SHA-256
   check against checksums.txt, unpack, every tool run once (target: 5 s or less);
2. warm, from the Actions cache: probe + install with a cache hit (the restored release
   archive is already there, and is checked against checksums.txt and unpacked again;
   actions/cache's own restore is GitHub's and not part of this figure);
3. warm, from PATH: the probe alone finds the tools (targets for both: 1 s or less);
Anchor, measured in the same run: the irreducible part of the cold path done directly
(curl the archive, sha256sum it, tar -x it); the cold figure is also printed as a ratio to it.

The archive is packed from a release build with scripts/package-release.sh --no-build.
The action runs from a copy of the source tree (the script builds and versions the tree it
lives in), with the copy's checksums.txt listing the archive.

4. with --source-build (alone only; minutes): the source build, the fallback, in a fresh
   folder with the packages installed.

Run with every other benchmark by scripts/bench.py (docs/benchmarks.md); alone:
  python3 bench/setup-gatekit/bench.py --build-dir build/bench [--quick]
"""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import Context, Figure, at_most, failed, measure  # noqa: E402

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
        raise RuntimeError(f"package-release.sh failed ({done.returncode}):\n{done.stdout}{done.stderr}")
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
        raise RuntimeError(f"setup-gatekit.sh {mode} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return took


BENCH = "setup-gatekit"
SOURCE_BUILD = False  # --source-build, when run alone


def figures(ctx: Context) -> list[Figure]:
    """The three paths of the action against the anchor (curl + sha256sum + tar -x of the
    same archive from the same server), with the targets of docs/actions/setup-gatekit.md."""
    build_dir = ctx.build_dir
    if not (build_dir / "CMakeCache.txt").is_file():
        return [failed(BENCH, "setup paths", f"{build_dir} is not a configured build")]
    tmp = ctx.tmp / "setup-gatekit"
    tmp.mkdir()
    print("  packing the build into a release archive", flush=True)
    archive = pack(build_dir, tmp / "dist")
    version = archive.name.split("-")[1]
    (tmp / "srv" / f"v{version}").mkdir(parents=True)
    shutil.copy(archive, tmp / "srv" / f"v{version}" / archive.name)
    httpd, url = serve(tmp / "srv")
    try:
        (tmp / "src").mkdir()
        action_dir = source_copy(tmp / "src", archive)
        size = archive.stat().st_size / 2**20
        print(f"  {archive.name} ({size:.1f} MiB) from {url}: cold, warm from the cache, warm from PATH", flush=True)

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
            return action(action_dir, bin_dir, "probe", PATH=f"{tools}{os.pathsep}{os.environ['PATH']}")

        runs = 1 if ctx.quick else 5
        base = measure(anchor, runs)
        rows = [at_most(BENCH, f"cold: from the release archive ({size:.1f} MiB)", measure(cold, runs), 5.0, unit="s",
                        anchor=base, anchor_name="curl+sha256sum+tar")]
        rows.append(at_most(BENCH, "warm: from the Actions cache", measure(warm_cache, runs), 1.0, unit="s"))
        rows.append(at_most(BENCH, "warm: from PATH", measure(warm_path, runs), 1.0, unit="s"))
        if SOURCE_BUILD:
            (tmp / "unlisted").mkdir()
            plain = source_copy(tmp / "unlisted", None)
            work = Path(tempfile.mkdtemp(dir=tmp))
            print(f"  the source build ({os.cpu_count()} CPUs; minutes)", flush=True)
            took = action(plain, work, "probe", INPUT_INSTALL_DEPS="false") + \
                action(plain, work, "install", INPUT_INSTALL_DEPS="false")
            rows.append(Figure(BENCH, "source build (packages installed)", "s", took, runs=1))
        return rows
    finally:
        httpd.shutdown()


if __name__ == "__main__":
    from common import main_for
    if "--source-build" in sys.argv:
        sys.argv.remove("--source-build")
        SOURCE_BUILD = True
    raise SystemExit(main_for(figures))
