"""smoke-runner on a machine with a real NVIDIA GPU and its driver: the core's GPU probe and
the device assignment, judged against the driver itself (tests/support/real_cuda.py reads it
through ctypes, sharing no code with gatekit). Everywhere else the probe is tested against
the stub runtimes of tests/smoke-runner/stub; this file skips on a machine without a CUDA
driver. docs/contributing.md, "On a real GPU", says how to run it and what it last showed."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(SOURCE / "tests" / "support"))
import real_cuda  # noqa: E402
from process_state import alive  # noqa: E402

# Skipped test by test (a module-level skip would collect nothing, which pytest calls a failure);
# failed instead where GATEKIT_REQUIRE_GPU=1 (real_cuda.required()).
HOST, WHY_NOT = real_cuda.host()
pytestmark, gpu_reached = real_cuda.skip_or_fail(HOST, WHY_NOT)


@pytest.fixture(autouse=True)
def _the_driver_is_reached():
    gpu_reached()

TOOL = Path(os.environ.get("GATEKIT_BUILD_DIR", "build/dev")) / "tools" / "smoke-runner" / "smoke-runner"
WORKLOAD = str(SOURCE / "tests" / "support" / "real_cuda.py")


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("GITHUB_", "GATEKIT_SMOKE", "CUDA_VISIBLE", "HIP_VISIBLE", "ROCR_VISIBLE"))}
    env.update(extra)
    return env


def manifest(tmp_path, host_count):
    """One smoke per GPU count from 1 to all (each checks it sees exactly its share), one
    that needs a GPU more than the machine has, and one the driver fails."""
    lines = ["smokes:"]
    for n in range(1, host_count + 1):
        lines += [f"  - name: work-{n}", f"    command: [{sys.executable}, {WORKLOAD}, work, --expect, '{n}']",
                  f"    min_gpus: {n}", "    pr: true"]
    lines += ["  - name: too-big", f"    command: [{sys.executable}, {WORKLOAD}, work, --expect, '{host_count + 1}']",
              f"    min_gpus: {host_count + 1}", "    pr: true",
              "  - name: bad-device", f"    command: [{sys.executable}, {WORKLOAD}, bad-device]", "    pr: true"]
    path = tmp_path / "smokes.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def run(tmp_path, env, *extra, smokes=None):
    """smoke-runner's pr tier on `smokes` (a manifest's path; default: manifest()), with its
    time printed; the completed process and the parsed smoke-results.json."""
    reports = tmp_path / "reports"
    summary = tmp_path / "summary.md"
    summary.write_text("")
    started = time.monotonic()
    done = subprocess.run([str(TOOL), "--tier", "pr", "--manifest", str(smokes or manifest(tmp_path, HOST["count"])),
                           "--report-dir", str(reports), *extra],
                          env=dict(env, GITHUB_STEP_SUMMARY=str(summary)), capture_output=True, text=True)
    done.seconds = time.monotonic() - started
    print(f"smoke-runner took {done.seconds:.2f} s; stdout:\n{done.stdout}\nstderr:\n{done.stderr}")
    results = reports / "smoke-results.json"
    return done, (json.loads(results.read_text()) if results.exists() else None)


def expected_gpus_line(facts):
    names = facts["names"]
    grouped = []
    for name in dict.fromkeys(names):
        n = names.count(name)
        grouped.append(f"{name} x{n}" if n > 1 else name)
    count = f"{facts['count']} GPU" + ("" if facts["count"] == 1 else "s")
    # Without the closing parenthesis: the runner's own visibility variables may follow.
    return f"GPUs: {count} (cuda: {', '.join(grouped)}, driver {facts['driver']}"


def test_the_probe_counts_and_names_what_the_driver_sees_and_every_smoke_gets_its_share(tmp_path):
    done, report = run(tmp_path, clean_env())
    assert done.stdout.splitlines()[0].startswith(expected_gpus_line(HOST))
    gpus = report["gpus"]
    assert (gpus["backend"], gpus["count"], gpus["driver_version"]) == ("cuda", HOST["count"], HOST["driver"])
    assert [d["name"] for d in gpus["devices"]] == HOST["names"]
    by_name = {s["name"]: s for s in report["smokes"]}
    for n in range(1, HOST["count"] + 1):
        smoke = by_name[f"work-{n}"]
        assert smoke["status"] == "passed", smoke["output_tail"]
        assert len(smoke["devices"]) == n
        assert f"visible devices: {n}" in smoke["output_tail"]
    assert by_name["too-big"]["status"] == "skipped"
    assert by_name["too-big"]["reason"] == f"needs {HOST['count'] + 1} GPUs, runner has {HOST['count']}"
    # The driver's own failure is a failure, not a pass: CUDA_ERROR_INVALID_DEVICE (101).
    assert by_name["bad-device"]["status"] == "failed"
    assert "cuDeviceGet failed with CUresult 101" in by_name["bad-device"]["output_tail"]
    assert done.returncode == 1
    assert report["counts"]["passed"] == HOST["count"] and report["counts"]["skipped"] == 1


def test_a_runner_narrowed_to_one_gpu_by_its_uuid_hands_that_gpu_on(tmp_path):
    """CUDA_VISIBLE_DEVICES by UUID (as a fleet's runner is often started): the probe sees one
    device, and the smoke, given the composed value, sees the same one."""
    uuid = HOST["uuids"][-1]
    env = clean_env(CUDA_VISIBLE_DEVICES=uuid)
    narrowed = real_cuda.facts(env)
    assert narrowed["count"] == 1 and narrowed["uuids"] == [uuid]
    done, report = run(tmp_path, env)
    assert report["gpus"]["count"] == 1
    assert report["gpus"]["visibility"]["CUDA_VISIBLE_DEVICES"] == uuid
    smoke = {s["name"]: s for s in report["smokes"]}["work-1"]
    assert smoke["status"] == "passed", smoke["output_tail"]
    assert f"CUDA_VISIBLE_DEVICES={uuid}" in smoke["output_tail"]
    assert f"{uuid}): 64 MiB written and read back" in smoke["output_tail"]


@pytest.mark.parametrize("hidden", ["", "-1", "past the last"])
def test_a_visibility_variable_that_hides_every_gpu_is_no_gpu_not_a_pass(tmp_path, hidden):
    """The driver itself reports no device (cuInit: CUDA_ERROR_NO_DEVICE) for an empty list, an
    invalid index and an index past the last GPU."""
    if hidden == "past the last":
        hidden = str(HOST["count"] + 3)
    env = clean_env(CUDA_VISIBLE_DEVICES=hidden, GATEKIT_HIP_LIBRARY="none")
    assert real_cuda.facts(env)["count"] == 0
    done, report = run(tmp_path, env)
    assert done.returncode == 3
    assert done.stdout.splitlines()[0].startswith(
        f"GPUs: 0 GPUs (hip: disabled, cuda: libcuda.so.1 sees no device, CUDA_VISIBLE_DEVICES={hidden}")
    assert "smoke-runner: error: no GPU is visible to this job." in done.stderr
    assert report["result"] == "error" and report["counts"]["passed"] == 0


def test_a_smoke_whose_kernel_outlives_its_timeout_is_killed_and_the_gpu_works_after(tmp_path):
    """A hung kernel (one that would spin for two minutes) in a smoke with a 3 s timeout: the
    smoke times out, its process dies inside the driver's wait, and the GPU serves the next."""
    smokes = tmp_path / "hung.yaml"
    smokes.write_text("smokes:\n  - name: hung-kernel\n"
                      f"    command: [{sys.executable}, {WORKLOAD}, spin, '120']\n"
                      "    timeout: 3s\n    kill_grace: 2s\n    pr: true\n")
    done, report = run(tmp_path, clean_env(), smokes=smokes)
    (smoke,) = report["smokes"]
    assert smoke["status"] == "timed_out", smoke
    assert "kernel launched: spins for 120.0 s" in smoke["output_tail"]
    assert "kernel ended" not in smoke["output_tail"]
    assert done.returncode == 1 and done.seconds < 30
    assert real_cuda.works_in_a_fresh_process(HOST["count"], clean_env())


def test_a_process_a_smoke_leaves_holding_the_gpu_is_killed_at_the_end_of_the_run(tmp_path):
    """A smoke that leaves a process of its own session (setsid) holding GPU memory: the runner
    kills it before it ends, says so, and the memory is free for the next job."""
    pid_file = tmp_path / "holder.pid"
    smokes = tmp_path / "escape.yaml"
    smokes.write_text("smokes:\n  - name: escape\n"
                      f"    command: [{sys.executable}, {WORKLOAD}, escape, {pid_file}]\n    pr: true\n")
    done, report = run(tmp_path, clean_env(), smokes=smokes)
    holder = int(pid_file.read_text())
    assert report["smokes"][0]["status"] == "passed" and done.returncode == 0
    assert ("1 process left running by smokes outside their process groups (setsid) killed at the end of the run"
            in done.stdout + done.stderr)
    assert not alive(holder)
    assert real_cuda.works_in_a_fresh_process(HOST["count"], clean_env())
