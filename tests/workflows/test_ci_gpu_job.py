"""gatekit's own real-GPU job (`test-gpu` of .github/workflows/ci.yml): when it runs, decided by
GitHub's expression engine (tests/support/job-if.mjs) on the job's own `if:`, and what it runs.
It must never wait for a runner a repository lacks (no variable: skipped), never run a fork's
pull request, and never read twelve skips as green (GATEKIT_REQUIRE_GPU=1, docs/contributing.md,
"On a real GPU")."""
import os
import re
import shlex
import sys
from pathlib import Path

import yaml

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(SOURCE / "tests" / "support"))
from job_if import job_if_runs  # noqa: E402

CI = SOURCE / ".github" / "workflows" / "ci.yml"
REPO = "gatekit/gatekit"
JOB = yaml.safe_load(CI.read_text())["jobs"]["test-gpu"]


def runs(cases: list[dict]) -> list[bool]:
    return job_if_runs([JOB["if"]], cases)[0]


def github(event_name: str, head_repo: str = REPO) -> dict:
    context = {"event_name": event_name, "repository": REPO, "ref": "refs/heads/main", "event": {}}
    if event_name == "pull_request":
        context["event"] = {"pull_request": {"number": 7, "head": {"repo": {"full_name": head_repo}}}}
    return context


def test_the_job_runs_only_where_the_repository_has_the_runner_and_never_for_a_fork():
    has_runner = {"GATEKIT_GPU_RUNNER": "true"}
    cases = [
        ({"github": github("push"), "vars": {}}, False),  # a clone or fork without the runner
        ({"github": github("push"), "vars": {"GATEKIT_GPU_RUNNER": "false"}}, False),
        ({"github": github("push"), "vars": {"GATEKIT_GPU_RUNNER": "yes"}}, False),
        ({"github": github("push"), "vars": has_runner}, True),
        ({"github": github("merge_group"), "vars": has_runner}, True),
        ({"github": github("workflow_dispatch"), "vars": has_runner}, True),
        ({"github": github("pull_request"), "vars": has_runner}, True),
        # GitHub gives a fork's pull request no variables; the repository test holds even if it did
        ({"github": github("pull_request", "contributor/gatekit"), "vars": {}}, False),
        ({"github": github("pull_request", "contributor/gatekit"), "vars": has_runner}, False),
    ]
    assert runs([case for case, _ in cases]) == [want for _, want in cases]


def test_the_job_builds_and_runs_the_real_gpu_files_on_the_host_with_the_gpu_required():
    assert JOB["runs-on"] == ["self-hosted", "linux", "nvidia"]
    assert "container" not in JOB  # the tests read the host's NVIDIA driver
    assert JOB["permissions"] == {"contents": "read"}
    assert JOB["steps"][0]["with"] == {"persist-credentials": False}
    test_step = JOB["steps"][-1]
    assert test_step["env"] == {"GATEKIT_REQUIRE_GPU": "1", "GATEKIT_BUILD_DIR": "build/release"}
    words = shlex.split(test_step["run"].replace("\\\n", " "))
    files = [w for w in words if w.startswith("tests/") and w.endswith(".py")]
    assert files == ["tests/smoke-runner/test_smokes_on_a_real_gpu.py", "tests/gpu-gate/test_gate_on_a_real_gpu.py"]
    assert all((SOURCE / f).is_file() for f in files)
    # the same files as the command docs/contributing.md gives for a GPU machine
    guide = (SOURCE / "docs" / "contributing.md").read_text()
    command = guide[guide.index("GATEKIT_REQUIRE_GPU=1 GATEKIT_BUILD_DIR="):]
    command = command[:command.index("\n\n")]
    assert [w for w in shlex.split(command.replace("\\\n", " ")) if w.endswith(".py")] == files
    build = JOB["steps"][1]["run"]
    assert "cmake --preset release" in build and "cmake --build --preset release" in build
    # it builds the tools the files run (their `tools/NAME/NAME` paths), and only those
    built = shlex.split(build[build.index("--target"):].splitlines()[0])[1:]
    used = sorted({m for f in files for m in re.findall(r'"tools" / "([a-z-]+)" / "\1"', (SOURCE / f).read_text())})
    assert used == ["gpu-gate", "smoke-runner"]
    assert sorted(built) == used
