"""scripts/release-assets.sh: the publishing job's check of what this run built, and SHA256SUMS.

The folder is what release.yml's publish job downloads from its build jobs: one archive per
platform and one wheel per wheel platform. Only exactly that set is published, and SHA256SUMS
is made from those files, in the job that uploads them. The archives here are bytes standing
for the other platforms' archives (the real Linux one: tests/actions/test_release_end_to_end.py).
"""
import hashlib
import os
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
SCRIPT = SOURCE / "scripts" / "release-assets.sh"
ARCHIVES = ["gatekit-1.2.3-linux-x86_64.tar.gz", "gatekit-1.2.3-linux-aarch64.tar.gz",
            "gatekit-1.2.3-darwin-arm64.tar.gz", "gatekit-1.2.3-darwin-x86_64.tar.gz"]
WHEELS = ["gatekit-1.2.3-py3-none-manylinux_2_34_x86_64.whl", "gatekit-1.2.3-py3-none-manylinux_2_34_aarch64.whl",
          "gatekit-1.2.3-py3-none-macosx_11_0_arm64.whl"]


@pytest.fixture
def dist(tmp_path):
    folder = tmp_path / "dist"
    folder.mkdir()
    for name in ARCHIVES + WHEELS:
        (folder / name).write_bytes(os.urandom(64) + name.encode())
    return folder


def run(dist: Path, *args: str):
    summary = dist.parent / "summary.md"
    summary.write_text("")
    done = subprocess.run(["bash", str(SCRIPT), *args], cwd=dist, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "GITHUB_STEP_SUMMARY": str(summary)})
    done.summary = summary.read_text()
    return done


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_sha256sums_covers_exactly_the_assets_and_the_summary_gives_the_archives_lines(dist):
    done = run(dist, "1.2.3")
    assert done.returncode == 0, done.stderr
    want = "".join(f"{sha(dist / name)}  {name}\n" for name in sorted(ARCHIVES + WHEELS))
    assert (dist / "SHA256SUMS").read_text() == want
    assert done.stdout == want
    lines = [f"1.2.3 {name.removeprefix('gatekit-1.2.3-').removesuffix('.tar.gz')} {sha(dist / name)}"
             for name in sorted(ARCHIVES)]
    assert done.summary == ("### Release archives\n\nLines for actions/setup-gatekit/checksums.txt (docs/releasing.md, "
                            "step 4):\n\n```\n" + "\n".join(lines) + "\n```\n")


@pytest.mark.parametrize("extra", ["gatekit-1.2.3-linux-riscv64.tar.gz", "install.sh", ".hidden",
                                   "gatekit-1.2.4-linux-x86_64.tar.gz"])
def test_a_file_no_build_job_makes_is_refused(dist, extra):
    (dist / extra).write_text("x")
    done = run(dist, "1.2.3")
    assert done.returncode == 2
    assert done.stderr == (f"release-assets: not an asset of gatekit 1.2.3: {extra} (only the build jobs' archives "
                           "and wheels are published)\n")
    assert not (dist / "SHA256SUMS").exists()


def test_a_missing_archive_is_named(dist):
    (dist / ARCHIVES[2]).unlink()
    done = run(dist, "1.2.3")
    assert done.returncode == 2
    assert done.stderr == f"release-assets: missing: {ARCHIVES[2]}: a build job of release.yml did not produce them\n"


def test_wheels_are_one_per_platform(dist):
    (dist / "gatekit-1.2.3-py3-none-macosx_15_0_arm64.whl").write_text("x")
    done = run(dist, "1.2.3")
    assert done.returncode == 2
    assert done.stderr == ("release-assets: more than one wheel gatekit-1.2.3-py3-none-macosx_*_arm64.whl: "
                           "gatekit-1.2.3-py3-none-macosx_11_0_arm64.whl gatekit-1.2.3-py3-none-macosx_15_0_arm64.whl\n")
    (dist / WHEELS[0]).unlink()
    (dist / "gatekit-1.2.3-py3-none-macosx_15_0_arm64.whl").unlink()
    done = run(dist, "1.2.3")
    assert done.stderr == ("release-assets: no wheel gatekit-1.2.3-py3-none-manylinux_2_34_x86_64.whl: a build job of "
                           "release.yml made none\n")


@pytest.mark.parametrize("args", [[], ["1.2"], ["v1.2.3"], ["1.2.3", "x"]])
def test_a_bad_version_exits_2(dist, args):
    done = run(dist, *args)
    assert done.returncode == 2
    assert done.stderr.startswith("release-assets: ")
