"""The main job's GPU gate stage (scripts/demo_gpu_gate.py) against this build: setup, a run on
the simulated GPU machine, a plain push to a local bare remote, ci-status in strict mode (the
pull request's own run refused a post, the workflow_run run posting gate/gpu with the App's
token to the API test server), and the four statuses the stage promises (exact pass,
docs-only inherited, an analysis script outside the gpu filter inherited as "no GPU-relevant
change", new code pending), each compared with what the server recorded; then the
trust stage: a base an event names decides nothing (the default branch's files do)."""
import os
import sys
from pathlib import Path

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BUILD = Path(os.environ["GATEKIT_BUILD_DIR"]).resolve()
sys.path.insert(0, str(SOURCE / "scripts"))
import demo_gpu_gate  # noqa: E402


def test_the_stage_comes_out_as_the_demo_expects(tmp_path):
    checks = demo_gpu_gate.run_part(BUILD / "tools", tmp_path)
    assert [(c.name, c.ok) for c in checks if not c.ok] == []
    names = [c.name for c in checks]
    strict = {c.name: c.detail for c in checks}
    assert strict["strict mode: the pull_request run posts nothing"] == "exit 2, 0 statuses posted"
    assert strict["the workflow_run run posted gate/gpu on all four commits"] == \
        "exit codes [0, 0, 0, 0], 4 statuses posted"
    exact = checks[-4].detail.split("from ")[1][:12]
    assert names[-5:] == ['kernel change: success "passed in …"',
                          f'documentation only: success "inherited from {exact}, docs-only delta"',
                          'an analysis script (outside the gpu filter): success "no GPU-relevant change since '
                          f'{exact}: 1 file outside the gpu filter"',
                          'new kernel code: pending "no gate result for this tree"',
                          'a pushed branch named as the base decides nothing: pending "no gate result for this tree"']
    summary = (tmp_path / "gpu-gate" / "summary.md").read_text()
    assert "## gate/gpu for four commits of one pull request" in summary
    assert summary.count("## gate/gpu: ") == 5  # the four commits, then the trust stage
    assert "| outside the GPU filter | `scripts/plot_bench.py` |" in summary
    assert "```mermaid\ngitGraph" in summary
    assert "with the base `stepping-stone` (a branch at that code): `pending` \"no gate result for this tree\"" in summary
    assert "The base `stepping-stone` is neither the default branch nor a trusted base" in summary
