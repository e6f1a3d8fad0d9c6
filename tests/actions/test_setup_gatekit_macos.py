"""setup-gatekit on a macOS runner: the sandbox of test_setup_gatekit.py with a fake `uname`
that answers Darwin / arm64, a fake `sw_vers`, and a fake `brew` that logs its argv (`brew list`
says nothing is installed unless a test says otherwise). macOS has no sha256sum: it is taken off
the sandbox PATH, so the script must use shasum. The order is the one on Linux: PATH, cache,
the release archive (gatekit-<version>-darwin-arm64.tar.gz), then a build whose packages come
from Homebrew.
"""
import pytest

from release_archives import ReleaseServer, download_path, list_release, version_scripts
from release_archives import archive as release_archive
from test_setup_gatekit import TOOLS, VERSION, Sandbox, executable

MAC = "darwin-arm64"
FAKE_UNAME = '#!/bin/sh\ncase "$1" in -m) echo arm64 ;; *) echo Darwin ;; esac\n'
FAKE_BREW = ('#!/bin/sh\necho "brew $*" >> "$FAKE_LOG"\n'
             '[ "$1" = list ] && [ -z "${FAKE_BREW_INSTALLED:-}" ] && exit 1\nexit 0\n')
BREW_INSTALL = "brew install --quiet cmake ninja boost yaml-cpp cli11"


class MacSandbox(Sandbox):
    def __init__(self, root):
        super().__init__(root)
        executable(self.fakes / "uname", FAKE_UNAME)
        executable(self.fakes / "sw_vers", "#!/bin/sh\necho 15.5\n")
        executable(self.fakes / "brew", FAKE_BREW)
        (self.system / "sha256sum").unlink()
        (self.system / "shasum").symlink_to("/usr/bin/shasum")
        (self.fakes / "apt-get").unlink()
        (self.fakes / "dpkg-query").unlink()
        self.os_release.unlink()  # macOS has no /etc/os-release

    def brew_calls(self):
        return [c for c in self.commands() if c.startswith("brew ") and not c.startswith("brew list ")]


@pytest.fixture
def box(tmp_path):
    return MacSandbox(tmp_path)


@pytest.fixture
def server():
    s = ReleaseServer()
    yield s
    s.close()


def test_the_darwin_archive_is_downloaded_and_checked_with_shasum(box, server):
    body = release_archive(VERSION, version_scripts(TOOLS, VERSION), platform=MAC)
    server.files[download_path(VERSION, MAC)] = body
    list_release(box.action / "checksums.txt", VERSION, body, platform=MAC)
    probe, install = box.action_run(GITHUB_SERVER_URL=server.url)
    assert probe.returncode == 0, probe.stdout + probe.stderr
    assert install.returncode == 0, install.stdout + install.stderr
    assert server.requests == [download_path(VERSION, MAC)]
    assert box.outputs()["source"] == "release"
    assert box.commands() == []  # no brew, no cmake
    assert f"downloading {server.url}{download_path(VERSION, MAC)} (at most 60s)" in install.stdout


def test_a_tampered_darwin_archive_stops_the_job(box, server):
    body = release_archive(VERSION, version_scripts(TOOLS, VERSION), platform=MAC)
    server.files[download_path(VERSION, MAC)] = body
    listed = list_release(box.action / "checksums.txt", VERSION, body, listed="ab" * 32, platform=MAC)
    _, install = box.action_run(GITHUB_SERVER_URL=server.url)
    assert install.returncode == 3
    assert f"but checksums.txt of this action says {listed} for gatekit {VERSION} on {MAC}: not using it" in install.stderr


def test_a_linux_archive_is_never_taken_on_macos(box, server):
    body = release_archive(VERSION, version_scripts(TOOLS, VERSION), platform="linux-arm64")
    server.files[download_path(VERSION, "linux-arm64")] = body
    list_release(box.action / "checksums.txt", VERSION, body, platform="linux-arm64")
    _, install = box.action_run(GITHUB_SERVER_URL=server.url)
    assert install.returncode == 0, install.stdout + install.stderr
    assert server.requests == []
    assert f"checksums.txt lists no release archive of gatekit {VERSION} for {MAC}: building from source" in install.stdout
    assert box.outputs()["source"] == "built"


def test_without_an_archive_the_build_gets_its_packages_from_homebrew(box):
    probe, install = box.action_run()
    assert probe.returncode == 0, probe.stdout + probe.stderr
    assert "OS: macOS 15.5 (ID=macos, VERSION_ID=15.5)" in probe.stdout
    assert box.outputs()["key"].startswith("gatekit-built-darwin-arm64-macos-15.5-")
    assert install.returncode == 0, install.stdout + install.stderr
    assert box.brew_calls() == [BREW_INSTALL]
    assert "installing: cmake ninja boost yaml-cpp cli11" in install.stdout
    assert [c.split()[0] for c in box.commands() if not c.startswith("brew")] == ["cmake", "cmake"]
    assert box.outputs()["source"] == "built"


def test_installed_homebrew_packages_are_not_installed_again(box):
    _, install = box.action_run(FAKE_BREW_INSTALLED="1")
    assert install.returncode == 0, install.stdout + install.stderr
    assert box.brew_calls() == []
    assert "all build dependencies are installed" in install.stdout


def test_a_self_hosted_mac_is_not_changed_without_install_deps(box):
    _, install = box.action_run(RUNNER_ENVIRONMENT="self-hosted")
    assert install.returncode == 2
    assert install.stderr == (
        f"::error title=setup-gatekit::cannot set up gatekit {VERSION}: no usable release archive (checksums.txt "
        f"lists no release archive of gatekit {VERSION} for {MAC}), and building it needs Homebrew packages this "
        "runner lacks: cmake ninja boost yaml-cpp cli11. setup-gatekit installs packages on its own only on "
        "GitHub-hosted runners (this one is self-hosted). Set install-deps: true to install them with brew, or "
        "install them on the runner, or put the gatekit tools on PATH (cmake --install)\n")
    assert box.brew_calls() == []


def test_a_mac_without_homebrew_is_refused(box):
    (box.fakes / "brew").unlink()
    _, install = box.action_run()
    assert install.returncode == 2
    assert install.stderr == (
        "::error title=setup-gatekit::cannot install the build dependencies on macOS 15.5 (ID=macos, "
        "VERSION_ID=15.5): brew is not on PATH (on macOS setup-gatekit installs them with Homebrew, "
        "https://brew.sh). Either install cmake ninja boost yaml-cpp cli11 yourself and set install-deps: false, "
        "or put the gatekit tools on PATH\n")

