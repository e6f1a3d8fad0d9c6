// What a run tells the tracker (add_report) and the journal kept between runs: round trip,
// comments, its bound (never a silent drop) and damaged files.
#include <string>
#include <vector>

#include "batch.hpp"
#include "catch.hpp"

using namespace gatekit;
using namespace gatekit::flaky_tracker;

namespace {

junit::TestCase make(std::string name, JunitOutcome outcome, int flaky_attempts = 0) {
  junit::TestCase c;
  c.classname = "tests.test_a";
  c.name = std::move(name);
  c.node_id = "tests/test_a.py::" + c.name;
  c.outcome = outcome;
  c.flaky_attempts = flaky_attempts;
  c.message = "assert 1 == 2";
  c.detail = "trace";
  return c;
}

Batch run(const std::string& key, std::vector<std::string> flaky) {
  Batch b;
  b.run = {key, "https://ci/runs/" + key, "2026-12-01T10:00:00Z", RunKind::pr, "cpu"};
  for (auto& id : flaky) b.flakes.push_back({id, {"boom", std::string(300, 'x'), "tests/test_a.py", 3}});
  return b;
}

}  // namespace

TEST_CASE("add_report: a failure is a flake in a stress run only (failed in every copy under load)") {
  const std::vector<junit::TestCase> cases = {make("test_ok", JunitOutcome::passed),
                                              make("test_flaky", JunitOutcome::passed, 2),
                                              make("test_stalls", JunitOutcome::failure),
                                              make("test_setup", JunitOutcome::error)};
  for (RunKind kind : {RunKind::pr, RunKind::main, RunKind::daily, RunKind::stress}) {
    INFO(to_string(kind));
    Batch b;
    b.run.kind = kind;
    add_report(b, cases);
    const bool stress = kind == RunKind::stress;
    CHECK(b.seen.at("tests/test_a.py::test_ok") == Observation::passed);
    CHECK(b.seen.at("tests/test_a.py::test_flaky") == Observation::flaky);
    CHECK(b.seen.at("tests/test_a.py::test_stalls") == (stress ? Observation::flaky : Observation::failed));
    CHECK(b.seen.at("tests/test_a.py::test_setup") == (stress ? Observation::flaky : Observation::failed));
    REQUIRE(b.flakes.size() == (stress ? 3u : 1u));
    if (stress) {
      CHECK(b.flakes[1].id == "tests/test_a.py::test_stalls");
      CHECK(b.flakes[1].text.message == "assert 1 == 2");  // the failure is quoted in the issue
    }
  }
}

TEST_CASE("journal: runs and comments survive a round trip, oldest first") {
  Journal j;
  j.runs = {run("r1", {"a.py::x", "a.py::y"}), run("r2", {"b.py::z"})};
  j.comments = {{7, "a.py::x", "Flaked again in a pr run"}, {8, "b.py::z", "Closing: 20 green runs"}};
  const JournalText text = journal_json(j);
  CHECK(text.dropped.empty());
  auto back = parse_journal(text.json);
  REQUIRE(back.ok());
  REQUIRE(back->runs.size() == 2);
  CHECK(back->runs[0].run.key == "r1");
  CHECK(back->runs[0].run.scope == "cpu");
  CHECK(back->runs[0].flakes.size() == 2);
  CHECK(back->runs[1].flakes[0].id == "b.py::z");
  CHECK(back->runs[1].flakes[0].text.line == 3);
  REQUIRE(back->comments.size() == 2);
  CHECK(back->comments[1].issue == 8);
  CHECK(back->comments[1].id == "b.py::z");
  CHECK(back->comments[1].body == "Closing: 20 green runs");
  // A journal written before comments were kept still reads.
  auto old = parse_journal(R"({"version": 1, "runs": [{"key": "k", "flakes": [{"id": "t.py::a"}]}]})");
  REQUIRE(old.ok());
  CHECK(old->runs.at(0).flakes.at(0).id == "t.py::a");
  CHECK(old->comments.empty());
}

TEST_CASE("journal: many runs with many flakes are all kept within the bound (no count limit)") {
  Journal j;
  for (int r = 0; r < 120; ++r) {
    std::vector<std::string> ids;
    for (int f = 0; f < 150; ++f) ids.push_back("t" + std::to_string(r) + ".py::f" + std::to_string(f));
    j.runs.push_back(run("r" + std::to_string(r), ids));
  }
  // The old bounds (50 runs, 100 flakes a run) dropped 70 runs and 50 flakes of each silently.
  const JournalText text = journal_json(j, 16u << 20);
  CHECK(text.dropped.empty());
  auto back = parse_journal(text.json);
  REQUIRE(back.ok());
  REQUIRE(back->runs.size() == 120);
  CHECK(back->runs.front().flakes.size() == 150);
}

TEST_CASE("journal: at its bound the oldest entries go, counted and named; the file stays within it") {
  Journal j;
  for (int r = 1; r <= 6; ++r) j.runs.push_back(run("r" + std::to_string(r), {"t" + std::to_string(r) + ".py::a", "t" + std::to_string(r) + ".py::b"}));
  j.comments = {{1, "c1.py::x", std::string(500, 'c')}, {2, "c2.py::x", std::string(500, 'd')}};
  const std::size_t all = journal_json(j, 1u << 20).json.size();
  // Room for about half of it.
  const JournalText text = journal_json(j, all / 2);
  CHECK(text.json.size() <= all / 2);
  REQUIRE_FALSE(text.dropped.empty());
  auto back = parse_journal(text.json);
  REQUIRE(back.ok());
  CHECK(back->comments.size() == 2);  // the newest entries stay
  std::size_t kept = 0;
  for (const auto& b : back->runs) kept += b.flakes.size();
  CHECK(kept + text.dropped.flakes == 12);
  CHECK(text.dropped.comments == 0);
  CHECK(back->runs.back().run.key == "r6");
  // The dropped ones are the oldest, each test named once, oldest first.
  REQUIRE(text.dropped.tests.size() == text.dropped.flakes);
  CHECK(text.dropped.tests.front() == "t1.py::a");
  CHECK(back->runs.front().flakes.front().id != "t1.py::a");

  // A bound smaller than anything: everything is dropped and named, comments included.
  const JournalText none = journal_json(j, 10);
  CHECK(none.dropped.flakes == 12);
  CHECK(none.dropped.comments == 2);
  CHECK(none.dropped.tests.size() == 14);
  CHECK(none.dropped.tests.back() == "c2.py::x");
  CHECK(parse_journal(none.json).ok());
}

TEST_CASE("journal: a journalled flake keeps a bounded part of its output") {
  Journal j;
  j.runs = {run("r1", {"a.py::x"})};
  j.runs[0].flakes[0].text.detail = std::string(20'000, 'o');
  auto back = parse_journal(journal_json(j).json);
  REQUIRE(back.ok());
  CHECK(back->runs[0].flakes[0].text.detail.size() <= kJournalDetailBytes);
}

TEST_CASE("journal: damaged files are refused with what is wrong") {
  const std::vector<std::pair<std::string, std::string>> table = {
      {"not json", "line 1, column 1: not JSON (syntax error)"},
      {"{\"version\": 1,\n \"runs\": [{\"key\": \"k\", \"fla", "line 2, column 28: not JSON (incomplete JSON)"},  // cut short: where more was due
      {"{\"runs\": []}\n{}", "line 2, column 1: not JSON (extra data)"},
      {"", "line 1, column 1: not JSON (incomplete JSON)"},
      {R"([1, 2])", "not a flaky-tracker journal (no \"runs\" list)"},
      {R"({"runs": {}})", "not a flaky-tracker journal (no \"runs\" list)"},
      {R"({"runs": [{"key": "a"}, 1]})", "run 2 in the journal is not a JSON object"},
      {R"({"runs": [{"flakes": []}]})", "run 1 in the journal has no key"},
      {R"({"runs": [{"key": "k", "flakes": [{"message": "m"}]}]})", "a flake of run k in the journal has no test id"},
      {R"({"runs": [], "comments": [{"id": "t", "body": "b"}]})", "comment 1 in the journal has no issue number or body"},
      {R"({"runs": [], "comments": [{"issue": 1, "body": "b"}, {"issue": 0, "body": "b"}]})",
       "comment 2 in the journal has no issue number or body"},
  };
  for (const auto& [text, message] : table) {
    INFO(text);
    auto j = parse_journal(text);
    REQUIRE_FALSE(j.ok());
    CHECK(j.error().message == message);
  }
}
