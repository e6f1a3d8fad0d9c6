"""suite-report partition on real pytest projects: a clean partition, a nightly test in no leg,
an overlap that only a conftest's added marker creates, and pytest refusing an expression."""
import sys

from suite_fixtures import make_project, run_tool

BASE_TESTS = {
    "tests/test_cpu.py": """
        import pytest

        def test_add():
            assert 1 + 1 == 2

        @pytest.mark.nightly
        def test_costly():
            pass
    """,
    "tests/test_gpu.py": """
        import pytest

        pytestmark = pytest.mark.gpu

        def test_kernel():
            pass
    """,
}


def partition(project, *extra):
    return run_tool("partition", "--selection", project / "suite.yml", "--python", sys.executable, "--root", project,
                    *extra, cwd=project)


def test_a_clean_partition_passes_in_every_context(tmp_path):
    project = make_project(tmp_path / "p", BASE_TESTS)
    run = partition(project)
    assert run.code == 0, run.stdout + run.stderr
    assert "[pr, main, gate] 2 tests: every one in exactly one leg" in run.stdout
    assert "[daily, gate-full] 3 tests: every one in exactly one leg" in run.stdout
    assert "## ✅ Test partition: every test is in exactly one leg" in run.summary
    assert "| pr, main, gate | 2 | 1 | 1 | 0 | 0 |" in run.summary
    assert run.outputs["result"] == "pass"
    assert "timing: 6 pytest collections took" in run.stdout


def test_a_nightly_cpu_test_in_no_leg_fails_on_the_daily_context(tmp_path):
    # The CPU leg excludes nightly tests itself, as the old template did: on the daily run no
    # leg selects tests/test_cpu.py::test_costly.
    project = make_project(tmp_path / "p", BASE_TESTS, cpu="not gpu and not rocm and not nightly")
    run = partition(project)
    assert run.code == 1, run.stdout + run.stderr
    assert "in no leg [daily, gate-full]: tests/test_cpu.py::test_costly" in run.stdout
    assert "[pr, main, gate] 2 tests: every one in exactly one leg" in run.stdout
    assert "### In no leg (daily, gate-full)" in run.summary
    assert "- `tests/test_cpu.py::test_costly`" in run.summary
    assert run.outputs["result"] == "fail"


def test_an_overlap_through_a_conftest_that_adds_markers(tmp_path):
    files = dict(BASE_TESTS)
    files["tests/hip/test_hip.py"] = """
        def test_hip_kernel():
            pass
    """
    # Every test under tests/hip/ gets `rocm` at collection time: nothing in the test file says so.
    files["tests/conftest.py"] = """
        import pytest

        def pytest_collection_modifyitems(items):
            for item in items:
                if "/hip/" in str(item.fspath):
                    item.add_marker(pytest.mark.rocm)
    """
    project = make_project(tmp_path / "p", files, cpu="not gpu")
    run = partition(project, "--context", "pr")
    assert run.code == 1, run.stdout + run.stderr
    assert "in cpu and gpu [pr]: tests/hip/test_hip.py::test_hip_kernel" in run.stdout
    assert "### In two legs (pr)" in run.summary
    assert "::error" not in run.stdout  # not under Actions: plain lines
    # The same suite with exact complements passes: the overlap came from the legs.
    (project / "suite.yml").write_text((project / "suite.yml").read_text().replace("markers: not gpu\n",
                                                                                   "markers: not gpu and not rocm\n"))
    assert partition(project, "--context", "pr").code == 0


def test_annotations_under_actions_name_the_test_file(tmp_path):
    project = make_project(tmp_path / "p", BASE_TESTS, cpu="not gpu and not nightly")
    run = run_tool("partition", "--selection", "suite.yml", "--python", sys.executable, "--context", "daily",
                   cwd=project, env={"GITHUB_ACTIONS": "true"})
    assert run.code == 1
    assert ("::error file=tests/test_cpu.py,title=suite-report partition::tests/test_cpu.py::test_costly is in no leg "
            "(daily): no CI job runs it") in run.stdout


def test_an_unknown_marker_in_the_selection_is_a_usage_error_quoting_pytest(tmp_path):
    project = make_project(tmp_path / "p", BASE_TESTS, gpu="gpu or cuda")
    run = partition(project, "--context", "pr")
    assert run.code == 2, run.stdout + run.stderr
    assert ("suite-report: error: pytest --collect-only -m '(gpu or cuda) and not nightly' failed (exit code 4):"
            in run.stderr)
    assert "cuda" in run.stderr.splitlines()[-1]


def test_a_collection_error_could_not_be_evaluated(tmp_path):
    files = dict(BASE_TESTS)
    files["tests/test_broken.py"] = "def test_x(:\n    pass\n"
    project = make_project(tmp_path / "p", files)
    run = partition(project, "--context", "pr")
    assert run.code == 3, run.stdout + run.stderr
    assert "suite-report: error: pytest --collect-only -m 'not nightly' failed (exit code 2):" in run.stderr
    assert run.outputs["result"] == "error"


def test_paths_from_the_selection_file_are_never_options(tmp_path):
    # pytest does not honour `--`: a path that starts with '-' is refused in the selection file.
    project = make_project(tmp_path / "p", BASE_TESTS, selection_extra="paths: ['-x', tests]\n")
    run = partition(project, "--context", "pr")
    assert run.code == 2, run.stdout + run.stderr
    assert run.stderr == (f"suite-report: error: 1 error in {project / 'suite.yml'}:\n{project / 'suite.yml'}:8:9: "
                          "paths[0]: '-x' starts with '-' and pytest would read it as an option: write ./-x\n")


def test_selection_paths_narrow_the_collection(tmp_path):
    project = make_project(tmp_path / "p", BASE_TESTS, selection_extra="paths: [tests/test_gpu.py]\n")
    run = partition(project, "--context", "pr")
    assert run.code == 0, run.stdout + run.stderr
    assert "[pr] 1 tests: every one in exactly one leg" in run.stdout
