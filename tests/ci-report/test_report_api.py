"""ci-report against the GitHub API test server, over the four-week synthetic history
(synthetic.py) whose answers are known: skipped legs, a fail-open day, a flaky streak, a
slow GPU queue, a required check that could not evaluate; and the API's failure modes: a
budget that runs out (a partial report, said so, exit 3), GitHub's 1,000-run search cap,
rate limits."""
import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(SOURCE / "tests" / "github_api"))
sys.path.insert(0, str(SOURCE / "scripts"))
sys.path.insert(0, str(SOURCE / "tests" / "support"))
import synthetic  # noqa: E402
from full_disk import run_on_full_disk  # noqa: E402
from github_files import read_outputs  # noqa: E402
from server import FakeGitHub  # noqa: E402

TOOL = Path(os.environ.get("GATEKIT_BUILD_DIR", SOURCE / "build" / "dev")) / "tools" / "ci-report" / "ci-report"
WINDOW = ["--since", "2026-11-02", "--until", "2026-11-30"]


def run(tmp_path, *args, srv=None, token="t0ken", env=None, full_disk=None):
    """The built tool; with `full_disk`, a folder, on a full tmpfs mounted there
    (tests/support/full_disk.py: skipped where none can be mounted)."""
    outputs, summary = tmp_path / "out", tmp_path / "summary"
    outputs.write_text("")
    summary.write_text("")
    base = {"PATH": os.environ["PATH"], "GITHUB_OUTPUT": str(outputs), "GITHUB_STEP_SUMMARY": str(summary),
            "GITHUB_REPOSITORY": "o/r"}
    if srv is not None:
        base.update({"GITHUB_API_URL": srv.base_url, "GITHUB_TOKEN": token})
    base.update(env or {})
    argv = [str(TOOL), *map(str, args)]
    if full_disk is not None:
        done = run_on_full_disk(full_disk, argv, cwd=tmp_path, env=base, capture_output=True, text=True, timeout=120)
    else:
        done = subprocess.run(argv, cwd=tmp_path, env=base, capture_output=True, text=True, timeout=120)
    done.outputs = read_outputs(outputs)
    done.summary = summary.read_text()
    return done


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    """The synthetic history read once through the API: (report JSON, history file, the run)."""
    tmp = tmp_path_factory.mktemp("history")
    with FakeGitHub(token="t0ken") as srv:
        srv.load_state(synthetic.state())
        done = run(tmp, *WINDOW, "--json", tmp / "r.json", "--csv", tmp / "r.csv", "--markdown", tmp / "post.md",
                   "--save-history", tmp / "h.jsonl", srv=srv)
        done.requests = list(srv.requests)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads((tmp / "r.json").read_text()), tmp, done


def leg(report, name):
    return next(x for x in report["saved"] if x["leg"] == name)


def test_saved_minutes_per_leg_match_the_known_answers(history):
    report, _, done = history
    gpu = leg(report, "pytest (GPU)")
    assert (gpu["skips"], gpu["each_median"], gpu["each_low"], gpu["each_high"]) == (synthetic.GPU_SKIPS, 30, 28, 32)
    assert gpu["minutes"] == synthetic.GPU_SAVED == 780
    assert gpu["kind"] == "self-hosted GPU" and gpu["labels"] == "gpu,self-hosted"
    # The skipped matrix job costs its three expanded legs.
    cpu = leg(report, "pytest (CPU, py${{ matrix.python }})")
    assert (cpu["skips"], cpu["each_median"], cpu["each_low"], cpu["each_high"]) == (synthetic.CPU_SKIPS, 30, 27, 33)
    assert cpu["minutes"] == synthetic.CPU_SAVED == 600
    assert report["kinds"]["self-hosted GPU"]["saved"] == 780
    assert report["kinds"]["hosted CPU"]["saved"] == 600
    assert report["saved_minutes"] == {"median": 1380, "low": 26 * 28 + 20 * 27, "high": 26 * 32 + 20 * 33}
    assert report["skipped"] == {"by_gate": 46, "unestimated": 0, "other": 0, "fork": 0}
    assert report["complete"] is True and report["gaps"] == []
    assert done.outputs["saved-minutes"] == "1380.0" and done.outputs["complete"] == "true"


def test_weekly_saved_and_spent(history):
    report, _, _ = history
    starts = [w["start"] for w in report["weeks"]]
    assert starts == ["2026-11-02T00:00:00Z", "2026-11-09T00:00:00Z", "2026-11-16T00:00:00Z", "2026-11-23T00:00:00Z"]
    # Week 1 (days 0-6): GPU skipped on days 0, 2, 4, 6 (8 runs), CPU on days 0, 3, 6 (6 runs).
    assert report["weeks"][0]["saved"] == 8 * 30 + 6 * 30
    # Week 2 holds the fail-open day 10: its GPU legs ran, so days 8 and 12 only.
    assert report["weeks"][1]["saved"] == 4 * 30 + 4 * 30  # CPU: days 9 and 12 (day 10 is not a CPU day)
    assert sum(w["saved"] for w in report["weeks"]) == 1380
    assert round(sum(w["spent"] for w in report["weeks"]), 6) == round(report["spent_minutes"], 6)


def test_spent_queue_and_cancelled(history):
    report, _, _ = history
    queues = {q["labels"]: q for q in report["queues"]}
    gpu = queues["gpu,self-hosted"]
    # 2 min normally, 60 min in the third week (the slow GPU queue): the p90 shows it.
    assert gpu["median_s"] == 120 and gpu["p90_s"] == 3600 and gpu["max_s"] == 3600
    assert report["queues"][0]["labels"] == "gpu,self-hosted"  # longest median first
    assert queues["ubuntu-24.04"]["median_s"] == 30
    # Day 5's 14:00 CPU run was cancelled after 4 min of each of its three legs.
    assert report["cancelled_minutes"] == 12
    cancelled = [s for s in report["spent"] if s["cancelled"]]
    assert sorted((s["leg"], s["cancelled"], s["cancelled_minutes"]) for s in cancelled) == [
        ("pytest (CPU, py3.10)", 1, 4), ("pytest (CPU, py3.11)", 1, 4), ("pytest (CPU, py3.12)", 1, 4)]
    gates = [s for s in report["spent"] if s["leg"] == "path gate"]
    assert sorted(g["workflow"] for g in gates) == ["cpu-tests.yml", "gpu-tests.yml"]
    assert [(g["jobs"], g["minutes"]) for g in gates] == [(56, 56), (56, 56)]


def test_honesty_checks(history):
    report, _, _ = history
    # The fail-open day: 4 gated runs whose legs all ran (3 CPU legs + 1 GPU leg twice each).
    assert report["fail_open"]["runs"] == 4 and report["fail_open"]["of_gated_runs"] == 112
    assert report["fail_open"]["minutes"] > 0
    assert report["required_checks"] == {"total": 56, "failed": 1, "could_not_evaluate": 1}
    assert (report["flaky"]["opened"], report["flaky"]["closed"], report["flaky"]["open"]) == (5, 2, 4)
    assert report["flaky"]["longest_open"][0]["title"] == "flaky: tests/test_old.py::test_slow"
    latency = report["gpu_gate_latency_minutes"]
    # 28 pull-request commits: 27 turned success 45 min after the push, day 27's never did.
    assert latency == {"samples": 27, "median": 45, "p90": 45, "max": 45, "never_success": 1}


def test_flake_rate_per_test_matches_the_known_answers(history):
    report, tmp, done = history
    flaky = report["flaky"]
    assert flaky["tests_flaked"] == 6
    got = [(f["test"], f["flakes"], f["runs"], f["at_least"]) for f in flaky["worst_rates"]]
    assert got == synthetic.FLAKE_RATES  # the planted issue's state (#7, not flaky-tracker's account) is not read
    for f in flaky["worst_rates"]:
        assert f["rate"] == pytest.approx(f["flakes"] / f["runs"])
    assert {f["workflows"] for f in flaky["worst_rates"]} == {"cpu-tests.yml", "gpu-tests.yml"}
    s = done.summary
    assert ("**Flake rate per test** (6 tests that flaked): flaky runs / runs of the test's workflows in which a "
            "leg ran.\n") in s
    assert "| #6 | `tests/test_streak.py::test_4` | ≥ 16.7% | 5 | 30 | `gpu-tests.yml` |" in s
    assert "| #1 | `tests/test_old.py::test_slow` | 5.7% | 2 | 35 | `cpu-tests.yml` |" in s
    rows = [r for r in csv.DictReader(io.StringIO((tmp / "r.csv").read_text())) if r["section"] == "flake_rate"]
    assert [(r["test"], int(r["count"]), int(r["runs"]), r["rate"]) for r in rows][:2] == [
        ("tests/test_streak.py::test_4", 5, 30, ">=0.1667"), ("tests/test_streak.py::test_3", 4, 30, "0.1333")]


def test_flaky_creator_names_whose_issue_states_are_read(tmp_path):
    with FakeGitHub(token="t0ken") as srv:
        srv.load_state(synthetic.state())
        done = run(tmp_path, *WINDOW, "--flaky-creator", "mallory", "--json", tmp_path / "r.json", srv=srv)
    assert done.returncode == 0, done.stderr
    flaky = json.loads((tmp_path / "r.json").read_text())["flaky"]
    # Only the planted issue is read now: its ten flaky runs of the window's GPU runs.
    assert [(f["number"], f["test"], f["flakes"], f["runs"]) for f in flaky["worst_rates"]] == [
        (7, "tests/test_planted.py::test_x", 10, synthetic.GPU_SUITE_RUNS)]


def test_the_flake_rates_survive_the_history_file(history, tmp_path):
    report, tmp, _ = history
    done = run(tmp_path, *WINDOW, "--history", tmp / "h.jsonl", "--json", tmp_path / "again.json")
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "again.json").read_text())["flaky"] == report["flaky"]


def without_api_use(report):
    return {k: v for k, v in report.items() if k != "requests_not_modified"}


def test_a_cache_makes_conditional_requests_and_the_report_stays_the_same(history, tmp_path):
    """The second run with --cache sends If-None-Match for every listing page it read before:
    GitHub (the test server) answers 304 without counting it against the rate limit, and the
    report is the one a run without the cache makes."""
    plain, _, plain_run = history
    cache = tmp_path / "api-cache.jsonl"
    with FakeGitHub(token="t0ken") as srv:
        srv.load_state(synthetic.state())
        first = run(tmp_path, *WINDOW, "--cache", cache, "--json", tmp_path / "1.json", srv=srv)
        assert first.returncode == 0, first.stderr
        used_after_first = srv.rate["used"]
        sent_before = len(srv.requests)
        second = run(tmp_path, *WINDOW, "--cache", cache, "--json", tmp_path / "2.json", srv=srv)
        assert second.returncode == 0, second.stderr
        second_requests = srv.requests[sent_before:]
        assert srv.rate["used"] == used_after_first  # every answer was a 304: none counted
        assert srv.not_modified == len(second_requests) == len(plain_run.requests)
    assert all("if-none-match" in r["headers"] for r in second_requests)
    assert "no API cache at" in first.stdout + first.stderr
    one, two = json.loads((tmp_path / "1.json").read_text()), json.loads((tmp_path / "2.json").read_text())
    assert (one["requests_not_modified"], two["requests_not_modified"]) == (0, len(second_requests))
    assert without_api_use(one) == without_api_use(two) == without_api_use(plain)
    saved_line = (f"; {len(second_requests)} of them answered 304 Not Modified from the cache (`--cache`), "
                  "which do not count against the rate limit.")
    assert saved_line in second.summary
    assert second.summary.replace(saved_line, ".") == first.summary == plain_run.summary
    header = cache.read_text().splitlines()[0]
    assert header == '{"gatekit_api_cache":1}' and "t0ken" not in cache.read_text()


def test_a_changed_answer_is_read_again_not_taken_from_the_cache(tmp_path):
    cache = tmp_path / "api-cache.jsonl"
    with FakeGitHub(token="t0ken") as srv:
        srv.load_state(synthetic.state())
        assert run(tmp_path, *WINDOW, "--cache", cache, srv=srv).returncode == 0
        srv.add_issue("o/r", "flaky: tests/test_new.py::test_x", labels=["flaky"],
                      created_at="2026-11-20T00:00:00Z")
        cached = run(tmp_path, *WINDOW, "--cache", cache, "--json", tmp_path / "c.json", srv=srv)
        fresh = run(tmp_path, *WINDOW, "--json", tmp_path / "f.json", srv=srv)
    assert cached.returncode == fresh.returncode == 0
    c, f = json.loads((tmp_path / "c.json").read_text()), json.loads((tmp_path / "f.json").read_text())
    assert c["flaky"]["opened"] == f["flaky"]["opened"] == 6
    assert without_api_use(c) == without_api_use(f)
    assert 0 < c["requests_not_modified"] < c["requests"]  # the issues listing alone was read again


@pytest.mark.parametrize("actions", [False, True], ids=["terminal", "actions"])
def test_a_damaged_cache_is_left_aside_with_a_warning(tmp_path, actions):
    cache = tmp_path / "api-cache.jsonl"
    cache.write_text('{"gatekit_api_cache": 1}\n{"url": "u", "etag": 5, "link": "", "body": ""}\n')
    with FakeGitHub(token="t0ken") as srv:
        srv.load_state(synthetic.state())
        done = run(tmp_path, *WINDOW, "--cache", cache, "--json", tmp_path / "r.json", srv=srv,
                   env={"GITHUB_ACTIONS": "true"} if actions else None)
    assert done.returncode == 0, done.stderr
    # The title names the tool once: the message itself does not start with it again.
    reason = f"{cache}:2: etag: expected a string"
    warning = [line for line in done.stdout.splitlines() if "the API cache is left aside" in line]
    if actions:
        assert warning == [f"::warning title=ci-report::the API cache is left aside: {reason}"]
    else:
        assert warning == [f"warning: ci-report: the API cache is left aside: {reason}"]
    assert json.loads((tmp_path / "r.json").read_text())["requests_not_modified"] == 0
    assert cache.read_text().startswith('{"gatekit_api_cache":1}\n{"url":')  # rewritten whole


def test_the_summary_answers_the_admins_question(history):
    report, tmp, done = history
    s = done.summary
    assert s.startswith("## CI report: 2026-11-02 to 2026-11-30\n\n**Saved: 1380.0 min** (spread 1268.0–1492.0 min) "
                        "by 46 legs the path gate skipped.")
    assert "| self-hosted GPU | 780.0 | 728.0–832.0 |" in s
    assert "| `pytest (GPU)` | `gpu-tests.yml` | `gpu,self-hosted` | self-hosted GPU | 26 | 30.0 | 28.0–32.0 | 20 | 780.0 |" in s
    assert "```mermaid\nxychart-beta\n" in s and 'x-axis ["2026-11-02", "2026-11-09", "2026-11-16", "2026-11-23"]' in s
    assert "| path gate failed open | 4 of 112 gated runs," in s
    assert "| required checks that could not evaluate | 1 |" in s
    assert "Partial report" not in s
    assert (tmp / "post.md").read_text() == s
    rows = list(csv.DictReader(io.StringIO((tmp / "r.csv").read_text())))
    assert sum(float(r["minutes"]) for r in rows if r["section"] == "saved_week") == 1380
    gpu_saved = [r for r in rows if r["section"] == "saved" and r["leg"] == "pytest (GPU)"]
    assert sum(float(r["minutes"]) for r in gpu_saved) == 780


def test_the_saved_history_gives_the_same_report_without_the_api(history, tmp_path):
    report, tmp, _ = history
    done = run(tmp_path, *WINDOW, "--history", tmp / "h.jsonl", "--json", tmp_path / "again.json")
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "again.json").read_text()) == report


def test_only_failed_required_checks_and_unskipped_gates_are_annotated(history):
    _, _, done = history
    annotation_calls = [r["path"] for r in done.requests if r["path"].endswith("/annotations")]
    # Path gates of in-window runs that skipped nothing (CPU: 28 days x 2 - 20 skips - ... ) are
    # checked for fail-open; of the required checks, the one failure only.
    assert annotation_calls, "no annotation was read"
    assert all("/check-runs/" in p for p in annotation_calls)
    run_listings = [r for r in done.requests if r["path"].endswith("/runs")]
    assert all("created" in r["query"] for r in run_listings)


def test_a_budget_that_runs_out_is_a_partial_report_said_so(tmp_path):
    with FakeGitHub(token="t0ken") as srv:
        srv.load_state(synthetic.state())
        srv.add_fault("GET", r"/actions/runs/\d+/jobs$", "status", status=503, nth=40, times=None)
        done = run(tmp_path, *WINDOW, "--api-budget", "2", "--json", tmp_path / "r.json", srv=srv)
    assert done.returncode == 3, done.stdout + done.stderr
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["complete"] is False
    assert "HTTP 503" in report["gaps"][0] or "budget" in report["gaps"][0]
    assert done.outputs["complete"] == "false"
    assert "> [!WARNING]\n> **Partial report**: the figures below count only what could be read.\n> - GET " \
        in done.summary
    assert "warning: ci-report: partial report: GET " in done.stdout


def test_githubs_1000_run_search_cap_splits_the_window(tmp_path):
    with FakeGitHub(token="t0ken") as srv:
        created = "2026-11-03T10:00:00Z"
        for i in range(1100):
            # Still running: their jobs are not read (a finished run's cost is), so the test
            # stays fast while the listing is the one of 1,100 runs.
            srv.add_run("o/r", workflow="cpu-tests.yml", created_at=created, run_id=10_000 + i,
                        status="in_progress", conclusion=None)
        done = run(tmp_path, "--since", "2026-11-02", "--until", "2026-11-09", "--lookback-days", "0",
                   "--workflow", "cpu-tests.yml", "--json", tmp_path / "r.json", "--api-budget", "100", srv=srv)
        listings = [r for r in srv.requests if r["path"].endswith("/runs")]
    report = json.loads((tmp_path / "r.json").read_text())
    # Every run sits in one second: no split can get under the cap, and the report says so.
    assert done.returncode == 3
    assert report["runs"] == 0  # none finished
    assert any("GitHub lists at most 1000 runs of cpu-tests.yml per search and 1100 were created" in g
               for g in report["gaps"])
    windows = {r["query"]["created"] for r in listings}
    assert len(windows) > 8  # the window was halved down to an hour before giving up
    assert "2026-11-03T09:28:07Z..2026-11-03T10:07:29Z" in windows
    # Each half is counted with one request (per_page=1) before its pages are read.
    assert sum(1 for r in listings if r["query"].get("per_page") == "1") == len(windows)
    assert done.stdout.count("page 10 (900 items so far)") == 1


def test_bad_options_and_history_files_name_the_field(tmp_path):
    done = run(tmp_path, "--since", "2026-13-01", "--history", "x")
    assert done.returncode == 2
    assert done.stderr == ("ci-report: error: --since: '2026-13-01' is not a day like 2026-11-01 or a UTC time like "
                           "2026-11-01T10:00:00Z\n")
    done = run(tmp_path, "--since", "2026-11-09", "--until", "2026-11-02", "--history", "x")
    assert done.stderr == ("ci-report: error: --since (2026-11-09T00:00:00Z) must be before --until "
                           "(2026-11-02T00:00:00Z)\n")
    (tmp_path / "h.jsonl").write_text('{"gatekit_ci_history": 1}\n' + json.dumps(
        {"run": {"id": 1, "jobs": [{"id": 2, "name": "x", "labels": [], "started_at": "yesterday"}]}}) + "\n")
    done = run(tmp_path, *WINDOW, "--history", "h.jsonl")
    assert done.returncode == 2
    assert done.stderr == ("ci-report: error: h.jsonl:2: run.jobs[0].started_at: not a UTC time like "
                           "2026-12-01T10:00:00Z\n")
    done = run(tmp_path, *WINDOW, env={"GITHUB_REPOSITORY": ""})
    assert done.returncode == 2
    assert done.stderr == "ci-report: error: no repository: give --repo OWNER/NAME or set GITHUB_REPOSITORY\n"


def test_legs_a_forks_pull_request_skipped_are_counted_apart_never_saved(tmp_path):
    # GPU legs skip in a fork's pull request (no secrets or self-hosted runners there), whatever
    # the path gate said: that is no saving of the gate's. The run's head_repository says so.
    def gpu_run(rid, created, conclusion, head_repository=None):
        end = created.replace("T10:00", "T10:30") if conclusion == "success" else created
        srv.add_run("o/r", workflow="gpu-tests.yml", event="pull_request", created_at=created, run_id=rid,
                    head_repository=head_repository, jobs=[
                        {"name": "path gate", "labels": ["ubuntu-24.04"], "created_at": created, "started_at": created,
                         "completed_at": created.replace("T10:00", "T10:01")},
                        {"name": "pytest (GPU)", "labels": ["self-hosted", "gpu"], "conclusion": conclusion,
                         "created_at": created, "started_at": created, "completed_at": end}])

    with FakeGitHub(token="t0ken") as srv:
        gpu_run(1, "2026-11-03T10:00:00Z", "success")                           # ran: 30 minutes
        gpu_run(2, "2026-11-04T10:00:00Z", "skipped")                           # the gate skipped it
        gpu_run(3, "2026-11-05T10:00:00Z", "skipped", head_repository="fork/r")  # a fork's pull request
        gpu_run(4, "2026-11-06T10:00:00Z", "skipped", head_repository="fork/r")
        done = run(tmp_path, "--since", "2026-11-02", "--until", "2026-11-09", "--workflow", "gpu-tests.yml",
                   "--json", tmp_path / "r.json", "--save-history", tmp_path / "h.jsonl", srv=srv)
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["skipped"] == {"by_gate": 1, "unestimated": 0, "other": 0, "fork": 2}
    assert report["saved_minutes"]["median"] == 30
    assert leg(report, "pytest (GPU)")["skips"] == 1
    assert ("**skipped: fork**: 2 legs skipped in pull requests from forks, which get no secrets or self-hosted "
            "runners: not counted as saved.") in done.summary
    # The saved history keeps which runs came from forks: the report from it is the same.
    again = run(tmp_path, "--since", "2026-11-02", "--until", "2026-11-09", "--history", tmp_path / "h.jsonl",
                "--json", tmp_path / "r2.json")
    assert again.returncode == 0, again.stderr
    assert json.loads((tmp_path / "r2.json").read_text())["skipped"] == report["skipped"]


def test_hostile_names_stay_inert(tmp_path):
    with FakeGitHub(token="t0ken") as srv:
        c = "2026-11-03T10:00:00Z"
        name = 'x | y ]"\n::error::boom'
        for rid, concl in ((1, "success"), (2, "skipped")):
            srv.add_run("o/r", workflow="cpu-tests.yml", created_at=c, run_id=rid, jobs=[
                {"name": "path gate", "labels": ["ubuntu-24.04"], "created_at": c, "started_at": c,
                 "completed_at": "2026-11-03T10:01:00Z"},
                {"name": name, "labels": ['=cmd"|x'], "conclusion": concl, "created_at": c, "started_at": c,
                 "completed_at": "2026-11-03T10:05:00Z" if concl == "success" else c}])
        done = run(tmp_path, "--since", "2026-11-02", "--until", "2026-11-09", "--workflow", "cpu-tests.yml",
                   "--csv", tmp_path / "r.csv", srv=srv)
    assert done.returncode == 0, done.stderr
    assert "\n::error::boom" not in done.summary and "::error::" not in done.stdout
    assert "| `x \\| y ]\"\\n::error::boom` |" in done.summary  # a code span, the newline made visible
    assert "\"'=cmd\"\"|x\"" in (tmp_path / "r.csv").read_text()


def cached_urls(cache):
    return {json.loads(line)["url"] for line in cache.read_text().splitlines()[1:]}


def test_a_budget_that_runs_out_keeps_every_cached_answer_and_the_next_run_goes_further(tmp_path):
    """A partial run keeps what earlier runs read (not only what it reached), so the next run
    goes through it with free 304s instead of spending the rate limit again, and completes."""
    cache = tmp_path / "api-cache.jsonl"
    with FakeGitHub(token="t0ken") as srv:
        srv.load_state(synthetic.state())
        assert run(tmp_path, *WINDOW, "--cache", cache, srv=srv).returncode == 0
        complete = cached_urls(cache)
        srv.add_fault("GET", r"/actions/runs/\d+/jobs$", "status", status=503, nth=5, times=None)
        cut = run(tmp_path, *WINDOW, "--api-budget", "2", "--cache", cache, srv=srv)
        assert cut.returncode == 3, cut.stdout + cut.stderr
        assert cached_urls(cache) == complete  # nothing read before is lost
        with srv.lock:
            srv.faults.clear()
        sent_before, used_before = len(srv.requests), srv.rate["used"]
        after = run(tmp_path, *WINDOW, "--cache", cache, "--json", tmp_path / "r.json", srv=srv)
        assert after.returncode == 0, after.stdout + after.stderr
        assert srv.rate["used"] == used_before  # every answer a 304: no rate limit spent
        assert srv.not_modified >= len(srv.requests) - sent_before
    assert json.loads((tmp_path / "r.json").read_text())["complete"] is True


def test_an_answer_that_is_not_json_skips_its_run_counts_it_and_the_report_is_partial(history, tmp_path):
    _, full, _ = history
    all_runs = [json.loads(line)["run"]["id"] for line in (full / "h.jsonl").read_text().splitlines()
                if line.startswith('{"run"')]
    with FakeGitHub(token="t0ken") as srv:
        srv.load_state(synthetic.state())
        srv.add_fault("GET", r"/actions/runs/\d+/jobs$", "invalid_json", nth=3)
        done = run(tmp_path, *WINDOW, "--json", tmp_path / "r.json", "--save-history", tmp_path / "h.jsonl", srv=srv)
        bad = [r["path"] for r in srv.requests if r["path"].endswith("/jobs")][2]
    skipped = int(bad.split("/")[-2])
    assert done.returncode == 3, done.stdout + done.stderr
    runs = [json.loads(line)["run"]["id"] for line in (tmp_path / "h.jsonl").read_text().splitlines()
            if line.startswith('{"run"')]
    assert runs == [r for r in all_runs if r != skipped]  # every other run is read
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["complete"] is False and done.outputs["complete"] == "false"
    why = (f"GET /repos/o/r/actions/runs/{skipped}/jobs?per_page=100: invalid JSON in a 22-byte body: "
           "incomplete JSON")
    assert report["gaps"] == [f"1 answer(s) from GitHub could not be read; their runs, jobs, issues or statuses are "
                              f"left out (the first: {why})"]
    assert f"ci-report: skipped run {skipped}: {why}" in done.stdout


def test_a_runs_listing_that_repeats_a_page_counts_each_run_once(tmp_path):
    """Page 2 of the runs listing repeats page 1 (a listing that changed while it was read):
    the 100 runs of page 1 are counted once, never twice, and the 50 that page 2 hid make the
    report partial, said so."""
    with FakeGitHub(token="t0ken") as srv:
        for i in range(150):
            # Still running: their jobs are not read, so only the listing matters.
            srv.add_run("o/r", workflow="cpu-tests.yml", created_at="2026-11-03T10:00:00Z", run_id=20_000 + i,
                        status="in_progress", conclusion=None)
        srv.add_fault("GET", r"/workflows/cpu-tests\.yml/runs$", "repeat_page", page=1, nth=1, times=None)
        done = run(tmp_path, "--since", "2026-11-02", "--until", "2026-11-09", "--lookback-days", "0",
                   "--workflow", "cpu-tests.yml", "--json", tmp_path / "r.json", srv=srv)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "ci-report: cpu-tests.yml: 100 runs from 2026-11-02T00:00:00Z to 2026-11-09T00:00:00Z" in done.stdout
    assert ("warning: GitHub listing repeated items: GET /repos/o/r/actions/workflows/cpu-tests.yml/runs: "
            "GitHub listed 100 item(s) again on a later page (the same id; the listing changed while it was read); "
            "each is counted once") in done.stdout
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["complete"] is False
    assert report["gaps"] == [
        "GitHub's listing of the runs of cpu-tests.yml created from 2026-11-02T00:00:00Z to 2026-11-09T00:00:00Z "
        "held 100 different runs of the 150 it counts (it changed while it was read); only 100 are counted"]


def test_a_cache_that_cannot_be_written_leaves_the_report_whole_and_the_last_cache_as_it_was(tmp_path):
    """The cache on a full disk (a real tmpfs): the report is written all the same, a warning
    says the cache was not kept, and the cache of the last run is left whole."""
    disk = tmp_path / "disk"
    disk.mkdir()
    cache = disk / "api-cache.jsonl"
    with FakeGitHub(token="t0ken") as srv:
        srv.load_state(synthetic.state())
        small = run(tmp_path, "--since", "2026-11-20", "--until", "2026-11-22", "--lookback-days", "0",
                    "--cache", cache, srv=srv)
        assert small.returncode == 0, small.stdout + small.stderr
        before = cache.read_bytes()
        done = run(tmp_path, *WINDOW, "--cache", cache, "--json", tmp_path / "r.json", srv=srv, full_disk=disk)
    assert cache.read_bytes() == before
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads((tmp_path / "r.json").read_text())["complete"] is True
    assert (f"warning: ci-report: ci-report: the API cache was not kept (the next run asks again): cannot "
            f"write {cache}.tmp: No space left on device") in done.stdout
    assert sorted(p.name for p in disk.iterdir()) == ["api-cache.jsonl"]
