"""A full disk under a tool: a small tmpfs mounted over a test's folder in a mount namespace
of the tool's own (`unshare --mount --map-root-user`: no root needed where user namespaces
are allowed, and the mount never outlives the tool). The folder's files are copied onto the
tmpfs, the rest of it is filled up (all but `free_pages` pages of 4 KiB), the tool runs there,
and once it has ended what it left on the disk is copied back into the folder, for the test
to read. Where no tmpfs can be mounted (no unshare, user namespaces refused, not Linux) the
test is skipped, saying why. Used by the tests of every writer that replaces a state file
(flaky-tracker's journal and merged report, ci-report's cache)."""
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

SIZE = "1m"

# $1 the folder, $2 the pages to leave free, then the tool's argv.
_SCRIPT = r"""
set -eu
disk=$1 free=$2
shift 2
saved=$(mktemp -d)
trap 'rm -rf "$saved"' EXIT
cp -a "$disk"/. "$saved"/
mount -t tmpfs -o size=__SIZE__,mode=0755 gatekit-full-disk "$disk"
cp -a "$saved"/. "$disk"/
dd if=/dev/zero of="$disk/.filler" bs=4096 2>/dev/null || true
if [ "$free" -gt 0 ]; then truncate -s "-$((free * 4096))" "$disk/.filler"; fi
set +e
"$@"
code=$?
set -e
rm -f "$disk/.filler"
rm -rf "$saved" && mkdir "$saved"
cp -a "$disk"/. "$saved"/
umount "$disk"
find "$disk" -mindepth 1 -delete
cp -a "$saved"/. "$disk"/
exit $code
""".replace("__SIZE__", SIZE)


def _why_not() -> str | None:
    """None when a tmpfs can be mounted here, else why not."""
    if shutil.which("unshare") is None:
        return "no `unshare` here (util-linux, Linux only): a full disk needs a tmpfs in a mount namespace"
    with tempfile.TemporaryDirectory() as probe:
        done = subprocess.run(["unshare", "--mount", "--map-root-user", "sh", "-c",
                               'mount -t tmpfs -o size=4k gatekit-probe "$1"', "_", probe],
                              capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        return ("cannot mount a tmpfs in a mount namespace here (user namespaces refused?): " +
                (done.stderr.strip() or f"exit {done.returncode}"))
    return None


def run_on_full_disk(disk: Path, argv, free_pages: int = 0, **run_kwargs) -> subprocess.CompletedProcess:
    """Runs `argv` with a full tmpfs mounted at `disk` (an existing folder, its files copied
    onto it); returns the completed process, with `disk` holding what the tool left there."""
    why = _why_not()
    if why is not None:
        pytest.skip(why)
    return subprocess.run(["unshare", "--mount", "--map-root-user", "bash", "-c", _SCRIPT, "full-disk", str(disk),
                           str(free_pages), *map(str, argv)], **run_kwargs)
