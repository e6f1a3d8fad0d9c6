// The issue lifecycle through the Tracker over an in-memory store: open, comment, reopen,
// greens, absences, duplicates, another run writing in between, the API failing mid-way.
#include <algorithm>
#include <string>
#include <vector>

#include "catch.hpp"
#include "memory_issue_store.hpp"
#include "batch.hpp"
#include "gatekit/files.hpp"
#include "gatekit/junit_reader.hpp"
#include "gatekit/sha256.hpp"
#include "report.hpp"
#include "tracker.hpp"

using namespace gatekit;
using namespace gatekit::flaky_tracker;
using gatekit::flaky_tracker::testing::MemoryIssueStore;

namespace {

const std::string kId = "tests/test_a.py::test_flaky";

Batch batch(const std::string& key, RunKind kind, std::vector<std::pair<std::string, Observation>> seen) {
  Batch b;
  b.run = {key, "https://ci/runs/" + key, "2026-12-01T10:00:00Z", kind};
  b.complete = true;
  for (const auto& [id, o] : seen) {
    b.seen[id] = o;
    if (o == Observation::flaky) b.flakes.push_back({id, {"AssertionError: boom", "trace", "tests/test_a.py", 3}});
  }
  return b;
}

IssueState state(const StoredIssue& issue) {
  auto s = parse_state(issue.body);
  REQUIRE(s.ok());
  return *s;
}

const std::vector<std::string> kCreators = {"gatekit-bot"};

Status apply(MemoryIssueStore& store, const Batch& b, Rules rules = {3, 2}) {
  Tracker tracker(store, "flaky", rules, kCreators);
  if (auto s = tracker.load(); !s) return s;
  return tracker.apply(b);
}

}  // namespace

TEST_CASE("lifecycle: open on a flake, comment on the next, close after N greens, reopen on a new flake") {
  MemoryIssueStore store;
  REQUIRE(apply(store, batch("r1", RunKind::pr, {{kId, Observation::flaky}})).ok());
  REQUIRE(store.issues.size() == 1);
  const StoredIssue& issue = store.issues.at(1);
  CHECK(issue.title == "Flaky test: " + kId);
  CHECK(marker_id(issue.body) == kId);
  CHECK(issue.body.find("AssertionError: boom") != std::string::npos);
  CHECK(state(issue).flakes == 1);

  REQUIRE(apply(store, batch("r2", RunKind::main, {{kId, Observation::flaky}})).ok());
  CHECK(store.issues.size() == 1);
  CHECK(state(store.issues.at(1)).flakes == 2);
  REQUIRE(store.comments[1].size() == 1);
  CHECK(store.comments[1][0].starts_with("Flaked again in a main [run](https://ci/runs/r2)"));

  for (int i = 0; i < 2; ++i) REQUIRE(apply(store, batch("g" + std::to_string(i), RunKind::main, {{kId, Observation::passed}})).ok());
  CHECK(store.issues.at(1).state == "open");
  CHECK(state(store.issues.at(1)).greens == 2);
  REQUIRE(apply(store, batch("g2", RunKind::main, {{kId, Observation::passed}})).ok());
  CHECK(store.issues.at(1).state == "closed");
  CHECK(store.comments[1].back() == "Closing: 3 green runs in a row on main since the last flake (the last: [run](https://ci/runs/g2)).\n");
  CHECK(store.issues.at(1).body.find("AssertionError: boom") != std::string::npos);  // the failure is kept

  REQUIRE(apply(store, batch("r3", RunKind::pr, {{kId, Observation::flaky}})).ok());
  CHECK(store.issues.size() == 1);  // reopened, not a second issue
  CHECK(store.issues.at(1).state == "open");
  CHECK(state(store.issues.at(1)).flakes == 3);
  CHECK(state(store.issues.at(1)).greens == 0);
  CHECK(store.comments[1].back().starts_with("Reopened: this test flaked again"));
}

TEST_CASE("lifecycle: absent from N daily runs closes the issue as a test that no longer exists") {
  MemoryIssueStore store;
  REQUIRE(apply(store, batch("r1", RunKind::pr, {{kId, Observation::flaky}})).ok());
  REQUIRE(apply(store, batch("d1", RunKind::daily, {{"other", Observation::passed}})).ok());
  CHECK(state(store.issues.at(1)).absences == 1);
  REQUIRE(apply(store, batch("d2", RunKind::daily, {{kId, Observation::passed}})).ok());
  CHECK(state(store.issues.at(1)).absences == 0);  // present again: the count starts over
  REQUIRE(apply(store, batch("d3", RunKind::daily, {})).ok());
  REQUIRE(apply(store, batch("m1", RunKind::main, {})).ok());  // main runs do not count absences
  CHECK(state(store.issues.at(1)).absences == 1);
  REQUIRE(apply(store, batch("d4", RunKind::daily, {})).ok());
  CHECK(store.issues.at(1).state == "closed");
  CHECK(store.comments[1].back().starts_with("Closing: the test no longer exists: 2 daily runs in a row did not have it"));
}

TEST_CASE("the same run applied twice (a retry, a journal) counts once") {
  MemoryIssueStore store;
  const Batch r1 = batch("r1", RunKind::main, {{kId, Observation::flaky}});
  REQUIRE(apply(store, r1).ok());
  REQUIRE(apply(store, r1).ok());
  CHECK(state(store.issues.at(1)).flakes == 1);
  CHECK(store.comments[1].empty());
}

TEST_CASE("issues are found by the marker, never by the title; duplicates close onto the lowest number") {
  MemoryIssueStore store;
  store.issues[4] = {4, "Flaky test: " + kId, "written by a person, no marker", "open", "u4"};
  REQUIRE(apply(store, batch("r1", RunKind::pr, {{kId, Observation::flaky}})).ok());
  REQUIRE(store.issues.size() == 2);
  CHECK(store.issues.at(4).body == "written by a person, no marker");
  // Two runs opened issues 5 and 6 for one test at once.
  store.issues[6] = store.issues.at(5);
  store.issues[6].number = 6;
  REQUIRE(apply(store, batch("r2", RunKind::pr, {{kId, Observation::flaky}})).ok());
  CHECK(store.issues.at(6).state == "closed");
  CHECK(store.comments[6].front().starts_with("Duplicate of #5"));
  CHECK(state(store.issues.at(5)).flakes == 2);
}

TEST_CASE("an issue listed twice is never closed as its own duplicate, nor commented on") {
  MemoryIssueStore store;
  REQUIRE(apply(store, batch("r1", RunKind::pr, {{kId, Observation::flaky}})).ok());
  REQUIRE(apply(store, batch("r2", RunKind::pr, {{"tests/test_b.py::test_b", Observation::flaky}})).ok());
  store.list_repeats = 2;
  store.calls.clear();
  REQUIRE(apply(store, batch("m1", RunKind::main, {{kId, Observation::passed}})).ok());
  CHECK(store.issues.at(1).state == "open");
  CHECK(store.issues.at(2).state == "open");
  CHECK(store.comments[1].empty());
  CHECK(store.comments[2].empty());
  CHECK(state(store.issues.at(1)).greens == 1);
  for (const auto& call : store.calls) CHECK(call.find("closed") == std::string::npos);
}

TEST_CASE("new issues: at most the bound a run, the other flakes deferred in order, known tests still updated") {
  MemoryIssueStore store;
  REQUIRE(apply(store, batch("r0", RunKind::pr, {{kId, Observation::flaky}})).ok());  // #1, known
  std::vector<std::pair<std::string, Observation>> seen = {{kId, Observation::flaky}};
  for (int i = 0; i < 5; ++i) seen.emplace_back("tests/test_new.py::test_" + std::to_string(i), Observation::flaky);
  store.calls.clear();
  Tracker tracker(store, "flaky", {3, 2}, kCreators, 2);
  REQUIRE(tracker.load().ok());
  REQUIRE(tracker.apply(batch("r1", RunKind::pr, seen)).ok());
  CHECK(std::count(store.calls.begin(), store.calls.end(), "create") == 2);
  CHECK(store.issues.size() == 3);
  CHECK(state(store.issues.at(1)).flakes == 2);  // a test with an issue is never held back
  CHECK(tracker.opened() == 2);
  CHECK(tracker.deferred() == 3);
  const auto deferred = tracker.take_deferred();
  std::vector<std::string> ids;
  for (const auto& f : deferred) ids.push_back(f.id);
  CHECK(ids == std::vector<std::string>{"tests/test_new.py::test_2", "tests/test_new.py::test_3",
                                        "tests/test_new.py::test_4"});
  CHECK(deferred[0].text.message == "AssertionError: boom");
  CHECK(tracker.take_deferred().empty());
  CHECK(tracker.was_deferred("tests/test_new.py::test_4"));
  CHECK_FALSE(tracker.was_deferred("tests/test_new.py::test_0"));
  // Bound 0: nothing new is opened at all.
  Tracker none(store, "flaky", {3, 2}, kCreators, 0);
  REQUIRE(none.load().ok());
  REQUIRE(none.apply(batch("r2", RunKind::pr, {{"tests/test_new.py::test_2", Observation::flaky}})).ok());
  CHECK(store.issues.size() == 3);
  CHECK(none.deferred() == 1);
}

TEST_CASE("another run opening the same issue at the same moment: one stays, no flake is lost") {
  MemoryIssueStore store;
  // The other run creates its issue right after this run's re-read (between list and create).
  bool raced = false;
  Tracker tracker(store, "flaky", Rules{}, kCreators);
  REQUIRE(tracker.load().ok());
  const Batch other = batch("other", RunKind::pr, {{kId, Observation::flaky}});
  {
    MemoryIssueStore scratch;  // what the other run would write
    REQUIRE(apply(scratch, other).ok());
    store.issues[1] = scratch.issues.at(1);
    raced = true;
  }
  REQUIRE(raced);
  REQUIRE(tracker.apply(batch("mine", RunKind::pr, {{kId, Observation::flaky}})).ok());
  // This run's index was stale: it re-read before creating and found issue 1.
  CHECK(store.issues.size() == 1);
  CHECK(state(store.issues.at(1)).flakes == 2);
}

TEST_CASE("another run writing over this run's write: the check after the write re-applies it") {
  MemoryIssueStore store;
  REQUIRE(apply(store, batch("r1", RunKind::pr, {{kId, Observation::flaky}})).ok());
  std::string before;
  store.before_update = [&](std::int64_t n) { before = store.issues.at(n).body; };
  store.after_update = [&](std::int64_t n) {
    // The other run read the same state as this one and writes after it: this run's count is gone.
    store.after_update = nullptr;
    auto theirs = update_issue_state(state(StoredIssue{n, "", before, "open", ""}), true, Observation::flaky,
                                     {"theirs", "https://ci/runs/theirs", "t", RunKind::pr}, Rules{});
    store.issues.at(n).body = issue_body(kId, theirs.next, Rules{}, "");
  };
  REQUIRE(apply(store, batch("mine", RunKind::main, {{kId, Observation::flaky}})).ok());
  const IssueState s = state(store.issues.at(1));
  CHECK(s.flakes == 3);  // r1, theirs, mine
  CHECK(s.applied == std::vector<std::string>{"r1!", "theirs!", "mine!"});
  CHECK(store.comments[1].size() == 1);  // this run commented once, after its write stuck
}

TEST_CASE("the API failing mid-run stops with the error; what was written stays consistent") {
  MemoryIssueStore store;
  store.fail_from_call = 3;  // list, list (re-read), then create fails
  const Status s = apply(store, batch("r1", RunKind::pr, {{kId, Observation::flaky}}));
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().message == "GET /repos/o/r/issues: HTTP 503: Service Unavailable");
  CHECK(store.issues.empty());
  store.fail_from_call = 0;
  REQUIRE(apply(store, batch("r1", RunKind::pr, {{kId, Observation::flaky}})).ok());  // caught up
  CHECK(state(store.issues.at(1)).flakes == 1);
}

TEST_CASE("adoption: an issue with the label and a copied marker that someone else opened is left alone") {
  MemoryIssueStore store;
  // Someone copied a tracking issue's first lines: a state that is one green from closing, and
  // this run's key already applied (so that this run's flake would count for nothing).
  IssueState planted;
  planted.greens = 2;
  planted.applied = {"r1!"};
  store.issues[1] = {1, "Flaky test: " + kId, issue_body(kId, planted, Rules{3, 2}, ""), "open", "u1", "mallory"};
  const std::string planted_body = store.issues.at(1).body;
  Tracker tracker(store, "flaky", Rules{3, 2}, kCreators);
  REQUIRE(tracker.load().ok());
  CHECK(tracker.issues().empty());
  REQUIRE(tracker.apply(batch("r1", RunKind::pr, {{kId, Observation::flaky}})).ok());
  REQUIRE(store.issues.size() == 2);  // the test got an issue of the tool's own
  CHECK(store.issues.at(2).author == "gatekit-bot");
  CHECK(state(store.issues.at(2)).flakes == 1);
  CHECK(store.issues.at(1).body == planted_body);  // never written, commented on or closed
  CHECK(store.issues.at(1).state == "open");
  CHECK(store.comments[1].empty());
  REQUIRE(tracker.not_adopted().size() == 1);  // found by every re-read, listed once
  CHECK(tracker.not_adopted()[0].number == 1);
  CHECK(tracker.not_adopted()[0].id == kId);
  CHECK(tracker.not_adopted()[0].author == "mallory");

  // Its own issue is adopted on the next run: greens count there, the planted one stays.
  REQUIRE(apply(store, batch("g1", RunKind::main, {{kId, Observation::passed}})).ok());
  CHECK(state(store.issues.at(2)).greens == 1);
  CHECK(store.issues.at(1).body == planted_body);
}

TEST_CASE("adoption: an issue opened under a login that is not a creator stops the run (it would be lost)") {
  MemoryIssueStore store;
  store.login = "my-app[bot]";
  Tracker tracker(store, "flaky", Rules{}, {"github-actions[bot]"});
  REQUIRE(tracker.load().ok());
  const Status s = tracker.apply(batch("r1", RunKind::pr, {{kId, Observation::flaky}}));
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().kind == ErrorKind::bad_input);
  CHECK(s.error().message ==
        "issue #1 was opened as 'my-app[bot]', which is not among the creators whose issues flaky-tracker adopts "
        "('github-actions[bot]'): it would not be found again; give --creator 'my-app[bot]' (the action's `creator` "
        "input)");
}

TEST_CASE("comments: a failed POST is kept for the next run, which posts it first") {
  MemoryIssueStore store;
  REQUIRE(apply(store, batch("r1", RunKind::pr, {{kId, Observation::flaky}})).ok());
  store.comment_fails = 1;
  std::vector<PendingComment> kept;
  {
    Tracker tracker(store, "flaky", Rules{3, 2}, kCreators);
    REQUIRE(tracker.load().ok());
    REQUIRE(tracker.apply(batch("r2", RunKind::main, {{kId, Observation::flaky}})).ok());  // the state is in
    CHECK(state(store.issues.at(1)).flakes == 2);
    CHECK(store.comments[1].empty());
    REQUIRE(tracker.unposted().size() == 1);
    CHECK(tracker.comment_error() == "POST /repos/o/r/issues/1/comments: HTTP 503");
    kept = tracker.unposted();
  }
  CHECK(kept[0].issue == 1);
  CHECK(kept[0].id == kId);
  CHECK(kept[0].body.starts_with("Flaked again in a main [run](https://ci/runs/r2)"));
  // Applying r2 again would add nothing (its key is in the state): the comment lives on only
  // through the journal.
  Tracker next(store, "flaky", Rules{3, 2}, kCreators);
  REQUIRE(next.load().ok());
  REQUIRE(next.post_journalled(kept).ok());
  REQUIRE(next.apply(batch("r2", RunKind::main, {{kId, Observation::flaky}})).ok());
  REQUIRE(store.comments[1].size() == 1);
  CHECK(store.comments[1][0] == kept[0].body);
  CHECK(next.unposted().empty());
}

TEST_CASE("comments: a closing comment that fails is kept too; the issue is closed all the same") {
  MemoryIssueStore store;
  REQUIRE(apply(store, batch("r1", RunKind::pr, {{kId, Observation::flaky}}), Rules{1, 2}).ok());
  store.comment_fails = 1;
  Tracker tracker(store, "flaky", Rules{1, 2}, kCreators);
  REQUIRE(tracker.load().ok());
  REQUIRE(tracker.apply(batch("g1", RunKind::main, {{kId, Observation::passed}})).ok());
  CHECK(store.issues.at(1).state == "closed");
  REQUIRE(tracker.unposted().size() == 1);
  CHECK(tracker.unposted()[0].body.starts_with("Closing: 1 green runs in a row on main"));
}

TEST_CASE("comments: journalled ones stop at an API failure (kept) and give up on a gone issue (named)") {
  MemoryIssueStore store;
  REQUIRE(apply(store, batch("r1", RunKind::pr, {{kId, Observation::flaky}})).ok());
  REQUIRE(apply(store, batch("r2", RunKind::pr, {{"gone.py::t", Observation::flaky}})).ok());  // #2
  const std::vector<PendingComment> journal = {{2, "gone.py::t", "to an issue deleted after the listing"},
                                               {1, kId, "first"}, {1, kId, "second"}};
  {
    store.comment_fails = 2;  // the deleted issue's answer comes first: 503 is not "gone"
    store.comment_status = 503;
    Tracker tracker(store, "flaky", Rules{}, kCreators);
    REQUIRE(tracker.load().ok());
    const Status s = tracker.post_journalled(journal);
    REQUIRE_FALSE(s.ok());
    CHECK(tracker.unposted().size() == 3);  // all kept, in order
    CHECK(tracker.unposted()[0].id == "gone.py::t");
    CHECK(tracker.comment_error() == "POST /repos/o/r/issues/2/comments: HTTP 503");
    CHECK(tracker.given_up().empty());
  }
  store.comment_fails = 0;
  Tracker tracker(store, "flaky", Rules{}, kCreators);
  REQUIRE(tracker.load().ok());
  store.issues.erase(2);  // deleted between the listing and the POST
  REQUIRE(tracker.post_journalled(journal).ok());
  CHECK(store.comments[1] == std::vector<std::string>{"first", "second"});
  REQUIRE(tracker.given_up().size() == 1);
  CHECK(tracker.given_up()[0].comment.id == "gone.py::t");
  CHECK(tracker.given_up()[0].reason == "POST /repos/o/r/issues/2/comments: HTTP 404: Not Found");
  CHECK(tracker.unposted().empty());
  CHECK(tracker.refused().empty());
}

TEST_CASE("comments: a journalled comment goes only to the issue the listing shows for its test") {
  // The journal is read back from a cache: hostile. Each entry below names an issue that is
  // not the one flaky-tracker keeps for the entry's test.
  MemoryIssueStore store;
  REQUIRE(apply(store, batch("r1", RunKind::pr, {{kId, Observation::flaky}})).ok());          // #1: kId
  REQUIRE(apply(store, batch("r2", RunKind::pr, {{"b.py::t", Observation::flaky}})).ok());    // #2: b.py::t
  store.issues[3] = {3, "Flaky test: " + kId, marker_line(kId) + "\n", "open", "u3", "mallory"};  // not adopted
  store.issues[4] = {4, "A question", "no marker", "open", "u4", "gatekit-bot"};
  const std::vector<PendingComment> journal = {
      {2, kId, "to another test's issue"}, {3, kId, "to an outsider's copy"}, {4, kId, "to an issue without a marker"},
      {77, kId, "to a number nothing holds (a pull request, say)"}, {1, "", "without a test"}, {1, kId, "kept"}};
  Tracker tracker(store, "flaky", Rules{}, kCreators);
  REQUIRE(tracker.load().ok());
  REQUIRE(tracker.post_journalled(journal).ok());
  CHECK(store.comments[1] == std::vector<std::string>{"kept"});
  for (const std::int64_t n : {2, 3, 4}) CHECK(store.comments[n].empty());
  CHECK(std::none_of(store.calls.begin(), store.calls.end(), [](const std::string& c) { return c == "comment #77"; }));
  REQUIRE(tracker.refused().size() == 5);
  CHECK(tracker.refused()[0].reason == "its marker names another test, b.py::t");
  CHECK(tracker.refused()[1].reason == "it was opened by 'mallory', not by flaky-tracker's identity");
  CHECK(tracker.refused()[2].reason == "no issue labelled 'flaky' with a flaky-test marker has that number");
  CHECK(tracker.refused()[3].reason == "no issue labelled 'flaky' with a flaky-test marker has that number");
  CHECK(tracker.refused()[4].reason == "its marker names another test, " + kId);
  CHECK(tracker.unposted().empty());
  CHECK(tracker.given_up().empty());
}

TEST_CASE("an issue whose marker names another test when read again is left alone for the listed test") {
  MemoryIssueStore store;
  REQUIRE(apply(store, batch("r1", RunKind::pr, {{kId, Observation::flaky}})).ok());  // #1
  Tracker tracker(store, "flaky", Rules{3, 2}, kCreators);
  REQUIRE(tracker.load().ok());
  // Between the listing and the read before the write, #1's body is edited to name another test.
  const std::string edited = marker_line("b.py::t") + "\n" + state_line(IssueState{}) + "\n";
  store.issues.at(1).body = edited;
  REQUIRE(tracker.apply(batch("r2", RunKind::main, {{kId, Observation::flaky}})).ok());
  CHECK(store.issues.at(1).body == edited);  // never written over for kId
  CHECK(store.comments[1].empty());
  REQUIRE(tracker.changed().size() == 1);
  CHECK(tracker.changed()[0].number == 1);
  CHECK(tracker.changed()[0].id == kId);
  CHECK(tracker.changed()[0].marker == "b.py::t");
  REQUIRE(store.issues.size() == 2);  // kId's flake went to an issue of its own
  CHECK(marker_id(store.issues.at(2).body) == kId);
  CHECK(state(store.issues.at(2)).flakes == 1);
  CHECK(tracker.issues().at(kId).number == 2);
  // A green (no flake) for a test whose issue changed writes nothing.
  Tracker green(store, "flaky", Rules{3, 2}, kCreators);
  REQUIRE(green.load().ok());
  store.issues.at(2).body = edited;
  REQUIRE(green.apply(batch("g1", RunKind::main, {{kId, Observation::passed}})).ok());
  CHECK(store.issues.at(2).body == edited);
  CHECK(store.issues.size() == 2);
  CHECK(green.changed().size() == 1);
}

TEST_CASE("two tests whose ids differ only after 4 KB get two issues, each found again by its marker") {
  // A merged report (flaky-tracker rerun writes <flakyFailure>) with two parametrised tests
  // whose names differ only in their last byte, read as `issues` reads it.
  const std::string common(6000, 'p');
  std::string xml = "<testsuites><testsuite name=\"pytest\">";
  for (const char* last : {"0", "1"})
    xml += "<testcase classname=\"tests.test_a\" name=\"test_p[" + common + last +
           "]\"><flakyFailure message=\"boom\"/></testcase>";
  xml += "</testsuite></testsuites>";
  MemoryFiles files;
  REQUIRE(files.create("/r.xml", xml).ok());
  const auto report = load_report(files, "/r.xml", "");
  REQUIRE(report.ok());
  Batch b;
  b.run = {"r1", "https://ci/runs/r1", "2026-12-01T10:00:00Z", RunKind::pr};
  b.complete = true;
  add_report(b, report->cases);
  REQUIRE(b.flakes.size() == 2);
  MemoryIssueStore store;
  REQUIRE(apply(store, b).ok());
  REQUIRE(store.issues.size() == 2);
  const auto first = marker_id(store.issues.at(1).body), second = marker_id(store.issues.at(2).body);
  REQUIRE(first.has_value());
  REQUIRE(second.has_value());
  CHECK(*first != *second);
  CHECK(first->starts_with("tests/test_a.py::test_p[ppp"));
  b.run.key = "r2";
  REQUIRE(apply(store, b).ok());  // the next flake of each lands on its own issue
  CHECK(store.issues.size() == 2);
  CHECK(state(store.issues.at(1)).flakes == 2);
  CHECK(state(store.issues.at(2)).flakes == 2);
}

TEST_CASE("issue keys: ids up to 4096 bytes are kept as they are; a longer one is cut and hashed") {
  const std::string at_limit(kMaxMarkerIdBytes, 'x');
  CHECK(issue_key(at_limit) == at_limit);
  CHECK(issue_key("tests/test_a.py::test_x") == "tests/test_a.py::test_x");
  const std::string longer = at_limit + "y";
  CHECK(issue_key(longer) == at_limit + " [sha256 of the whole id: " + sha256_hex(longer) + "]");
  CHECK(issue_key(longer).size() > kMaxMarkerIdBytes);  // never equal to a short id
  const std::string utf8 = std::string(kMaxMarkerIdBytes - 1, 'x') + "\xE2\x98\xBA" + "z";  // cut before the character
  CHECK(issue_key(utf8).starts_with(std::string(kMaxMarkerIdBytes - 1, 'x') + " [sha256"));
  // A 60 KB id (the reader takes names up to 64 KiB whole): the issue body stays within
  // GitHub's 65536 characters, and the test's next flake finds the issue again.
  junit::TestCase c;
  c.classname = "tests.test_a";
  c.name = "test_p[" + std::string(60'000, '%') + "]";  // '%' is escaped in the marker: 3 bytes each
  c.node_id = "tests/test_a.py::" + c.name;
  c.flaky_attempts = 1;
  Batch b;
  b.run = {"r1", "https://ci/runs/r1", "2026-12-01T10:00:00Z", RunKind::pr};
  add_report(b, {c});
  MemoryIssueStore store;
  REQUIRE(apply(store, b).ok());
  REQUIRE(store.issues.size() == 1);
  CHECK(store.issues.at(1).body.size() < 65536);
  CHECK(marker_id(store.issues.at(1).body) == issue_key(c.id()));
  b.run.key = "r2";
  REQUIRE(apply(store, b).ok());
  CHECK(store.issues.size() == 1);
  CHECK(state(store.issues.at(1)).flakes == 2);
}
