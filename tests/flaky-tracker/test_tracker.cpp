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

Status apply(MemoryIssueStore& store, const Batch& b, Rules rules = {3, 2}) {
  Tracker tracker(store, "flaky", rules);
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

TEST_CASE("another run opening the same issue at the same moment: one stays, no flake is lost") {
  MemoryIssueStore store;
  // The other run creates its issue right after this run's re-read (between list and create).
  bool raced = false;
  Tracker tracker(store, "flaky", Rules{});
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
  REQUIRE(files.write("/r.xml", xml).ok());
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
