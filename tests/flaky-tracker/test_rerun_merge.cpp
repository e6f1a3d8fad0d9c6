// decide_verdict and merge_edits (pure), the merge through junit::rewrite, and fold_in_process_reruns.
#include <filesystem>
#include <string>
#include <vector>

#include "catch.hpp"
#include "gatekit/files.hpp"
#include "gatekit/junit_reader.hpp"
#include "gatekit/junit_rewrite.hpp"
#include "report.hpp"
#include "rerun_merge.hpp"
#include "rerun_plan.hpp"

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

TEST_CASE("merge: Surefire's record of the reruns, written into the report as it was, read back by the core reader") {
  const std::string xml =
      "<testsuites><testsuite name=\"pytest\" failures=\"2\">"
      "<testcase classname=\"t\" name=\"ok\" file=\"t.py\"/>"
      "<testcase classname=\"t\" name=\"flaky\" file=\"t.py\"><failure message=\"boom\">trace of flaky</failure></testcase>"
      "<testcase classname=\"t\" name=\"broken\" file=\"t.py\"><failure message=\"bad\">trace of broken</failure></testcase>"
      "</testsuite></testsuites>";
  MemoryFiles files{{"r.xml", xml}};
  const auto cases = read_back(xml);
  Histories histories;
  histories["t.py::flaky"] = {{}, 1};
  histories["t.py::broken"] = {{{false, "bad again", "AssertionError", "trace 2"}}, 0};
  const auto edits = merge_edits(cases, histories);
  REQUIRE(edits.size() == 2);
  CHECK(edits[0].byte_offset == xml.find("<testcase classname=\"t\" name=\"flaky\""));
  CHECK(edits[0].base_id == "t.py::flaky");
  CHECK(edits[0].passed);
  CHECK(edits[1].base_id == "t.py::broken");
  CHECK_FALSE(edits[1].passed);
  std::string merged;
  REQUIRE(junit::rewrite(files, "r.xml", edits, [&](std::string_view piece) -> Status {
            merged += piece;
            return {};
          }).ok());
  CHECK(merged ==
        "<testsuites><testsuite name=\"pytest\" failures=\"1\">"
        "<testcase classname=\"t\" name=\"ok\" file=\"t.py\"/>"
        "<testcase classname=\"t\" name=\"flaky\" file=\"t.py\"><flakyFailure message=\"boom\"><stackTrace>trace of "
        "flaky</stackTrace></flakyFailure></testcase>"
        "<testcase classname=\"t\" name=\"broken\" file=\"t.py\"><failure message=\"bad\">trace of broken</failure>"
        "<rerunFailure message=\"bad again\" type=\"AssertionError\"><stackTrace>trace 2</stackTrace></rerunFailure>"
        "</testcase></testsuite></testsuites>");
  const auto back = read_back(merged);
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

TEST_CASE("merge: a rerun test folded from pytest-rerunfailures' attempts is edited at its last case, which decides it") {
  const std::string xml = R"(<testsuites><testsuite name="pytest" failures="1">
<testcase classname="test_t" name="flip"/>
<testcase classname="test_t" name="flip"><failure message="boom">x</failure></testcase>
</testsuite></testsuites>)";
  MemoryFiles files{{"r.xml", xml}};
  const auto folded = fold_in_process_reruns(read_back(xml), "r.xml");
  REQUIRE(folded.ok());
  Histories histories;
  histories["test_t.py::flip"] = {{}, 1};
  const auto edits = merge_edits(*folded, histories);
  REQUIRE(edits.size() == 1);
  CHECK(edits[0].byte_offset == xml.find("<testcase classname=\"test_t\" name=\"flip\"><failure"));
  std::string merged;
  REQUIRE(junit::rewrite(files, "r.xml", edits, [&](std::string_view piece) -> Status {
            merged += piece;
            return {};
          }).ok());
  const auto again = fold_in_process_reruns(read_back(merged), "m.xml");
  REQUIRE(again.ok());
  REQUIRE(again->size() == 1);
  CHECK((*again)[0].outcome == JunitOutcome::passed);
  CHECK((*again)[0].flaky_attempts == 2);  // the plugin's attempt, then the one the rerun followed
  CHECK(observe((*again)[0]) == Observation::flaky);
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
      {"pytest: one node id in two suites (two runs' reports put together)",
       R"(<testsuite name="pytest"><testcase classname="tests.test_a" name="test_x"><failure/></testcase></testsuite>
<testsuite name="pytest-gpu"><testcase classname="tests.test_a" name="test_x" file="tests/test_a.py"/></testsuite>
)",
       "r.xml: two test cases share the id \"tests/test_a.py::test_x\" (line 2: suite \"pytest\", classname "
       "\"tests.test_a\", name \"test_x\", file \"tests/test_a.py\", a failure; line 3: suite \"pytest-gpu\", classname "
       "\"tests.test_a\", name \"test_x\", file \"tests/test_a.py\", no failure): they are different tests (suite, "
       "classname, name or file differ); their results cannot be told apart, so they are not merged"},
      {"gotestsum: a pass, then a failure of the same test (its failed runs always come first)",
       R"(<testsuite name="example.com/p"><properties><property name="go.version" value="go1.26"/></properties>
<testcase classname="example.com/p" name="TestX"/>
<testcase classname="example.com/p" name="TestX"><failure message="Failed"/></testcase></testsuite>
)",
       "r.xml: two test cases share the id \"example.com/p::TestX\" (line 3: suite \"example.com/p\", classname "
       "\"example.com/p\", name \"TestX\", no failure; line 4: suite \"example.com/p\", classname \"example.com/p\", "
       "name \"TestX\", a failure): the earlier one has no failure and the later one another result, which is not how "
       "gotestsum records a test's runs (its failed attempts come first); their results cannot be told apart, so "
       "they are not merged"},
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

namespace {

// The core's reports as real runners wrote them (tests/core/data/junit).
std::vector<junit::TestCase> read_data(const std::string& file) {
  std::vector<junit::TestCase> cases;
  const auto path = (std::filesystem::path(GATEKIT_TEST_DATA).parent_path().parent_path() / "core/data/junit" / file).string();
  REQUIRE(junit::read_file(SystemFiles(), path, [&](const junit::TestCase& c) { cases.push_back(c); }).ok());
  return cases;
}

struct Counts {
  std::size_t cases = 0, passed = 0, failed = 0, skipped = 0, flaky = 0;
  bool operator==(const Counts&) const = default;
};

Counts count(const std::vector<junit::TestCase>& cases) {
  Counts n;
  for (const auto& c : cases) {
    ++n.cases;
    n.passed += c.outcome == JunitOutcome::passed;
    n.failed += failed(c);
    n.skipped += c.outcome == JunitOutcome::skipped;
    n.flaky += observe(c) == Observation::flaky;
  }
  return n;
}

}  // namespace

TEST_CASE("TestNG's cases of one name (a data provider's invocations) stay distinct tests, never reruns") {
  // Five suites of Apache Pulsar's report: 22 cases, 6 skipped, 1 failure, and no rerun the
  // report records (TestNG's retries look like a data provider's invocations).
  const auto cases = read_data("testng-pulsar.xml");
  REQUIRE(cases.size() == 22);
  const auto folded = fold_in_process_reruns(cases, "r.xml");
  REQUIRE(folded.ok());
  CHECK(count(*folded) == Counts{22, 15, 1, 6, 0});
  std::vector<std::string> provider;
  for (const auto& c : *folded)
    if (c.name == "testEnumValuesProvider") provider.push_back(c.id());
  CHECK(provider == std::vector<std::string>{"org.apache.pulsar.tests.EnumValuesDataProviderTest::testEnumValuesProvider",
                                             "org.apache.pulsar.tests.EnumValuesDataProviderTest::testEnumValuesProvider #2",
                                             "org.apache.pulsar.tests.EnumValuesDataProviderTest::testEnumValuesProvider #3"});
  CHECK(decide_verdict(*folded, decide_rerun(*folded, 5, TargetForm::names), {}, 1).flaky.empty());
  // The failed one shares its name with a skipped case: a rerun's cases could not be matched
  // to the two, so it is not rerun, and its failure stands.
  const RerunPlan plan = decide_rerun(*folded, 5, TargetForm::names);
  CHECK(plan.targets.empty());
  REQUIRE(plan.not_rerun.size() == 1);
  CHECK(plan.not_rerun[0].id == "org.apache.pulsar.AddMissingPatchVersionTest::testVersionStrings #2");
  CHECK(plan.not_rerun[0].reason ==
        "not rerun: 2 cases of the report have its name (a data provider's invocations, or one name in two files), "
        "and a rerun's cases could not be matched to them");
  CHECK(decide_verdict(*folded, plan, {}, 1).code == ExitCode::verdict_fail);
  // A real TestNG 7.10 run: its own JUnit report names a data provider's three invocations
  // alike; under Surefire 3.5 they are positive[1](1)..., and a retried test's failed attempt
  // is a skipped case of its name in both.
  for (const auto* file : {"testng-junitreports.xml", "surefire-testng.xml"}) {
    INFO(file);
    const auto run = fold_in_process_reruns(read_data(file), "r.xml");
    REQUIRE(run.ok());
    CHECK(count(*run) == Counts{6, 5, 0, 1, 0});
  }
}

TEST_CASE("jest-junit: one test name in several suites or files is several tests, never an attempt nor a collision") {
  // The default templates name a suite after a file's first describe block: two files'
  // "math adds" share suite, classname and name, and are numbered; with one suite per file
  // ({filepath}) the suite tells them apart.
  for (const auto* file : {"jest-junit.xml", "jest-junit-filepath.xml"}) {
    INFO(file);
    const auto folded = fold_in_process_reruns(read_data(file), "r.xml");
    REQUIRE(folded.ok());
    CHECK(count(*folded) == Counts{9, 7, 1, 1, 0});
  }
  const auto folded = fold_in_process_reruns(read_data("jest-junit-filepath.xml"), "r.xml");
  REQUIRE(folded.ok());
  CHECK((*folded)[3].id() == "src/b.test.js::math::adds");
  CHECK((*folded)[8].id() == "src/each.test.js::parse::same title #3");
}

TEST_CASE("gotestsum --rerun-fails: a test's failed runs and its last run fold into one test") {
  const auto folded = fold_in_process_reruns(read_data("gotestsum-rerun.xml"), "r.xml");
  REQUIRE(folded.ok());
  std::vector<std::string> got;
  for (const auto& c : *folded)
    got.push_back(c.id() + " " + std::string(c.outcome == JunitOutcome::passed    ? "passed"
                                              : c.outcome == JunitOutcome::skipped ? "skipped"
                                                                                   : "failed") +
                  " flaky=" + std::to_string(c.flaky_attempts) + " again=" + std::to_string(c.rerun_failures));
  CHECK(got == std::vector<std::string>{
                   "example.com/flaky/other::TestPass passed flaky=0 again=0",
                   "example.com/flaky/pkg::TestFlaky passed flaky=1 again=0",
                   "example.com/flaky/pkg::TestAlwaysFails failed flaky=0 again=3",
                   "example.com/flaky/pkg::TestSub/b passed flaky=1 again=0",
                   "example.com/flaky/pkg::TestSub passed flaky=1 again=0",
                   "example.com/flaky/pkg::TestSkip skipped flaky=0 again=0",
                   "example.com/flaky/pkg::TestPass passed flaky=0 again=0",
                   "example.com/flaky/pkg::TestSub/a passed flaky=0 again=0",
               });
  CHECK((*folded)[1].message == "failed, then passed when rerun by gotestsum (--rerun-fails)");
  const RerunVerdict v = decide_verdict(*folded, RerunPlan{}, {}, 1);
  CHECK(v.flaky.size() == 3);
  REQUIRE(v.failed.size() == 1);
  CHECK(v.failed[0].id == "example.com/flaky/pkg::TestAlwaysFails");
  // `go test -count=2`: a test's two runs with one result are the test once.
  const auto twice = fold_xml(R"(<testsuite name="example.com/p"><properties><property name="go.version" value="go1.26"/></properties>
<testcase classname="example.com/p" name="TestX" time="1"/><testcase classname="example.com/p" name="TestX" time="2"/></testsuite>
)");
  REQUIRE(twice.ok());
  REQUIRE(twice->size() == 1);
  CHECK(count(*twice) == Counts{1, 1, 0, 0, 0});
}

TEST_CASE("cases of one id that no attempt shape explains, in families without attempts: distinct tests") {
  // CTest: two projects' reports put together; Surefire: one test written twice, with reruns
  // of its own. Numbered, each keeps its own result.
  const auto ctest = fold_xml(R"(<testsuite name="cpu"><testcase classname="unit" name="unit" status="fail"><failure/></testcase></testsuite>
<testsuite name="gpu"><testcase classname="unit" name="unit" status="run"/></testsuite>
)");
  REQUIRE(ctest.ok());
  REQUIRE(ctest->size() == 2);
  CHECK((*ctest)[0].id() == "unit::unit");
  CHECK(failed((*ctest)[0]));
  CHECK((*ctest)[1].id() == "unit::unit #2");
  const auto surefire = fold_xml(R"(<testsuite name="a.ATest"><testcase classname="a.ATest" name="works"><flakyFailure message="m"/></testcase>
<testcase classname="a.ATest" name="works"/></testsuite>
)");
  REQUIRE(surefire.ok());
  REQUIRE(surefire->size() == 2);
  CHECK((*surefire)[0].flaky_attempts == 1);
  CHECK((*surefire)[1].flaky_attempts == 0);
  // A name that reads like a number (hostile): never merged with the numbered case.
  const auto hostile = fold_xml(R"(<testsuite name="s"><testcase classname="c" name="t #2"/>
<testcase classname="c" name="t"/><testcase classname="c" name="t"><failure/></testcase></testsuite>
)");
  REQUIRE_FALSE(hostile.ok());
  CHECK(hostile.error().message ==
        "r.xml: two test cases share the id \"s::c::t #2\" (line 2: suite \"s\", classname \"c\", name \"t #2\", no "
        "failure; line 3: suite \"s\", classname \"c\", name \"t\", case 2 of that name, a failure): they are different "
        "tests (suite, classname, name or file differ); their results cannot be told apart, so they are not merged");
}
