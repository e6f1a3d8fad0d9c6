// The one JUnit writer: Surefire's rerun elements, file/line attributes, and a round trip
// through the core reader (what flaky-tracker's merged reports rely on).
#include <string>
#include <vector>

#include "catch.hpp"
#include "gatekit/junit_reader.hpp"
#include "gatekit/junit_writer.hpp"

using namespace gatekit;

namespace {

std::vector<junit::TestCase> read_back(const std::string& xml) {
  std::vector<junit::TestCase> cases;
  auto stats = junit::read_text(xml, "merged.xml", [&](const junit::TestCase& c) { cases.push_back(c); });
  REQUIRE(stats.ok());
  return cases;
}

JunitSuite rerun_suite() {
  JunitCase flaky{"tests.test_a", "test_flaky", 0.5, JunitOutcome::passed};
  flaky.file = "tests/test_a.py";
  flaky.line = 7;
  flaky.attempts = {{false, "assert 1 == 2", "AssertionError", "tests/test_a.py:8: <boom> & more"},
                    {true, "second", "", ""}};
  JunitCase broken{"tests.test_a", "test_broken", 0.1, JunitOutcome::failure, "first", "AssertionError", "trace 1"};
  broken.attempts = {{false, "again", "AssertionError", "trace 2"}};
  return JunitSuite{"pytest", "", 0.6, {}, {flaky, broken}};
}

}  // namespace

TEST_CASE("writer: a passed case with attempts gets flakyFailure/flakyError, a failed one rerunFailure") {
  const std::string xml = write_junit({rerun_suite()});
  CHECK(xml.find("<testcase classname=\"tests.test_a\" name=\"test_flaky\" time=\"0.500\" file=\"tests/test_a.py\" "
                 "line=\"7\">\n"
                 "      <flakyFailure message=\"assert 1 == 2\" type=\"AssertionError\"><stackTrace>tests/test_a.py:8: "
                 "&lt;boom&gt; &amp; more</stackTrace></flakyFailure>\n"
                 "      <flakyError message=\"second\"/>\n"
                 "    </testcase>") != std::string::npos);
  CHECK(xml.find("      <failure message=\"first\" type=\"AssertionError\">trace 1</failure>\n"
                 "      <rerunFailure message=\"again\" type=\"AssertionError\"><stackTrace>trace 2</stackTrace>"
                 "</rerunFailure>\n") != std::string::npos);
  CHECK(xml.find("failures=\"1\"") != std::string::npos);  // the flaky case counts as passed
}

TEST_CASE("writer -> reader: attempts, the first flaky attempt's message and trace, file and line survive") {
  const auto cases = read_back(write_junit({rerun_suite()}));
  REQUIRE(cases.size() == 2);
  CHECK(cases[0].node_id == "tests/test_a.py::test_flaky");
  CHECK(cases[0].line == 7);
  CHECK(cases[0].outcome == JunitOutcome::passed);
  CHECK(cases[0].flaky_attempts == 2);
  CHECK(cases[0].message == "assert 1 == 2");
  CHECK(cases[0].type == "AssertionError");
  CHECK(cases[0].detail == "tests/test_a.py:8: <boom> & more");
  CHECK(cases[1].outcome == JunitOutcome::failure);
  CHECK(cases[1].rerun_failures == 1);
  CHECK(cases[1].message == "first");  // the deciding <failure>, not the rerun's
  CHECK(cases[1].detail == "trace 1");
}

TEST_CASE("reader: Surefire's flakyFailure gives a passed case its first attempt's message and stack trace") {
  const std::string xml = R"(<testsuite name="s"><testcase name="t" classname="c">
    <flakyFailure message="first" type="E"><stackTrace>at c.t(C.java:1)</stackTrace>
      <system-out>attempt output</system-out></flakyFailure>
    <flakyFailure message="second" type="E"><stackTrace>at c.t(C.java:2)</stackTrace></flakyFailure>
    <system-out>final output</system-out></testcase></testsuite>)";
  const auto cases = read_back(xml);
  REQUIRE(cases.size() == 1);
  CHECK(cases[0].flaky_attempts == 2);
  CHECK(cases[0].message == "first");
  CHECK(cases[0].type == "E");
  CHECK(cases[0].detail == "at c.t(C.java:1)");
  CHECK(cases[0].system_out == "final output");
}
