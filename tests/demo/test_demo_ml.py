"""The demo's second project (scripts/demo_ml.py): examples/ml-project, an ML-shaped repository
with no gatekit file, gets them from the scaffold with no hand edits, and each prepared change
gets the verdicts it deserves from the scaffolded pipeline: a docs-only change runs no suite,
a new base image runs the GPU suite (the scaffold's rules put the Dockerfile in every filter),
a broken kernel fails `GPU tests` only, and a GPU test without the project's `cuda` marker
fails `CPU tests`, named with the marker to add."""
import os
import re
import subprocess
import sys
from pathlib import Path

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BUILD = Path(os.environ["GATEKIT_BUILD_DIR"])


def test_the_ml_project_gets_the_right_verdicts_from_the_scaffolded_pipeline(tmp_path):
    done = subprocess.run([sys.executable, str(SOURCE / "scripts" / "demo_ml.py"), str(BUILD / "tools"), str(tmp_path)],
                          capture_output=True, text=True, timeout=600, env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr
    verdicts = [line for line in done.stdout.splitlines() if line.startswith(("ok ", "BAD "))]
    assert verdicts == [
        "ok  the scaffold wrote the workflows, rules, selections and markers; nothing edited by hand: 7 files",
        "ok  the selections use the project's own marker (cuda), not gpu: cpu: not cuda, gpu: cuda",
        "ok  partition proof: every test in exactly one leg: success",
        "ok  the scaffolded gpu filter holds every file the GPU leg reads: exit 0",
        "ok  docs-only: the gate says cpu=false gpu=false docs=true: cpu=false gpu=false docs=true",
        "ok  docs-only: CPU tests pass, GPU tests pass: CPU tests pass, GPU tests pass",
        "ok  image: the gate says cpu=true gpu=true docs=true: cpu=true gpu=true docs=true",
        "ok  image: CPU tests pass, GPU tests pass: CPU tests pass, GPU tests pass",
        "ok  kernel-bug: the gate says cpu=true gpu=true docs=false: cpu=true gpu=true docs=false",
        "ok  kernel-bug: CPU tests pass, GPU tests fail: CPU tests pass, GPU tests fail",
        "ok  unmarked: the gate says cpu=true gpu=true docs=false: cpu=true gpu=true docs=false",
        "ok  unmarked: CPU tests fail, GPU tests pass: CPU tests fail, GPU tests pass",
    ]
    # Why each verdict came out so, in the tools' own words.
    assert "the GPU tests' markers: cuda (the GPU leg runs `cuda`, the CPU legs `not cuda`)" in done.stdout
    assert re.search(r"image.*\n(.*\n)*?    jobs: partition success, tests success, gpu-tests success", done.stdout)
    assert ("tests/gpu/test_fused_batch.py::test_fused_bias_relu_on_a_batch: skipped on the cpu leg (\"CUDA not "
            "available\"): mark it @pytest.mark.cuda") in done.stdout
    assert re.search(r"FAILED tests/gpu/test_fused\.py::test_fused_bias_relu_matches_the_model", done.stdout)
    summary = (tmp_path / "ml-project" / "summary.md").read_text()
    assert summary.startswith("# A second project: visionlab, adopted through the scaffold\n")
    for row in ("| docs-only | Document the configuration file's sections | cpu=false gpu=false docs=true | tests success "
                "| pass | pass |",
                "| kernel-bug | A 'faster' fused op that adds the bias after the ReLU | cpu=true gpu=true docs=false | "
                "partition success, tests success, gpu-tests failure, gpu-suite success | pass | fail |"):
        assert row in summary
    # The scaffold wrote the project's gatekit files; the project ships none.
    assert not (SOURCE / "examples" / "ml-project" / ".github").exists()
    scaffolded = tmp_path / "ml-project" / "visionlab"
    assert (scaffolded / ".github" / "gatekit" / "filters.yml").read_text().count("'**/Dockerfile*'") == 1
