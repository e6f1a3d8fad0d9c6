"""The README's main job (scripts/demo.py) on the built tools: every prepared change of the
demo project gets the required-check verdicts the demo promises, and the summaries exist."""
import os
import re
import subprocess
import sys
from pathlib import Path

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BUILD = Path(os.environ["GATEKIT_BUILD_DIR"])


def test_demo_pipeline_gives_the_expected_verdicts(tmp_path):
    done = subprocess.run([sys.executable, str(SOURCE / "scripts" / "demo.py"), "--bin", str(BUILD / "tools"),
                           "--out", str(tmp_path)], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr
    table = done.stdout[done.stdout.index("━━ Verdict"):]
    rows = {line.split()[0]: line for line in table.splitlines() if re.match(r"\s+(docs-only|kernel|broken)\s", line)}
    assert re.search(r"docs-only\s+docs\s+skipped\s+skipped\s+skipped\s+✔ pass\s+✔ pass", rows["docs-only"])
    assert re.search(r"kernel\s+cpu, gpu, docs\s+passed\s+passed\s+passed\s+✔ pass\s+✔ pass", rows["kernel"])
    assert re.search(r"broken\s+cpu, gpu\s+FAILED\s+FAILED\s+FAILED\s+✘ fail\s+✘ fail", rows["broken"])
    assert "Every required check came out as expected for its change." in done.stdout

    summary = (tmp_path / "summary.md").read_text()
    for heading in ("# Change 1:", "# Change 2:", "# Change 3:", "## Path gate", "## ✅ CPU tests: passed",
                    "GPU smokes", "```mermaid"):
        assert heading in summary
    assert (tmp_path / "kernel" / "smoke-reports" / "smoke-junit.xml").exists()


def test_demo_refuses_to_run_without_built_tools(tmp_path):
    done = subprocess.run([sys.executable, str(SOURCE / "scripts" / "demo.py"), "--bin", str(tmp_path / "none"),
                           "--out", str(tmp_path / "out"), "--only", "kernel"], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode != 0
    assert f"demo: {tmp_path / 'none' / 'path-classifier' / 'path-classifier'} is missing: build gatekit first" \
        in done.stderr
