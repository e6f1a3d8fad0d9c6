// growth's pure decisions (growth_compare.cpp): identities, snapshots, the comparison and
// its notice, the configuration key and the charts, table by table.
#include "catch.hpp"
#include "growth.hpp"

using namespace gatekit;
using namespace gatekit::suite_report;

namespace {

Snapshot numbered(int count, double seconds, const std::string& prefix = "t.py::test_") {
  Snapshot s;
  for (int i = 0; i < count; ++i) REQUIRE(s.add(prefix + std::to_string(i), seconds).ok());
  return s;
}

// `base` with more tests (whole ids and seconds).
Snapshot with(Snapshot base, const Snapshot& more) {
  for (const auto& [id, entry] : more) REQUIRE(base.add(TestIdentity{id.hi, id.lo, entry.check}, entry.seconds).ok());
  return base;
}

GrowthResult compared(const Snapshot& base, const Snapshot& now, const Thresholds& thresholds = {}) {
  auto result = compare(base, now, thresholds);
  REQUIRE(result.ok());
  return std::move(*result);
}

}  // namespace

TEST_CASE("growth: identity is the whole id, however long; only the display is shortened") {
  // Parametrised ids that agree on their first 256 bytes, and on their first 4 KiB.
  for (const std::size_t common : {std::size_t{256}, std::size_t{300}, std::size_t{4096}, std::size_t{70000}}) {
    const std::string head = "tests/test_long.py::test_p[" + std::string(common, 'x');
    const std::string a = head + "-1]", b = head + "-2]";
    CHECK_FALSE(TestIdentity::of(a).same_key(TestIdentity::of(b)));
    Snapshot now;
    REQUIRE(now.add(a, 1).ok());
    REQUIRE(now.add(b, 2).ok());
    CHECK(now.size() == 2);
    const auto g = compared(Snapshot{{a, 1}}, now);
    REQUIRE(g.added.size() == 1);
    CHECK(g.added[0].id == TestIdentity::of(b));
  }
  const std::string long_id = "tests/test_long.py::test_p[" + std::string(300, 'x') + "-17]";
  CHECK(display_id(long_id) == "tests/test_long.py::test_p[" + std::string(140 - 27, 'x') + "…(131 bytes)…" +
                                   std::string(56, 'x') + "-17]");
  CHECK(display_id("tests/a.py::test_b") == "tests/a.py::test_b");
  CHECK(display_id(std::string(200, 'a')) == std::string(200, 'a'));
  // A cut never splits a character: "é" is two bytes, and byte 140 (and byte -60) would split one.
  const std::string accents = std::string(139, 'a') + "é" + std::string(99, 'b') + "é" + std::string(59, 'c');
  CHECK(display_id(accents) == std::string(139, 'a') + "…(103 bytes)…" + std::string(59, 'c'));
}

TEST_CASE("growth: identities read back from hex; the same id twice adds up, a collision is refused") {
  const auto id = TestIdentity::of("tests/a.py::test_b");
  CHECK(id.hex().size() == 48);
  CHECK(TestIdentity::from_hex(id.hex()) == id);
  CHECK_FALSE(TestIdentity::from_hex(id.hex().substr(1)));
  CHECK_FALSE(TestIdentity::from_hex(std::string(47, 'a') + "g"));
  CHECK_FALSE(TestIdentity::from_hex(std::string(48, 'A')));
  // The SHA-256 of "abc" (FIPS 180-4): 128 bits of identity, the next 64 bits of check.
  CHECK(TestIdentity::of("abc").hex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9c");

  Snapshot s;
  REQUIRE(s.add("tests/a.py::test_b", 1.5).ok());
  REQUIRE(s.add("tests/a.py::test_b", 0.5).ok());
  CHECK(s.size() == 1);
  CHECK(s.seconds_of("tests/a.py::test_b") == 2.0);
  // Two different ids whose 128-bit identities agree (made up: SHA-256 gives none to find).
  const TestIdentity first{1, 2, 3}, other{1, 2, 4};
  REQUIRE(s.add(first, 1).ok());
  const auto refused = s.add(other, 1);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().kind == ErrorKind::could_not_evaluate);
  CHECK(refused.error().message ==
        "two different tests share the 128-bit identity 00000000000000010000000000000002: growth cannot tell them apart");
  Snapshot now;
  REQUIRE(now.add(other, 1).ok());
  const auto across = compare(s, now, {});
  REQUIRE_FALSE(across.ok());
  CHECK(across.error().message ==
        "a test of this run and a different test of the baseline share the 128-bit identity "
        "00000000000000010000000000000002: growth cannot tell them apart");
}

TEST_CASE("growth: each case without name or classname is a test of its own") {
  CHECK_FALSE(TestIdentity::unnamed(1).same_key(TestIdentity::unnamed(2)));
  CHECK_FALSE(TestIdentity::unnamed(1).same_key(TestIdentity::of("")));
  CHECK_FALSE(TestIdentity::unnamed(1).same_key(TestIdentity::of("1")));
  CHECK(unnamed_display(2) == "(test 2 without name or classname)");
}

TEST_CASE("growth: 120 new tests, or 90 s of new tests, reach the notice thresholds") {
  const Thresholds thresholds{100, 60};
  const auto base = numbered(500, 0.1);
  auto g = compared(base, with(base, numbered(120, 0.01, "new.py::test_")), thresholds);
  CHECK(g.added.size() == 120);
  CHECK(g.removed.empty());
  CHECK(g.notice);
  CHECK(g.reached == std::vector<Reached>{Reached::added_tests});
  CHECK(g.tests == 620);
  CHECK(g.base_tests == 500);
  CHECK(describe_growth(g, thresholds) ==
        "adds 120 tests (1.2s of test time): at or over the notice threshold of 100 new tests");

  Snapshot slow = numbered(499, 0.1);  // t.py::test_499 is gone
  for (const char* id : {"slow.py::test_a", "slow.py::test_b", "slow.py::test_c"}) REQUIRE(slow.add(id, 30).ok());
  g = compared(base, slow, thresholds);
  CHECK(g.added.size() == 3);
  CHECK(g.added_seconds == 90);
  CHECK(g.removed == std::vector<TestIdentity>{TestIdentity::of("t.py::test_499")});
  CHECK(g.reached == std::vector<Reached>{Reached::added_seconds});
  CHECK(describe_growth(g, thresholds) ==
        "adds 3 tests (1m 30s of test time) and removes 1 test: at or over the notice threshold of 1m 00s of new test time");

  auto few = with(base, numbered(99, 0.5, "few.py::test_"));
  g = compared(base, few, thresholds);
  CHECK_FALSE(g.notice);  // 99 tests and 49.5 s: under both thresholds
  CHECK(describe_growth(g, thresholds) == "adds 99 tests (49.5s of test time)");
  CHECK(compared(base, with(few, {{"few.py::test_quick", 0}}), thresholds).notice);  // the 100th test (still 49.5 s)
  CHECK(compared(base, with(few, {{"few.py::test_slow", 10.5}}), thresholds).notice);  // 99 tests, but 60 s
}

TEST_CASE("growth: 60 s of new test time is a notice that says time") {
  const Thresholds thresholds{100, 60};
  const auto base = numbered(10, 1);
  auto g = compared(base, with(base, {{"slow.py::test_model", 60}}), thresholds);
  CHECK(g.notice);
  CHECK(describe_growth(g, thresholds) ==
        "adds 1 test (1m 00s of test time): at or over the notice threshold of 1m 00s of new test time");
  g = compared(base, with(base, {{"slow.py::test_model", 59.9}}), thresholds);
  CHECK_FALSE(g.notice);
  // Both at once: each named.
  g = compared(base, with(base, with(numbered(100, 0.1, "n.py::test_"), {{"slow.py::test_model", 60}})), thresholds);
  CHECK(describe_growth(g, thresholds) ==
        "adds 101 tests (1m 10s of test time): at or over the notice thresholds of 100 new tests and 1m 00s of new "
        "test time");
}

TEST_CASE("growth: removed tests count too: 150 removed is a notice that says removed") {
  const Thresholds thresholds{100, 60};
  const auto base = numbered(500, 0.1);
  auto g = compared(base, numbered(350, 0.1), thresholds);
  CHECK(g.removed.size() == 150);
  CHECK(g.added.empty());
  CHECK(g.notice);
  CHECK(g.reached == std::vector<Reached>{Reached::removed_tests});
  CHECK(describe_growth(g, thresholds) == "removes 150 tests: at or over the notice threshold of 100 removed tests");
  // Removed in the baseline's order.
  CHECK(g.removed.front() == TestIdentity::of("t.py::test_350"));
  CHECK(g.removed.back() == TestIdentity::of("t.py::test_499"));
  g = compared(base, numbered(401, 0.1), thresholds);
  CHECK_FALSE(g.notice);  // 99 removed
  CHECK(describe_growth(g, thresholds) == "removes 99 tests");
  // A rename of 100 tests: 100 new and 100 removed, both named.
  g = compared(base, with(numbered(400, 0.1), numbered(100, 0.1, "renamed.py::test_")), thresholds);
  CHECK(describe_growth(g, thresholds) ==
        "adds 100 tests (10.0s of test time) and removes 100 tests: at or over the notice thresholds of 100 new tests "
        "and 100 removed tests");
  CHECK(compared(base, base, thresholds).reached.empty());
  CHECK(describe_growth(compared(base, base, thresholds), thresholds) == "adds 0 tests (0ms of test time)");
}

TEST_CASE("growth: the slowest new tests come first, then in report order") {
  Snapshot now{{"old", 9}, {"z", 1}, {"c", 5}, {"b", 5}};
  const auto g = compared({{"old", 9}}, now);
  REQUIRE(g.added.size() == 3);
  CHECK(g.added[0].id == TestIdentity::of("c"));
  CHECK(g.added[1].id == TestIdentity::of("b"));
  CHECK(g.added[2].id == TestIdentity::of("z"));
}

TEST_CASE("growth: baselines are keyed by configuration") {
  ConfigKey key{"cpu-tests.yml", "tests", "3.12", "(not gpu) and not nightly"};
  CHECK(key.text() == "workflow=cpu-tests.yml job=tests python=3.12 selection=(not gpu) and not nightly");
  const auto name = key.artifact_name();
  CHECK(name.rfind("suite-baseline-cpu-tests-tests-py3.12-", 0) == 0);
  CHECK(name.size() == std::string("suite-baseline-cpu-tests-tests-py3.12-").size() + 10);
  auto other_python = key;
  other_python.python = "3.11";
  auto other_selection = key;
  other_selection.selection = "not gpu";
  CHECK(other_python.artifact_name() != name);
  CHECK(other_selection.artifact_name() != name);
  CHECK(other_selection.artifact_name().rfind("suite-baseline-cpu-tests-tests-py3.12-", 0) == 0);
  ConfigKey odd{"w/../x:y.yml", "j\"ob", "3.1?", "s"};
  CHECK(odd.artifact_name().rfind("suite-baseline-w_.._x_y-j_ob-py3.1_-", 0) == 0);
}

TEST_CASE("growth: mermaid charts of the recent main runs and this one") {
  const auto charts = history_charts({{"0123456789abcdef", "1", "", 100, 60}, {"not-a-sha\"]", "2", "", 110, 90}},
                                     {"", "", "", 230, 150});
  CHECK(charts ==
        "```mermaid\nxychart-beta\n  title \"Tests per main run\"\n  x-axis [\"0123456\", \"run 2\", \"this run\"]\n"
        "  y-axis \"tests\"\n  bar [100, 110, 230]\n```\n\n"
        "```mermaid\nxychart-beta\n  title \"Test time per main run (minutes)\"\n  x-axis [\"0123456\", \"run 2\", \"this run\"]\n"
        "  y-axis \"minutes\"\n  line [1.0, 1.5, 2.5]\n```\n");
}
