"""flaky-tracker issues end to end against the GitHub API test server: open, comment,
reopen, close after 20 green main runs, close after 5 daily absences, two overlapping runs,
the API down mid-run and the next run catching up from its journal."""
import json
import os
import subprocess
import sys
import threading

from flaky_fixtures import TOOL, junit, run_tool

sys.path.insert(0, os.path.join(os.environ.get("GATEKIT_SOURCE_DIR", "."), "tests", "github_api"))
from server import FakeGitHub  # noqa: E402

A = "tests/test_a.py::test_flaky"
B = "tests/test_b.py::test_other[-rf]"


def issues_run(tmp_path, srv, kind, tests, key, *extra):
    report = junit(tmp_path / f"{key}.xml", tests)
    return run_tool("issues", "--report", report, "--kind", kind, "--repo", "o/r", "--run-key", key,
                    "--run-url", f"https://github.com/o/r/actions/runs/{key}", "--api-budget", "5", *extra,
                    cwd=tmp_path, env={"GITHUB_API_URL": srv.base_url, "GITHUB_TOKEN": "t0ken",
                                       "GITHUB_ACTIONS": "true"})


def flaky_issues(srv):
    return sorted((it for it in srv.repos["o/r"]["issues"].values()), key=lambda it: it["number"])


def state_of(issue):
    line = issue["body"].split("\n")[1]
    assert line.startswith("<!-- gatekit-flaky-state: ") and line.endswith(" -->")
    return json.loads(line[len("<!-- gatekit-flaky-state: "):-4])


def marker_of(issue):
    return issue["body"].split("\n")[0]


def test_lifecycle_open_comment_close_after_20_greens_reopen_close_after_5_absences(tmp_path):
    with FakeGitHub(token="t0ken", state={"repos": {"o/r": {}}}) as srv:
        run = issues_run(tmp_path, srv, "pr", {A: "flaky", "tests/test_c.py::test_ok": "passed"}, "1")
        assert run.code == 0, run.stdout + run.stderr
        assert run.outputs["updated"] == "true"
        [issue] = flaky_issues(srv)
        assert issue["title"] == f"Flaky test: {A}"
        assert issue["labels"] == ["flaky"]
        assert marker_of(issue) == "<!-- gatekit-flaky-test: tests/test_a.py::test_flaky -->"
        assert "AssertionError: boom" in issue["body"]
        assert "[run](https://github.com/o/r/actions/runs/1)" in issue["body"]
        assert state_of(issue)["flakes"] == 1
        assert "| `tests/test_a.py::test_flaky` | [\\#1](" in run.summary and "| opened |" in run.summary

        run = issues_run(tmp_path, srv, "main", {A: "flaky"}, "2")
        assert run.code == 0
        [issue] = flaky_issues(srv)
        assert state_of(issue)["flakes"] == 2
        assert [c["body"].split(" (")[0] for c in issue["comments"]] == [
            "Flaked again in a main [run](https://github.com/o/r/actions/runs/2)"]

        for i in range(19):
            assert issues_run(tmp_path, srv, "main", {A: "passed"}, f"g{i}").code == 0
        [issue] = flaky_issues(srv)
        assert issue["state"] == "open" and state_of(issue)["greens"] == 19
        run = issues_run(tmp_path, srv, "main", {A: "passed"}, "g19")
        [issue] = flaky_issues(srv)
        assert issue["state"] == "closed"
        assert issue["comments"][-1]["body"].startswith("Closing: 20 green runs in a row on main since the last flake")
        assert "closed: 20 green main runs in a row" in run.summary

        run = issues_run(tmp_path, srv, "pr", {A: "flaky"}, "3")
        [issue] = flaky_issues(srv)  # reopened, never a second issue
        assert issue["state"] == "open" and state_of(issue)["flakes"] == 3 and state_of(issue)["greens"] == 0
        assert issue["comments"][-1]["body"].startswith("Reopened: this test flaked again")

        for i in range(4):
            issues_run(tmp_path, srv, "daily", {"tests/test_c.py::test_ok": "passed"}, f"d{i}")
            issues_run(tmp_path, srv, "pr", {"tests/test_c.py::test_ok": "passed"}, f"p{i}")  # pr runs: no absence
        [issue] = flaky_issues(srv)
        assert issue["state"] == "open" and state_of(issue)["absences"] == 4
        issues_run(tmp_path, srv, "daily", {"tests/test_c.py::test_ok": "passed"}, "d4")
        [issue] = flaky_issues(srv)
        assert issue["state"] == "closed"
        assert issue["comments"][-1]["body"].startswith(
            "Closing: the test no longer exists: 5 daily runs in a row did not have it")


def test_two_overlapping_runs_open_one_issue_and_lose_no_count(tmp_path):
    with FakeGitHub(token="t0ken", state={"repos": {"o/r": {}}}) as srv:
        # Both runs list, find nothing and create: the creation answers late, so they overlap.
        srv.add_fault("POST", r"/issues$", "delay", times=2, seconds=0.5)
        results = {}

        def one(key):
            results[key] = issues_run(tmp_path / key, srv, "pr", {B: "flaky"}, key)

        for key in ("x", "y"):
            (tmp_path / key).mkdir()
        threads = [threading.Thread(target=one, args=(k,)) for k in ("x", "y")]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert all(r.code == 0 and r.outputs["updated"] == "true" for r in results.values()), results
        issues = flaky_issues(srv)
        assert len(issues) == 2  # the race happened: both created one
        open_ = [it for it in issues if it["state"] == "open"]
        assert len(open_) == 1
        assert state_of(open_[0])["flakes"] == 2
        assert sorted(state_of(open_[0])["applied"]) == ["x!", "y!"]
        for dup in (it for it in issues if it["state"] == "closed"):
            assert dup["comments"][0]["body"].startswith(f"Duplicate of #{open_[0]['number']}")
        assert marker_of(open_[0]) == "<!-- gatekit-flaky-test: tests/test_b.py::test_other[%2Drf] -->"


def test_api_down_mid_run_keeps_the_verdict_and_the_next_run_catches_up(tmp_path):
    pending = tmp_path / "pending.json"
    with FakeGitHub(token="t0ken", state={"repos": {"o/r": {}}}) as srv:
        # The first issue is created; every later write fails until the end of the run.
        srv.add_fault("POST", r"/issues$", "status", nth=2, times=None, status=503)
        run = issues_run(tmp_path, srv, "main", {A: "flaky", B: "flaky"}, "r1", "--pending", pending)
        assert run.code == 0, run.stdout + run.stderr  # the leg's verdict is unchanged
        assert run.outputs["updated"] == "false"
        assert "::warning title=Flaky-test issues not updated::the flaky-test issues were not updated: " in run.stdout
        assert "HTTP 503" in run.stdout
        assert "The issues were not updated" in run.summary
        journal = json.loads(pending.read_text())
        assert [r["key"] for r in journal["runs"]] == ["r1"]
        assert sorted(f["id"] for f in journal["runs"][0]["flakes"]) == [A, B]
        assert len(flaky_issues(srv)) == 1

        with srv.lock:
            srv.faults.clear()
        run = issues_run(tmp_path, srv, "main", {A: "passed", B: "passed"}, "r2", "--pending", pending)
        assert run.code == 0 and run.outputs["updated"] == "true", run.stdout + run.stderr
        assert "Caught up with 1 earlier run(s)" in run.summary
        issues = flaky_issues(srv)
        assert len(issues) == 2
        by_marker = {marker_of(it): state_of(it) for it in issues}
        for state in by_marker.values():
            assert state["flakes"] == 1  # r1 counted once, though its first issue was written before the failure
            assert state["greens"] == 1  # and r2's green on top
        assert json.loads(pending.read_text())["runs"] == []


def test_without_a_repository_it_is_a_usage_error(tmp_path):
    report = junit(tmp_path / "r.xml", {A: "flaky"})
    done = subprocess.run([str(TOOL), "issues", "--report", str(report), "--kind", "pr"], capture_output=True,
                          text=True, env={"PATH": os.environ["PATH"]})
    assert done.returncode == 2
    assert done.stderr == "flaky-tracker: error: --repo: not given, and GITHUB_REPOSITORY is not set\n"


def copied_body(test_id, state):
    """The first lines of a tracking issue, as anyone could copy them into an issue of their own."""
    return (f"<!-- gatekit-flaky-test: {test_id} -->\n"
            f"<!-- gatekit-flaky-state: {json.dumps(state)} -->\n## Flaky test\n")


def test_an_outsiders_issue_with_the_label_and_a_copied_marker_is_not_adopted(tmp_path):
    with FakeGitHub(token="t0ken", state={"repos": {"o/r": {}}}, login="gatekit-bot") as srv:
        # One green from closing, with this run's key already applied: adopted, it would swallow
        # the flake and close on the next green.
        planted = copied_body(A, {"v": 1, "greens": 19, "absences": 0, "flakes": 1, "applied": ["1!"]})
        srv.add_issue("o/r", f"Flaky test: {A}", planted, labels=["flaky"], user="mallory")
        run = issues_run(tmp_path, srv, "pr", {A: "flaky"}, "1")
        assert run.code == 0 and run.outputs["updated"] == "true", run.stdout + run.stderr
        outsider, own = flaky_issues(srv)
        assert outsider["body"] == planted and outsider["state"] == "open" and outsider["comments"] == []
        assert own["user"] == "gatekit-bot" and state_of(own)["flakes"] == 1
        assert ("::warning title=Flaky-test issues not adopted::1 issue(s) carry a flaky-test marker but were not "
                "opened by flaky-tracker's identity; they are left alone: #1 (tests/test_a.py::test_flaky, opened by "
                "'mallory')") in run.stdout
        assert "### Issues left alone" in run.summary and "| [\\#1](https://github.com/o/r/issues/1) | `tests/test_a.py::test_flaky` | `mallory` |" in run.summary
        assert [r["path"] for r in srv.requests][0] == "/user"  # whose issues: the token's account

        run = issues_run(tmp_path, srv, "main", {A: "passed"}, "2")  # its own issue is adopted
        outsider, own = flaky_issues(srv)
        assert state_of(own)["greens"] == 1 and outsider["body"] == planted and outsider["state"] == "open"


def test_with_github_token_the_issues_of_github_actions_bot_are_adopted(tmp_path):
    # GITHUB_TOKEN is an installation token: GET /user answers 403, its issues are github-actions[bot]'s.
    with FakeGitHub(token="t0ken", state={"repos": {"o/r": {}}}, login="github-actions[bot]",
                    installation=True) as srv:
        srv.add_issue("o/r", f"Flaky test: {A}", copied_body(A, {"v": 1}), labels=["flaky"], user="octocat")
        assert issues_run(tmp_path, srv, "pr", {A: "flaky"}, "1").code == 0
        run = issues_run(tmp_path, srv, "pr", {A: "flaky"}, "2")
        assert run.code == 0 and run.outputs["updated"] == "true", run.stdout + run.stderr
        assert "adopting the issues opened by github-actions[bot], GITHUB_TOKEN's account" in run.stdout
        outsider, own = flaky_issues(srv)
        assert outsider["comments"] == []
        assert own["user"] == "github-actions[bot]" and state_of(own)["flakes"] == 2 and len(own["comments"]) == 1


def test_a_github_app_token_needs_its_creator_named_and_loses_nothing_meanwhile(tmp_path):
    pending = tmp_path / "pending.json"
    with FakeGitHub(token="t0ken", state={"repos": {"o/r": {}}}, login="my-app[bot]", installation=True) as srv:
        run = issues_run(tmp_path, srv, "pr", {A: "flaky"}, "1", "--pending", pending)
        assert run.code == 2
        assert run.stderr == (
            "flaky-tracker: error: issue #1 was opened as 'my-app[bot]', which is not among the creators whose issues "
            "flaky-tracker adopts ('github-actions[bot]'): it would not be found again; give --creator 'my-app[bot]' "
            "(the action's `creator` input)\n")
        assert [r["key"] for r in json.loads(pending.read_text())["runs"]] == ["1"]

        asked = len(srv.requests)
        run = issues_run(tmp_path, srv, "pr", {A: "flaky"}, "2", "--pending", pending, "--creator", "my-app[bot]")
        assert run.code == 0 and run.outputs["updated"] == "true", run.stdout + run.stderr
        [issue] = flaky_issues(srv)
        assert state_of(issue)["flakes"] == 2  # run 1 once (journalled), run 2 once
        assert "/user" not in [r["path"] for r in srv.requests[asked:]]  # --creator: no need to ask

    bad = issues_run(tmp_path, srv, "pr", {A: "flaky"}, "3", "--creator", "a b")
    assert bad.code == 2
    assert bad.stderr == "flaky-tracker: error: --creator: 'a b' is not a GitHub login (NAME, or SLUG[bot] for an app)\n"


def test_a_comment_whose_post_fails_is_journalled_and_posted_by_the_next_run(tmp_path):
    pending = tmp_path / "pending.json"
    with FakeGitHub(token="t0ken", state={"repos": {"o/r": {}}}) as srv:
        assert issues_run(tmp_path, srv, "pr", {A: "flaky"}, "1", "--pending", pending).code == 0
        srv.add_fault("POST", r"/comments$", "status", times=None, status=502)
        run = issues_run(tmp_path, srv, "main", {A: "flaky"}, "2", "--pending", pending)
        assert run.code == 0 and run.outputs["updated"] == "false", run.stdout + run.stderr
        assert ("::warning title=Flaky-test comments not posted::1 comment(s) could not be posted: POST "
                "/repos/o/r/issues/1/comments: ") in run.stdout
        assert "1 comment(s) could not be posted; they are kept for the next run to post." in run.summary
        [issue] = flaky_issues(srv)
        assert state_of(issue)["flakes"] == 2 and issue["comments"] == []  # counted, not commented
        journal = json.loads(pending.read_text())
        assert journal["runs"] == []
        [kept] = journal["comments"]
        assert kept["issue"] == 1 and kept["id"] == A
        assert kept["body"].startswith("Flaked again in a main [run](https://github.com/o/r/actions/runs/2)")

        with srv.lock:
            srv.faults.clear()
        run = issues_run(tmp_path, srv, "main", {A: "passed"}, "3", "--pending", pending)
        assert run.code == 0 and run.outputs["updated"] == "true", run.stdout + run.stderr
        [issue] = flaky_issues(srv)
        assert [c["body"] for c in issue["comments"]] == [kept["body"]]
        assert state_of(issue)["greens"] == 1
        assert json.loads(pending.read_text()) == {"version": 1, "runs": [], "comments": []}


def test_a_full_journal_names_what_it_dropped(tmp_path):
    pending = tmp_path / "pending.json"
    old = [{"key": f"old{r}", "url": "", "time": "", "kind": "pr", "scope": "",
            "flakes": [{"id": f"tests/old{r}.py::t{f}", "message": "m" * 2000, "detail": "", "file": "", "line": 0}
                       for f in range(100)]} for r in range(12)]
    pending.write_text(json.dumps({"version": 1, "runs": old}))
    assert pending.stat().st_size > 2 << 20
    with FakeGitHub(token="another", state={"repos": {"o/r": {}}}) as srv:  # 401: nothing is recorded
        run = issues_run(tmp_path, srv, "pr", {A: "flaky"}, "new", "--pending", pending)
    assert run.code == 0 and run.outputs["updated"] == "false", run.stdout + run.stderr
    journal = json.loads(pending.read_text())
    assert pending.stat().st_size <= 2 << 20
    kept = [f["id"] for r in journal["runs"] for f in r["flakes"]]
    assert journal["runs"][-1]["key"] == "new" and kept[-1] == A  # the newest stay
    dropped = 1201 - len(kept)
    assert 0 < dropped < 1201
    assert kept[0] == f"tests/old{dropped // 100}.py::t{dropped % 100}"  # the oldest went
    assert (f"::warning title=flaky-tracker journal full::{pending} is full (2 MiB): {dropped} flake(s) and 0 "
            f"comment(s) were dropped, oldest first, of {dropped} test(s): tests/old0.py::t0, tests/old0.py::t1, ") in run.stdout
    assert f"and {dropped - 10} more" in run.stdout
    assert f"The journal is full: {dropped} flake(s) and 0 comment(s) were dropped, oldest first." in run.summary
    assert "> - `tests/old0.py::t0`" in run.summary


def test_a_listing_that_repeats_issues_closes_none_as_its_own_duplicate(tmp_path):
    """GitHub pages by offset: a listing that changes while it is read repeats issues on the
    next page. Here page 2 of the issues repeats page 1, so issues #1 to #100 come twice: each
    is counted once (a warning says the listing repeated), none is closed or commented on."""
    with FakeGitHub(token="t0ken", state={"repos": {"o/r": {}}}) as srv:
        for i in range(1, 121):
            srv.add_issue("o/r", f"Flaky test: tests/test_{i}.py::test_x", labels=["flaky"], user="octocat",
                          body=f"<!-- gatekit-flaky-test: tests/test_{i}.py::test_x -->\n")
        srv.add_fault("GET", r"/issues$", "repeat_page", page=1, nth=1, times=None)
        run = issues_run(tmp_path, srv, "pr", {"tests/test_1.py::test_x": "passed"}, "r1")
        writes = [r for r in srv.requests if r["method"] != "GET"]
        issues = flaky_issues(srv)
    assert run.code == 0, run.stdout + run.stderr
    assert writes == []
    assert all(it["state"] == "open" and not it["comments"] for it in issues)
    assert ("::warning title=GitHub listing repeated items::GET /repos/o/r/issues: GitHub listed 100 item(s) again "
            "on a later page (the same id; the listing changed while it was read); each is counted once") in run.stdout


def test_a_run_opens_at_most_max_new_issues_and_keeps_the_rest_for_the_next_runs(tmp_path):
    pending = tmp_path / "pending.json"
    many = {f"tests/test_m.py::test_{i:02}": "flaky" for i in range(15)}
    with FakeGitHub(token="t0ken", state={"repos": {"o/r": {}}}) as srv:
        run = issues_run(tmp_path, srv, "pr", many, "r1", "--pending", pending)
        assert run.code == 0, run.stdout + run.stderr
        assert len(flaky_issues(srv)) == 10  # the default bound
        assert run.outputs["updated"] == "false"
        said = (f"opened 10 new issue(s), the most one run may (--max-new-issues 10): 5 flake(s) of tests without an "
                f"issue are left for the next runs; they wait in {pending}")
        assert f"::warning title=Flaky-test issues deferred::{said}" in run.stdout
        assert f"flaky-tracker: {said}" in run.stdout
        assert ("This run opened 10 new issue(s), the most one run may (`--max-new-issues 10`): 5 flake(s) of tests "
                "without an issue are kept in the journal; the next runs open their issues, oldest first.") in run.summary
        assert "| `tests/test_m.py::test_14` | - | kept for a later run: the run's bound on new issues was reached |" \
            in run.summary
        journal = json.loads(pending.read_text())
        assert [(r["key"], [f["id"] for f in r["flakes"]]) for r in journal["runs"]] == [
            ("r1", [f"tests/test_m.py::test_{i:02}" for i in range(10, 15)])]

        # The next run opens the rest first, under the run that saw them flake, then its own.
        run = issues_run(tmp_path, srv, "pr", {"tests/test_m.py::test_00": "flaky"}, "r2", "--pending", pending,
                         "--max-new-issues", "3")
        assert run.code == 0, run.stdout + run.stderr
        assert len(flaky_issues(srv)) == 13
        assert [f["id"] for r in json.loads(pending.read_text())["runs"] for f in r["flakes"]] == [
            "tests/test_m.py::test_13", "tests/test_m.py::test_14"]
        run = issues_run(tmp_path, srv, "pr", {}, "r3", "--pending", pending)
        assert run.code == 0 and run.outputs["updated"] == "true", run.stdout + run.stderr
        issues = flaky_issues(srv)
        assert len(issues) == 15 and json.loads(pending.read_text())["runs"] == []
        by_test = {marker_of(it): state_of(it) for it in issues}
        assert by_test["<!-- gatekit-flaky-test: tests/test_m.py::test_00 -->"]["flakes"] == 2
        assert all(s["flakes"] == 1 for m, s in by_test.items() if not m.endswith("test_00 -->"))


def test_a_journalled_comment_is_posted_only_to_the_issue_the_tracker_finds_for_its_test(tmp_path):
    """The journal comes back from a cache: each comment names an issue by number, and only the
    issue the listing shows as the comment's test's (opened by flaky-tracker's identity, its
    marker naming that test) gets it. Every other is set aside (its text in the log), named in a
    warning and the summary."""
    pending = tmp_path / "pending.json"
    with FakeGitHub(token="t0ken", state={"repos": {"o/r": {}}}) as srv:
        assert issues_run(tmp_path, srv, "pr", {A: "flaky"}, "1").code == 0  # #1: A
        assert issues_run(tmp_path, srv, "pr", {B: "flaky"}, "2").code == 0  # #2: B
        srv.add_issue("o/r", f"Flaky test: {A}", copied_body(A, {"v": 1}), labels=["flaky"], user="mallory")  # #3
        srv.add_issue("o/r", "Add a flag", "", pull_request=True)  # #4: a pull request
        srv.add_issue("o/r", "A question", "<!-- gatekit-flaky-test: tests/test_a.py::test_flaky -->\n",
                      user="octocat")  # #5: the marker, without the label
        comments = [{"issue": 2, "id": A, "body": "to B's issue"},
                    {"issue": 3, "id": A, "body": "to an outsider's copy"},
                    {"issue": 4, "id": A, "body": "to a pull request"},
                    {"issue": 5, "id": A, "body": "to an issue without the label"},
                    {"issue": 1, "id": A, "body": "kept from run 0"}]
        pending.write_text(json.dumps({"version": 1, "runs": [], "comments": comments}))
        run = issues_run(tmp_path, srv, "pr", {A: "passed", B: "passed"}, "3", "--pending", pending)
        assert run.code == 0 and run.outputs["updated"] == "true", run.stdout + run.stderr
        issues = {it["number"]: it for it in flaky_issues(srv)}
        assert [c["body"] for c in issues[1]["comments"]] == ["kept from run 0"]
        assert all(issues[n]["comments"] == [] for n in (2, 3, 4, 5))
        assert [r["path"] for r in srv.requests if r["method"] == "POST"][-1:] == ["/repos/o/r/issues/1/comments"]
        assert ("::warning title=Flaky-test comments set aside::4 comment(s) kept in the journal are set aside, not "
                "posted (their text is in the log group 'flaky-tracker journalled comments set aside'): each names "
                "an issue that is not the one flaky-tracker keeps for its test: "
                f"#2 (tests/test_a.py::test_flaky): its marker names another test, {B}; "
                "#3 (tests/test_a.py::test_flaky): it was opened by 'mallory', not by flaky-tracker's identity; "
                "#4 (tests/test_a.py::test_flaky): no issue labelled 'flaky' with a flaky-test marker has that number; "
                "#5 (tests/test_a.py::test_flaky): no issue labelled 'flaky' with a flaky-test marker has that number"
                ) in run.stdout
        assert ("::group::flaky-tracker journalled comments set aside\n"
                f"flaky-tracker: a journalled comment for #2 (tests/test_a.py::test_flaky): its marker names another "
                f"test, {B}: set aside, not posted; its text:\nto B's issue\n") in run.stdout  # nothing is lost
        assert ("flaky-tracker: a journalled comment for #5 (tests/test_a.py::test_flaky): no issue labelled 'flaky' "
                "with a flaky-test marker has that number: set aside, not posted; its text:\n"
                "to an issue without the label\n::endgroup::\n") in run.stdout
        assert "### Journalled comments set aside" in run.summary
        assert ("| \\#3 | `tests/test_a.py::test_flaky` | it was opened by 'mallory', not by flaky-tracker's "
                "identity |") in run.summary
        assert json.loads(pending.read_text())["comments"] == []  # set aside in the log, not kept for ever


def test_journalled_comments_wait_while_the_issues_cannot_be_read(tmp_path):
    pending = tmp_path / "pending.json"
    kept = {"issue": 1, "id": A, "body": "kept from run 0"}
    pending.write_text(json.dumps({"version": 1, "runs": [], "comments": [kept]}))
    with FakeGitHub(token="t0ken", state={"repos": {"o/r": {}}}) as srv:
        assert issues_run(tmp_path, srv, "pr", {A: "flaky"}, "1").code == 0  # #1: A, no journal yet
        srv.add_fault("GET", r"/issues$", "status", times=None, status=503)
        run = issues_run(tmp_path, srv, "pr", {A: "passed"}, "2", "--pending", pending)
        assert run.code == 0 and run.outputs["updated"] == "false", run.stdout + run.stderr
        assert json.loads(pending.read_text())["comments"] == [kept]  # not posted blind, not lost
        assert flaky_issues(srv)[0]["comments"] == []
        with srv.lock:
            srv.faults.clear()
        run = issues_run(tmp_path, srv, "pr", {A: "passed"}, "3", "--pending", pending)
        assert run.code == 0 and run.outputs["updated"] == "true", run.stdout + run.stderr
        assert [c["body"] for c in flaky_issues(srv)[0]["comments"]] == ["kept from run 0"]


def test_an_unreadable_journal_is_set_aside_whole_and_the_run_goes_on(tmp_path):
    pending = tmp_path / "pending.json"
    damaged = '{"version": 1, "runs": [{"key": "r0", "flakes": [{"id": "tests/x.py::t", "mess'
    pending.write_text(damaged)
    (tmp_path / "pending.json.bad").write_text("set aside by an earlier run")
    with FakeGitHub(token="t0ken", state={"repos": {"o/r": {}}}) as srv:
        run = issues_run(tmp_path, srv, "pr", {A: "flaky"}, "1", "--pending", pending)
        assert run.code == 0 and run.outputs["updated"] == "true", run.stdout + run.stderr
        assert len(flaky_issues(srv)) == 1  # the run went on without it
    assert (tmp_path / "pending.json.bad.2").read_text() == damaged  # whole
    assert (tmp_path / "pending.json.bad").read_text() == "set aside by an earlier run"
    assert (f"::warning title=flaky-tracker journal unreadable::{pending}: line 1, column 79: not JSON (incomplete "
            f"JSON); it is set aside as {pending}.bad.2 (its content is in the log) and this run goes on without "
            "it") in run.stdout
    assert f"::group::flaky-tracker journal set aside: {pending}.bad.2\n{damaged}\n::endgroup::\n" in run.stdout
    assert (f"> [!WARNING]\n> The journal `{pending}` could not be read (line 1, column 79: not JSON (incomplete "
            f"JSON)): it is set aside, whole, as `{pending}.bad.2` (its content is in the log), and this run went on "
            "without it: what it held was not applied.\n") in run.summary
    # A readable (empty) journal takes its place, so the Actions cache's next entry is not the damaged one.
    assert json.loads(pending.read_text()) == {"version": 1, "runs": [], "comments": []}


def test_a_journal_over_the_read_limit_is_set_aside_unread(tmp_path):
    pending = tmp_path / "pending.json"
    pending.write_bytes(b"x" * ((4 << 20) + 1))
    with FakeGitHub(token="another", state={"repos": {"o/r": {}}}) as srv:  # 401: this run's flake is journalled
        run = issues_run(tmp_path, srv, "pr", {A: "flaky"}, "1", "--pending", pending)
    assert run.code == 0 and run.outputs["updated"] == "false", run.stdout + run.stderr
    assert (tmp_path / "pending.json.bad").stat().st_size == (4 << 20) + 1
    assert (f"::group::flaky-tracker journal set aside: {pending}.bad\n(its content is not shown: cannot read "
            f"{pending}: larger than the limit of 4194304 bytes)\n::endgroup::") in run.stdout
    assert [f["id"] for r in json.loads(pending.read_text())["runs"] for f in r["flakes"]] == [A]


def test_an_issue_whose_marker_is_edited_to_name_another_test_is_never_written_for_the_listed_one(tmp_path):
    """Anyone who can edit an issue (or act as flaky-tracker's identity) can change its marker
    between the run's listing and its read before the write. The issue is then another test's:
    the run leaves it alone for the listed test, which gets an issue of its own."""
    with FakeGitHub(token="t0ken", state={"repos": {"o/r": {}}}) as srv:
        assert issues_run(tmp_path, srv, "pr", {A: "flaky"}, "1").code == 0  # #1: A
        edited = copied_body(B, {"v": 1, "flakes": 7})
        srv.add_fault("GET", r"/issues/1$", "delay", seconds=2)  # the read before the write answers late

        def edit_meanwhile():
            for _ in range(1000):
                with srv.lock:
                    if any(r["method"] == "GET" and r["path"] == "/repos/o/r/issues/1" for r in srv.requests):
                        srv.repos["o/r"]["issues"][1]["body"] = edited
                        return
                threading.Event().wait(0.01)

        editor = threading.Thread(target=edit_meanwhile)
        editor.start()
        run = issues_run(tmp_path, srv, "main", {A: "flaky"}, "2")
        editor.join()
        assert run.code == 0 and run.outputs["updated"] == "true", run.stdout + run.stderr
        first, second = flaky_issues(srv)
        assert first["body"] == edited and first["comments"] == [] and first["state"] == "open"
        assert marker_of(second) == f"<!-- gatekit-flaky-test: {A} -->" and state_of(second)["flakes"] == 1
        assert ("::warning title=Flaky-test issue changed::#1 was listed as the issue of tests/test_a.py::test_flaky, "
                f"but read again its marker names {B} (its body was edited meanwhile): "
                "it is left alone for tests/test_a.py::test_flaky") in run.stdout
        assert "### Issues changed under the run" in run.summary


def test_with_an_app_as_creator_an_issue_planted_as_github_actions_bot_is_left_alone(tmp_path):
    """The trust model's mitigation (docs/guides/flaky-tests.md, "Who can steer the issues"):
    with a GitHub App's token and `--creator 'SLUG[bot]'`, an issue that a branch's workflow
    planted as github-actions[bot], with a state one green from closing and a lower number, is
    neither written, commented on nor allowed to close the App's own issue as its duplicate."""
    with FakeGitHub(token="t0ken", state={"repos": {"o/r": {}}}, login="gate-app[bot]", installation=True) as srv:
        planted = copied_body(A, {"v": 1, "greens": 19, "absences": 0, "flakes": 1, "applied": []})
        srv.add_issue("o/r", f"Flaky test: {A}", planted, labels=["flaky"], user="github-actions[bot]")  # #1
        app = ("--creator", "gate-app[bot]")
        assert issues_run(tmp_path, srv, "pr", {A: "flaky"}, "1", *app).code == 0  # #2: the App's own
        run = issues_run(tmp_path, srv, "main", {A: "passed"}, "2", *app)
        assert run.code == 0 and run.outputs["updated"] == "true", run.stdout + run.stderr
        planted_issue, own = flaky_issues(srv)
        assert planted_issue["body"] == planted and planted_issue["state"] == "open" and planted_issue["comments"] == []
        assert own["user"] == "gate-app[bot]" and own["state"] == "open"
        assert state_of(own)["flakes"] == 1 and state_of(own)["greens"] == 1
        assert "opened by 'github-actions[bot]'" in run.stdout
