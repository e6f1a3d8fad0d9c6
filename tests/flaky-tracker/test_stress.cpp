// `flaky-tracker stress` as a whole over fakes: each copy through the core's test pass, its
// report read once through the Files seam, never an earlier run's (the real pytest runs in
// test_stress_pytest.py).
#include <string>

#include "catch.hpp"
#include "counting_files.hpp"
#include "flaky-tracker.hpp"
#include "gatekit/fake_context.hpp"

using namespace gatekit;
using namespace gatekit::flaky_tracker;

namespace {

constexpr const char* kFailed =
    "<testsuites><testsuite name='pytest' failures='1'>"
    "<testcase classname='py312.tests.test_a' name='test_flip' file='tests/test_a.py'>"
    "<failure message='boom'>assert 0</failure></testcase></testsuite></testsuites>";

constexpr const char* kPassed =
    "<testsuites><testsuite name='pytest'>"
    "<testcase classname='py312.tests.test_a' name='test_flip' file='tests/test_a.py'/>"
    "</testsuite></testsuites>";

}  // namespace

TEST_CASE("stress over fakes: each copy's report is read once, an earlier run's never, the output not logged") {
  FakeSeams seams;
  seams.files.cwd = "/work/project";
  seams.files.files["/work/project/out/stress-3.xml"] = kPassed;  // an earlier run's
  testing::CountingFiles files(seams.files);
  FakeProcessRunner pytest{[&](const ProcessSpec& spec) -> Result<ProcessResult> {
    const std::string copy = spec.argv.at(1), junit = spec.argv.at(2).substr(11);
    CHECK(seams.files.files.count(junit) == 0);
    CHECK_FALSE(spec.on_output);  // copies run side by side: their output is not logged
    if (copy == "--copy=1") REQUIRE(seams.files.create(junit, kFailed).ok());
    if (copy == "--copy=2") REQUIRE(seams.files.create(junit, kPassed).ok());
    ProcessResult ran;
    ran.exit_code = copy == "--copy=1" ? 1 : copy == "--copy=2" ? 0 : 5;
    return ran;
  }};
  Context context{seams.env, seams.run,      seams.clock, files,     pytest,     seams.make_transport,
                  seams.workflow, seams.in,    seams.out, seams.gpus, seams.err};
  StressOptions options;
  options.command = {"pytest", "--copy={copy}", "--junitxml={junit}"};
  options.times = 3;
  options.output = "out/stress.xml";
  options.junit_prefix = "py312";
  CHECK(run_stress(options, context) == ExitCode::pass);
  CHECK(files.reads["/work/project/out/stress-1.xml"] == 1);
  CHECK(files.reads["/work/project/out/stress-2.xml"] == 1);
  CHECK(files.reads["/work/project/out/stress-3.xml"] == 0);
  CHECK(seams.workflow.groups == std::vector<std::string>{"stress: 3 copies, 1 at a time"});
  CHECK(seams.workflow.lines == std::vector<std::string>{"copy 1 of 3: exit code 1", "copy 2 of 3: exit code 0",
                                                         "copy 3 of 3: exit code 5",
                                                         "flaky: tests/test_a.py::test_flip failed in 1 of 2 copies"});
  REQUIRE(seams.workflow.annotations.size() == 1);
  CHECK(seams.workflow.annotations[0].title == "Stress copy without a report");
  CHECK(seams.workflow.annotations[0].message ==
        "/work/project/out/stress-3.xml: cannot read the report (missing or unreadable) (exit code 5)");
  CHECK(seams.workflow.outputs.at("flaky") == "1");
  CHECK(seams.files.files.count("out/stress.xml") == 1);
}

TEST_CASE("stress over fakes: a copy that cannot start is a warning, not a failure") {
  FakeSeams seams;  // every start fails
  StressOptions options;
  options.command = {"pytest", "--junitxml={junit}"};
  options.times = 1;
  auto context = seams.context();
  CHECK(run_stress(options, context) == ExitCode::pass);
  const std::string why = "the stress copy 1 could not start 'pytest': no process expected in this test: pytest";
  CHECK(seams.workflow.lines.at(0) == "copy 1 of 1: " + why);
  REQUIRE(seams.workflow.annotations.size() == 1);
  CHECK(seams.workflow.annotations[0].message == why);
  CHECK(seams.workflow.outputs.at("flaky") == "0");
}
