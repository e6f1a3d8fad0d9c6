"""What a smoke prints or does cannot break smoke-runner's reports or reach the step's
workflow files: the JSON and JUnit XML stay valid whatever bytes it wrote (and the JSON is
read back by --durations-from); a smoke never gets GITHUB_OUTPUT, GITHUB_ENV, GITHUB_PATH,
GITHUB_STEP_SUMMARY or GITHUB_STATE, and a process it leaves behind in a session of its own
does not outlive the run."""
import json
import os
import re
import subprocess
import time
import xml.etree.ElementTree as ET
from pathlib import Path

TOOL = (Path(os.environ.get("GATEKIT_BUILD_DIR", "build/dev")) / "tools" / "smoke-runner" / "smoke-runner").resolve()

# Invalid UTF-8, NUL, a colour escape, the CESU-8 encoding of a lone surrogate, the end of an
# XML CDATA section and the XML specials.
HOSTILE = b"A\xff\xfe B\x00 C\x1b[31mred\x1b[0m D\xed\xa0\x80 E]]> F<&>\"'\n"
AS_JSON = "A\ufffd\ufffd B\x00 C\x1b[31mred\x1b[0m D\ufffd\ufffd\ufffd E]]> F<&>\"'\n"
AS_XML = "A\ufffd\ufffd B C[31mred[0m D\ufffd\ufffd\ufffd E]]> F<&>\"'\n"  # XML cannot carry NUL or ESC
PRINT = f"import sys; sys.stdout.buffer.write({HOSTILE!r}); sys.exit(int(sys.argv[1]))"

MANIFEST = f"""\
smokes:
  - name: noisy_fail
    command: [python3, -c, {json.dumps(PRINT)}, "1"]
    pr: true
    timeout: 30m
  - name: noisy_pass
    command: [python3, -c, {json.dumps(PRINT)}, "0"]
    pr: true
    timeout: 30m
"""


def run(args, env=None, cwd=None):
    return subprocess.run([str(TOOL), *args], capture_output=True, env=env, cwd=cwd, timeout=120)


def test_reports_are_valid_json_and_xml_whatever_bytes_a_smoke_printed(tmp_path):
    (tmp_path / "smokes.yaml").write_text(MANIFEST)
    summary = tmp_path / "summary.md"
    summary.touch()
    env = dict(os.environ, GITHUB_STEP_SUMMARY=str(summary))
    done = run(["--manifest", str(tmp_path / "smokes.yaml"), "--gpus", "1", "--tier", "pr",
                "--report-dir", str(tmp_path / "reports")], env=env)
    assert done.returncode == 1, done
    reports = tmp_path / "reports"

    # Strict UTF-8 first, then JSON: both must accept the file as it is.
    report = json.loads((reports / "smoke-results.json").read_bytes().decode("utf-8"))
    tails = {s["name"]: s["output_tail"] for s in report["smokes"]}
    assert tails == {"noisy_fail": AS_JSON, "noisy_pass": AS_JSON}

    suite = ET.parse(reports / "smoke-junit.xml").getroot().find("testsuite")
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert cases["noisy_fail"].find("system-out").text == AS_XML
    assert cases["noisy_pass"].find("system-out").text == AS_XML
    assert cases["noisy_fail"].find("failure").get("message") == "exit code 1"

    # The summary shows the failed smoke's output as text a browser displays.
    text = summary.read_bytes().decode("utf-8")
    assert "A\ufffd\ufffd B C[31mred[0m D\ufffd\ufffd\ufffd E]]> F<&>\"'\n```" in text
    assert (reports / "smoke-summary.md").read_bytes() == summary.read_bytes()

    # The next run packs with these durations rather than giving up on the file.
    listed = run(["--list", "--manifest", str(tmp_path / "smokes.yaml"), "--gpus", "1", "--tier", "pr",
                  "--durations-from", str(reports / "smoke-results.json")])
    assert listed.returncode == 0, listed
    assert listed.stderr == b""
    out = listed.stdout.decode()
    assert "packing uses the timeouts" not in out
    # not the 30-minute timeout as the estimate ("estimate 30m"); a measured 30 ms reads
    # "estimate 30ms", which is what the durations give
    assert re.search(r"estimate 30m(?!s)", out) is None, out
    assert out.count("  RUN  noisy_") == 2


VARIABLES = ("GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STEP_SUMMARY", "GITHUB_STATE")

# Shows which of the variables it sees, then leaves a process behind in a session of its own
# that would write into each file (found in its environment) a second later.
SNOOP = """\
for v in GITHUB_OUTPUT GITHUB_ENV GITHUB_PATH GITHUB_STEP_SUMMARY GITHUB_STATE GITHUB_WORKSPACE; do
  eval "value=\\${$v-}"
  if [ -n "$value" ]; then echo "$v is set"; else echo "$v is not set"; fi
done
setsid sh -c 'echo $$ > "$ESCAPEE_PID"; sleep 1
  for f in "${GITHUB_OUTPUT-}" "${GITHUB_ENV-}" "${GITHUB_PATH-}" "${GITHUB_STEP_SUMMARY-}" "${GITHUB_STATE-}"; do
    [ -n "$f" ] && echo "leaked=1" >> "$f"
  done' < /dev/null > /dev/null 2>&1 &
while [ ! -s "$ESCAPEE_PID" ]; do sleep 0.01; done
"""


def alive(pid: int) -> bool:
    stat = Path(f"/proc/{pid}/stat")
    try:
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def test_smokes_never_get_the_workflow_files_and_nothing_they_leave_outlives_the_run(tmp_path):
    escapee_pid = tmp_path / "escapee.pid"
    manifest = tmp_path / "smokes.yaml"
    manifest.write_text("smokes:\n  - name: snoop\n    command: [sh, -c, " + json.dumps(SNOOP) + "]\n"
                        "    pr: true\n    env: {ESCAPEE_PID: " + json.dumps(str(escapee_pid)) + "}\n")
    files = {name: tmp_path / name.lower() for name in VARIABLES}
    for f in files.values():
        f.touch()
    env = dict(os.environ, GITHUB_WORKSPACE=str(tmp_path), **{k: str(v) for k, v in files.items()})
    done = run(["--manifest", str(manifest), "--gpus", "1", "--tier", "pr", "--report-dir", str(tmp_path / "r")],
               env=env)
    escapee = int(escapee_pid.read_text())
    try:
        assert not alive(escapee), "a process the smoke left behind outlived the runner"
    finally:
        if alive(escapee):
            os.kill(escapee, 9)
    assert done.returncode == 0, done
    out = done.stdout.decode()
    seen = [line for line in out.splitlines() if line.startswith("GITHUB_")]
    assert seen == [f"{v} is not set" for v in VARIABLES] + ["GITHUB_WORKSPACE is set"]
    # The escapee, and the `sleep` it was in.
    assert re.search(r"^warning: smoke-runner: \d+ process(es)? left running by smokes outside their process "
                     r"groups \(setsid\) killed at the end of the run; a smoke must wait for what it starts$", out, re.M)

    time.sleep(1.5)  # when the process would have written
    assert "result=passed\n" in files["GITHUB_OUTPUT"].read_text()
    for name, f in files.items():
        assert "leaked" not in f.read_text(), name


def test_a_manifest_cannot_hand_a_workflow_file_to_a_smoke(tmp_path):
    manifest = tmp_path / "smokes.yaml"
    manifest.write_text("smokes:\n  - name: sneaky\n    command: [true]\n    env:\n      GITHUB_OUTPUT: /tmp/out\n")
    done = run(["--check", "--manifest", "smokes.yaml"], cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.decode() == (
        "smoke-runner: error: 1 error in smokes.yaml:\n"
        "smokes.yaml:5:7: smokes[0].env.GITHUB_OUTPUT: is a workflow file of the step; smokes never get it, so they "
        "cannot change the step's outputs, environment, PATH or summary; remove it\n")
