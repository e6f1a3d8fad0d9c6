// `suite-report growth` over the core's seams: the selection, the baseline and the next
// baseline go through the Files seam (in memory here); this run's report is streamed from
// disk by the JUnit reader; the clock dates the history point.
#include <fstream>

#include "catch.hpp"
#include "gatekit/fake_context.hpp"
#include "growth.hpp"
#include "suite-report.hpp"
#include "temp_dir.hpp"

using namespace gatekit;
using namespace gatekit::suite_report;

namespace {

struct GrowthSetup {
  FakeSeams seams;
  GrowthOptions options;

  GrowthSetup() {
    seams.files.files["cpu.xml"] = "<testsuite name='pytest'>"
                                      "<testcase classname='tests.test_a' name='test_x' time='1.5'/>"
                                      "<testcase classname='tests.test_a' name='test_new' time='0.5'/></testsuite>";
    seams.files.files["ci/suite.yml"] = "version: 1\nlegs:\n  cpu: {markers: not gpu}\n  gpu: {markers: gpu}\n";
    seams.files.files["base.xml"] =
        "<testsuite name='pytest'><testcase classname='tests.test_a' name='test_x' time='1.0'/></testsuite>";
    seams.env.set("GITHUB_SHA", "0123456789abcdef");
    options.selection = "ci/suite.yml";
    options.leg = "cpu";
    options.context = "pr";
    options.report = "cpu.xml";
    options.baseline = "base.xml";
    options.python_version = "3.12";
    options.write_baseline = "next/suite-baseline.json";
  }
};

}  // namespace

TEST_CASE("growth: compared with a baseline read through Files; the next baseline written there, dated by the clock") {
  GrowthSetup s;
  auto context = s.seams.context();
  CHECK(run_growth(s.options, context) == ExitCode::pass);
  CHECK(s.seams.workflow.outputs.at("baseline") == "found");
  CHECK(s.seams.workflow.outputs.at("tests") == "2");
  CHECK(s.seams.workflow.outputs.at("new-tests") == "1");
  CHECK(s.seams.processes.calls.empty());  // --python-version given: no interpreter asked

  auto next = read_baseline(s.seams.files, "next/suite-baseline.json");
  REQUIRE(next.ok());
  REQUIRE(next->key);
  CHECK(next->key->python == "3.12");
  CHECK(next->tests == Snapshot{{"tests/test_a.py::test_x", 1.5}, {"tests/test_a.py::test_new", 0.5}});
  CHECK(s.seams.files.files.at("next/suite-baseline.json").find("\"version\":2") != std::string::npos);
  REQUIRE(next->history.size() == 1);
  CHECK(next->history[0].sha == "0123456789abcdef");
  CHECK(next->history[0].date == "2023-11-14T22:13:20Z");  // the FakeClock's instant
  CHECK(s.seams.workflow.lines.back() == "wrote the next baseline (2 tests) to next/suite-baseline.json");
}

TEST_CASE("growth: a next baseline that cannot be written is a warning naming why, not a failure") {
  GrowthSetup s;
  s.seams.files.write_failure = "Read-only file system";  // as on a full or read-only disk
  auto context = s.seams.context();
  CHECK(run_growth(s.options, context) == ExitCode::pass);
  REQUIRE(s.seams.workflow.annotations.size() == 1);
  CHECK(s.seams.workflow.annotations[0].severity == Severity::warning);
  CHECK(s.seams.workflow.annotations[0].message ==
        "could not write the next suite baseline: cannot write next/suite-baseline.json: Read-only file system");
}

TEST_CASE("growth: a missing selection file is a usage error read through Files") {
  GrowthSetup s;
  s.options.selection = "ci/missing.yml";
  auto context = s.seams.context();
  try {
    (void)run_growth(s.options, context);
    FAIL("a missing selection file must fail");
  } catch (const Failure& failure) {
    CHECK(failure.error().kind == ErrorKind::bad_input);
    CHECK(failure.error().message == "ci/missing.yml: cannot read file");
  }
}

TEST_CASE("growth: a new test reported twice is named by its whole time, with and without writing the next baseline") {
  // Its seconds are whole only at the end of the report, so the names of the slowest new tests
  // are taken in a second pass (the one that writes the baseline, or one of their own).
  for (const bool write : {true, false}) {
    INFO("write: " << write);
    GrowthSetup s;
    s.seams.files.files["cpu.xml"] = "<testsuite name='pytest'>"
                                     "<testcase classname='tests.test_a' name='test_x' time='1.0'/>"
                                     "<testcase classname='tests.test_b' name='test_twice' time='2'/>"
                                     "<testcase classname='tests.test_b' name='test_once' time='4'/>"
                                     "<testcase classname='tests.test_b' name='test_twice' time='3'/></testsuite>";
    if (!write) s.options.write_baseline.clear();
    auto context = s.seams.context();
    REQUIRE(run_growth(s.options, context) == ExitCode::pass);
    CHECK(s.seams.workflow.outputs.at("tests") == "3");
    CHECK(s.seams.workflow.outputs.at("new-tests") == "2");
    const auto& summary = s.seams.workflow.summary;
    const auto twice = summary.find("| `tests/test_b.py::test_twice` | 5.0s |");
    const auto once = summary.find("| `tests/test_b.py::test_once` | 4.0s |");
    CHECK(twice != std::string::npos);
    CHECK(once != std::string::npos);
    CHECK(twice < once);
    CHECK(summary.find("(test ") == std::string::npos);  // every new test named
    if (write) {
      auto next = read_baseline(s.seams.files, "next/suite-baseline.json");
      REQUIRE(next.ok());
      CHECK(next->tests == Snapshot{{"tests/test_a.py::test_x", 1}, {"tests/test_b.py::test_twice", 5},
                                    {"tests/test_b.py::test_once", 4}});
    } else {
      CHECK_FALSE(s.seams.files.exists("next/suite-baseline.json"));
    }
  }
}
