// growth's streamed comparison (growth_tally.cpp): the baseline's tests, then this run's cases
// one at a time, must come to what compare() makes of the two whole snapshots; the slowest new
// tests kept as they come; a baseline read that stops once it has enough.
#include <string>
#include <utility>
#include <vector>

#include "catch.hpp"
#include "gatekit/files.hpp"
#include "growth.hpp"
#include "growth_tally.hpp"

using namespace gatekit;
using namespace gatekit::suite_report;

namespace {

using Cases = std::vector<std::pair<std::string, double>>;

Snapshot snapshot_of(const Cases& cases) {
  Snapshot s;
  for (const auto& [id, seconds] : cases) REQUIRE(s.add(id, seconds).ok());
  return s;
}

GrowthTally tally_of(const Cases& base, const Cases& now) {
  GrowthTally tally;
  for (const auto& [id, seconds] : base) REQUIRE(tally.add_base(TestIdentity::of(id), seconds).ok());
  for (const auto& [id, seconds] : now) REQUIRE(tally.add_now(TestIdentity::of(id), seconds).ok());
  return tally;
}

struct Row {
  const char* what;
  Cases base, now;
};

}  // namespace

TEST_CASE("growth tally: streamed, the comparison is compare()'s, table by table") {
  Cases many, renamed;
  for (int i = 0; i < 300; ++i) many.emplace_back("t.py::test_" + std::to_string(i), 0.25 * (i % 7));
  for (int i = 0; i < 300; ++i) renamed.emplace_back("u.py::test_" + std::to_string(i), 0.5 * (i % 3));
  Cases half(many.begin() + 150, many.end());
  half.insert(half.end(), renamed.begin(), renamed.begin() + 120);
  // The baseline's order, which growth tries first (GrowthTally::find_now): with tests gone,
  // new ones between, a test repeated at once, and the whole run twice over; and reversed.
  Cases in_order, twice(many), reversed(many.rbegin(), many.rend());
  for (int i = 0; i < 300; ++i) {
    if (i % 7 == 3) continue;
    in_order.push_back(many[i]);
    if (i % 11 == 5) in_order.push_back(renamed[i]);
    if (i % 13 == 0) in_order.push_back(many[i]);
  }
  twice.insert(twice.end(), many.begin(), many.end());
  const std::vector<Row> rows = {
      {"both empty", {}, {}},
      {"no baseline tests", {}, {{"a", 1}, {"b", 2}}},
      {"the same tests", {{"a", 1}, {"b", 2}}, {{"b", 3}, {"a", 1}}},
      {"repeats add up, on either side", {{"a", 1}, {"a", 2}, {"c", 1}}, {{"a", 1}, {"b", 2}, {"b", 5}, {"d", 0}}},
      {"ties in seconds keep report order", {{"x", 1}}, {{"n3", 1}, {"n1", 2}, {"n2", 1}, {"n0", 2}}},
      {"all removed", many, {}},
      {"half removed, 120 new", many, half},
      {"in the baseline's order, some gone, some new, some repeated", many, in_order},
      {"in the baseline's order, twice over", many, twice},
      {"in reverse order", many, reversed},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    const auto tally = tally_of(row.base, row.now);
    const auto streamed = tally.result({});
    const auto whole = compare(snapshot_of(row.base), snapshot_of(row.now), {});
    REQUIRE(streamed.ok());
    REQUIRE(whole.ok());
    CHECK(streamed->base_tests == whole->base_tests);
    CHECK(streamed->tests == whole->tests);
    CHECK(streamed->base_seconds == Approx(whole->base_seconds));
    CHECK(streamed->seconds == Approx(whole->seconds));
    CHECK(streamed->added_seconds == Approx(whole->added_seconds));
    CHECK(streamed->reached == whole->reached);
    CHECK(streamed->notice == whole->notice);
    REQUIRE(streamed->added.size() == whole->added.size());
    for (std::size_t i = 0; i < whole->added.size(); ++i) {
      CHECK(streamed->added[i].id == whole->added[i].id);
      CHECK(streamed->added[i].seconds == whole->added[i].seconds);
    }
    CHECK(streamed->removed == whole->removed);
  }
}

TEST_CASE("growth tally: each case says whether it is its test's first and a new test; later passes need no hashing") {
  GrowthTally tally;
  REQUIRE(tally.add_base(TestIdentity::of("old"), 1).value());
  REQUIRE(tally.add_base(TestIdentity::of("gone"), 1).value());
  CHECK_FALSE(tally.add_base(TestIdentity::of("old"), 1).value());  // a JUnit baseline's repeat
  CHECK(tally.base_tests() == 2);
  const auto a = tally.add_now(TestIdentity::of("old"), 2);
  const auto b = tally.add_now(TestIdentity::of("new"), 3);
  const auto c = tally.add_now(TestIdentity::of("new"), 4);
  REQUIRE((a.ok() && b.ok() && c.ok()));
  CHECK((a->first && !a->added));
  CHECK((b->first && b->added));
  CHECK((!c->first && c->added));
  CHECK(tally.repeats());
  CHECK(tally.tests() == 2);
  CHECK(tally.seconds() == 9);
  CHECK(tally.removed(TestIdentity::of("gone")));
  CHECK_FALSE(tally.removed(TestIdentity::of("old")));
  CHECK_FALSE(tally.removed(TestIdentity::of("new")));
  CHECK(tally.case_at(0).id == TestIdentity::of("old"));
  CHECK(tally.case_at(0).seconds == 2);
  CHECK(tally.case_at(1).id == TestIdentity::of("new"));
  CHECK(tally.case_at(1).seconds == 7);  // all its cases'
  CHECK(tally.case_at(1).first);
  CHECK_FALSE(tally.case_at(2).first);
}

TEST_CASE("growth tally: identities that share a slot's position, its tag or both are told apart as the index grows") {
  // The index places a test by the low bits of `hi` and tags its slot with the top bits of `lo`:
  // these identities pile up on a few positions, half of them with the tags of others.
  std::vector<TestIdentity> base, absent;
  for (std::uint64_t i = 0; i < 1500; ++i) {
    const std::uint64_t hi = (i % 3) << 40;  // three positions, whatever the index's size
    const std::uint64_t lo = (i % 2 == 0 ? (i << 1) : (i << 53)) | 1;  // a tag shared by all evens
    (i % 5 == 4 ? absent : base).push_back({hi, lo, i});
  }
  GrowthTally tally;
  for (const auto& id : base) REQUIRE(tally.add_base(id, 1).value());
  for (const auto& id : base) CHECK_FALSE(tally.add_base(id, 1).value());  // found again: a repeat
  CHECK(tally.base_tests() == base.size());
  for (const auto& id : absent) CHECK_FALSE(tally.removed(id));
  for (std::size_t k = 0; k < base.size(); k += 2) {
    const auto seen = tally.add_now(base[k], 2);
    REQUIRE(seen.ok());
    CHECK((seen->first && !seen->added));
  }
  for (const auto& id : absent) {
    const auto seen = tally.add_now(id, 3);
    REQUIRE(seen.ok());
    CHECK((seen->first && seen->added));
  }
  for (std::size_t k = 0; k < base.size(); ++k) CHECK(tally.removed(base[k]) == (k % 2 == 1));
  const auto result = tally.result({});
  REQUIRE(result.ok());
  CHECK(result->added.size() == absent.size());
  CHECK(result->removed.size() == base.size() / 2);
  CHECK(tally.tests() == (base.size() + 1) / 2 + absent.size());
}

TEST_CASE("growth tally: a collision inside a report is refused; one across the two is counted, never compared") {
  const auto id = TestIdentity::of("a");
  TestIdentity forged = id;
  forged.check ^= 1;  // the same 128-bit identity, another test
  const std::string message =
      "two different tests share the 128-bit identity " + id.hex().substr(0, 32) + ": growth cannot tell them apart";
  GrowthTally base;
  REQUIRE(base.add_base(id, 1).ok());
  CHECK(base.add_base(forged, 1).error().message == message);

  GrowthTally in_run;
  REQUIRE(in_run.add_now(id, 1).ok());
  CHECK(in_run.add_now(forged, 1).error().message == message);

  for (const bool matching_first : {true, false}) {
    GrowthTally across;
    REQUIRE(across.add_base(id, 1).ok());
    // This run has the forged test; and, before or after it, the baseline's own: two tests of one run.
    if (matching_first) REQUIRE(across.add_now(id, 1).ok());
    const auto forged_case = across.add_now(forged, 2);
    if (matching_first) {
      CHECK(forged_case.error().message == message);
      continue;
    }
    REQUIRE(forged_case.ok());
    CHECK(forged_case->added);
    CHECK(across.tests() == 1);
    CHECK(across.result({}).error().message ==
          "a test of this run and a different test of the baseline share the 128-bit identity " +
              id.hex().substr(0, 32) + ": growth cannot tell them apart");
    CHECK(across.add_now(id, 1).error().message == message);
  }
}

TEST_CASE("growth tally: the slowest new tests, kept as they come, are the first of the sorted list") {
  SlowestNew slowest(3);
  int made = 0;
  const std::vector<std::pair<std::string, double>> cases = {{"a", 1}, {"b", 5}, {"c", 2}, {"d", 5}, {"e", 0.5}, {"f", 2}};
  for (std::size_t i = 0; i < cases.size(); ++i)
    slowest.offer(TestIdentity::of(cases[i].first), cases[i].second, i, [&] {
      ++made;
      return "name " + cases[i].first;
    });
  const auto names = slowest.names();
  CHECK(names.size() == 3);
  CHECK(names.at(TestIdentity::of("b")) == "name b");
  CHECK(names.at(TestIdentity::of("d")) == "name d");
  CHECK(names.at(TestIdentity::of("c")) == "name c");  // before f, its equal in seconds
  CHECK(made == 4);  // e and f were never kept, so never named
  CHECK(SlowestNew(0).names().empty());
}

TEST_CASE("growth: a baseline read stops once the visit has enough, without error, whatever follows") {
  MemoryFiles files;
  const std::string header = R"({"format": "gatekit-suite-baseline", "version": 2, "identity": "sha256-128+64", )"
                             R"("key": {"workflow": "w", "job": "j", "python": "3.12", "selection": "s"}, "tests": 3})";
  const auto line = [](const std::string& id) {
    return "[\"" + TestIdentity::of(id).hex() + "\", 1, \"" + id + "\"]\n";
  };
  files.files["b.json"] = header + "\n" + line("a") + line("b") + "not a test line\n";
  files.files["r.xml"] = "<testsuite><testcase classname='t' name='a'/><testcase classname='t' name='b'/>"
                         "<testcase classname='t' name='c'/></testsuite><broken";
  for (const std::string path : {"b.json", "r.xml"}) {
    INFO(path);
    std::size_t added = 0;
    BaselineVisit visit{[&](const TestIdentity&, double) -> Result<bool> { return ++added > 0; },
                        [](const TestIdentity&) { return true; }, [&] { return added == 2; }};
    const auto read = visit_baseline(files, path, visit);
    REQUIRE(read.ok());
    CHECK(added == 2);
    CHECK(read->names.size() == 2);
    visit.enough = {};
    CHECK_FALSE(visit_baseline(files, path, visit).ok());  // read to the end, the file is refused
  }
}
