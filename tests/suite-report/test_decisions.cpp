// The pure decisions of unmarked, ran, nightly and growth, table by table.
#include "catch.hpp"
#include "gatekit/files.hpp"
#include "growth.hpp"
#include "nightly.hpp"
#include "ran.hpp"
#include "unmarked.hpp"

using namespace gatekit;
using namespace gatekit::suite_report;

namespace {

junit::TestCase skipped(std::string message, std::string type = "pytest.skip", std::string detail = "") {
  junit::TestCase test;
  test.outcome = JunitOutcome::skipped;
  test.message = std::move(message);
  test.type = std::move(type);
  test.detail = std::move(detail);
  return test;
}

Selection demo_selection() {
  auto s = load_selection_text(R"(version: 1
legs:
  cpu: {markers: not gpu}
  gpu: {markers: gpu, device: gpu}
docs: {leg: cpu, variant: '3.13', markers: docs}
)", "suite.yml");
  REQUIRE(s.ok());
  return std::move(*s);
}

Snapshot numbered(int count, double seconds, const std::string& prefix = "t.py::test_") {
  Snapshot s;
  for (int i = 0; i < count; ++i) s[prefix + std::to_string(i)] = seconds;
  return s;
}

}  // namespace

TEST_CASE("unmarked: device skip reasons match case-insensitively in message or detail; xfails never") {
  const auto skips = default_device_skips();
  CHECK(match_device_skip(skips, skipped("No GPU visible on this machine"))->marker == "gpu");
  CHECK(match_device_skip(skips, skipped("test requires ROCm 6"))->marker == "rocm");
  CHECK(match_device_skip(skips, skipped("", "pytest.skip", "tests/a.py:3: CUDA is not available"))->marker == "gpu");
  CHECK_FALSE(match_device_skip(skips, skipped("no GPU yet", "pytest.xfail")));
  CHECK_FALSE(match_device_skip(skips, skipped("needs network")));
  junit::TestCase passed;
  passed.message = "no GPU";
  CHECK_FALSE(match_device_skip(skips, passed));
  CHECK(match_device_skip({{"needs a TPU", "tpu"}}, skipped("test NEEDS A TPU"))->marker == "tpu");
}

TEST_CASE("ran: zero tests run is could-not-evaluate unless the selection is empty") {
  struct Row {
    RanFacts facts;
    ExitCode code;
    std::string headline;
  };
  const std::vector<Row> rows = {
      {{10, 4, std::nullopt, {}}, ExitCode::pass, "4 of 10 tests ran"},
      {{5, 0, std::nullopt, {}}, ExitCode::could_not_evaluate, "zero tests ran: all 5 tests in the report were skipped"},
      {{0, 0, 7, {}}, ExitCode::could_not_evaluate,
       "zero tests ran: the report has no test, but the leg's selection has 7 in context pr"},
      {{0, 0, 0, {}}, ExitCode::pass, "the leg's selection is empty in context pr: nothing to run"},
      {{10, 10, std::nullopt, {{"cupy", "ModuleNotFoundError: No module named 'cupy'"}, {"torch", "x"}}},
       ExitCode::could_not_evaluate,
       "the leg's declared imports fail (cupy, torch): its environment cannot run the tests it selects"},
  };
  for (const auto& row : rows) {
    const auto verdict = decide_ran(row.facts, "pr");
    CHECK(verdict.code == row.code);
    CHECK(verdict.headline == row.headline);
  }
}

TEST_CASE("ran: skip reasons grouped, most frequent first") {
  const auto reasons = group_skip_reasons({"no GPU", "no GPU", "", "flaky", "no GPU", "flaky", "a"}, 3);
  REQUIRE(reasons.size() == 3);
  CHECK(reasons[0].reason == "no GPU");
  CHECK(reasons[0].count == 3);
  CHECK(reasons[1].reason == "flaky");
  CHECK(reasons[2].reason == "(no reason given)");
}

TEST_CASE("nightly: what a leg runs per context, and on a docs-only change") {
  const auto s = demo_selection();
  const auto& cpu = s.legs[0];
  const auto& gpu = s.legs[1];
  auto plan = plan_leg(s, cpu, "pr", false, "3.11");
  CHECK(plan.run == RunKind::tests);
  CHECK(plan.markers == "(not gpu) and not nightly");
  CHECK(plan_leg(s, gpu, "daily", false, "").markers == "gpu");
  CHECK(plan_leg(s, gpu, "gate-full", false, "").markers == "gpu");
  CHECK(plan_leg(s, gpu, "gate", false, "").markers == "(gpu) and not nightly");
  plan = plan_leg(s, cpu, "pr", true, "3.13");
  CHECK(plan.run == RunKind::docs);
  CHECK(plan.markers == "(docs) and not nightly");
  plan = plan_leg(s, cpu, "pr", true, "3.11");
  CHECK(plan.run == RunKind::none);
  CHECK(plan.why == "the change touches documentation only; the 3.13 job of this leg runs the docs tests");
  plan = plan_leg(s, gpu, "pr", true, "");
  CHECK(plan.run == RunKind::none);
  CHECK(plan.why == "the change touches documentation only; leg cpu runs the docs tests");
}

TEST_CASE("growth: 120 new tests, or 90 s of new tests, reach the notice thresholds") {
  const Thresholds thresholds{100, 60};
  const auto base = numbered(500, 0.1);
  auto more = base;
  for (auto& [id, s] : numbered(120, 0.01, "new.py::test_")) more[id] = s;
  auto g = compare(base, more, thresholds);
  CHECK(g.added.size() == 120);
  CHECK(g.removed.empty());
  CHECK(g.notice);
  CHECK(g.tests == 620);
  CHECK(g.base_tests == 500);

  auto slow = base;
  slow["slow.py::test_a"] = 30;
  slow["slow.py::test_b"] = 30;
  slow["slow.py::test_c"] = 30;
  slow.erase("t.py::test_0");
  g = compare(base, slow, thresholds);
  CHECK(g.added.size() == 3);
  CHECK(g.added_seconds == 90);
  CHECK(g.removed == std::vector<std::string>{"t.py::test_0"});
  CHECK(g.notice);
  CHECK(describe_growth(g, thresholds) ==
        "adds 3 tests (1m 30s of test time) and removes 1: at or over the notice threshold of 100 tests or 1m 00s");

  auto few = base;
  for (auto& [id, s] : numbered(99, 0.5, "few.py::test_")) few[id] = s;
  g = compare(base, few, thresholds);
  CHECK_FALSE(g.notice);  // 99 tests and 49.5 s: under both thresholds
  few["few.py::test_quick"] = 0;
  CHECK(compare(base, few, thresholds).notice);  // the 100th test (still 49.5 s)
  few.erase("few.py::test_quick");
  few["few.py::test_slow"] = 10.5;
  CHECK(compare(base, few, thresholds).notice);  // 99 tests, but 60 s
}

TEST_CASE("growth: the slowest new tests come first") {
  Snapshot now{{"a", 1}, {"b", 5}, {"c", 5}, {"old", 9}};
  const auto g = compare({{"old", 9}}, now, {});
  REQUIRE(g.added.size() == 3);
  CHECK(g.added[0].id == "b");
  CHECK(g.added[1].id == "c");
  CHECK(g.added[2].id == "a");
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

TEST_CASE("growth: a baseline written is read back, history capped, key kept") {
  MemoryFiles files;
  const ConfigKey key{"cpu-tests.yml", "tests", "3.12", "not gpu"};
  std::vector<HistoryPoint> history;
  for (int i = 0; i < 35; ++i) history.push_back({"abc" + std::to_string(i), std::to_string(i), "2026-01-01T00:00:00Z",
                                                  static_cast<std::size_t>(100 + i), 10.0 + i});
  const Snapshot tests{{"a.py::test_\"q\"", 1.5}, {"b.py::test_z", 0}};
  files.files["base.json"] = baseline_json(key, history, tests);
  auto back = read_baseline(files, "base.json");
  REQUIRE(back.ok());
  REQUIRE(back->key);
  CHECK(*back->key == key);
  CHECK(back->tests == tests);
  REQUIRE(back->history.size() == kHistoryLimit);
  CHECK(back->history.front().sha == "abc5");
  CHECK(back->history.back().tests == 134);
  CHECK(back->history.back().seconds == 44.0);
}

TEST_CASE("growth: unreadable baselines say why") {
  MemoryFiles files;
  const std::string b = "base/b";
  auto error_of = [&](const std::string& text) {
    files.files[b] = text;
    auto r = read_baseline(files, b);
    REQUIRE_FALSE(r.ok());
    return r.error().message;
  };
  // Read through the Files seam: its wording, and its limit of 1 GiB.
  SystemFiles disk;
  CHECK(read_baseline(disk, "/nonexistent/b").error().message == "cannot read /nonexistent/b: No such file or directory");
  CHECK(error_of("hello") == b + ": neither a JUnit report nor a suite baseline");
  CHECK(error_of("{\"format\": \"other\"}") == b + ": not a suite baseline: `format` is not \"gatekit-suite-baseline\"");
  CHECK(error_of("{\"format\": \"gatekit-suite-baseline\", \"version\": 2}") ==
        b + ": unsupported suite baseline version (this gatekit reads version 1)");
  CHECK(error_of("{\"format\": \"gatekit-suite-baseline\", \"version\": 1, \"key\": {\"workflow\": \"w\"}}") ==
        b + ": `key.job` is missing or not a string");
  CHECK(error_of("{\"format\": ").rfind(b + ": not a suite baseline: invalid JSON (", 0) == 0);
  CHECK(error_of("<testsuites><testcase name='a'>").find(": the report ends early (cut short?)") != std::string::npos);
}

TEST_CASE("growth: a JUnit report is a baseline too, without a key") {
  MemoryFiles files;
  files.files["r.xml"] = "<testsuite name='pytest'><testcase classname='tests.test_a' name='test_x' time='1.5'/>"
                                  "<testcase classname='tests.test_a' name='test_x' time='0.5'/></testsuite>";
  auto back = read_baseline(files, "r.xml");
  REQUIRE(back.ok());
  CHECK_FALSE(back->key);
  CHECK(back->tests == Snapshot{{"tests/test_a.py::test_x", 2.0}});
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
