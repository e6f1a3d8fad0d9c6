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
  streak), two of them closed in week 4.
- gate/gpu: each pull-request commit's status turns success 45 min after its runs are
  created (day 27's stays pending).
"""
import datetime

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
            out.append({"workflow": "cpu-tests.yml", "name": "CPU tests", "event": event, "head_sha": sha,
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
            out.append({"workflow": "gpu-tests.yml", "name": "GPU tests", "event": event, "head_sha": sha,
                        "head_branch": "feature" if pr else "main", "created_at": iso(created),
                        "conclusion": "failure" if cne else "success", "jobs": jobs})
    return out


def flaky_issues():
    week3 = SINCE + datetime.timedelta(days=14)
    out = [{"title": "flaky: tests/test_old.py::test_slow", "labels": ["flaky"], "state": "open",
            "created_at": iso(SINCE - datetime.timedelta(days=30))}]
    for i in range(5):
        closed = i < 2
        out.append({"title": f"flaky: tests/test_streak.py::test_{i}", "labels": ["flaky"],
                    "state": "closed" if closed else "open",
                    "created_at": iso(week3 + datetime.timedelta(days=i, hours=3)),
                    "closed_at": iso(week3 + datetime.timedelta(days=8 + i)) if closed else None})
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
