"""scripts/install-deps.sh reads the one apt list (actions/lib/apt-packages.sh) that
setup-gatekit reads too, and asks apt for the right packages per release.

Each test copies the script and the list into a scratch tree and runs it with an os-release
file of its own and fake `apt-get`, `dpkg-query` (nothing installed), `sudo`, `npm`, `python3`
and `go` on a PATH that holds nothing else of the machine's but a few basic tools. The fake
apt-get "installs" golang-go by putting the fake go on PATH.
"""
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
# Debian 12's list as scripts/install-deps.sh held it before the list moved to one file: on
# this release the script must keep asking for exactly these.
DEBIAN_12_BEFORE = {"g++", "cmake", "ninja-build", "git", "pkg-config", "python3", "python3-pip", "nodejs",
                    "libboost1.81-dev", "libboost-json1.81-dev", "libboost-filesystem1.81-dev", "libyaml-cpp-dev",
                    "catch2", "libcli11-dev", "libcurl4-openssl-dev", "libexpat1-dev"}
# Added since: shellcheck everywhere; golang-go where apt's Go can build actionlint (not Debian 12);
# curl, xz-utils, patch and file for the libraries built from source and the macOS cross-builds;
# ruby for the Homebrew formula's syntax check; the default clang, libc++ and the sanitizer
# runtimes for the asan preset; GNU time for the benchmarks' peak memory.
DEBIAN_12 = DEBIAN_12_BEFORE | {"shellcheck", "curl", "xz-utils", "patch", "file", "ruby",
                                "clang", "libc++-dev", "libc++abi-dev", "libclang-rt-dev", "time"}
GENERIC = (DEBIAN_12 - {"libboost1.81-dev", "libboost-json1.81-dev", "libboost-filesystem1.81-dev"}) | {
    "libboost-dev", "libboost-json-dev", "libboost-filesystem-dev", "golang-go"}
RELEASES = {
    "debian-12": 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\n',
    "ubuntu-26.04": 'PRETTY_NAME="Ubuntu 26.04 LTS"\nID=ubuntu\nVERSION_ID="26.04"\n',
    "ubuntu-22.04": 'PRETTY_NAME="Ubuntu 22.04.5 LTS"\nID=ubuntu\nVERSION_ID="22.04"\n',
    "mint": 'PRETTY_NAME="Linux Mint 22.1"\nID=linuxmint\nVERSION_ID="22.1"\nID_LIKE="ubuntu debian"\n',
}
LOGGING = '#!/bin/sh\necho "$(basename "$0") $*" >> "$FAKE_LOG"\n'
FAKE_GO = '#!/bin/sh\necho "go $* GOBIN=$GOBIN GOTOOLCHAIN=$GOTOOLCHAIN" >> "$FAKE_LOG"\n'
# apt-get logs, and "installs" golang-go: the fake go appears next to it.
FAKE_APT = LOGGING + 'case " $* " in *" golang-go "*) cp "$(dirname "$0")/../go.fake" "$(dirname "$0")/go" ;; esac\n'
GO_INSTALL = "go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12 GOBIN={tree}/build/ci-tools/bin GOTOOLCHAIN=auto"
ACT_INSTALL = "go install github.com/nektos/act@v0.2.89 GOBIN={tree}/build/ci-tools/bin GOTOOLCHAIN=auto"
HELM_INSTALL = "go install helm.sh/helm/v3/cmd/helm@v3.22.0 GOBIN={tree}/build/ci-tools/bin GOTOOLCHAIN=auto"


def go_installs(commands, tree) -> list:
    """The `go install` commands, in order, with the scratch tree written as {tree}."""
    return [c.replace(str(tree), "{tree}") for c in commands if c.startswith("go install ")]


def executable(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def run(tmp_path: Path, release: str, go: bool = True, actionlint: str = "", act: str = "", args=(), fakes=None):
    """Runs the script; `go`: a Go is on PATH already; `actionlint`, `act`: the first line an
    actionlint or act in build/ci-tools/bin prints for --version ('' for none); `fakes`:
    {name: script} put on PATH besides (or instead of) the system's."""
    tree = tmp_path / "tree"
    (tree / "scripts").mkdir(parents=True)
    (tree / "actions" / "lib").mkdir(parents=True)
    shutil.copy(SOURCE / "scripts" / "install-deps.sh", tree / "scripts")
    shutil.copy(SOURCE / "actions" / "lib" / "apt-packages.sh", tree / "actions" / "lib")
    for name, version in (("actionlint", actionlint), ("act", act)):
        if version:
            (tree / "build" / "ci-tools" / "bin").mkdir(parents=True, exist_ok=True)
            executable(tree / "build" / "ci-tools" / "bin" / name, f"#!/bin/sh\necho '{version}'\necho built\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ["bash", "sh", "env", "sed", "head", "grep", "id", "dirname", "basename", "mkdir", "cp", "uname"]:
        (bin_dir / tool).symlink_to(shutil.which(tool))
    for fake in ["npm", "python3"]:
        executable(bin_dir / fake, LOGGING)
    executable(bin_dir / "apt-get", FAKE_APT)
    executable(tmp_path / "go.fake", FAKE_GO)
    if go:
        shutil.copy(tmp_path / "go.fake", bin_dir / "go")
    executable(bin_dir / "dpkg-query", "#!/bin/sh\nexit 1\n")
    executable(bin_dir / "sudo", '#!/bin/sh\nexec "$@"\n')
    for name, text in (fakes or {}).items():
        if (bin_dir / name).is_symlink():
            (bin_dir / name).unlink()
        executable(bin_dir / name, text)
    (tmp_path / "os-release").write_text(RELEASES[release])
    log = tmp_path / "log"
    log.write_text("")
    done = subprocess.run(["bash", str(tree / "scripts" / "install-deps.sh"), *args], capture_output=True, text=True,
                          timeout=60, env={"PATH": str(bin_dir), "HOME": str(tmp_path), "FAKE_LOG": str(log),
                                           "GATEKIT_OS_RELEASE": str(tmp_path / "os-release")})
    return done, log.read_text().splitlines()


def installed(commands) -> list:
    prefix = "apt-get install -y -qq --no-install-recommends "
    return [c[len(prefix):].split() for c in commands if c.startswith(prefix)]


def test_debian_12_asks_apt_for_the_same_packages_as_before_and_shellcheck(tmp_path):
    done, commands = run(tmp_path, "debian-12")
    assert done.returncode == 0, done.stdout + done.stderr
    [packages] = installed(commands)
    assert sorted(packages) == sorted(DEBIAN_12)
    assert commands[0] == "apt-get update -qq"
    assert commands[-5:] == ["npm ci --prefix tests/node --no-audit --no-fund --loglevel=error",
                             "python3 -m pip install --quiet --disable-pip-version-check -r tests/requirements.txt",
                             GO_INSTALL.format(tree=tmp_path / "tree"), ACT_INSTALL.format(tree=tmp_path / "tree"),
                             HELM_INSTALL.format(tree=tmp_path / "tree")]
    assert "warning" not in done.stderr


def test_ubuntu_26_04_asks_for_the_version_less_boost_packages_and_go(tmp_path):
    done, commands = run(tmp_path, "ubuntu-26.04", go=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert [sorted(p) for p in installed(commands)] == [sorted(GENERIC)]
    assert go_installs(commands, tmp_path / "tree") == [GO_INSTALL, ACT_INSTALL, HELM_INSTALL]
    assert "warning" not in done.stderr


def test_a_go_on_path_is_not_installed_again(tmp_path):
    done, commands = run(tmp_path, "ubuntu-26.04", go=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert [sorted(p) for p in installed(commands)] == [sorted(GENERIC - {"golang-go"})]


def test_debian_12_without_go_says_where_to_get_it(tmp_path):
    done, commands = run(tmp_path, "debian-12", go=False)
    assert done.returncode == 1
    assert done.stderr == ("==> actionlint: go is not on PATH. Install Go >= 1.21 (https://go.dev/dl/; Debian 12's "
                           "golang-go is 1.19, too old) and run this again\n")
    assert not any(c.startswith("go ") for c in commands)


def test_actionlint_of_the_right_version_is_not_built_again(tmp_path):
    done, commands = run(tmp_path, "debian-12", actionlint="v1.7.12")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "==> actionlint v1.7.12: present in build/ci-tools/bin" in done.stdout
    assert go_installs(commands, tmp_path / "tree") == [ACT_INSTALL, HELM_INSTALL]


def test_actionlint_of_another_version_is_replaced(tmp_path):
    done, commands = run(tmp_path, "debian-12", actionlint="v1.7.7")
    assert done.returncode == 0, done.stdout + done.stderr
    assert go_installs(commands, tmp_path / "tree") == [GO_INSTALL, ACT_INSTALL, HELM_INSTALL]


def test_act_of_the_right_version_is_not_built_again_and_another_is_replaced(tmp_path):
    done, commands = run(tmp_path / "same", "debian-12", actionlint="v1.7.12", act="act version 0.2.89")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "==> act v0.2.89: present in build/ci-tools/bin" in done.stdout
    assert go_installs(commands, tmp_path / "same" / "tree") == [HELM_INSTALL]
    done, commands = run(tmp_path / "old", "debian-12", actionlint="v1.7.12", act="act version 0.2.70")
    assert done.returncode == 0, done.stdout + done.stderr
    assert go_installs(commands, tmp_path / "old" / "tree") == [ACT_INSTALL, HELM_INSTALL]


def test_an_unlisted_release_is_tried_with_a_warning(tmp_path):
    done, commands = run(tmp_path, "mint", go=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert [sorted(p) for p in installed(commands)] == [sorted(GENERIC)]
    assert ("==> apt: warning: Linux Mint 22.1 (ID=linuxmint, VERSION_ID=22.1) is not one of Debian 12, Debian 13, "
            "Ubuntu 24.04, Ubuntu 26.04: trying the version-less package names\n") in done.stderr


def test_a_release_too_old_is_refused_before_apt(tmp_path):
    done, commands = run(tmp_path, "ubuntu-22.04")
    assert done.returncode == 2
    assert done.stderr == ("==> apt: Ubuntu 22.04.5 LTS (ID=ubuntu, VERSION_ID=22.04) has an older CMake or Boost "
                           "than gatekit needs (CMake >= 3.25, Boost >= 1.81 with JSON); use Debian 12, Debian 13, "
                           "Ubuntu 24.04, Ubuntu 26.04\n")
    assert commands == []


@pytest.mark.parametrize("release", ["debian-12", "ubuntu-26.04"])
def test_setup_gatekit_builds_from_a_subset_of_the_same_list(tmp_path, release):
    """One list: what setup-gatekit installs for the build is part of what install-deps installs."""
    (tmp_path / "os-release").write_text(RELEASES[release])
    script = ('source "$1"; gatekit_apt_packages build "$(gatekit_os_field ID)" "$(gatekit_os_field VERSION_ID)"')
    build = subprocess.run(["bash", "-c", script, "-", str(SOURCE / "actions" / "lib" / "apt-packages.sh")],
                           capture_output=True, text=True, timeout=30,
                           env={"PATH": os.environ["PATH"], "GATEKIT_OS_RELEASE": str(tmp_path / "os-release")})
    assert build.returncode == 0, build.stderr
    _, commands = run(tmp_path, release)
    [dev] = installed(commands)
    assert set(build.stdout.split()) < set(dev)
    assert "catch2" not in build.stdout.split()  # the release preset builds no tests


def test_build_only_installs_the_build_packages_and_nothing_else(tmp_path):
    """--build: what the release workflow's Debian 12 container needs to build the tools."""
    done, commands = run(tmp_path, "debian-12", go=False, args=["--build"])
    assert done.returncode == 0, done.stdout + done.stderr
    build = DEBIAN_12 - {"git", "pkg-config", "python3", "python3-pip", "nodejs", "catch2", "shellcheck",
                      "curl", "xz-utils", "patch", "file", "ruby", "clang", "libc++-dev",
                      "libc++abi-dev", "libclang-rt-dev", "time"}
    [packages] = installed(commands)
    assert sorted(packages) == sorted(build)
    assert [c.split()[0] for c in commands] == ["apt-get", "apt-get"]  # no npm, pip, go


def test_an_unknown_argument_exits_2(tmp_path):
    done, commands = run(tmp_path, "debian-12", args=["--everything"])
    assert done.returncode == 2
    assert done.stderr == "usage: install-deps.sh [--build|--fuzz]\n"
    assert commands == []


def run_on_macos(tmp_path: Path, brew: bool = True, args=()):
    """Runs the script where `uname -s` says Darwin: a fake brew (when `brew`) logs its argv and
    its `brew list` finds nothing installed; apt-get is there too, and must not be asked."""
    fakes = {"uname": '#!/bin/sh\ncase "$1" in -m) echo arm64 ;; *) echo Darwin ;; esac\n'}
    if brew:
        fakes["brew"] = LOGGING + '[ "$1" = list ] && exit 1\nexit 0\n'
    return run(tmp_path, "debian-12", args=args, fakes=fakes)


def test_macos_takes_the_packages_from_homebrew(tmp_path):
    done, commands = run_on_macos(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    installs = [c for c in commands if c.startswith("brew install")]
    assert installs == ["brew install --quiet cmake ninja boost yaml-cpp cli11 catch2 node shellcheck go gnu-tar bash"]
    assert not any(c.startswith("apt-get") for c in commands)
    assert "npm ci --prefix tests/node --no-audit --no-fund --loglevel=error" in commands


def test_macos_build_set_is_the_libraries_and_build_tools_only(tmp_path):
    done, commands = run_on_macos(tmp_path, args=["--build"])
    assert done.returncode == 0, done.stdout + done.stderr
    assert [c for c in commands if not c.startswith("brew list")] == ["brew install --quiet cmake ninja boost yaml-cpp cli11"]


def test_macos_without_homebrew_exits_2(tmp_path):
    done, commands = run_on_macos(tmp_path, brew=False)
    assert done.returncode == 2
    assert done.stderr == ("==> brew: Homebrew is not on PATH; on macOS gatekit's build takes its libraries from it "
                           "(https://brew.sh)\n")
    assert commands == []
