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
  const auto result = fold_in_process_reruns(read_back(xml), "r.xml");
  REQUIRE(result.ok());
  const auto& folded = *result;
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

namespace {

Result<std::vector<junit::TestCase>> fold_xml(const std::string& suites) {
  return fold_in_process_reruns(read_back("<testsuites>\n" + suites + "</testsuites>"), "r.xml");
}

}  // namespace

TEST_CASE("pytest's own split of a failed call and a teardown error is one attempt, which erred") {
  // pytest 9 without rerunfailures; then with `--reruns 1` (the first attempt pass-shaped),
  // and a skipped test whose teardown erred (rerunfailures writes its attempt as a skip).
  const auto plain = fold_xml(R"(<testsuite name="pytest">
<testcase classname="test_t" name="test_fail_td"><failure message="AssertionError: call boom"/></testcase>
<testcase classname="test_t" name="test_fail_td"><error message="failed on teardown with &quot;RuntimeError: x&quot;"/></testcase>
</testsuite>)");
  REQUIRE(plain.ok());
  REQUIRE(plain->size() == 1);
  CHECK((*plain)[0].outcome == JunitOutcome::error);
  CHECK((*plain)[0].rerun_failures == 0);
  CHECK((*plain)[0].flaky_attempts == 0);
  const auto reruns = fold_xml(R"(<testsuite name="pytest">
<testcase classname="test_t" name="test_fail_td"/>
<testcase classname="test_t" name="test_fail_td"><failure message="AssertionError: call boom"/></testcase>
<testcase classname="test_t" name="test_fail_td"><error message="failed on teardown with &quot;RuntimeError: x&quot;"/></testcase>
<testcase classname="test_t" name="test_skip_td"><skipped message="skipping"/></testcase>
<testcase classname="test_t" name="test_skip_td"><skipped message="skipping"/><error message="failed on teardown with &quot;RuntimeError: x&quot;"/></testcase>
</testsuite>)");
  REQUIRE(reruns.ok());
  REQUIRE(reruns->size() == 2);
  CHECK((*reruns)[0].outcome == JunitOutcome::error);
  CHECK((*reruns)[0].rerun_failures == 1);
  CHECK((*reruns)[1].outcome == JunitOutcome::error);
  CHECK((*reruns)[1].rerun_failures == 1);
}

TEST_CASE("two different cases with one id are could not evaluate, never a merge") {
  struct Row {
    const char* shape;
    const char* suites;
    const char* expected;
  };
  const Row rows[] = {
      {"a failure, then a pass of the same test: not how pytest-rerunfailures records an attempt",
       R"(<testsuite name="pytest"><testcase classname="tests.test_a.TestB" name="test_x" file="tests/common.py"><failure message="boom"/></testcase>
<testcase classname="tests.test_a.TestB" name="test_x" file="tests/common.py"/></testsuite>
)",
       "r.xml: two test cases share the id \"tests/test_a.py::TestB::test_x\" (line 2: suite \"pytest\", classname "
       "\"tests.test_a.TestB\", name \"test_x\", file \"tests/common.py\", a failure; line 3: suite \"pytest\", classname "
       "\"tests.test_a.TestB\", name \"test_x\", file \"tests/common.py\", no failure): the earlier one has a failure of "
       "its own, which is not how pytest-rerunfailures records an attempt; their results cannot be told apart, so they "
       "are not merged"},
      {"the same id from two classnames (hostile: a '/' in a classname)",
       R"(<testsuite name="pytest"><testcase classname="tests.test_a" name="test_x"/>
<testcase classname="tests/test_a.py" name="test_x"><failure/></testcase></testsuite>
)",
       "r.xml: two test cases share the id \"tests/test_a.py::test_x\" (line 2: suite \"pytest\", classname "
       "\"tests.test_a\", name \"test_x\", file \"tests/test_a.py\", no failure; line 3: suite \"pytest\", classname \"tests/test_a.py\", name "
       "\"test_x\", a failure): they are different tests (suite, classname, name or file differ); their results "
       "cannot be told apart, so they are not merged"},
      {"CTest: one name in two suites (two projects' reports put together)",
       R"(<testsuite name="cpu"><testcase classname="unit" name="unit" status="fail"><failure/></testcase></testsuite>
<testsuite name="gpu"><testcase classname="unit" name="unit" status="run"/></testsuite>
)",
       "r.xml: two test cases share the id \"unit::unit\" (line 2: suite \"cpu\", classname \"unit\", name \"unit\", a "
       "failure; line 3: suite \"gpu\", classname \"unit\", name \"unit\", no failure): they are different tests "
       "(suite, classname, name or file differ); their results cannot be told apart, so they are not merged"},
      {"Surefire: one test written twice, with reruns of its own",
       R"(<testsuite name="a.ATest"><testcase classname="a.ATest" name="works"><flakyFailure message="m"/></testcase>
<testcase classname="a.ATest" name="works"/></testsuite>
)",
       "r.xml: two test cases share the id \"a.ATest::works\" (line 2: suite \"a.ATest\", classname \"a.ATest\", name "
       "\"works\", no failure; line 3: suite \"a.ATest\", classname \"a.ATest\", name \"works\", no failure): the "
       "earlier one records reruns of its own, which is not how pytest-rerunfailures records an attempt; their "
       "results cannot be told apart, so they are not merged"},
  };
  for (const auto& row : rows) {
    INFO(row.shape);
    const auto folded = fold_xml(row.suites);
    REQUIRE_FALSE(folded.ok());
    CHECK(folded.error().kind == ErrorKind::could_not_evaluate);
    CHECK(folded.error().message == row.expected);
  }
}

TEST_CASE("ids that differ only after 4 KB are two tests, not one test's attempts") {
  const std::string common(5000, 'p');
  const auto folded = fold_xml("<testsuite name='pytest'><testcase classname='test_t' name='test_p[" + common +
                               "1]'><failure message='boom'/></testcase><testcase classname='test_t' name='test_p[" +
                               common + "2]'/></testsuite>");
  REQUIRE(folded.ok());
  REQUIRE(folded->size() == 2);
  CHECK((*folded)[0].outcome == JunitOutcome::failure);
  CHECK((*folded)[1].flaky_attempts == 0);
}
