"""actions/setup-gatekit/setup-gatekit.sh, run in a sandbox with fake build tools.

Each test copies the real script and actions/lib/ (apt list, helpers) into a small fake gatekit
source tree (its own version and tools), puts fake `cmake`, `apt-get`, `dpkg-query` and `sudo`
on PATH (each logs its argv; the fake cmake "builds" tool scripts that print a version), and
runs `probe` then `install` as action.yml does, reading back GITHUB_OUTPUT, GITHUB_ENV and
GITHUB_PATH. PATH holds only the fakes and links to the few system tools the script uses, so
the machine's own apt, sudo or gatekit tools are never reached, and "no apt" can be staged.
The runner is a GitHub-hosted one (RUNNER_ENVIRONMENT) unless a test says otherwise, and the
action's checksums.txt lists no archive of the sandbox's version, so these tests take the
build path; test_setup_gatekit_download.py serves release archives.
"""
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
import yaml  # PyYAML, from tests/requirements.txt

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
ACTION = SOURCE / "actions" / "setup-gatekit"
LIB = SOURCE / "actions" / "lib"  # the helpers the script sources (apt list, command escaping)
VERSION = "9.8.7"
TOOLS = ["matrix-aggregator", "path-classifier"]
DEBIAN = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\n'
DEBIAN_13 = 'PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nID=debian\nVERSION_ID="13"\n'
UBUNTU = 'PRETTY_NAME="Ubuntu 24.04.1 LTS"\nID=ubuntu\nVERSION_ID="24.04"\n'
UBUNTU_26 = 'PRETTY_NAME="Ubuntu 26.04 LTS"\nID=ubuntu\nVERSION_ID="26.04"\nID_LIKE=debian\n'
UBUNTU_22 = 'PRETTY_NAME="Ubuntu 22.04.5 LTS"\nID=ubuntu\nVERSION_ID="22.04"\nID_LIKE=debian\n'
MINT = 'PRETTY_NAME="Linux Mint 22.1"\nID=linuxmint\nVERSION_ID="22.1"\nID_LIKE="ubuntu debian"\n'
FEDORA = 'PRETTY_NAME="Fedora Linux 40 (Container Image)"\nID=fedora\nVERSION_ID=40\n'
COMMON = ["g++", "cmake", "ninja-build", "libyaml-cpp-dev", "libcli11-dev", "libcurl4-openssl-dev", "libexpat1-dev"]
GENERIC_BOOST = ["libboost-dev", "libboost-json-dev", "libboost-filesystem-dev"]
INSTALL = "apt-get install -y -qq --no-install-recommends "
# The system tools the script (and the fakes) run; nothing else of the machine is on PATH.
SYSTEM_TOOLS = ["bash", "sh", "env", "sed", "head", "grep", "find", "sort", "xargs", "sha256sum", "basename",
                "dirname", "id", "cp", "mv", "mkdir", "rm", "rmdir", "chmod", "nproc", "cat", "uname", "mktemp", "tar", "gzip", "curl"]
CHECKSUMS = ACTION / "checksums.txt"


def executable(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def fake_tool(folder: Path, name: str, version: str) -> None:
    executable(folder / name, f'#!/bin/sh\necho "{name} (gatekit) {version}"\n')


FAKE_CMAKE = r"""#!/usr/bin/env bash
# Logs "cmake <cwd> <args>"; `--build DIR ... --target T...` writes DIR/tools/T/T.
echo "cmake $PWD $*" >> "$FAKE_LOG"
[ -z "${FAKE_CMAKE_FAIL:-}" ] || exit 1
if [ "$1" = --build ]; then
  dir="$2"; targets=0
  for arg in "$@"; do
    if [ "$arg" = --target ]; then targets=1; continue; fi
    if [ "$targets" = 1 ]; then
      mkdir -p "$dir/tools/$arg"
      printf '#!/bin/sh\necho "%s (gatekit) %s"\n' "$arg" "$FAKE_BUILT_VERSION" > "$dir/tools/$arg/$arg"
      chmod +x "$dir/tools/$arg/$arg"
    fi
  done
fi
"""


class Sandbox:
    def __init__(self, root: Path):
        self.root = root
        self.src = root / "src"
        (self.src / "cmake").mkdir(parents=True)
        (self.src / "cmake" / "GatekitSettings.cmake").write_text("# fake\n")
        (self.src / "CMakeLists.txt").write_text(f"cmake_minimum_required(VERSION 3.25)\n"
                                                 f"project(gatekit VERSION {VERSION} LANGUAGES CXX)\n")
        (self.src / "CMakePresets.json").write_text("{}\n")
        for tool in ["core", *TOOLS]:
            (self.src / "tools" / tool).mkdir(parents=True)
            (self.src / "tools" / tool / "CMakeLists.txt").write_text(f"gatekit_tool({tool})\n")
        (self.src / "tools" / "planned").mkdir()  # no CMakeLists.txt: not a tool
        self.action = self.src / "actions" / "setup-gatekit"
        self.action.mkdir(parents=True)
        shutil.copy(ACTION / "setup-gatekit.sh", self.action / "setup-gatekit.sh")
        shutil.copy(CHECKSUMS, self.action / "checksums.txt")
        shutil.copytree(LIB, self.src / "actions" / "lib")
        self.system = root / "system"
        self.system.mkdir()
        for tool in SYSTEM_TOOLS:
            (self.system / tool).symlink_to(shutil.which(tool))
        self.fakes = root / "fakes"
        self.log = root / "commands.log"
        self.log.write_text("")
        executable(self.fakes / "cmake", FAKE_CMAKE)
        executable(self.fakes / "apt-get", '#!/bin/sh\necho "apt-get $*" >> "$FAKE_LOG"\n')
        executable(self.fakes / "dpkg-query", "#!/bin/sh\nexit 1\n")  # nothing is installed
        executable(self.fakes / "sudo", '#!/bin/sh\n[ "$1" = -n ] && shift\nexec "$@"\n')
        self.os_release = root / "os-release"
        self.os_release.write_text(DEBIAN)
        self.temp = root / "runner-temp"
        self.temp.mkdir()
        self.files = {name: root / name for name in ["output", "env", "path", "summary"]}
        for f in self.files.values():
            f.write_text("")
        self.path = [str(self.fakes), str(self.system)]

    def run(self, mode: str, **env):
        full = {
            "PATH": os.pathsep.join(self.path), "HOME": str(self.root), "FAKE_LOG": str(self.log),
            "FAKE_BUILT_VERSION": VERSION, "GATEKIT_OS_RELEASE": str(self.os_release),
            "GITHUB_ACTION_PATH": str(self.action), "RUNNER_TEMP": str(self.temp),
            "RUNNER_ENVIRONMENT": "github-hosted",
            "GITHUB_OUTPUT": str(self.files["output"]), "GITHUB_ENV": str(self.files["env"]),
            "GITHUB_PATH": str(self.files["path"]), "GITHUB_STEP_SUMMARY": str(self.files["summary"]),
            **env,
        }
        return subprocess.run(["bash", str(self.action / "setup-gatekit.sh"), mode], env=full, cwd=self.root,
                              capture_output=True, text=True, timeout=60)

    def action_run(self, **env):
        """probe, then (unless it says skip) install: the action's two script steps."""
        probe = self.run("probe", **env)
        if probe.returncode != 0 or self.outputs().get("skip") == "true":
            return probe, None
        return probe, self.run("install", **env)

    def outputs(self) -> dict:
        lines = self.files["output"].read_text().splitlines()
        return dict(line.split("=", 1) for line in lines)

    def commands(self) -> list:
        return self.log.read_text().splitlines()

    def without_apt(self):
        """A runner without apt: no apt-get, no dpkg-query, on PATH."""
        (self.fakes / "apt-get").unlink()
        (self.fakes / "dpkg-query").unlink()

    def installed(self):
        """Every package counts as installed."""
        executable(self.fakes / "dpkg-query", "#!/bin/sh\necho 'install ok installed'\n")


@pytest.fixture
def box(tmp_path):
    sandbox = Sandbox(tmp_path)
    assert shutil.which("path-classifier", path=os.pathsep.join(sandbox.path)) is None
    return sandbox


def test_tools_on_path_with_this_version_skip_everything(box):
    have = box.root / "have"
    for tool in TOOLS:
        fake_tool(have, tool, VERSION)
    box.path.insert(0, str(have))
    probe, install = box.action_run()
    assert probe.returncode == 0, probe.stdout + probe.stderr
    assert install is None
    assert box.outputs() == {"skip": "true", "bin": str(have), "version": VERSION, "source": "path",
                             "verified": "false"}
    assert box.files["env"].read_text() == f"GATEKIT_BIN={have}\n"
    assert box.files["path"].read_text() == ""  # already on PATH
    assert box.commands() == []
    assert f"using the gatekit {VERSION} tools on PATH in {have}" in probe.stdout


def test_missing_tools_are_built_with_the_release_preset(box):
    probe, install = box.action_run()
    assert probe.returncode == 0, probe.stdout + probe.stderr
    assert install.returncode == 0, install.stdout + install.stderr
    build, bin_dir = box.temp / "gatekit-build", box.temp / "gatekit-build" / "bin"
    debian = COMMON + ["libboost1.81-dev", "libboost-json1.81-dev", "libboost-filesystem1.81-dev"]
    assert box.commands() == [
        "apt-get update -qq",
        "apt-get install -y -qq --no-install-recommends " + " ".join(debian),
        f"cmake {box.src} --preset release -B {build} -DBUILD_TESTING=OFF",
        f"cmake {box.root} --build {build} --parallel {install_jobs()} --target {' '.join(TOOLS)}",
    ]
    assert sorted(p.name for p in bin_dir.iterdir()) == TOOLS
    assert box.files["path"].read_text() == f"{bin_dir}\n"
    assert box.files["env"].read_text() == f"GATEKIT_BIN={bin_dir}\n"
    outputs = box.outputs()
    assert outputs["skip"] == "false" and outputs["source"] == "built"
    assert outputs["bin"] == str(bin_dir) and outputs["version"] == VERSION
    assert outputs["key"].startswith(built_key("debian-12")) and len(outputs["key"]) == len(built_key("debian-12")) + 64
    assert outputs["cache-path"] == str(bin_dir)  # the cache keeps the built tools
    for phase in ["probe", "dependencies (apt)", "configure (cmake --preset release)", "build (", "install into"]:
        assert f"::group::setup-gatekit: {phase}" in probe.stdout + install.stdout
    assert "| built |" in box.files["summary"].read_text()


def built_key(release: str) -> str:
    """The start of the cache key of built tools: the platform, the release, then the sources' SHA-256."""
    return f"gatekit-built-linux-{os.uname().machine}-{release}-"


def install_jobs() -> str:
    return subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip() or "2"


def test_ubuntu_gets_its_own_boost_packages(box):
    box.os_release.write_text(UBUNTU)
    _, install = box.action_run()
    assert install.returncode == 0, install.stdout + install.stderr
    apt = [c for c in box.commands() if c.startswith("apt-get install")]
    assert apt == ["apt-get install -y -qq --no-install-recommends " + " ".join(
        COMMON + ["libboost-dev", "libboost-json-dev", "libboost-filesystem-dev"])]
    assert box.outputs()["key"].startswith(built_key("ubuntu-24.04"))


YOURSELF = ("install g++, CMake >= 3.25, Ninja, Boost >= 1.81 (JSON, filesystem), yaml-cpp, CLI11, libcurl and "
            "expat yourself and set install-deps: false, or put the gatekit tools on PATH")
LISTED = "Debian 12, Debian 13, Ubuntu 24.04, Ubuntu 26.04"


def test_ubuntu_26_04_with_the_tools_on_path_uses_them(box):
    box.os_release.write_text(UBUNTU_26)
    box.without_apt()  # nothing about packages may be asked
    have = box.root / "have"
    for tool in TOOLS:
        fake_tool(have, tool, VERSION)
    box.path.insert(0, str(have))
    probe, install = box.action_run()
    assert probe.returncode == 0, probe.stdout + probe.stderr
    assert install is None and box.commands() == []
    assert box.outputs()["source"] == "path"
    assert "::error" not in probe.stderr and "::warning" not in probe.stdout


def test_ubuntu_26_04_with_a_cache_hit_uses_the_cache(box):
    # ubuntu-latest since GitHub's November 2026 rollout: the probe exited 2 before the cache.
    box.os_release.write_text(UBUNTU_26)
    box.without_apt()
    bin_dir = box.temp / "gatekit-build" / "bin"
    for tool in TOOLS:
        fake_tool(bin_dir, tool, VERSION)
    probe, install = box.action_run(GATEKIT_CACHE_HIT="true")
    assert probe.returncode == 0, probe.stdout + probe.stderr
    assert box.outputs()["key"].startswith(built_key("ubuntu-26.04"))
    assert install.returncode == 0, install.stdout + install.stderr
    assert box.outputs()["source"] == "cache" and box.commands() == []
    assert box.files["path"].read_text() == f"{bin_dir}\n"


@pytest.mark.parametrize("release,boost", [(UBUNTU_26, GENERIC_BOOST), (DEBIAN_13, GENERIC_BOOST)],
                         ids=["ubuntu-26.04", "debian-13"])
def test_listed_releases_install_the_version_less_boost_packages(box, release, boost):
    box.os_release.write_text(release)
    probe, install = box.action_run()
    assert probe.returncode == 0, probe.stdout + probe.stderr
    assert install.returncode == 0, install.stdout + install.stderr
    assert [c for c in box.commands() if c.startswith("apt-get")] == [
        "apt-get update -qq", INSTALL + " ".join(COMMON + boost)]
    assert "::warning" not in install.stdout
    assert box.outputs()["source"] == "built"


def test_an_unlisted_debian_like_release_gets_a_warning_and_a_try(box):
    box.os_release.write_text(MINT)
    probe, install = box.action_run()
    assert probe.returncode == 0, probe.stdout + probe.stderr
    assert install.returncode == 0, install.stdout + install.stderr
    assert (f"::warning title=setup-gatekit::Linux Mint 22.1 (ID=linuxmint, VERSION_ID=22.1) is not a release whose "
            f"packages gatekit checked ({LISTED}): trying the version-less package names. If apt or the build "
            f"fails, {YOURSELF}\n") in install.stdout
    assert [c for c in box.commands() if c.startswith("apt-get install")] == [
        INSTALL + " ".join(COMMON + GENERIC_BOOST)]
    assert box.outputs()["source"] == "built"


def test_no_apt_is_a_clear_error_when_packages_are_needed(box):
    box.os_release.write_text(FEDORA)
    box.without_apt()
    probe, install = box.action_run()
    assert probe.returncode == 0, probe.stdout + probe.stderr  # the probe never judges the OS
    assert install.returncode == 2
    assert install.stderr == (
        "::error title=setup-gatekit::cannot install the build dependencies on Fedora Linux 40 (Container Image) "
        "(ID=fedora, VERSION_ID=40): apt-get is not on PATH (setup-gatekit installs them with apt, on Debian and "
        f"Ubuntu). Either {YOURSELF}\n")
    assert box.commands() == []
    assert box.files["path"].read_text() == ""


def test_a_release_too_old_to_build_is_refused_before_apt(box):
    box.os_release.write_text(UBUNTU_22)
    _, install = box.action_run()
    assert install.returncode == 2
    assert install.stderr == (
        "::error title=setup-gatekit::cannot build gatekit from the packages of Ubuntu 22.04.5 LTS (ID=ubuntu, "
        "VERSION_ID=22.04): its CMake or Boost is older than the build needs (CMake >= 3.25, Boost >= 1.81 with "
        f"JSON). Run the job on {LISTED} (e.g. runs-on: ubuntu-24.04), or {YOURSELF}\n")
    assert box.commands() == []


def test_installed_packages_need_no_apt_and_no_judgement(box):
    box.os_release.write_text(UBUNTU_22)  # too old for apt, but the packages are there already
    box.installed()
    _, install = box.action_run()
    assert install.returncode == 0, install.stdout + install.stderr
    assert "all build dependencies are installed" in install.stdout
    assert [c.split()[0] for c in box.commands()] == ["cmake", "cmake"]


def test_os_release_text_cannot_start_a_workflow_command(box):
    box.os_release.write_text('PRETTY_NAME="x%0A::stop-commands::t"\nID=x\nVERSION_ID=1\n')
    _, install = box.action_run()
    assert install.returncode == 0, install.stdout + install.stderr
    warning = [line for line in install.stdout.splitlines() if line.startswith("::warning")]
    assert len(warning) == 1 and warning[0].startswith("::warning title=setup-gatekit::x%250A::stop-commands::t (ID=x")


def test_unsupported_os_builds_when_the_runner_has_the_dependencies(box):
    box.os_release.write_text(FEDORA)
    _, install = box.action_run(INPUT_INSTALL_DEPS="false")
    assert install.returncode == 0, install.stdout + install.stderr
    assert [c.split()[0] for c in box.commands()] == ["cmake", "cmake"]
    assert box.outputs()["key"].startswith(built_key("fedora-40"))


def test_other_version_on_path_is_not_used(box):
    old = box.root / "old"
    for tool in TOOLS:
        fake_tool(old, tool, "0.0.1")
    box.path.insert(0, str(old))
    probe, install = box.action_run()
    assert install.returncode == 0, install.stdout + install.stderr
    assert f"{old} holds gatekit 0.0.1, this source is {VERSION}" in probe.stdout
    assert box.outputs()["source"] == "built"


def test_force_builds_although_the_tools_are_on_path(box):
    have = box.root / "have"
    for tool in TOOLS:
        fake_tool(have, tool, VERSION)
    box.path.insert(0, str(have))
    probe, install = box.action_run(INPUT_FORCE="true")
    assert install is not None and install.returncode == 0, install.stdout + install.stderr
    assert "force: true" in probe.stdout
    assert box.outputs()["source"] == "built"
    assert box.files["path"].read_text() == f"{box.temp / 'gatekit-build' / 'bin'}\n"


def test_cache_hit_uses_the_restored_tools(box):
    bin_dir = box.temp / "gatekit-build" / "bin"
    for tool in TOOLS:
        fake_tool(bin_dir, tool, VERSION)
    _, install = box.action_run(GATEKIT_CACHE_HIT="true")
    assert install.returncode == 0, install.stdout + install.stderr
    assert box.commands() == []
    assert box.outputs()["source"] == "cache"
    assert box.files["path"].read_text() == f"{bin_dir}\n"


def test_cache_hit_that_does_not_run_is_rebuilt(box):
    bin_dir = box.temp / "gatekit-build" / "bin"
    fake_tool(bin_dir, "path-classifier", VERSION)  # matrix-aggregator is missing
    _, install = box.action_run(GATEKIT_CACHE_HIT="true")
    assert install.returncode == 0, install.stdout + install.stderr
    assert "the cached tools do not run yet" in install.stdout
    assert any(c.split()[2:3] == ["--build"] for c in box.commands())
    assert box.outputs()["source"] == "built"


def test_build_failure_exits_3(box):
    _, install = box.action_run(FAKE_CMAKE_FAIL="1")
    assert install.returncode == 3
    assert "::error title=setup-gatekit::cmake configure failed" in install.stderr
    assert box.files["path"].read_text() == ""


def test_built_tools_of_another_version_exit_3(box):
    _, install = box.action_run(FAKE_BUILT_VERSION="1.0.0")
    assert install.returncode == 3
    assert f"holds gatekit 1.0.0, this source is {VERSION}" in install.stderr
    assert box.files["path"].read_text() == ""


@pytest.mark.parametrize("name,var", [("force", "INPUT_FORCE"), ("cache", "INPUT_CACHE"), ("verified", "INPUT_VERIFIED")])
def test_bad_boolean_input_exits_2(box, name, var):
    probe = box.run("probe", **{var: "yes"})
    assert probe.returncode == 2
    assert probe.stderr == f"::error title=setup-gatekit::input {name} must be 'true' or 'false', got 'yes'\n"


@pytest.mark.parametrize("var,value,message", [
    ("INPUT_INSTALL_DEPS", "yes", "input install-deps must be 'auto', 'true' or 'false', got 'yes'"),
    ("INPUT_DOWNLOAD_TIMEOUT", "0", "input download-timeout must be a number of seconds from 1 to 9999, got '0'"),
    ("INPUT_DOWNLOAD_TIMEOUT", "1m", "input download-timeout must be a number of seconds from 1 to 9999, got '1m'"),
])
def test_bad_choice_input_exits_2(box, var, value, message):
    probe = box.run("probe", **{var: value})
    assert probe.returncode == 2
    assert probe.stderr == f"::error title=setup-gatekit::{message}\n"


SELF_HOSTED = ("::error title=setup-gatekit::cannot set up gatekit 9.8.7: no usable release archive (checksums.txt lists "
               "no release archive of gatekit 9.8.7 for linux-{arch}), and building it needs packages this runner "
               "lacks: {packages}. setup-gatekit installs packages on its own only on GitHub-hosted runners (this "
               "one is self-hosted). Set install-deps: true to install them with apt (root or passwordless sudo), or "
               "install them in the runner image, or put the gatekit tools on PATH (cmake --install)\n")


def test_a_self_hosted_runner_gets_no_packages_unless_the_workflow_opts_in(box):
    _, install = box.action_run(RUNNER_ENVIRONMENT="self-hosted")
    assert install.returncode == 2
    debian = COMMON + ["libboost1.81-dev", "libboost-json1.81-dev", "libboost-filesystem1.81-dev"]
    assert install.stderr == SELF_HOSTED.format(arch=os.uname().machine, packages=" ".join(debian))
    assert box.commands() == []
    assert box.files["path"].read_text() == ""


def test_a_self_hosted_runner_with_install_deps_true_gets_the_packages(box):
    _, install = box.action_run(RUNNER_ENVIRONMENT="self-hosted", INPUT_INSTALL_DEPS="true")
    assert install.returncode == 0, install.stdout + install.stderr
    assert [c.split()[0] for c in box.commands()] == ["apt-get", "apt-get", "cmake", "cmake"]
    assert box.outputs()["source"] == "built"


def test_a_self_hosted_runner_with_the_packages_builds_without_asking(box):
    box.installed()
    _, install = box.action_run(RUNNER_ENVIRONMENT="self-hosted")
    assert install.returncode == 0, install.stdout + install.stderr
    assert [c.split()[0] for c in box.commands()] == ["cmake", "cmake"]


def test_a_self_hosted_runner_without_dpkg_tries_the_build(box):
    box.os_release.write_text(FEDORA)
    box.without_apt()
    _, install = box.action_run(RUNNER_ENVIRONMENT="self-hosted")
    assert install.returncode == 0, install.stdout + install.stderr
    assert "dpkg-query is not on PATH: cannot tell which build dependencies are missing; trying the build" in install.stdout
    assert [c.split()[0] for c in box.commands()] == ["cmake", "cmake"]


def test_a_malformed_checksums_line_is_named(box):
    (box.action / "checksums.txt").write_text("repository OWNER/gatekit\n9.8.7 linux-x86_64 not-a-sum\n")
    probe, install = box.action_run()  # the probe reads it for the cache key
    assert install is None and probe.returncode == 3
    assert probe.stderr == (f"::error title=setup-gatekit::{box.action / 'checksums.txt'}:2: expected "
                              "'VERSION linux-ARCH SHA256' or 'VERSION darwin-ARCH SHA256' (64 lowercase hex digits)\n")
    assert box.commands() == []


def test_a_missing_checksums_file_is_a_broken_source_tree(box):
    (box.action / "checksums.txt").unlink()
    probe = box.run("probe")
    assert probe.returncode == 3
    assert probe.stderr == (f"::error title=setup-gatekit::cannot read {box.action / 'checksums.txt'}: "
                            "is this a gatekit source tree?\n")


def test_action_wires_the_script_and_the_cache():
    action = yaml.safe_load((ACTION / "action.yml").read_text())
    steps = {s["id"]: s for s in action["runs"]["steps"]}
    assert steps["probe"]["run"].strip() == 'bash "$GITHUB_ACTION_PATH/setup-gatekit.sh" probe'
    assert steps["install"]["run"].strip() == 'bash "$GITHUB_ACTION_PATH/setup-gatekit.sh" install'
    assert steps["install"]["env"]["GATEKIT_CACHE_HIT"] == "${{ steps.cache.outputs.cache-hit }}"
    assert action["inputs"]["install-deps"]["default"] == "auto"
    assert action["inputs"]["download-timeout"]["default"] == "60"
    assert action["inputs"]["verified"]["default"] == "false"
    for step in (steps["probe"], steps["install"]):  # both check the inputs the same way
        assert step["env"]["INPUT_INSTALL_DEPS"] == "${{ inputs.install-deps }}"
        assert step["env"]["INPUT_DOWNLOAD_TIMEOUT"] == "${{ inputs.download-timeout }}"
        assert step["env"]["INPUT_VERIFIED"] == "${{ inputs.verified }}"
    cache = steps["cache"]
    # actions/cache v5.0.5, a Node 24 release.
    assert cache["uses"] == "actions/cache@27d5ce7f107fe9357f9df03efb73ab90386fccae"
    # The key the probe computed, whole, and nothing restored by a prefix of it: an entry is
    # whatever a job of the same scope saved first (the install step checks what it restores).
    assert cache["with"] == {"path": "${{ steps.probe.outputs.cache-path }}", "key": "${{ steps.probe.outputs.key }}"}
    assert "steps.probe.outputs.key != ''" in cache["if"]  # verified and no listed archive: no cache
    for step in (cache, steps["install"]):
        assert "steps.probe.outputs.skip != 'true'" in step["if"]
    # The folder of the tools this step set up (install's, verified or not; else the probe's).
    assert action["outputs"]["bin"]["value"] == "${{ steps.install.outputs.bin || steps.probe.outputs.bin }}"


# ---- verified: true (a job that holds a token; docs/actions/setup-gatekit.md, "Verified tools") ----

def look_alike(folder: Path, marker: Path) -> None:
    """Tools that answer --version as this version's do, and leave `marker` whenever they run."""
    for tool in TOOLS:
        executable(folder / tool, f'#!/bin/sh\necho "$0 $*" >> "{marker}"\necho "{tool} (gatekit) {VERSION}"\n')


def verified_bin(box) -> Path:
    [folder] = box.temp.glob("gatekit-verified.*")
    return folder / "bin"


def test_verified_never_runs_the_tools_on_path(box):
    """A self-hosted runner with a look-alike earlier on PATH: the job that holds a token builds
    (or downloads) its own, in a fresh folder, and never runs what PATH holds."""
    marker = box.root / "look-alike-ran"
    early = box.root / "home-bin"
    look_alike(early, marker)
    box.path.insert(0, str(early))
    probe, install = box.action_run(INPUT_VERIFIED="true")
    assert probe.returncode == 0, probe.stdout + probe.stderr
    assert install is not None and install.returncode == 0, install.stdout + install.stderr
    assert not marker.exists()
    assert "verified: true: not using tools on PATH (only tools checked here run)" in probe.stdout
    outputs = box.outputs()
    bin_dir = verified_bin(box)
    assert (outputs["source"], outputs["verified"], outputs["bin"]) == ("built", "true", str(bin_dir))
    assert bin_dir.is_absolute() and sorted(p.name for p in bin_dir.iterdir()) == TOOLS
    # Built in that folder from this source, never in a build folder kept from earlier jobs.
    assert f"cmake {box.src} --preset release -B {bin_dir.parent} -DBUILD_TESTING=OFF" in box.commands()
    assert box.files["env"].read_text() == f"GATEKIT_BIN={bin_dir}\n"


def test_verified_restores_no_built_tools_from_the_cache(box):
    """Without a listed release archive nothing restored could be checked: no cache key, and
    tools in the cache's folder (a cache hit of earlier, unverified jobs) are never run."""
    probe = box.run("probe", INPUT_VERIFIED="true")
    assert probe.returncode == 0, probe.stderr
    assert (box.outputs()["key"], box.outputs()["cache-path"]) == ("", "")
    assert "bin" not in box.outputs()
    marker = box.root / "cached-tools-ran"
    look_alike(box.temp / "gatekit-build" / "bin", marker)
    install = box.run("install", INPUT_VERIFIED="true", GATEKIT_CACHE_HIT="true")
    assert install.returncode == 0, install.stdout + install.stderr
    assert not marker.exists()
    assert box.outputs()["source"] == "built" and box.outputs()["bin"] == str(verified_bin(box))


def test_verified_refuses_a_build_dir(box):
    probe = box.run("probe", INPUT_VERIFIED="true", INPUT_BUILD_DIR=str(box.root / "kept"))
    assert probe.returncode == 2
    assert probe.stderr == ("::error title=setup-gatekit::input build-dir cannot be used with verified: true: a build "
                            "folder kept between jobs is not checked. Leave it empty (a fresh folder under RUNNER_TEMP)\n")
