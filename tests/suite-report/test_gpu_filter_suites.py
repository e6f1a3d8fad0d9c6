"""suite-report gpu-filter on real pytest projects in real git repositories, with the built
path-classifier answering for the rules: a GPU test in a file outside the GPU filter, a GPU
test importing a module outside it, a filter that covers everything, and the refusals."""
import os
import subprocess
import sys
import textwrap

from suite_fixtures import BUILD, make_project, run_tool

CLASSIFIER = BUILD / "tools" / "path-classifier" / "path-classifier"

PYTHONPATH = '\npythonpath = ["src"]\n'

RULES = """\
filters:
  cpu:
    mode: deny
    paths: ['docs/**']
  gpu:
    paths:
      - 'tests/gpu/**'
      - 'src/pkg/kernels/**'
      - src/pkg/__init__.py
      - tests/conftest.py
"""

FILES = {
    "tests/conftest.py": "",
    "tests/test_cpu.py": """
        def test_add():
            assert 1 + 1 == 2
    """,
    "tests/gpu/test_kernels.py": """
        import queue  # the standard library's, not src/pkg/stream/queue.py
        import pytest

        from pkg.kernels import attention

        @pytest.mark.gpu
        def test_attention():
            assert attention.run() == 1
    """,
    "src/pkg/__init__.py": "",
    "src/pkg/kernels/__init__.py": "",
    "src/pkg/kernels/attention.py": """
        def run():
            return 1
    """,
    "src/pkg/stream/__init__.py": "",
    "src/pkg/stream/queue.py": "",
    "src/pkg/util.py": """
        def one():
            return 1
    """,
}


def project_with(tmp_path, extra=None, rules=RULES):
    files = dict(FILES)
    files.update(extra or {})
    project = make_project(tmp_path / "p", files)
    with open(project / "pyproject.toml", "a") as f:
        f.write(PYTHONPATH)
    (project / ".github" / "gatekit").mkdir(parents=True)
    (project / ".github" / "gatekit" / "filters.yml").write_text(rules)
    env = {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "PATH": os.environ["PATH"]}
    subprocess.run(["git", "init", "-q"], cwd=project, check=True, env=env)
    subprocess.run(["git", "add", "-A"], cwd=project, check=True, env=env)
    return project


def gpu_filter(project, *extra):
    return run_tool("gpu-filter", "--selection", "suite.yml", "--python", sys.executable, "--root", ".",
                    "--path-classifier", CLASSIFIER, *extra, cwd=project)


def test_every_file_the_gpu_leg_reads_is_covered(tmp_path):
    run = gpu_filter(project_with(tmp_path))
    assert run.code == 0, run.stdout + run.stderr
    # test_kernels.py, tests/conftest.py, src/pkg/__init__.py, kernels/__init__.py, attention.py:
    # `import queue` did not take in src/pkg/stream/queue.py.
    assert "GPU filter: 5 files read by the GPU legs, 0 outside the gpu filter" in run.stdout
    assert "## ✅ GPU filter: it covers every file the GPU legs read" in run.summary
    assert run.outputs == {"result": "pass", "escapes": "0"}


def test_a_gpu_test_in_a_file_outside_the_filter_is_named_with_its_pattern(tmp_path):
    project = project_with(tmp_path, {"tests/test_misc.py": """
        import pytest

        @pytest.mark.gpu
        def test_on_the_device():
            pass
    """})
    run = gpu_filter(project)
    assert run.code == 1, run.stdout + run.stderr
    message = ("tests/test_misc.py is not in the gpu filter of .github/gatekit/filters.yml (the GPU leg runs it), so "
               "a pull request changing it runs no GPU job; add tests/test_misc.py to the filter")
    assert "tests/test_misc.py: " + message in run.stdout.splitlines()
    assert "| `tests/test_misc.py` | `tests/test_misc.py` | selected by the leg | `tests/test_misc.py` |" in run.summary
    assert "## ❌ GPU filter: 1 file the GPU legs read escapes it" in run.summary
    assert run.outputs == {"result": "fail", "escapes": "1"}


def test_a_gpu_test_importing_a_module_outside_the_filter_names_the_module_and_the_test(tmp_path):
    project = project_with(tmp_path, {"tests/gpu/test_util.py": """
        import pytest

        @pytest.mark.gpu
        def test_util():
            from pkg import util
            assert util.one() == 1
    """})
    run = gpu_filter(project)
    assert run.code == 1, run.stdout + run.stderr
    message = ("src/pkg/util.py is not in the gpu filter of .github/gatekit/filters.yml (the GPU leg reads it: "
               "tests/gpu/test_util.py imports src/pkg/util.py (line 6)), so a pull request changing it runs no GPU "
               "job; add src/pkg/** to the filter")
    assert "tests/gpu/test_util.py:6: " + message in run.stdout.splitlines()
    assert ("| `src/pkg/util.py` | `tests/gpu/test_util.py` | tests/gpu/test\\_util.py imports src/pkg/util.py "
            "(line 6) | `src/pkg/**` |") in run.summary
    assert run.outputs == {"result": "fail", "escapes": "1"}


def test_a_filter_the_rules_lack_and_invalid_rules_are_usage_errors(tmp_path):
    project = project_with(tmp_path)
    run = gpu_filter(project, "--filter", "cuda")
    assert run.code == 2, run.stdout + run.stderr
    assert run.stderr == ("suite-report: error: .github/gatekit/filters.yml has no filter 'cuda' (filters: cpu, gpu); "
                          "--filter names the GPU filter\n")
    assert run.outputs == {"result": "error"}
    (project / ".github" / "gatekit" / "filters.yml").write_text("filters: [1]\n")
    run = gpu_filter(project)
    assert run.code == 2, run.stdout + run.stderr
    assert run.stderr == ("suite-report: error: " + str(CLASSIFIER) + " --rules .github/gatekit/filters.yml "
                          "--match-batch failed (exit code 2): path-classifier: error: 1 error in "
                          ".github/gatekit/filters.yml: .github/gatekit/filters.yml:1:10: filters: expected a map of "
                          "filter name to rules, got a list\n")


def test_no_classifier_or_no_git_repository_could_not_be_evaluated(tmp_path):
    project = project_with(tmp_path)
    run = run_tool("gpu-filter", "--selection", "suite.yml", "--python", sys.executable, "--path-classifier",
                   tmp_path / "no-such-classifier", cwd=project)
    assert run.code == 3, run.stdout + run.stderr
    assert "suite-report: error: cannot run " + str(tmp_path / "no-such-classifier") in run.stderr
    plain = make_project(tmp_path / "plain", {"tests/test_g.py": textwrap.dedent("""
        import pytest

        @pytest.mark.gpu
        def test_g():
            pass
    """)})
    (plain / "filters.yml").write_text(RULES)
    run = run_tool("gpu-filter", "--selection", "suite.yml", "--rules", "filters.yml", "--python", sys.executable,
                   "--path-classifier", CLASSIFIER, cwd=plain, env={"GIT_CEILING_DIRECTORIES": str(tmp_path)})
    assert run.code == 3, run.stdout + run.stderr
    assert "suite-report: error: git ls-files -z --cached --others --exclude-standard -- *.py failed" in run.stderr
