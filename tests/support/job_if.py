"""GitHub's expression engine (@actions/expressions, with tests/support/job-if.mjs's status
functions) on job-level `if:`s, for the Python tests: tests/e2e/eval-if.mjs under node."""
import json
import subprocess
from pathlib import Path

EVAL_IF = Path(__file__).resolve().parents[1] / "e2e" / "eval-if.mjs"


def job_if_runs(conditions: list[str], cases: list[dict]) -> list[list[bool]]:
    """Whether each `if:` lets its job run in each case ({"github": ..., "needs": ...,
    "vars": ...}, the contexts GitHub builds): one list of answers per `if:`, in case order."""
    done = subprocess.run(["node", str(EVAL_IF)], capture_output=True, text=True, timeout=60,
                          input=json.dumps({"ifs": conditions, "cases": cases}))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
