"""smoke-runner killed mid-run (SIGTERM / SIGINT, as a cancelled GitHub job) still writes
complete reports: running smokes are stopped through their process groups (SIGTERM, then
SIGKILL for one that ignores it), smokes not started are reported as such, exit code 3."""
import json
import os
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
from process_state import alive, wait_for  # noqa: E402

TOOL = Path(os.environ.get("GATEKIT_BUILD_DIR", "build/dev")) / "tools" / "smoke-runner" / "smoke-runner"

MANIFEST = """\
smokes:
  - name: sleeper
    command: [sh, -c, "echo $$ > {tmp}/sleeper.pid; exec sleep 60"]
    pr: true
  - name: stubborn
    command: [sh, -c, "echo $$ > {tmp}/stubborn.pid; trap '' TERM; while :; do sleep 0.1; done"]
    pr: true
  - name: waiting
    command: [sh, -c, "echo should never start > {tmp}/waiting.ran"]
    pr: true
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_killed_runner_writes_complete_reports(tmp_path, sig):
    manifest = tmp_path / "smokes.yaml"
    manifest.write_text(MANIFEST.format(tmp=tmp_path))
    reports = tmp_path / "reports"
    summary = tmp_path / "summary.md"
    env = dict(os.environ, GITHUB_STEP_SUMMARY=str(summary), GATEKIT_SMOKE_TIER="pr")
    summary.touch()
    proc = subprocess.Popen([str(TOOL), "--manifest", str(manifest), "--gpus", "2", "--report-dir", str(reports)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        assert wait_for(lambda: (tmp_path / "sleeper.pid").exists() and (tmp_path / "stubborn.pid").exists()), \
            "smokes did not start"

        def progress_shows_both_running():
            # Progress reports are refreshed at most once a second.
            try:
                progress = json.loads((reports / "smoke-results.json").read_text())
            except (OSError, ValueError):
                return False
            return progress["result"] == "running" and sorted(
                s["status"] for s in progress["smokes"]) == ["not_run", "running", "running"]
        assert wait_for(progress_shows_both_running, 5)
        time.sleep(0.3)  # let the stubborn smoke install its trap
        started = time.monotonic()
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=20)
        took = time.monotonic() - started
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 3, (out, err)
    assert took < 6, f"the runner took {took:.1f}s to stop"
    name = signal.Signals(sig).name
    assert f"smoke-runner: error: cancelled: the runner received {name}; reports written" in err

    # Every smoke's processes are gone, the stubborn one included.
    for smoke in ("sleeper", "stubborn"):
        pid = int((tmp_path / f"{smoke}.pid").read_text())
        assert wait_for(lambda: not alive(pid), 3), f"{smoke} ({pid}) still running"
    assert not (tmp_path / "waiting.ran").exists()

    report = json.loads((reports / "smoke-results.json").read_text())
    assert report["result"] == "cancelled"
    assert report["exit_code"] == 3
    by_name = {s["name"]: s for s in report["smokes"]}
    assert by_name["sleeper"]["status"] == "cancelled"
    assert by_name["sleeper"]["reason"] == f"killed by signal 15 (SIGTERM) after the runner received {name}"
    assert by_name["stubborn"]["status"] == "cancelled"
    assert by_name["stubborn"]["reason"] == f"killed by signal 9 (SIGKILL) after the runner received {name}"
    assert by_name["waiting"]["status"] == "not_run"
    assert by_name["waiting"]["reason"] == f"not started: the runner received {name}"

    suite = ET.parse(reports / "smoke-junit.xml").getroot().find("testsuite")
    assert suite.get("tests") == "4" and suite.get("errors") == "3" and suite.get("skipped") == "1"
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert cases["sleeper"].find("error").get("type") == "cancelled"
    assert cases["waiting"].find("skipped").get("message") == f"not started: the runner received {name}"
    assert cases["cancelled"].find("error").get("message").startswith("cancelled: the runner received")

    text = summary.read_text()
    assert "🚫 cancelled" in text and "⚪ not run" in text
    assert (reports / "smoke-summary.md").read_text() == text
    assert not list(reports.glob("*.tmp"))


def test_reports_exist_while_running_and_after_sigkill(tmp_path):
    """Even SIGKILL (no handler can run) leaves the latest progress report behind."""
    manifest = tmp_path / "smokes.yaml"
    manifest.write_text("smokes:\n  - {name: quick, command: [true], pr: true}\n"
                        f"  - {{name: slow, command: [sh, -c, 'echo $$ > {tmp_path}/slow.pid; exec sleep 60'], pr: true}}\n")
    reports = tmp_path / "reports"
    proc = subprocess.Popen([str(TOOL), "--manifest", str(manifest), "--gpus", "1", "--tier", "pr",
                             "--report-dir", str(reports)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def quick_done():
            try:
                report = json.loads((reports / "smoke-results.json").read_text())
            except (OSError, ValueError):
                return False
            return (tmp_path / "slow.pid").exists() and any(
                s["name"] == "quick" and s["status"] == "passed" for s in report["smokes"])
        assert wait_for(quick_done)
    finally:
        proc.kill()
        proc.wait()
    report = json.loads((reports / "smoke-results.json").read_text())
    assert report["result"] == "running"
    ET.parse(reports / "smoke-junit.xml")  # whole, parseable
    # The orphaned smoke lives on in its own process group; end that group.
    pid = int((tmp_path / "slow.pid").read_text())
    if alive(pid):
        os.killpg(os.getpgid(pid), signal.SIGKILL)


# ---- GitHub's cancel sequence, replayed -----------------------------------------------------
# A cancelled step's process gets SIGINT, SIGTERM 7.5 s later and is killed 2.5 s after that
# (https://docs.github.com/en/actions/reference/workflow-cancellation-reference). The runner
# must have written every report and its `result` output within 2 s of the SIGINT, exit 3
# on its own, and leave no process behind.

STUB_CUDA = Path(os.environ.get("GATEKIT_BUILD_DIR", "build/dev")) / "tests" / "smoke-runner" / "stub" / "libgatekit_fake_cuda.so"
REPORTS_WITHIN = 2.0


def group_members(pgid: int) -> list:
    """Live (non-zombie) processes whose process group is `pgid`."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            members.append(int(stat.parent.name))
    return members


def reports_complete(tmp_path: Path, reports: Path) -> bool:
    """Every report a cancelled run promises: the JSON, the JUnit XML and the summary saying
    cancelled, and `result=cancelled` in GITHUB_OUTPUT."""
    try:
        report = json.loads((reports / "smoke-results.json").read_text())
        suite = ET.parse(reports / "smoke-junit.xml").getroot().find("testsuite")
        summary = (tmp_path / "summary.md").read_text()
        output = (tmp_path / "output").read_text()
    except (OSError, ValueError, ET.ParseError):
        return False
    return (report["result"] == "cancelled" and "result=cancelled\n" in output and
            any(c.get("name") == "cancelled" for c in suite.iter("testcase")) and
            "cancelled: the runner received SIGINT" in summary)


def replay_github_cancel(proc, tmp_path: Path, reports: Path):
    """SIGINT now, SIGTERM at +7.5 s and SIGKILL at +10 s unless the process has exited.
    Returns (seconds until the reports were complete or None, seconds until it exited)."""
    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    sent = {signal.SIGINT}
    reports_at = None
    while proc.poll() is None or reports_at is None:
        now = time.monotonic() - start
        if reports_at is None and reports_complete(tmp_path, reports):
            reports_at = now
        if proc.poll() is not None and reports_at is None:
            break  # exited without complete reports
        if proc.poll() is None and now >= 7.5 and signal.SIGTERM not in sent:
            proc.send_signal(signal.SIGTERM)
            sent.add(signal.SIGTERM)
        if proc.poll() is None and now >= 10.0:
            proc.kill()
            proc.wait()
        time.sleep(0.01)
    return reports_at, time.monotonic() - start


def start_runner(tmp_path: Path, manifest: str, extra_env: dict, gpus_option: list):
    (tmp_path / "smokes.yaml").write_text(manifest)
    (tmp_path / "output").touch()
    (tmp_path / "summary.md").touch()
    env = dict(os.environ, GITHUB_OUTPUT=str(tmp_path / "output"), GITHUB_STEP_SUMMARY=str(tmp_path / "summary.md"),
               GITHUB_ACTIONS="true", **extra_env)
    # Files, not pipes: a process left behind holding a pipe must fail an assertion, not hang the test.
    with open(tmp_path / "stdout", "w") as out, open(tmp_path / "stderr", "w") as err:
        return subprocess.Popen([str(TOOL), "--manifest", str(tmp_path / "smokes.yaml"), "--tier", "pr",
                                 "--report-dir", str(tmp_path / "reports"), *gpus_option],
                                env=env, stdout=out, stderr=err, start_new_session=True)


def finished(proc, tmp_path: Path):
    proc.wait(timeout=5)
    return (tmp_path / "stdout").read_text(), (tmp_path / "stderr").read_text()


def end_leftovers(pids, pgids):
    for pgid in pgids:
        try:
            os.killpg(pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def test_github_cancel_sequence_during_a_hung_gpu_probe(tmp_path):
    """The CUDA driver hangs in cuInit, ignoring SIGINT and SIGTERM, with a helper process in
    its group: the probe is ended at once, not after its 2-minute limit."""
    pid_file = tmp_path / "probe.pids"
    proc = start_runner(tmp_path, "smokes:\n  - {name: gpu_smoke, command: [true], pr: true}\n",
                        {"GATEKIT_CUDA_LIBRARY": str(STUB_CUDA), "GATEKIT_HIP_LIBRARY": "none",
                         "FAKE_CUDA_DEVICES": "2", "FAKE_CUDA_HANG": "1", "FAKE_CUDA_PID_FILE": str(pid_file)}, [])
    probe = helper = None
    try:
        assert wait_for(pid_file.exists, 10), "the probe did not reach cuInit"
        probe, helper = (int(p) for p in pid_file.read_text().split())
        probe_group = os.getpgid(probe)
        reports_at, exited_at = replay_github_cancel(proc, tmp_path, tmp_path / "reports")
        out, err = finished(proc, tmp_path)
    finally:
        end_leftovers([p for p in (probe, helper) if p], [p for p in (probe,) if p])
        if proc.poll() is None:
            proc.kill()
    assert reports_at is not None and reports_at <= REPORTS_WITHIN, (reports_at, out, err)
    assert exited_at < 7.5, "the runner waited for GitHub's SIGTERM"
    assert proc.returncode == 3, (proc.returncode, out, err)
    assert err == "smoke-runner: error: cancelled: the runner received SIGINT; reports written\n"
    assert not alive(probe) and not alive(helper)
    assert probe_group == probe != proc.pid, "the probe leads its own process group"
    assert group_members(probe) == []

    report = json.loads((tmp_path / "reports" / "smoke-results.json").read_text())
    assert report["gpus"] is None and report["exit_code"] == 3
    assert [(s["name"], s["status"], s["reason"]) for s in report["smokes"]] == [
        ("gpu_smoke", "not_run", "not started: the runner received SIGINT")]
    output = (tmp_path / "output").read_text()
    assert output.splitlines()[0] == "result=cancelled"
    assert "skipped=0" in output.splitlines()


def test_github_cancel_sequence_during_a_smoke_whose_child_ignores_sigint(tmp_path):
    """A running smoke that ignores SIGINT and SIGTERM, as does a child it started (in its
    process group): both are killed within the grace, the reports follow."""
    manifest = f"""\
smokes:
  - name: deaf
    command:
      - sh
      - -c
      - |
        trap '' INT TERM
        sh -c 'trap "" INT TERM; echo $$ > {tmp_path}/child.pid; while :; do sleep 0.1; done' &
        echo $$ > {tmp_path}/smoke.pid
        while :; do sleep 0.1; done
    pr: true
    kill_grace: 30s
"""
    proc = start_runner(tmp_path, manifest, {}, ["--gpus", "1"])
    smoke = child = None
    try:
        assert wait_for(lambda: (tmp_path / "smoke.pid").exists() and (tmp_path / "child.pid").exists(), 10)
        time.sleep(0.2)  # the child's trap is in place
        smoke = int((tmp_path / "smoke.pid").read_text())
        child = int((tmp_path / "child.pid").read_text())
        pgid = os.getpgid(smoke)
        assert os.getpgid(child) == pgid != os.getpgid(proc.pid)
        reports_at, exited_at = replay_github_cancel(proc, tmp_path, tmp_path / "reports")
        out, err = finished(proc, tmp_path)
    finally:
        end_leftovers([p for p in (smoke, child) if p], [])
        if proc.poll() is None:
            proc.kill()
    assert reports_at is not None and reports_at <= REPORTS_WITHIN, (reports_at, out, err)
    assert exited_at < 7.5
    assert proc.returncode == 3, (proc.returncode, out, err)
    assert err == "smoke-runner: error: cancelled: the runner received SIGINT; reports written\n"
    assert not alive(smoke) and not alive(child)
    assert group_members(pgid) == []
    report = json.loads((tmp_path / "reports" / "smoke-results.json").read_text())
    assert [(s["name"], s["status"], s["reason"]) for s in report["smokes"]] == [
        ("deaf", "cancelled", "killed by signal 9 (SIGKILL) after the runner received SIGINT")]
    assert "CANCELLED deaf: killed by signal 9 (SIGKILL) after the runner received SIGINT" in out
