"""suite-report unmarked and ran on reports of real pytest runs: a GPU test without its marker
caught on the CPU leg, and a GPU leg on a runner without GPUs that skips everything."""
import sys

from suite_fixtures import GPU_FIXTURE, make_project, run_pytest, run_tool

TESTS = {
    "tests/conftest.py": GPU_FIXTURE,
    "tests/test_cpu.py": """
        import pytest

        def test_add():
            assert 1 + 1 == 2

        @pytest.mark.skip(reason="needs network")
        def test_download():
            pass

        @pytest.mark.xfail(reason="no GPU path yet", run=False)
        def test_future():
            pass
    """,
    # The mistake: a GPU test whose only guard is the fixture's skip. No marker, so the CPU
    # leg selects it, where it skips.
    "tests/test_queue_eval.py": """
        def test_hw_queue_eval(gpu):
            assert gpu == 0
    """,
    "tests/kernels/test_kernels.py": """
        import pytest

        pytestmark = pytest.mark.gpu

        def test_kernel(gpu):
            assert gpu == 0

        @pytest.mark.rocm
        def test_rocm_kernel(gpu):
            pass
    """,
}


def test_unmarked_names_the_gpu_test_that_skipped_on_the_cpu_leg(tmp_path):
    project = make_project(tmp_path / "p", TESTS)
    run_pytest(project, "not gpu and not rocm", tmp_path / "cpu.xml")
    run = run_tool("unmarked", "--selection", "suite.yml", "--leg", "cpu", "--report", tmp_path / "cpu.xml",
                   cwd=project)
    assert run.code == 1, run.stdout + run.stderr
    assert ('tests/test_queue_eval.py::test_hw_queue_eval: skipped on the cpu leg ("no GPU visible (FAKE_GPUS=0)"): '
            "mark it @pytest.mark.gpu") in run.stdout
    assert "test_download" not in run.stdout  # skipped, but not for want of a device
    assert "test_future" not in run.stdout    # an xfail whose reason mentions a GPU
    assert "## ❌ 1 GPU test without a GPU marker in the cpu leg" in run.summary
    assert "| `tests/test_queue_eval.py::test_hw_queue_eval` | no GPU visible (FAKE\\_GPUS=0) | `@pytest.mark.gpu` |" \
        in run.summary
    assert run.outputs == {"result": "fail", "unmarked": "1"}


def test_unmarked_passes_once_the_test_carries_its_marker(tmp_path):
    tests = dict(TESTS)
    tests["tests/test_queue_eval.py"] = """
        import pytest

        @pytest.mark.gpu
        def test_hw_queue_eval(gpu):
            assert gpu == 0
    """
    project = make_project(tmp_path / "p", tests)
    run_pytest(project, "not gpu and not rocm", tmp_path / "cpu.xml")
    run = run_tool("unmarked", "--selection", "suite.yml", "--leg", "cpu", "--report", tmp_path / "cpu.xml",
                   cwd=project)
    assert run.code == 0, run.stdout + run.stderr
    assert "## ✅ No device test hides in the cpu leg" in run.summary


def test_unmarked_annotates_the_file_under_actions(tmp_path):
    project = make_project(tmp_path / "p", TESTS)
    run_pytest(project, "not gpu and not rocm", tmp_path / "cpu.xml")
    run = run_tool("unmarked", "--selection", "suite.yml", "--leg", "cpu", "--report", tmp_path / "cpu.xml",
                   cwd=project, env={"GITHUB_ACTIONS": "true"})
    assert run.code == 1
    assert "::error file=tests/test_queue_eval.py,title=GPU test without a GPU marker::" in run.stdout


def test_unmarked_refuses_a_gpu_leg(tmp_path):
    project = make_project(tmp_path / "p", TESTS)
    run_pytest(project, "gpu or rocm", tmp_path / "gpu.xml")
    run = run_tool("unmarked", "--selection", "suite.yml", "--leg", "gpu", "--report", tmp_path / "gpu.xml",
                   cwd=project)
    assert run.code == 2
    assert run.stderr == ("suite-report: error: leg 'gpu' is a GPU leg (device: gpu): unmarked reads a CPU leg's "
                          "report\n")


def ran(project, report, *extra, env=None):
    return run_tool("ran", "--selection", "suite.yml", "--leg", "gpu", "--report", report, "--python", sys.executable,
                    "--context", "pr", *extra, cwd=project, env=env)


def test_ran_a_gpu_leg_that_skipped_everything_could_not_be_evaluated(tmp_path):
    project = make_project(tmp_path / "p", TESTS)
    assert run_pytest(project, "gpu or rocm", tmp_path / "gpu.xml") == 0  # pytest itself says: green
    run = ran(project, tmp_path / "gpu.xml")
    assert run.code == 3, run.stdout + run.stderr
    assert "leg gpu: zero tests ran: all 2 tests in the report were skipped" in run.stdout
    assert "skipped 2x: no GPU visible (FAKE_GPUS=0)" in run.stdout
    assert "| no GPU visible (FAKE\\_GPUS=0) | 2 |" in run.summary
    assert run.outputs == {"result": "error", "ran": "0"}


def test_ran_passes_when_the_gpus_are_there(tmp_path):
    project = make_project(tmp_path / "p", TESTS)
    run_pytest(project, "gpu or rocm", tmp_path / "gpu.xml", env_extra={"FAKE_GPUS": "1"})
    run = ran(project, tmp_path / "gpu.xml")
    assert run.code == 0, run.stdout + run.stderr
    assert "leg gpu: 2 of 2 tests ran" in run.stdout


def test_ran_an_empty_report_of_a_non_empty_selection_could_not_be_evaluated(tmp_path):
    project = make_project(tmp_path / "p", TESTS)
    # The leg ran a narrower selection than the file gives it: its report is empty.
    run_pytest(project, "gpu and rocm and not gpu", tmp_path / "gpu.xml")
    run = ran(project, tmp_path / "gpu.xml")
    assert run.code == 3, run.stdout + run.stderr
    assert "zero tests ran: the report has no test, but the leg's selection has 2 in context pr" in run.stdout


def test_ran_an_empty_selection_is_nothing_to_run(tmp_path):
    tests = {k: v for k, v in TESTS.items() if "kernels" not in k}
    project = make_project(tmp_path / "p", tests)
    run_pytest(project, "gpu or rocm", tmp_path / "gpu.xml")
    run = ran(project, tmp_path / "gpu.xml")
    assert run.code == 0, run.stdout + run.stderr
    assert "leg gpu: the leg's selection is empty in context pr: nothing to run" in run.stdout


def test_ran_checks_that_the_legs_extras_import(tmp_path):
    project = make_project(tmp_path / "p", TESTS, selection_extra="    imports: [json, gatekit_no_such_module]\n")
    run_pytest(project, "gpu or rocm", tmp_path / "gpu.xml", env_extra={"FAKE_GPUS": "1"})
    run = ran(project, tmp_path / "gpu.xml")
    assert run.code == 3, run.stdout + run.stderr
    assert "import json: ok" in run.stdout
    assert "import gatekit_no_such_module: ModuleNotFoundError: No module named 'gatekit_no_such_module'" in run.stdout
    assert "| `gatekit_no_such_module` | ModuleNotFoundError: No module named 'gatekit\\_no\\_such\\_module' |" \
        in run.summary


def test_ran_a_missing_report_could_not_be_evaluated(tmp_path):
    project = make_project(tmp_path / "p", TESTS)
    run = ran(project, tmp_path / "none.xml")
    assert run.code == 3
    assert run.stderr == f"suite-report: error: {tmp_path / 'none.xml'}: cannot read the report (missing or unreadable)\n"
