"""setup-gatekit's download path, against a local release server.

The sandbox of test_setup_gatekit.py (fake cmake, apt-get, dpkg-query and sudo that log every
call) runs the action's two script steps; a Python HTTP server on 127.0.0.1 plays GitHub's
release downloads (GITHUB_SERVER_URL/OWNER/gatekit/releases/download/v<version>/<archive>).
Archives are real tar.gz files holding gatekit-<version>-linux-<arch>/bin/<tool> scripts that
report a version; the action's checksums.txt is written per test. Nothing leaves the machine:
the server is loopback only and the sandbox PATH has curl but no proxy settings.
"""
import hashlib
import io
import re
import tarfile
import time
from pathlib import Path

import pytest
import yaml

from release_archives import ARCH, ReleaseServer, archive_name, download_path, list_release, version_scripts
from release_archives import archive as release_archive
from test_setup_gatekit import (ACTION, COMMON, DEBIAN, DEBIAN_13, UBUNTU, UBUNTU_22, UBUNTU_26, VERSION, TOOLS,
                                Sandbox, executable, look_alike)

ARCHIVE = archive_name(VERSION)
PATH = download_path(VERSION)


def archive(version=VERSION, tools=TOOLS) -> bytes:
    """A release archive of VERSION whose tool scripts report `version`."""
    return release_archive(VERSION, version_scripts(tools, version))


@pytest.fixture
def server():
    s = ReleaseServer()
    yield s
    s.close()


@pytest.fixture
def box(tmp_path):
    return Sandbox(tmp_path)


def publish(box, server, body=None, listed=None):
    """Serves an archive and lists its SHA-256 (or `listed`) in the action's checksums.txt."""
    body = archive() if body is None else body
    server.files[PATH] = body
    return list_release(box.action / "checksums.txt", VERSION, body, listed)


def hosted(server, **env):
    return {"GITHUB_SERVER_URL": server.url, **env}


def bin_dir(box):
    return box.temp / "gatekit-build" / "bin"


RUNNERS = {  # the supported runners, as far as the script can tell them apart
    "ubuntu-22.04": (UBUNTU_22, {}),
    "ubuntu-24.04": (UBUNTU, {}),
    "ubuntu-26.04": (UBUNTU_26, {}),
    "debian-12": (DEBIAN, {}),
    "debian-13": (DEBIAN_13, {}),
    "container-ubuntu-22.04": (UBUNTU_22, {"container": True}),  # root, no sudo
    "self-hosted-no-sudo": (UBUNTU, {"self_hosted": True}),      # uid 1000, no sudo
}


@pytest.mark.parametrize("runner", sorted(RUNNERS))
def test_the_release_archive_needs_no_apt_no_sudo_and_no_compiler(box, server, runner):
    release, kind = RUNNERS[runner]
    box.os_release.write_text(release)
    box.without_apt()
    (box.fakes / "cmake").unlink()  # no compiler either: any build attempt fails
    env = {}
    if kind:
        (box.fakes / "sudo").unlink()
    if kind.get("self_hosted"):
        executable(box.fakes / "id", "#!/bin/sh\necho 1000\n")
        env["RUNNER_ENVIRONMENT"] = "self-hosted"
    publish(box, server)
    probe, install = box.action_run(**hosted(server, **env))
    assert probe.returncode == 0, probe.stdout + probe.stderr
    assert install.returncode == 0, install.stdout + install.stderr
    assert server.requests == [PATH]
    assert box.commands() == []
    assert sorted(p.name for p in bin_dir(box).iterdir()) == TOOLS
    assert box.files["path"].read_text() == f"{bin_dir(box)}\n"
    assert box.outputs()["source"] == "release" and box.outputs()["version"] == VERSION
    assert f"downloading {server.url}{PATH} (at most 60s)" in install.stdout
    assert "::warning" not in install.stdout and install.stderr == ""
    assert "| release |" in box.files["summary"].read_text()


def test_a_tampered_archive_is_never_unpacked_nor_run(box, server):
    listed = publish(box, server)
    server.files[PATH] = archive(version="6.6.6")  # same names, other bytes
    _, install = box.action_run(**hosted(server))
    assert install.returncode == 3
    got = hashlib.sha256(server.files[PATH]).hexdigest()
    assert install.stderr == (
        f"::error title=setup-gatekit::{server.url}{PATH} has SHA-256 {got}, but checksums.txt of this action says "
        f"{listed} for gatekit {VERSION} on linux-{ARCH}: not using it. The archive was changed after the release, "
        "or the action's checksums.txt is wrong\n")
    assert not bin_dir(box).exists()
    assert box.commands() == []  # no build behind its back either
    assert box.files["path"].read_text() == "" and box.files["env"].read_text() == ""
    assert list(box.temp.glob("gatekit-release.*")) == []  # the download is gone too


def test_a_missing_archive_falls_back_to_the_build(box, server):
    publish(box, server)
    del server.files[PATH]
    _, install = box.action_run(**hosted(server))
    assert install.returncode == 0, install.stdout + install.stderr
    assert server.requests == [PATH]
    [warning] = [line for line in install.stdout.splitlines() if line.startswith("::warning")]
    assert warning.startswith(f"::warning title=setup-gatekit::{ARCHIVE} could not be downloaded: curl: (22) ")
    assert "404" in warning
    assert warning.endswith(". Building gatekit from source instead (slower; see docs/actions/setup-gatekit.md)")
    assert [c.split()[0] for c in box.commands()] == ["apt-get", "apt-get", "cmake", "cmake"]
    assert box.outputs()["source"] == "built"
    assert f"Built from source: {ARCHIVE} could not be downloaded" in box.files["summary"].read_text()


def test_a_slow_server_is_cut_off_by_the_timeout_and_the_tools_are_built(box, server):
    publish(box, server)
    server.slow.add(PATH)
    start = time.monotonic()
    _, install = box.action_run(**hosted(server, INPUT_DOWNLOAD_TIMEOUT="2"))
    took = time.monotonic() - start
    assert install.returncode == 0, install.stdout + install.stderr
    assert (f"::warning title=setup-gatekit::{ARCHIVE} could not be downloaded: the download did not finish within "
            "2 s (input download-timeout). Building gatekit from source instead") in install.stdout
    assert took < 20  # bounded: the server would stall for 30 s
    assert box.outputs()["source"] == "built"
    assert [c.split()[0] for c in box.commands()] == ["apt-get", "apt-get", "cmake", "cmake"]


def test_a_slow_server_on_a_self_hosted_runner_fails_with_both_reasons(box, server):
    publish(box, server)
    server.slow.add(PATH)
    _, install = box.action_run(**hosted(server, INPUT_DOWNLOAD_TIMEOUT="1", RUNNER_ENVIRONMENT="self-hosted"))
    assert install.returncode == 2
    assert install.stderr.startswith(
        f"::error title=setup-gatekit::cannot set up gatekit {VERSION}: no usable release archive ({ARCHIVE} could "
        "not be downloaded: the download did not finish within 1 s (input download-timeout)), and building it needs "
        "packages this runner lacks: ")
    assert box.commands() == [] and box.files["path"].read_text() == ""


def test_an_unlisted_version_is_built_without_asking_the_server(box, server):
    publish(box, server)
    text = (box.action / "checksums.txt").read_text().replace(f"{VERSION} linux", "9.9.9 linux")
    (box.action / "checksums.txt").write_text(text)
    _, install = box.action_run(**hosted(server))
    assert install.returncode == 0, install.stdout + install.stderr
    assert server.requests == []
    assert (f"checksums.txt lists no release archive of gatekit {VERSION} for linux-{ARCH}: building from source"
            in install.stdout)
    assert "::warning" not in install.stdout
    assert box.outputs()["source"] == "built"


def test_release_tools_that_report_another_version_are_replaced_by_a_build(box, server):
    publish(box, server, body=archive(version="1.2.3"))
    _, install = box.action_run(**hosted(server))
    assert install.returncode == 0, install.stdout + install.stderr
    assert (f"::warning title=setup-gatekit::the tools of {ARCHIVE} do not run here: {bin_dir(box)} holds gatekit "
            f"1.2.3, this source is {VERSION}. Building gatekit from source instead") in install.stdout
    assert box.outputs()["source"] == "built"


def test_an_archive_without_the_bin_folder_exits_3(box, server):
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:gz") as tar:
        info = tarfile.TarInfo("other/file")
        tar.addfile(info, io.BytesIO(b""))
    publish(box, server, body=data.getvalue())
    _, install = box.action_run(**hosted(server))
    assert install.returncode == 3
    assert install.stderr == (f"::error title=setup-gatekit::{ARCHIVE} matches its checksum but holds no "
                              f"gatekit-{VERSION}-linux-{ARCH}/bin/ folder tar can unpack\n")
    assert box.commands() == []


def test_without_curl_or_wget_the_tools_are_built(box, server):
    publish(box, server)
    (box.system / "curl").unlink()
    _, install = box.action_run(**hosted(server))
    assert install.returncode == 0, install.stdout + install.stderr
    assert server.requests == []
    assert (f"::warning title=setup-gatekit::{ARCHIVE} could not be downloaded: neither curl nor wget is on PATH. "
            "Building gatekit from source instead") in install.stdout
    assert box.outputs()["source"] == "built"


def test_the_test_only_release_url_replaces_the_server_and_repository(box, server):
    publish(box, server)
    server.files["/mirror/v%s/%s" % (VERSION, ARCHIVE)] = server.files.pop(PATH)
    _, install = box.action_run(GATEKIT_RELEASE_URL=f"{server.url}/mirror", GITHUB_SERVER_URL="http://127.0.0.1:9")
    assert install.returncode == 0, install.stdout + install.stderr
    assert server.requests == [f"/mirror/v{VERSION}/{ARCHIVE}"]
    assert box.outputs()["source"] == "release"


def test_the_listed_release_is_the_one_the_version_names(box, server):
    """Only this version's line counts: a line for another version with this archive's sum is ignored."""
    digest = publish(box, server)
    (box.action / "checksums.txt").write_text(f"repository OWNER/gatekit\n0.0.1 linux-{ARCH} {digest}\n")
    _, install = box.action_run(**hosted(server))
    assert install.returncode == 0, install.stdout + install.stderr
    assert server.requests == [] and box.outputs()["source"] == "built"
    assert [c for c in box.commands() if c.startswith("apt-get install")] == [
        "apt-get install -y -qq --no-install-recommends " + " ".join(
            COMMON + ["libboost1.81-dev", "libboost-json1.81-dev", "libboost-filesystem1.81-dev"])]


# ---- the Actions cache holds the release archive, keyed by its SHA-256, checked after a restore ----

def archive_cache(box) -> Path:
    return box.temp / "gatekit-archive"


def test_the_cache_key_of_a_listed_release_is_its_checksum(box, server):
    digest = publish(box, server)
    probe, install = box.action_run(**hosted(server))
    assert install.returncode == 0, install.stdout + install.stderr
    outputs = box.outputs()
    assert outputs["key"] == f"gatekit-archive-linux-{ARCH}-{digest}"
    assert outputs["cache-path"] == str(archive_cache(box))
    # What the cache saves at the end of the job: the archive, as downloaded and checked.
    assert sorted(p.name for p in archive_cache(box).iterdir()) == [ARCHIVE]
    assert (archive_cache(box) / ARCHIVE).read_bytes() == server.files[PATH]


@pytest.mark.parametrize("verified", ["false", "true"])
def test_a_restored_archive_that_matches_needs_no_download(box, server, verified):
    publish(box, server)
    archive_cache(box).mkdir()
    (archive_cache(box) / ARCHIVE).write_bytes(server.files[PATH])
    _, install = box.action_run(**hosted(server, GATEKIT_CACHE_HIT="true", INPUT_VERIFIED=verified))
    assert install.returncode == 0, install.stdout + install.stderr
    assert server.requests == []
    assert box.outputs()["source"] == "cache" and box.outputs()["verified"] == verified
    assert "SHA-256 " in install.stdout and "matches checksums.txt" in install.stdout


def cache_step_path(outputs: dict) -> Path:
    """Where actions/cache restores the entry, as action.yml wires it: the probe's output its
    `path:` names."""
    steps = {s["id"]: s for s in yaml.safe_load((ACTION / "action.yml").read_text())["runs"]["steps"]}
    name = re.fullmatch(r"\$\{\{ steps\.probe\.outputs\.([a-z-]+) \}\}", steps["cache"]["with"]["path"]).group(1)
    return Path(outputs[name])


@pytest.mark.parametrize("verified", ["false", "true"])
def test_an_entry_another_job_saved_under_the_key_is_never_run(box, server, verified):
    """The key is computed from public facts, and a job of the same cache scope that runs a pull
    request's code (its tests, their dependencies) can save an entry under it first. Whatever it
    put there, tools or an archive, nothing of it runs: the archive is checked, found wrong,
    deleted, and the release downloaded."""
    publish(box, server)
    probe = box.run("probe", **hosted(server, INPUT_VERIFIED=verified))
    assert probe.returncode == 0, probe.stderr
    marker = box.root / "poisoned-tool-ran"
    entry = cache_step_path(box.outputs())
    look_alike(entry, marker)  # tools, in case the entry is the tools folder
    poisoned = release_archive(VERSION, {t: (entry / t).read_bytes() for t in TOOLS})
    (entry / ARCHIVE).write_bytes(poisoned)  # and an archive of them, in case it holds the archive
    install = box.run("install", **hosted(server, INPUT_VERIFIED=verified, GATEKIT_CACHE_HIT="true"))
    assert install.returncode == 0, install.stdout + install.stderr
    assert not marker.exists()
    got = hashlib.sha256(poisoned).hexdigest()
    listed = hashlib.sha256(server.files[PATH]).hexdigest()
    assert (f"::warning title=setup-gatekit::the {ARCHIVE} restored from the Actions cache has SHA-256 {got}, but "
            f"checksums.txt of this action says {listed}: not using it (the entry was not saved from the release; "
            f"delete it: gh cache delete gatekit-archive-linux-{ARCH}-{listed}). Downloading the release archive "
            "instead\n") in install.stdout
    assert server.requests == [PATH]
    assert box.outputs()["source"] == "release"
    bin_dir = Path(box.outputs()["bin"])
    for tool in TOOLS:  # the release's tools, not the entry's
        assert (bin_dir / tool).read_text() == f'#!/bin/sh\necho "{tool} (gatekit) {VERSION}"\n'


def test_verified_takes_the_checked_archive_never_the_tools_on_path(box, server):
    publish(box, server)
    marker = box.root / "look-alike-ran"
    early = box.root / "home-bin"
    look_alike(early, marker)
    box.path.insert(0, str(early))
    probe, install = box.action_run(**hosted(server, INPUT_VERIFIED="true"))
    assert probe.returncode == 0 and install.returncode == 0, install.stdout + install.stderr
    assert not marker.exists()
    [fresh] = box.temp.glob("gatekit-verified.*")
    assert box.outputs()["bin"] == str(fresh / "bin")
    assert (box.outputs()["source"], box.outputs()["verified"]) == ("release", "true")
    assert "Verified (`verified: true`)" in box.files["summary"].read_text()
