"""The README's main job (scripts/demo.py) on the built tools: every prepared change of the
demo project gets the required-check verdicts the demo promises, the test-selection stage
(suite-report) proves the partition, catches the unmarked GPU test, notices the growth and
catches a GPU test outside the gpu filter, the second project (an ML repository adopted through
the scaffold) gets its verdicts, and the summaries exist."""
import os
import re
import subprocess
import sys
from pathlib import Path

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BUILD = Path(os.environ["GATEKIT_BUILD_DIR"])


def test_demo_pipeline_gives_the_expected_verdicts(tmp_path):
    done = subprocess.run([sys.executable, str(SOURCE / "scripts" / "demo.py"), "--bin", str(BUILD / "tools"),
                           "--out", str(tmp_path)], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr
    table = done.stdout[done.stdout.index("━━ Verdict"):]
    changes = table.split("selection check")[0]  # the first table: one row per prepared change
    rows = {line.split()[0]: line for line in changes.splitlines() if re.match(r"\s+(docs-only|kernel|broken)\s", line)}
    # A docs-only change runs the docs tests on one CPU job (suite.yml's docs section).
    assert re.search(r"docs-only\s+docs\s+docs passed\s+skipped\s+skipped\s+✔ pass\s+✔ pass", rows["docs-only"])
    assert re.search(r"kernel\s+cpu, gpu, docs\s+passed\s+passed\s+passed\s+✔ pass\s+✔ pass", rows["kernel"])
    assert re.search(r"broken\s+cpu, gpu\s+FAILED\s+FAILED\s+FAILED\s+✘ fail\s+✘ fail", rows["broken"])
    # The GPU leg runs as the template's 3 shards, merged into one report, one check.
    assert done.stdout.count("in 3 shards (suite-report shard") == 3
    assert re.search(r"wrote the merged report \(\d+ tests\)", done.stdout)
    assert re.search(r"partition proof\s+yes\s+✔ every test in one leg", table)
    assert re.search(r"unmarked GPU test caught\s+yes\s+✔ 1 test named, exit 1", table)
    assert re.search(r"growth notice\s+yes\s+✔ 120 new tests, notice=true", table)
    assert re.search(r"gpu filter covers the GPU leg\s+yes\s+✔ exit 0", table)
    assert re.search(r"GPU test outside the gpu filter caught\s+yes\s+✔ 1 file named, exit 1", table)
    assert ("tests/test_queue_gpu.py: tests/test_queue_gpu.py is not in the gpu filter of .github/gatekit/filters.yml "
            "(the GPU leg runs it), so a pull request changing it runs no GPU job; add tests/test_queue_gpu.py to the "
            "filter") in done.stdout
    # The flaky-tracker part: green with a warning on rerun, an issue opened, closed by rule.
    assert re.search(r"rerun: the leg passes, with one warning naming the flaky test\s+yes\s+✔ exit 0, flaky=1", table)
    assert re.search(r"the issue closed after 20 green main runs, with a comment saying why\s+yes\s+✔ closed", table)
    # The GPU gate part, in strict mode: the pull request's own run posts nothing, then one
    # status per commit, with the exact descriptions.
    assert re.search(r"strict mode: the pull_request run posts nothing\s+yes\s+✔ exit 2, 0 statuses posted", table)
    assert re.search(r"kernel change: success \"passed in …\"\s+yes\s+✔ success: passed in \d+s", table)
    assert re.search(r"✔ success: inherited from [0-9a-f]{12}, docs-only delta", table)
    assert re.search(r"✔ pending: no gate result for this tree", table)
    # The required-checks part: gatekit-doctor names each mistake of the broken setup with its
    # fix, and passes the fixed one.
    assert re.search(r"a broken setup: every mistake named with its fix\s+yes\s+✔ 4 findings, exit 1", table)
    assert re.search(r"the fixed setup: all is well\s+yes\s+✔ result=pass, exit 0", table)
    assert 'fix: rename the required check "CPU test" to "CPU tests" in ruleset 1' in done.stdout
    # The second project (demo_ml.py): scaffolded with no hand edits, every verdict right
    # (tests/demo/test_demo_ml.py checks each).
    assert re.search(r"the scaffold wrote the workflows, rules, selections and markers; nothing edited by hand\s+yes\s+"
                     r"✔ 7 files", table)
    for change, cpu, gpu in (("docs-only", "pass", "pass"), ("image", "pass", "pass"), ("kernel-bug", "pass", "fail"),
                             ("unmarked", "fail", "pass")):
        assert re.search(rf"{change}: CPU tests {cpu}, GPU tests {gpu}\s+yes\s+✔ CPU tests {cpu}, GPU tests {gpu}", table)
    # The last stage: ci-report over the runs the demo made costs the GPU legs the docs-only
    # change skipped at what they took when the kernel change ran them.
    assert re.search(r"the GPU legs the docs-only change skipped are counted as saved\s+yes\s+✔ 2 GPU legs, \d+ s saved",
                     table)
    # A pull request from a fork, its GPU legs skipped: counted apart, never as saved.
    assert re.search(r"a fork's skipped GPU legs are told apart, never counted as saved\s+yes\s+✔ 2 legs skipped: fork",
                     table)
    assert re.search(r"the report is complete\s+yes\s+✔ 7 runs, 25 jobs", table)
    assert (tmp_path / "ci-report" / "summary.md").read_text().startswith("## CI report: ")
    assert "✘" not in table.split("broken")[1].split("✱ the two")[0].replace("✘ fail", "")
    assert ("tests/test_queue_eval.py::test_hw_queue_eval: skipped on the cpu leg (\"no GPU visible "
            "(TINYML_FAKE_GPUS=0); set TINYML_FAKE_GPUS=1 to fake one\"): mark it @pytest.mark.gpu") in done.stdout
    assert "notice: suite growth: This change adds 120 tests" in done.stdout
    assert ("Every required check came out as expected for its change and every selection check as expected."
            in done.stdout)

    summary = (tmp_path / "summary.md").read_text()
    for heading in ("# Change 1:", "# Change 2:", "# Change 3:", "## Path gate", "## ✅ CPU tests: passed",
                    "GPU smokes", "```mermaid", "# Test selections (suite-report)",
                    "## ✅ Test partition: every test is in exactly one leg",
                    "## ❌ 1 GPU test without a GPU marker in the cpu leg", "## 📈 Suite growth: +120 tests",
                    "## ✅ GPU filter: it covers every file the GPU legs read",
                    "## ❌ GPU filter: 1 file the GPU legs read escapes it",
                    "# Required checks and the gate's setup (gatekit-doctor)", "## gatekit doctor: `demo/tinyml`",
                    "# A second project: visionlab, adopted through the scaffold"):
        assert heading in summary
    assert (tmp_path / "kernel" / "smoke-reports" / "smoke-junit.xml").exists()


def test_demo_refuses_to_run_without_built_tools(tmp_path):
    done = subprocess.run([sys.executable, str(SOURCE / "scripts" / "demo.py"), "--bin", str(tmp_path / "none"),
                           "--out", str(tmp_path / "out"), "--only", "kernel"], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode != 0
    assert f"demo: {tmp_path / 'none' / 'path-classifier' / 'path-classifier'} is missing: build gatekit first" \
        in done.stderr
