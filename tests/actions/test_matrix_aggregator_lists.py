"""The matrix-aggregator action's `allowed-failures` / `allowed-skips` inputs in the forms
re-actors/alls-green takes (its README, its tests and its own workflow): a JSON array with
spaces, one spread over lines by a YAML block, a bare comma list, an empty string, `[]`.
The step (test_action_steps.py's runner: inputs only through env) passes each input as one
argument; `[]` never takes the next option as its value, and a list that is not clearly a
list of job names is a usage error (exit 2) that still writes `result=error`."""
import json

import pytest

from test_action_steps import BUILD, run_step

NEEDS = json.dumps({"failing-job": {"result": "failure", "outputs": {}},
                    "succeeding-job": {"result": "success", "outputs": {}},
                    "skipped-job": {"result": "skipped", "outputs": {}}})
BIN = str(BUILD / "tools" / "matrix-aggregator")


def aggregate(tmp_path, failures: str, skips: str):
    return run_step("matrix-aggregator", tmp_path, INPUT_GATEKIT_BIN=BIN, GATEKIT_NEEDS=NEEDS, INPUT_GATE_JOB="",
                    INPUT_GATED="", INPUT_ALLOWED_FAILURES=failures, INPUT_ALLOWED_SKIPS=skips)


def result_line(outputs: str) -> str:
    return next(line for line in outputs.splitlines() if line.startswith("result="))


@pytest.mark.parametrize("failures, skips", [
    ('["failing-job"]', '["skipped-job"]'),
    ('["failing-job", "succeeding-job"]', "skipped-job"),          # json.dumps's spacing
    ("failing-job, succeeding-job", '[\n  "skipped-job"\n]\n'),   # a YAML `|` block
    ('  ["failing-job"]\n', "skipped-job\n"),                     # alls-green's heredoc shape
    ("failing-job\nsucceeding-job\n", "skipped-job"),
])
def test_json_arrays_and_plain_lists_are_read_alike(tmp_path, failures, skips):
    done, outputs = aggregate(tmp_path, failures, skips)
    assert done.returncode == 0, done.stdout + done.stderr
    assert result_line(outputs) == "result=success"
    assert "allowed-failures: failing-job" in done.stdout
    assert "allowed-skips: skipped-job\n" in done.stdout


@pytest.mark.parametrize("empty", ["[]", "", "  [ ]\n"])
def test_an_empty_allowed_failures_never_takes_the_next_option(tmp_path, empty):
    """The step passes --allowed-failures before --allowed-skips: `[]` must stay a value."""
    done, outputs = aggregate(tmp_path, empty, "skipped-job")
    assert done.returncode == 1, done.stdout + done.stderr
    assert result_line(outputs) == "result=failure"
    assert "allowed-skips: skipped-job\n" in done.stdout
    assert "FAIL  failing-job" in done.stdout


@pytest.mark.parametrize("failures, message", [
    ("[failing-job]", "allowed-failures: starts with '[' but is not a JSON array (syntax error): "
                      'write ["a", "b"] with double quotes, or a plain list a, b'),
    ('["failing-job", 1]', "allowed-failures: item 2 of the JSON array is a number, not a job name (a string)"),
    ('"failing-job"', "allowed-failures: '\"failing-job\"' has quotes left over: "
                      'write a JSON array ["a", "b"] or a plain list a, b'),
])
def test_an_unclear_list_is_a_usage_error_with_result_error(tmp_path, failures, message):
    done, outputs = aggregate(tmp_path, failures, "skipped-job")
    assert done.returncode == 2
    assert done.stderr == f"matrix-aggregator: error: {message}\n"
    assert outputs.splitlines()[:3] == ["result=error", "reasons={}", f"error={message}"]
