"""A release, end to end on this machine: the archive, the checksums, the install from it.

What docs/releasing.md says a release does, in its order, with the real parts: the release
workflow's packing step (scripts/package-release.sh on the build under test: the real tools,
stripped, in a reproducible tar.gz), its "SHA256SUMS and the checksums.txt lines" step (its
own script, taken from .github/workflows/release.yml, run in the publish job's folder of
downloaded assets: this machine's real archive, and bytes standing for the other platforms'
archives and the wheels, which only their own runners build), the lines recorded in setup-gatekit's
checksums.txt, and then setup-gatekit at that commit installing from the archive, served by
a loopback release server, on a runner without apt, sudo or a compiler. The installed tools
are run and report the release's version.
"""
import hashlib
import os
import re
import subprocess
from pathlib import Path

import yaml

from release_archives import ARCH, ReleaseServer
from test_setup_gatekit import UBUNTU, Sandbox

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BUILD = Path(os.environ["GATEKIT_BUILD_DIR"]).resolve()
VERSION = re.search(r"project\(gatekit VERSION ([0-9.]+)", (SOURCE / "CMakeLists.txt").read_text()).group(1)
TOOLS = sorted(p.parent.name for p in SOURCE.glob("tools/*/CMakeLists.txt") if p.parent.name != "core")
HOST_GLIBC = os.confstr("CS_GNU_LIBC_VERSION").split()[1]
NAME = f"gatekit-{VERSION}-linux-{ARCH}"


def release_step(name: str) -> str:
    """The `run:` script of the publish job's step `name` in release.yml."""
    doc = yaml.safe_load((SOURCE / ".github" / "workflows" / "release.yml").read_text())
    return next(s["run"] for s in doc["jobs"]["publish"]["steps"] if s.get("name") == name)


def pack(dist: Path) -> subprocess.CompletedProcess:
    """release.yml's packing step, on the build under test (no rebuild; this host's glibc)."""
    return subprocess.run(["bash", SOURCE / "scripts" / "package-release.sh", "--build-dir", BUILD, "--no-build",
                           "--out", dist, "--tag", f"v{VERSION}", "--glibc-baseline", HOST_GLIBC],
                          capture_output=True, text=True, timeout=600)


OTHER_ASSETS = [*(f"gatekit-{VERSION}-{p}.tar.gz" for p in
                   ["linux-x86_64", "linux-aarch64", "darwin-arm64", "darwin-x86_64"] if p != f"linux-{ARCH}"),
                *(f"gatekit-{VERSION}-py3-none-{t}.whl" for t in
                  ["manylinux_2_34_x86_64", "manylinux_2_34_aarch64", "macosx_11_0_arm64"])]


def checksum_lines(dist: Path, tmp: Path) -> list[str]:
    """release.yml's summary step, run as the workflow runs it (in the checkout's dist/, with
    the other build jobs' assets beside this one); the lines it gives for checksums.txt."""
    checkout = tmp / "checkout"
    checkout.mkdir()
    (checkout / "scripts").symlink_to(SOURCE / "scripts")
    assets = checkout / "dist"
    assets.mkdir()
    (assets / f"{NAME}.tar.gz").write_bytes((dist / f"{NAME}.tar.gz").read_bytes())
    for name in OTHER_ASSETS:
        (assets / name).write_bytes(name.encode())
    summary = tmp / "summary.md"
    done = subprocess.run(["bash", "-e", "-c", release_step("SHA256SUMS and the checksums.txt lines")], cwd=assets,
                          env={**os.environ, "GITHUB_STEP_SUMMARY": str(summary), "VERSION": VERSION},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return re.search(r"```\n(.*?)```", summary.read_text(), re.DOTALL).group(1).splitlines()


def test_a_pinned_commit_installs_the_release_it_lists(tmp_path):
    dist = tmp_path / "dist"
    packed = pack(dist)
    assert packed.returncode == 0, packed.stdout + packed.stderr
    archive = dist / f"{NAME}.tar.gz"
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    lines = [line for line in checksum_lines(dist, tmp_path) if f" linux-{ARCH} " in line]
    assert lines == [f"{VERSION} linux-{ARCH} {digest}"]
    assert packed.stdout.splitlines()[-1] == lines[0]  # package-release.sh prints the same line

    # The release's commit: its checksums.txt lists the lines (docs/releasing.md, step 3).
    box = Sandbox(tmp_path / "runner")
    (box.src / "CMakeLists.txt").write_text(f"project(gatekit VERSION {VERSION} LANGUAGES CXX)\n")
    for tool in TOOLS:
        (box.src / "tools" / tool).mkdir(parents=True, exist_ok=True)
        (box.src / "tools" / tool / "CMakeLists.txt").write_text(f"gatekit_tool({tool})\n")
    shipped = (SOURCE / "actions" / "setup-gatekit" / "checksums.txt").read_text()
    assert "\nrepository gatekit/gatekit\n" in shipped
    (box.action / "checksums.txt").write_text(shipped.rstrip("\n") + "\n" + "\n".join(lines) + "\n")

    # A self-hosted runner without apt, sudo or a compiler: only the archive can work.
    box.os_release.write_text(UBUNTU)
    box.without_apt()
    (box.fakes / "cmake").unlink()
    (box.fakes / "sudo").unlink()
    server = ReleaseServer()
    try:
        url_path = f"/gatekit/gatekit/releases/download/v{VERSION}/{archive.name}"
        server.files[url_path] = archive.read_bytes()
        probe, install = box.action_run(GITHUB_SERVER_URL=server.url, RUNNER_ENVIRONMENT="self-hosted")
    finally:
        server.close()
    assert probe.returncode == 0, probe.stdout + probe.stderr
    assert install.returncode == 0, install.stdout + install.stderr
    assert server.requests == [url_path]
    assert box.commands() == []  # no apt, no build
    assert box.outputs()["source"] == "release" and box.outputs()["version"] == VERSION
    bin_dir = box.temp / "gatekit-build" / "bin"
    assert sorted(p.name for p in bin_dir.iterdir()) == TOOLS
    for tool in TOOLS:
        done = subprocess.run([bin_dir / tool, "--version"], capture_output=True, text=True, timeout=30)
        assert done.stdout == f"{tool} (gatekit) {VERSION}\n", done.stderr


def test_without_the_lines_the_same_commit_does_not_download(tmp_path):
    """Before the release is recorded, setup-gatekit never takes the archive (it builds)."""
    dist = tmp_path / "dist"
    assert pack(dist).returncode == 0
    box = Sandbox(tmp_path / "runner")
    (box.src / "CMakeLists.txt").write_text(f"project(gatekit VERSION {VERSION} LANGUAGES CXX)\n")
    (box.action / "checksums.txt").write_text((SOURCE / "actions" / "setup-gatekit" / "checksums.txt").read_text())
    server = ReleaseServer()
    try:
        server.files[f"/gatekit/gatekit/releases/download/v{VERSION}/{NAME}.tar.gz"] = \
            (dist / f"{NAME}.tar.gz").read_bytes()
        box.action_run(GITHUB_SERVER_URL=server.url)
    finally:
        server.close()
    assert server.requests == []
    assert box.outputs().get("source") != "release"
