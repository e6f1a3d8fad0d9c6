"""A four-week synthetic CI history with known answers, for ci-report's tests and benchmark.

Window: 2026-11-02 (a Monday) to 2026-11-30, four weeks; 14 days of lookback before it.
Each day at 10:00 and 14:00 UTC, `cpu-tests.yml` and `gpu-tests.yml` run once each (the
14:00 runs are pull-request runs of their own head commit):
- `path gate` (ubuntu-24.04): 1 min, queued 30 s.
- CPU: `pytest (CPU, py3.10|3.11|3.12)` (ubuntu-24.04), 9, 10 and 11 min by turns (median
  10, p25 9, p75 11 per leg), queued 30 s; skipped by the gate on days divisible by 3
  (one unexpanded job `pytest (CPU, py${{ matrix.python }})`).
- GPU: `pytest (GPU)` ([self-hosted, gpu]): 28, 30 and 32 min by turns (median 30, p25 28,
  p75 32), queued 2 min, except in the third week (the slow GPU queue): 60 min; skipped
  by the gate on even days. `GPU tests` (the required check, ubuntu-24.04): 1 min.
- The fail-open day, day 10 (2026-11-12): every path gate carries a `fail-open:` warning
  and every leg runs.
- Day 20's 10:00 GPU run: `GPU tests` fails with a "could not evaluate" annotation.
- One 14:00 CPU run on day 5 is cancelled after 4 min of each CPU leg.
- Flaky issues: one open since before the window, five opened in week 3 (the flaky
  streak), two of them closed in week 4. Each body carries flaky-tracker's hidden state
  (gatekit/flaky_issue.hpp) naming the runs its test flaked in (runs have fixed ids, run_id()):
  `test_old` flaked in the CPU runs of day -3 (lookback) and days 1 and 2 at 10:00, plus a run
  with a custom key and a run not in the history (both ignored); `test_streak::test_i` flaked
  in the first i+1 GPU runs of week 3 that ran their leg (days 15, 17, 19), `test_3` in one of
  them twice (two attempts, counted once), and `test_4`'s list of runs is full (30 entries,
  the oldest in the window; 12 flakes in all), so its rate is a lower bound. A seventh issue,
  closed before the window, was opened by another account with a planted state: not rated.
  The suites' runs in the window in which a leg ran: CPU 35 (56, less 20 skipped, less day 5's cancelled one), GPU 30 (56, less
  26 skipped).
- gate/gpu: each pull-request commit's status turns success 45 min after its runs are
  created (day 27's stays pending).
"""
import datetime
import json

DAY = 86400
SINCE = datetime.datetime(2026, 11, 2, tzinfo=datetime.timezone.utc)
UNTIL = SINCE + datetime.timedelta(days=28)
LOOKBACK = 14
FAIL_OPEN_DAY = 10
CNE_DAY = 20
CANCELLED_DAY = 5
SLOW_QUEUE_WEEK = 2  # 0-based: the third week
PYTHONS = ("3.10", "3.11", "3.12")
HOSTED = ["ubuntu-24.04"]
GPU = ["self-hosted", "gpu"]


def run_id(workflow, day, hour):
    """The fixed id of a run: flaky issues' states name runs by id."""
    k = (day + LOOKBACK) * 2 + (hour == 14)
    return 7_000_000 + 2 * k + (workflow == "gpu-tests.yml")


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def job(name, labels, created, queue_s, minutes, conclusion="success", annotations=None):
    start = created + datetime.timedelta(seconds=queue_s)
    end = start + datetime.timedelta(minutes=minutes)
    j = {"name": name, "labels": labels, "conclusion": conclusion, "created_at": iso(created),
         "started_at": iso(start), "completed_at": iso(end), "runner_name": "runner-" + labels[-1]}
    if annotations:
        j["annotations"] = annotations
    return j


def skipped(name, created):
    return {"name": name, "labels": [], "conclusion": "skipped", "created_at": iso(created),
            "started_at": iso(created), "completed_at": iso(created)}


def runs():
    """Runs in the FakeGitHub state form (jobs carry annotations), oldest first."""
    out = []
    turns = {"cpu": 0, "gpu": 0}  # each leg's durations go round by turns when it runs to a verdict

    def turn(leg):
        turns[leg] += 1
        return (turns[leg] - 1) % 3
    for day in range(-LOOKBACK, 28):
        for hour in (10, 14):
            created = SINCE + datetime.timedelta(days=day, hours=hour)
            pr = hour == 14
            sha = f"{(day + LOOKBACK) * 2 + (hour == 14):040x}"
            event = "pull_request" if pr else "push"
            fail_open = day == FAIL_OPEN_DAY
            gate_notes = [{"message": "fail-open: the GitHub API failed; every filter is relevant",
                           "title": "path gate"}] if fail_open else None
            # CPU
            cpu_skip = day >= 0 and day % 3 == 0 and not fail_open
            jobs = [job("path gate", HOSTED, created, 30, 1, annotations=gate_notes)]
            if cpu_skip:
                jobs.append(skipped("pytest (CPU, py${{ matrix.python }})", created))
            else:
                cancelled = day == CANCELLED_DAY and pr
                minutes = 4 if cancelled else 9 + turn("cpu")
                for p in PYTHONS:
                    jobs.append(job(f"pytest (CPU, py{p})", HOSTED, created, 30, minutes,
                                    "cancelled" if cancelled else "success"))
            out.append({"id": run_id("cpu-tests.yml", day, hour), "workflow": "cpu-tests.yml", "name": "CPU tests", "event": event, "head_sha": sha,
                        "head_branch": "feature" if pr else "main", "created_at": iso(created),
                        "conclusion": "cancelled" if day == CANCELLED_DAY and pr else "success", "jobs": jobs})
            # GPU
            gpu_skip = day >= 0 and day % 2 == 0 and not fail_open
            jobs = [job("path gate", HOSTED, created, 30, 1, annotations=gate_notes)]
            if gpu_skip:
                jobs.append(skipped("pytest (GPU)", created))
            else:
                slow = day >= 0 and day // 7 == SLOW_QUEUE_WEEK
                jobs.append(job("pytest (GPU)", GPU, created, 3600 if slow else 120, 28 + 2 * turn("gpu")))
            cne = day == CNE_DAY and not pr
            jobs.append(job("GPU tests", HOSTED, created, 30, 1, "failure" if cne else "success",
                            [{"message": "GPU tests: could not evaluate: the needs JSON is unreadable",
                              "level": "failure"}] if cne else None))
            out.append({"id": run_id("gpu-tests.yml", day, hour), "workflow": "gpu-tests.yml", "name": "GPU tests", "event": event, "head_sha": sha,
                        "head_branch": "feature" if pr else "main", "created_at": iso(created),
                        "conclusion": "failure" if cne else "success", "jobs": jobs})
    return out


def issue_body(test, applied, flakes):
    """A body as flaky-tracker writes it: the marker and state lines (escaped as it does)."""
    encoded = "".join(f"%{ord(c):02X}" if c in "%-<>!" or ord(c) < 0x20 or ord(c) == 0x7F else c for c in test)
    state = json.dumps({"v": 1, "greens": 0, "absences": 0, "flakes": flakes, "first_seen": "", "last_flake": "",
                        "last_run": "", "applied": applied, "scopes": []}, separators=(",", ":"))
    state = state.replace("-", "\\u002d").replace("<", "\\u003c").replace(">", "\\u003e")
    return (f"<!-- gatekit-flaky-test: {encoded} -->\n<!-- gatekit-flaky-state: {state} -->\n\n"
            f"Flaky test: `{test}`\n")


BOT = "github-actions[bot]"  # flaky-tracker's account with the workflow's GITHUB_TOKEN

# The GPU runs of week 3 that ran their leg (odd days: even days are skipped by the gate).
STREAK_RUNS = [run_id("gpu-tests.yml", d, h) for d in (15, 17, 19) for h in (10, 14)]
# The window's GPU runs that ran their leg, oldest first (for test_4's full list).
GPU_RAN = [run_id("gpu-tests.yml", d, h) for d in range(28) if d % 2 == 1 or d == FAIL_OPEN_DAY for h in (10, 14)]


def flaky_issues():
    week3 = SINCE + datetime.timedelta(days=14)
    old = [f"{run_id('cpu-tests.yml', -3, 10)}.1!", "nightly-7!", f"{run_id('cpu-tests.yml', 1, 10)}.1!",
           "999.1!", f"{run_id('cpu-tests.yml', 2, 10)}.1!", f"{run_id('cpu-tests.yml', 3, 10)}.1"]
    out = [{"title": "flaky: tests/test_old.py::test_slow", "labels": ["flaky"], "state": "open",
            "user": BOT, "created_at": iso(SINCE - datetime.timedelta(days=30)),
            "body": issue_body("tests/test_old.py::test_slow", old, 9)}]
    for i in range(5):
        closed = i < 2
        applied = [f"{r}.1!" for r in STREAK_RUNS[:i + 1]]
        if i == 3:
            applied.append(f"{STREAK_RUNS[0]}.2!")
        if i == 4:  # a full list of 30: the 24 other runs and one second attempt first
            others = [f"{r}.1" for r in GPU_RAN if r not in STREAK_RUNS]
            applied = others + [f"{GPU_RAN[-1]}.2"] + applied
        out.append({"title": f"flaky: tests/test_streak.py::test_{i}", "labels": ["flaky"],
                    "state": "closed" if closed else "open", "user": BOT,
                    "created_at": iso(week3 + datetime.timedelta(days=i, hours=3)),
                    "closed_at": iso(week3 + datetime.timedelta(days=8 + i)) if closed else None,
                    "body": issue_body(f"tests/test_streak.py::test_{i}", applied, 12 if i == 4 else i + 1)})
    # Opened by someone else with the label and a state of their own: its state is not read.
    out.append({"title": "flaky: tests/test_planted.py::test_x", "labels": ["flaky"], "state": "closed",
                "user": "mallory", "created_at": iso(SINCE - datetime.timedelta(days=40)),
                "closed_at": iso(SINCE - datetime.timedelta(days=39)),
                "body": issue_body("tests/test_planted.py::test_x", [f"{r}.1!" for r in GPU_RAN[:10]], 10)})
    return out


def statuses():
    """gate/gpu statuses: success 45 min after each pull-request commit's runs (day 27: none)."""
    out = {}
    for run in runs():
        if run["event"] != "pull_request" or run["workflow"] != "gpu-tests.yml":
            continue
        created = datetime.datetime.strptime(run["created_at"], "%Y-%m-%dT%H:%M:%SZ")
        if created >= (SINCE + datetime.timedelta(days=27)).replace(tzinfo=None):
            out[run["head_sha"]] = [{"state": "pending", "context": "gate/gpu", "created_at": run["created_at"]}]
            continue
        done = created + datetime.timedelta(minutes=45)
        out[run["head_sha"]] = [{"state": "pending", "context": "gate/gpu", "created_at": run["created_at"]},
                                {"state": "success", "context": "gate/gpu", "created_at": iso(done)},
                                {"state": "success", "context": "other", "created_at": run["created_at"]}]
    return out


def state(repo="o/r"):
    """The FakeGitHub state (tests/github_api/README.md)."""
    return {"repos": {repo: {"runs": runs(), "issues": flaky_issues(), "statuses": statuses()}}}


# The known answers, from the description above (minutes).
WINDOW_DAYS = range(28)
GPU_SKIPS = sum(2 for d in WINDOW_DAYS if d % 2 == 0 and d != FAIL_OPEN_DAY)          # 26
CPU_SKIPS = sum(2 for d in WINDOW_DAYS if d % 3 == 0 and d != FAIL_OPEN_DAY)          # 20
GPU_SAVED = GPU_SKIPS * 30                                                            # 780
CPU_SAVED = CPU_SKIPS * 3 * 10                                                        # 600
# Flake rates (flaky runs, runs of the suite in the window), worst first.
CPU_SUITE_RUNS, GPU_SUITE_RUNS = 35, 30
FLAKE_RATES = [("tests/test_streak.py::test_4", 5, 30, True), ("tests/test_streak.py::test_3", 4, 30, False),
               ("tests/test_streak.py::test_2", 3, 30, False), ("tests/test_streak.py::test_1", 2, 30, False),
               ("tests/test_old.py::test_slow", 2, 35, False), ("tests/test_streak.py::test_0", 1, 30, False)]
