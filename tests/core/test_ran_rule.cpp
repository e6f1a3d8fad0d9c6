// The one "did it run anything" rule, as gpu-gate's GPU passes ask it (suite-report's leg
// wording is tested with suite-report, tests/suite-report/test_decisions.cpp).
#include "gatekit/ran_rule.hpp"

#include "catch.hpp"

using namespace gatekit;

TEST_CASE("a GPU pass needs GPU tests that ran: all skipped, or none, is no evidence") {
  struct Row {
    std::size_t cases, ran;
    ExitCode code;
    std::string headline;
  };
  const std::vector<Row> rows = {
      {12, 3, ExitCode::pass, "3 of 12 GPU tests ran"},
      {40, 0, ExitCode::could_not_evaluate, "zero GPU tests ran: all 40 GPU tests in the report were skipped"},
      {0, 0, ExitCode::could_not_evaluate, "zero GPU tests ran: the gate pass selected none in context gate"},
  };
  for (const auto& row : rows) {
    RanFacts facts;
    facts.cases = row.cases;
    facts.ran = row.ran;
    facts.noun = "GPU tests";
    facts.selector = "the gate pass";
    facts.empty_is_evidence = false;
    const auto verdict = decide_ran(facts, "gate");
    CHECK(verdict.code == row.code);
    CHECK(verdict.headline == row.headline);
  }
}
