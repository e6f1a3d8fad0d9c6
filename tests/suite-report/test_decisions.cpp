// The pure decisions of unmarked, ran and nightly, table by table (growth's: test_growth_compare.cpp).
#include "catch.hpp"
#include "gatekit/files.hpp"
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
