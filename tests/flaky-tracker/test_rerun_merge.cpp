// decide_verdict and merge_reruns (pure), and fold_in_process_reruns.
#include <string>
#include <vector>

#include "catch.hpp"
#include "gatekit/junit_reader.hpp"
#include "report.hpp"
#include "rerun_merge.hpp"

using namespace gatekit;
using namespace gatekit::flaky_tracker;

namespace {

junit::TestCase make(std::string name, JunitOutcome outcome, std::string message = "") {
  junit::TestCase c;
  c.suite = "pytest";
  c.classname = "t";
  c.name = name;
  c.node_id = "t.py::" + name;
  c.file = "t.py";
  c.outcome = outcome;
  c.detail = message.empty() ? "" : "trace of " + name;
  c.message = std::move(message);
  return c;
}

std::vector<junit::TestCase> read_back(const std::string& xml) {
  std::vector<junit::TestCase> cases;
  REQUIRE(junit::read_text(xml, "m.xml", [&](const junit::TestCase& c) { cases.push_back(c); }).ok());
  return cases;
}

}  // namespace

TEST_CASE("verdict: flaky when every rerun target passed, fail naming every test that did not") {
  const std::vector<junit::TestCase> cases = {make("ok", JunitOutcome::passed), make("flaky", JunitOutcome::failure, "boom"),
                                              make("broken", JunitOutcome::failure, "bad"),
                                              make("setup", JunitOutcome::error, "no fixture")};
  RerunPlan plan{{{"t.py::flaky", "t.py::flaky"}, {"t.py::broken", "t.py::broken"}},
                 {{"t.py::setup", "an error (collection, setup or teardown) is never flaky"}}, "", 3};
  Histories histories;
  histories["t.py::flaky"] = {{{false, "boom again"}}, 2};
  histories["t.py::broken"] = {{{false, "bad 1"}, {false, "bad 2"}}, 0};
  const RerunVerdict v = decide_verdict(cases, plan, histories, 2);
  REQUIRE(v.flaky.size() == 1);
  CHECK(v.flaky[0].id == "t.py::flaky");
  CHECK(v.flaky[0].how == "failed, then passed on rerun 2 of 2");
  CHECK(v.flaky[0].message == "boom");
  REQUIRE(v.failed.size() == 2);
  CHECK(v.failed[0].reason == "failed again on 2 reruns: bad 2");
  CHECK(v.failed[1].reason == "an error (collection, setup or teardown) is never flaky: no fixture");
  CHECK(v.code == ExitCode::verdict_fail);

  histories["t.py::broken"].passed_on = 1;
  plan.not_rerun.clear();
  auto only_reruns = cases;
  only_reruns.pop_back();
  CHECK(decide_verdict(only_reruns, plan, histories, 2).code == ExitCode::pass);
  CHECK(decide_verdict({make("ok", JunitOutcome::passed)}, RerunPlan{}, {}, 1).code == ExitCode::pass);
}

TEST_CASE("verdict: breakage names every failure with the reason nothing was rerun") {
  RerunPlan plan;
  plan.broken = "2 tests failed, more than --max-failures 1: real breakage, nothing was rerun";
  const RerunVerdict v =
      decide_verdict({make("a", JunitOutcome::failure, "x"), make("b", JunitOutcome::failure)}, plan, {}, 1);
  REQUIRE(v.failed.size() == 2);
  CHECK(v.failed[0].reason == plan.broken + ": x");
  CHECK(v.failed[1].reason == plan.broken);
}

TEST_CASE("merge: Surefire's record of the reruns, read back by the core reader") {
  const std::vector<junit::TestCase> cases = {make("ok", JunitOutcome::passed), make("flaky", JunitOutcome::failure, "boom"),
                                              make("broken", JunitOutcome::failure, "bad")};
  Histories histories;
  histories["t.py::flaky"] = {{}, 1};
  histories["t.py::broken"] = {{{false, "bad again", "AssertionError", "trace 2"}}, 0};
  const auto back = read_back(write_junit(merge_reruns(cases, histories)));
  REQUIRE(back.size() == 3);
  CHECK(back[0].outcome == JunitOutcome::passed);
  CHECK(back[0].flaky_attempts == 0);
  CHECK(back[1].outcome == JunitOutcome::passed);
  CHECK(back[1].flaky_attempts == 1);
  CHECK(back[1].message == "boom");  // the flake's first failure, for the issue
  CHECK(back[1].detail == "trace of flaky");
  CHECK(back[2].outcome == JunitOutcome::failure);
  CHECK(back[2].rerun_failures == 1);
  CHECK(back[2].message == "bad");
  CHECK(back[2].node_id == "t.py::broken");
  CHECK(observe(back[1]) == Observation::flaky);
  CHECK(observe(back[2]) == Observation::failed);
}

TEST_CASE("pytest-rerunfailures' repeated cases fold into one, counted as attempts") {
  // What pytest-rerunfailures 16 writes for `--reruns 2`: one <testcase> per attempt, the
  // failed attempts without a failure element, the last one deciding.
  const std::string xml = R"(<testsuites><testsuite name="pytest">
    <testcase classname="test_t" name="flaky" time="0.1"/><testcase classname="test_t" name="flaky" time="0.1"/>
    <testcase classname="test_t" name="ok" time="0.1"/>
    <testcase classname="test_t" name="broken" time="0.1"/><testcase classname="test_t" name="broken" time="0.1"/>
    <testcase classname="test_t" name="broken" time="0.1"><failure message="bad">x</failure></testcase>
  </testsuite></testsuites>)";
  const auto folded = fold_in_process_reruns(read_back(xml));
  REQUIRE(folded.size() == 3);
  CHECK(folded[0].node_id == "test_t.py::flaky");
  CHECK(folded[0].flaky_attempts == 1);
  CHECK(folded[0].message == "failed, then passed when rerun inside pytest (pytest-rerunfailures)");
  CHECK(observe(folded[0]) == Observation::flaky);
  CHECK(folded[1].flaky_attempts == 0);
  CHECK(folded[2].rerun_failures == 2);
  CHECK(folded[2].outcome == JunitOutcome::failure);
  const RerunVerdict v = decide_verdict(folded, RerunPlan{}, {}, 1);
  REQUIRE(v.flaky.size() == 1);
  CHECK(v.flaky[0].how == "failed, then passed after 1 earlier attempt recorded in the report");
}
