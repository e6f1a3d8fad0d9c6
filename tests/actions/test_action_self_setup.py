"""The actions set their tools up themselves (input `setup`, default auto), from a release
archive on a loopback server.

Each test runs an action's tool step (test_action_steps.py's runner) in a copy of the gatekit
tree (actions/, the top CMakeLists.txt with the version, one tools/<tool>/CMakeLists.txt per
tool) whose setup-gatekit/checksums.txt lists the test's archive, with no gatekit tool in the
gatekit-bin input, GATEKIT_BIN or PATH. The archive holds the real built tools, so the step's
own tool really runs. The runner's files (GITHUB_PATH, GITHUB_ENV, the step summary) are files
of the test; PATH starts with fakes of cmake, apt-get, dpkg-query and sudo that log and fail, so
no test builds or installs anything behind its back."""
import hashlib
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from release_archives import ARCH, ReleaseServer, archive, built_tools, download_path, list_release
from test_action_steps import (ACTIONS, BIN_INPUT, BUILD, RAN, SETUP_INPUT, SOURCE, TITLE, TOOL, run_step,
                               step_env, tool_step, write_inputs)
from test_setup_gatekit import executable

TOOLS = sorted(p.parent.name for p in SOURCE.glob("tools/*/CMakeLists.txt") if p.parent.name != "core")
VERSION = re.search(r"project\(gatekit VERSION ([0-9.]+)", (SOURCE / "CMakeLists.txt").read_text()).group(1)
PATH = download_path(VERSION)
FAKE = '#!/bin/sh\necho "$(basename "$0") $*" >> "$FAKE_LOG"\nexit 1\n'


@pytest.fixture(scope="module")
def release():
    """The release archive of the real built tools (fast compression: it is big and local)."""
    return archive(VERSION, built_tools(BUILD, TOOLS), compresslevel=1)


@pytest.fixture
def server():
    s = ReleaseServer()
    yield s
    s.close()


class Job:
    """A job on a runner without the gatekit tools: a gatekit checkout, the runner's files and
    the step's working directory."""

    def __init__(self, root: Path, server: ReleaseServer):
        self.server = server
        self.src = root / "gatekit"
        shutil.copytree(SOURCE / "actions", self.src / "actions")
        shutil.copy(SOURCE / "CMakeLists.txt", self.src / "CMakeLists.txt")
        for tool in ["core", *TOOLS]:
            (self.src / "tools" / tool).mkdir(parents=True)
            shutil.copy(SOURCE / "tools" / tool / "CMakeLists.txt", self.src / "tools" / tool / "CMakeLists.txt")
        self.checksums = self.src / "actions" / "setup-gatekit" / "checksums.txt"
        self.work = root / "work"
        self.work.mkdir()
        write_inputs(self.work)
        self.temp = root / "runner-temp"
        self.temp.mkdir()
        self.files = {name: root / name for name in ["env", "path", "summary", "fakes.log"]}
        for f in self.files.values():
            f.write_text("")
        self.fakes = root / "fakes"
        for name in ["cmake", "apt-get", "dpkg-query", "sudo"]:
            executable(self.fakes / name, FAKE)
        self.bin = self.temp / "gatekit-build" / "bin"
        for tool in TOOLS:  # the precondition: the machine's PATH has no gatekit tool
            assert shutil.which(tool, path="/usr/bin:/bin") is None

    def publish(self, body: bytes, listed: str = None) -> str:
        self.server.files[PATH] = body
        return list_release(self.checksums, VERSION, body, listed)

    def step(self, name, path=None, **env):
        """Runs the action's tool step as a runner without the tools would."""
        return run_step(name, self.work, root=self.src, **{
            "PATH": f"{self.fakes}:{path or '/usr/bin:/bin'}", "FAKE_LOG": str(self.files["fakes.log"]),
            "RUNNER_TEMP": str(self.temp), "RUNNER_ENVIRONMENT": "github-hosted",
            "GITHUB_SERVER_URL": self.server.url, "GITHUB_ENV": str(self.files["env"]),
            "GITHUB_PATH": str(self.files["path"]), "GITHUB_STEP_SUMMARY": str(self.files["summary"]), **env})

    def text(self, name) -> str:
        return self.files[name].read_text()


@pytest.fixture
def job(tmp_path, server):
    return Job(tmp_path, server)


@pytest.mark.parametrize("name", ACTIONS)
def test_the_step_sets_the_tools_up_itself_and_runs(name, job, release):
    job.publish(release)
    start = time.monotonic()
    # a job-wide INPUT_BUILD_DIR or cache hit is not setup-gatekit's input here: its defaults are
    done, outputs = job.step(name, INPUT_BUILD_DIR=str(job.work / "elsewhere"), GATEKIT_CACHE_HIT="true")
    took = time.monotonic() - start
    assert done.returncode == 0, done.stdout + done.stderr
    assert RAN[name] in outputs.splitlines()
    print(f"\n{name}: tools set up from the release archive and the step run in {took:.2f} s")
    # No timed bound: a hang ends at run_step's timeout, and a build or an install would have
    # called a fake (fakes.log below). The time is printed only.
    assert job.server.requests == [PATH]
    assert job.text("fakes.log") == ""  # no apt, no sudo, no compiler
    assert sorted(p.name for p in job.bin.iterdir()) == TOOLS
    assert (job.bin / TOOL[name]).read_bytes() == (BUILD / "tools" / TOOL[name] / TOOL[name]).read_bytes()
    assert (f"{TOOL[name]} not found (gatekit-bin input, GATEKIT_BIN or PATH): setting the gatekit tools up with "
            "setup-gatekit (input setup: auto)\n") in done.stderr
    assert "SHA-256 " in done.stderr and "matches checksums.txt" in done.stderr
    # setup-gatekit's outputs went to a file of their own: the step's are the action's only
    assert not {"bin", "version", "source", "skip", "key"} & {line.split("=")[0] for line in outputs.splitlines()}
    # its GITHUB_PATH and GITHUB_ENV lines serve the job's later steps
    assert job.text("path") == f"{job.bin}\n"
    assert job.text("env") == f"GATEKIT_BIN={job.bin}\n"
    assert "| release |" in job.text("summary")
    assert list(job.temp.glob("gatekit-self-setup.*")) == []  # its scratch folder is gone


@pytest.mark.parametrize("name", ACTIONS)
def test_a_later_step_of_the_job_uses_the_tools_without_a_second_setup(name, job, release):
    job.publish(release)
    first, _ = job.step("path-gate")
    assert first.returncode == 0, first.stdout + first.stderr
    path = job.text("path").strip()
    gatekit_bin = job.text("env").strip().split("=", 1)[1]
    done, outputs = job.step(name, path=f"{path}:/usr/bin:/bin", GATEKIT_BIN=gatekit_bin)
    assert done.returncode == 0, done.stdout + done.stderr
    assert RAN[name] in outputs.splitlines()
    assert job.server.requests == [PATH]  # one download for the job
    assert "setting the gatekit tools up" not in done.stderr
    assert job.text("path") == f"{job.bin}\n"


@pytest.mark.parametrize("name", ACTIONS)
def test_with_setup_false_nothing_is_set_up(name, job, release):
    job.publish(release)
    done, outputs = job.step(name, **{SETUP_INPUT[name]: "false"})
    assert done.returncode == 3
    assert "not found" in done.stdout and done.stderr == ""
    assert outputs == ("" if name == "path-gate" else "result=error\n")
    assert job.server.requests == [] and not job.bin.exists()
    assert job.text("path") == "" and job.text("env") == ""


@pytest.mark.parametrize("name", ACTIONS)
def test_a_tampered_archive_fails_the_step_and_no_tool_runs(name, job, release, tmp_path):
    listed = job.publish(release)
    marker = tmp_path / "a-tool-ran"
    tampered = archive(VERSION, {t: f'#!/bin/sh\ntouch "{marker}"\necho "{t} (gatekit) {VERSION}"\n'.encode()
                                 for t in TOOLS})
    job.server.files[PATH] = tampered
    done, outputs = job.step(name)
    assert done.returncode == 3
    got = hashlib.sha256(tampered).hexdigest()
    assert done.stderr.endswith(
        f"::error title=setup-gatekit::{job.server.url}{PATH} has SHA-256 {got}, but checksums.txt of this action "
        f"says {listed} for gatekit {VERSION} on linux-{ARCH}: not using it. The archive was changed after the "
        "release, or the action's checksums.txt is wrong\n")
    assert not marker.exists() and not job.bin.exists()
    assert outputs == ("" if name == "path-gate" else "result=error\n")  # never a verdict
    assert job.text("path") == "" and job.text("env") == "" and job.text("fakes.log") == ""


@pytest.mark.parametrize("name", ACTIONS)
def test_a_runner_that_may_not_build_fails_with_setup_gatekits_exit_2(name, job):
    """No archive for this version, a self-hosted runner without the build packages: setup-gatekit
    refuses to install them (exit 2), and the action ends with that code and message."""
    list_release(job.checksums, "0.0.0", b"another version")
    done, outputs = job.step(name, RUNNER_ENVIRONMENT="self-hosted")
    assert done.returncode == 2
    assert (f"::error title=setup-gatekit::cannot set up gatekit {VERSION}: no usable release archive (checksums.txt "
            f"lists no release archive of gatekit {VERSION} for linux-") in done.stderr
    assert job.server.requests == []
    assert outputs == ("" if name == "path-gate" else "result=error\n")
    asked = job.text("fakes.log").splitlines()
    assert asked and all(line.startswith("dpkg-query ") for line in asked)  # never installed nor built



@pytest.mark.parametrize("name", ACTIONS)
def test_tools_of_this_version_on_path_are_used_when_gatekit_bin_names_another_folder(name, job, release):
    """setup-gatekit's probe finds them: nothing is downloaded, and the step runs them."""
    job.publish(release)
    on_path = job.work / "preinstalled"
    on_path.mkdir()
    for tool in TOOLS:
        shutil.copy(BUILD / "tools" / tool / tool, on_path / tool)
    done, outputs = job.step(name, path=f"{on_path}:/usr/bin:/bin", **{BIN_INPUT[name]: str(job.work / "nowhere")})
    assert done.returncode == 0, done.stdout + done.stderr
    assert RAN[name] in outputs.splitlines()
    assert job.server.requests == [] and not job.bin.exists()
    assert f"using the gatekit {VERSION} tools on PATH in {on_path}" in done.stderr
    assert job.text("env") == f"GATEKIT_BIN={on_path}\n"


@pytest.mark.parametrize("name", ACTIONS)
def test_a_setup_script_that_fails_otherwise_is_exit_3_never_a_verdict(name, job):
    """An exit code setup-gatekit does not document (here 1, a verdict's code) becomes 3."""
    executable(job.src / "actions" / "setup-gatekit" / "setup-gatekit.sh", "#!/bin/bash\nexit 1\n")
    done, outputs = job.step(name)
    assert done.returncode == 3
    assert done.stderr.endswith(
        f"::error title={TITLE[name]}::setting the gatekit tools up failed (setup-gatekit exit 1, see the log above)\n")
    assert outputs == ("" if name == "path-gate" else "result=error\n")


@pytest.mark.parametrize("name", ACTIONS)
def test_a_setup_that_reports_a_folder_without_the_tool_is_exit_3(name, job):
    empty = job.work / "empty-bin"
    empty.mkdir()
    # a probe that says "skip, the tools are in EMPTY" and exits 0
    executable(job.src / "actions" / "setup-gatekit" / "setup-gatekit.sh",
               f'#!/bin/bash\nprintf "skip=true\\nbin=%s\\n" "{empty}" >> "$GITHUB_OUTPUT"\n')
    done, outputs = job.step(name)
    assert done.returncode == 3
    assert done.stderr.endswith(f"::error title={TITLE[name]}::setup-gatekit set the gatekit tools up in '{empty}', "
                                f"but that folder holds no {TOOL[name]}\n")
    assert outputs == ("" if name == "path-gate" else "result=error\n")


def test_a_step_that_posts_sets_its_tools_up_verified_and_never_runs_a_look_alike(job, release, tmp_path):
    """gpu-gate-status posting (it holds the token): with no gatekit-bin input it sets the tools
    up as setup-gatekit's `verified: true` does, from the checked archive, and runs gpu-gate
    from that folder, although tools of this version sit earlier on PATH and in GATEKIT_BIN
    (a self-hosted runner's look-alikes)."""
    job.publish(release)
    marker = tmp_path / "look-alike-ran"
    early = job.work / "home-bin"
    for tool in TOOLS:
        executable(early / tool, f'#!/bin/sh\necho "$0 $*" >> "{marker}"\necho "{tool} (gatekit) {VERSION}"\n')
    env = step_env(job.src, "gpu-gate-status")
    env.update(PATH=f"{early}:{job.fakes}:/usr/bin:/bin", HOME=str(job.work), FAKE_LOG=str(job.files["fakes.log"]),
               GITHUB_ACTION_PATH=str(job.src / "actions" / "gpu-gate-status"), GITHUB_OUTPUT=str(job.work / "out"),
               RUNNER_TEMP=str(job.temp), RUNNER_ENVIRONMENT="self-hosted", GITHUB_SERVER_URL=job.server.url,
               GITHUB_ENV=str(job.files["env"]), GITHUB_PATH=str(job.files["path"]),
               GITHUB_STEP_SUMMARY=str(job.files["summary"]), GATEKIT_BIN=str(early),
               INPUT_SHA="0" * 40, INPUT_BASE="main")
    assert env["INPUT_POST"] == "true"  # the default: the step posts
    done = subprocess.run(["bash", "-c", tool_step(job.src, "gpu-gate-status")["run"]], env=env, cwd=job.work,
                          capture_output=True, text=True, timeout=120)
    assert not marker.exists(), marker.read_text()
    assert job.server.requests == [PATH]
    assert ("gpu-gate not found in the gatekit-bin input's folder: setting the gatekit tools up with setup-gatekit, "
            "verified: true (input setup: auto; a step that writes with a token never runs a tool from GATEKIT_BIN or PATH)\n"
            ) in done.stderr
    [fresh] = job.temp.glob("gatekit-verified.*")
    assert (fresh / "bin" / "gpu-gate").read_bytes() == (BUILD / "tools" / "gpu-gate" / "gpu-gate").read_bytes()
    # The real gpu-gate ran (outside a git clone it cannot evaluate): its own error, never a verdict.
    assert done.returncode in (2, 3) and "gpu-gate: error: " in done.stderr
    assert job.text("fakes.log") == ""  # no build, no apt
