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


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is dead for our purpose.
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split()[2] != "Z"


def wait_for(predicate, timeout=15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


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
