// run_pass: a rerun or stress copy through the core's test pass, its report read once and
// checked and folded as load_report does.
#include <string>

#include "catch.hpp"
#include "counting_files.hpp"
#include "gatekit/fake_context.hpp"
#include "test_pass.hpp"

using namespace gatekit;
using namespace gatekit::flaky_tracker;

namespace {

// pytest-rerunfailures' shape (an earlier attempt, then the pass), under --junit-prefix=py312.
constexpr const char* kAttempts =
    "<testsuites><testsuite name='pytest'>"
    "<testcase classname='py312.tests.test_a' name='test_flip' file='tests/test_a.py'/>"
    "<testcase classname='py312.tests.test_a' name='test_flip' file='tests/test_a.py'/>"
    "</testsuite></testsuites>";

constexpr const char* kUndercounted =
    "<testsuites><testsuite name='pytest' failures='1'>"
    "<testcase classname='tests.test_a' name='test_ok' file='tests/test_a.py'/>"
    "</testsuite></testsuites>";

test_run::TestPass pass_of() {
  test_run::TestPass pass;
  pass.name = "rerun 1";
  pass.argv = {"pytest", "--junitxml=/w/rerun-1.xml"};
  pass.junit = "/w/rerun-1.xml";
  pass.timeout = std::chrono::seconds(5);
  pass.read_options.junit_prefix = "py312";
  return pass;
}

}  // namespace

TEST_CASE("run_pass: the report is read once, the prefix stripped, in-process attempts folded") {
  FakeSeams seams;
  testing::CountingFiles files(seams.files);
  FakeProcessRunner pytest{[&](const ProcessSpec&) -> Result<ProcessResult> {
    REQUIRE(seams.files.create("/w/rerun-1.xml", kAttempts).ok());
    ProcessResult ran;
    ran.exit_code = 0;
    return ran;
  }};
  Context context{seams.env, seams.run,      seams.clock, files,     pytest,     seams.make_transport,
                  seams.workflow, seams.in,    seams.out, seams.gpus, seams.err};
  auto ran = run_pass(context, pass_of());
  REQUIRE(ran);
  CHECK(ran->how == "exit code 0");
  CHECK(ran->report_error.empty());
  REQUIRE(ran->report);
  REQUIRE(ran->report->cases.size() == 1);
  CHECK(ran->report->cases[0].id() == "tests/test_a.py::test_flip");
  CHECK(ran->report->cases[0].flaky_attempts == 1);
  CHECK(files.reads["/w/rerun-1.xml"] == 1);
}

TEST_CASE("run_pass: a report whose suite declares failures its cases lack is no report; a timeout still reads it") {
  FakeSeams seams;
  seams.processes = FakeProcessRunner([&](const ProcessSpec&) -> Result<ProcessResult> {
    seams.files.files["/w/rerun-1.xml"] = kUndercounted;
    ProcessResult ran;
    ran.timed_out = true;
    ran.signal = 15;
    return ran;
  });
  auto context = seams.context();
  auto ran = run_pass(context, pass_of());
  REQUIRE(ran);
  CHECK(ran->how == "timed out after 5.0s");
  CHECK_FALSE(ran->report);
  CHECK(ran->report_error ==
        "/w/rerun-1.xml:1: <testsuite name=\"pytest\"> declares 1 failures and errors, but its test cases show 0: the "
        "runner failed outside any test, or the report was cut short; the report cannot say whether the tests passed");
}

TEST_CASE("run_pass: a command that cannot start is an Error") {
  FakeSeams seams;  // every start fails
  auto context = seams.context();
  auto ran = run_pass(context, pass_of());
  REQUIRE_FALSE(ran);
  CHECK(ran.error().message == "the rerun 1 could not start 'pytest': no process expected in this test: pytest");
}
