"""scripts/deps-from-source.sh: the libraries built from source for the macOS cross-builds.

Each test copies the script into a scratch tree, so its download cache (build/deps-src/) is
the test's own. A file in the cache is checked against the pinned SHA-256 before anything is
unpacked: a tampered one is refused and removed, with no network involved. The build itself
is proven by scripts/cross-macos.sh in scripts/test.sh.
"""
import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
SCRIPT = SOURCE / "scripts" / "deps-from-source.sh"
ORIG = "yaml-cpp_0.7.0+dfsg.orig.tar.xz"
PINNED = "dc63708605404e0b963e0ca3a9619d1c8270eda2839603e6fa0384e5e51e5312"


def tree(tmp_path: Path) -> Path:
    root = tmp_path / "tree"
    (root / "scripts").mkdir(parents=True)
    shutil.copy(SCRIPT, root / "scripts")
    return root


def run(root: Path, *args, **env):
    return subprocess.run(["bash", str(root / "scripts" / "deps-from-source.sh"), *args], capture_output=True,
                          text=True, timeout=120, env={**os.environ, **env})


def test_a_tampered_download_is_refused_removed_and_nothing_is_built(tmp_path):
    root = tree(tmp_path)
    cache = root / "build" / "deps-src"
    cache.mkdir(parents=True)
    (cache / ORIG).write_bytes(b"not the tarball Debian published\n")
    prefix = tmp_path / "prefix"
    done = run(root, "--prefix", str(prefix), "--cc", "cc", "--cxx", "c++")
    assert done.returncode == 1
    got = hashlib.sha256(b"not the tarball Debian published\n").hexdigest()
    assert done.stderr.endswith(f"deps-from-source.sh: {cache / ORIG}: SHA-256 is {got}, expected {PINNED}; removed it\n")
    assert not (cache / ORIG).exists()
    assert not (prefix / "lib").exists() and not (prefix / ".stamp").exists()


def test_an_unreachable_mirror_is_named(tmp_path):
    root = tree(tmp_path)
    prefix = tmp_path / "prefix"
    # Port 9 on loopback: nothing listens, the connection is refused at once.
    done = run(root, "--prefix", str(prefix), "--cc", "cc", "--cxx", "c++", GATEKIT_DEBIAN_MIRROR="http://127.0.0.1:9")
    assert done.returncode == 1
    assert (f"deps-from-source.sh: cannot download http://127.0.0.1:9/debian/pool/main/y/yaml-cpp/{ORIG}\n"
            in done.stderr)
    assert not (root / "build" / "deps-src" / ORIG).exists()
    assert not (root / "build" / "deps-src" / f"{ORIG}.part").exists()


USAGE = "usage: deps-from-source.sh --prefix DIR --cc CC --cxx CXX [-- EXTRA-CMAKE-ARGS...]\n"


@pytest.mark.parametrize("args, message", [
    ([], USAGE),
    (["--prefix", "p", "--cc", "cc"], USAGE),
    (["--prefix", "p", "--cc", "cc", "--cxx", "c++", "--what"], "deps-from-source.sh: unknown argument: --what\n"),
])
def test_usage_errors_exit_2(tmp_path, args, message):
    done = run(tree(tmp_path), *args)
    assert done.returncode == 2
    assert done.stderr == message
