// `flaky-tracker rerun` as a whole over fakes: the run's report comes through the Files seam,
// read once (the first look keeps the cases it needs), and the rerun's report the same way
// (the real pytest runs in test_rerun_pytest.py).
#include <string>

#include "catch.hpp"
#include "counting_files.hpp"
#include "flaky-tracker.hpp"
#include "gatekit/fake_context.hpp"
#include "report.hpp"

using namespace gatekit;
using namespace gatekit::flaky_tracker;

namespace {

constexpr const char* kRun =
    "<testsuites><testsuite name='pytest' failures='1'>"
    "<testcase classname='tests.test_a' name='test_ok' file='tests/test_a.py' line='1'/>"
    "<testcase classname='tests.test_a' name='test_flip' file='tests/test_a.py' line='5'>"
    "<failure message='boom'>assert 0</failure></testcase></testsuite></testsuites>";

constexpr const char* kRerun =
    "<testsuites><testsuite name='pytest'>"
    "<testcase classname='tests.test_a' name='test_flip' file='tests/test_a.py' line='5'/>"
    "</testsuite></testsuites>";

}  // namespace

TEST_CASE("rerun over fakes: the run's report is streamed through the Files seam: read once to decide, then to merge") {
  FakeSeams seams;
  seams.files.cwd = "/work/project";
  testing::CountingFiles files(seams.files);
  FakeProcessRunner pytest{[&](const ProcessSpec& spec) -> Result<ProcessResult> {
    // The rerun writes its report where --junitxml= says.
    for (const auto& word : spec.argv)
      if (word.rfind("--junitxml=", 0) == 0) REQUIRE(seams.files.create(word.substr(11), kRerun).ok());
    CHECK(spec.argv.back() == "tests/test_a.py::test_flip");
    ProcessResult ran;
    ran.exit_code = 0;
    return ran;
  }};
  Context context{seams.env, seams.run,      seams.clock, files,     pytest,     seams.make_transport,
                  seams.workflow, seams.in,    seams.out, seams.gpus, seams.err};
  RerunOptions options;
  options.report = "out/report.xml";
  seams.files.files["out/report.xml"] = kRun;  // as given; the reruns' reports go beside it
  CHECK(run_rerun(options, context) == ExitCode::pass);
  // Once to decide (the cases kept from the first look), once to find the suites whose counts
  // the flaky test lowers, once to write the merge (junit::rewrite): never held whole.
  CHECK(files.reads["out/report.xml"] == 3);
  CHECK(files.reads["/work/project/out/rerun-1.xml"] == 1);
  REQUIRE(pytest.calls.size() == 1);
  CHECK(seams.workflow.outputs.at("flaky") == "1");
  CHECK(seams.workflow.outputs.at("flaky-tests") == "tests/test_a.py::test_flip");
  CHECK(files.changes == std::vector<std::string>{"create /work/project/out/rerun-1.xml",  // the path proven writable
                                                  "remove /work/project/out/rerun-1.xml", "create out/report.xml.tmp",
                                                  "rename out/report.xml.tmp out/report.xml"});
  // Merged in place: the flaky test's failure became its flaky attempt, the suite counts one
  // failure less (its start tag written again), and nothing else changed.
  CHECK(seams.files.files.at("out/report.xml") ==
        "<testsuites><testsuite name=\"pytest\" failures=\"0\">"
        "<testcase classname='tests.test_a' name='test_ok' file='tests/test_a.py' line='1'/>"
        "<testcase classname='tests.test_a' name='test_flip' file='tests/test_a.py' line='5'>"
        "<flakyFailure message=\"boom\"><stackTrace>assert 0</stackTrace></flakyFailure></testcase></testsuite></testsuites>");
}

TEST_CASE("rerun over fakes: a disk that fills up mid-write keeps the run's report whole") {
  FakeSeams seams;
  seams.files.cwd = "/work/project";
  FakeProcessRunner pytest{[&](const ProcessSpec& spec) -> Result<ProcessResult> {
    for (const auto& word : spec.argv)
      if (word.rfind("--junitxml=", 0) == 0) REQUIRE(seams.files.create(word.substr(11), kRerun).ok());
    ProcessResult ran;
    ran.exit_code = 0;
    return ran;
  }};
  Context context{seams.env, seams.run,      seams.clock, seams.files, pytest,     seams.make_transport,
                  seams.workflow, seams.in,    seams.out,   seams.gpus, seams.err};
  RerunOptions options;
  options.report = "out/report.xml";
  options.work_dir = "/work/scratch";  // the reruns' reports: on another disk
  seams.files.files["out/report.xml"] = kRun;
  seams.files.disk = "out";
  seams.files.space_left = 64;  // the merged report does not fit
  try {
    run_rerun(options, context);
    FAIL("a merged report that cannot be written must not pass");
  } catch (const Failure& failure) {
    CHECK(failure.error().message == "cannot write out/report.xml.tmp: No space left on device");
    CHECK(failure.error().kind == ErrorKind::could_not_evaluate);
  }
  CHECK(seams.files.files.at("out/report.xml") == kRun);  // the leg's results are all there
  CHECK(seams.files.files.count("out/report.xml.tmp") == 0);
}

TEST_CASE("rerun over fakes: a report missing from the Files seam is the run's failure, annotated") {
  FakeSeams seams;
  RerunOptions options;
  options.report = "out/none.xml";
  try {
    auto context = seams.context();
    run_rerun(options, context);
    FAIL("a missing report must not pass");
  } catch (const Failure& failure) {
    CHECK(failure.error().message == "out/none.xml: cannot read the report (missing or unreadable)");
    CHECK(failure.error().kind == ErrorKind::could_not_evaluate);
  }
  // result=error is the frame's to write, once, after the failure (tests/core/test_cli.cpp).
  CHECK(seams.workflow.outputs.count("result") == 0);
  REQUIRE(seams.workflow.annotations.size() == 1);
  CHECK(seams.workflow.annotations[0].title == kNoReportTitle);
}

namespace {

// The report path a fake command was given (--junitxml=PATH).
std::string junit_of(const ProcessSpec& spec) {
  for (const auto& word : spec.argv)
    if (word.rfind("--junitxml=", 0) == 0) return word.substr(11);
  return "";
}

}  // namespace

TEST_CASE("rerun over fakes: the rerun's output is logged in its group, and an earlier run's report is not read") {
  FakeSeams seams;
  seams.files.cwd = "/work/project";
  seams.files.files["out/report.xml"] = kRun;
  seams.files.files["/work/project/out/rerun-1.xml"] = kRerun;  // an earlier run's, where test_flip passed
  seams.processes = FakeProcessRunner([&](const ProcessSpec& spec) -> Result<ProcessResult> {
    CHECK(seams.files.files.count(junit_of(spec)) == 0);
    spec.on_output(OutputStream::out, "collected 1 item\n::error::from the test\n");
    ProcessResult ran;
    ran.exit_code = 4;  // and no report
    return ran;
  });
  auto context = seams.context();
  RerunOptions options;
  options.report = "out/report.xml";
  CHECK(run_rerun(options, context) == ExitCode::verdict_fail);
  CHECK(seams.workflow.groups == std::vector<std::string>{"rerun 1 of 1: 1 test"});
  CHECK(seams.workflow.groups_closed == 1);
  CHECK(seams.workflow.lines.at(1) == "collected 1 item");
  CHECK(seams.workflow.lines.at(2) == "::error::from the test");  // Workflow::log keeps it inert
  REQUIRE(seams.workflow.annotations.size() == 2);
  CHECK(seams.workflow.annotations[0].title == "Rerun without a report");
  CHECK(seams.workflow.annotations[0].message ==
        "the rerun left no readable report (exit code 4): /work/project/out/rerun-1.xml: cannot read the report "
        "(missing or unreadable)");
  CHECK(seams.workflow.annotations[1].message ==
        "tests/test_a.py::test_flip: failed again on 1 rerun: the rerun left no readable report (exit code 4)");
  CHECK(seams.workflow.outputs.at("failed") == "1");
}

TEST_CASE("rerun over fakes: a rerun command that cannot start could not be evaluated") {
  FakeSeams seams;  // every start fails
  seams.files.files["out/report.xml"] = kRun;
  RerunOptions options;
  options.report = "out/report.xml";
  try {
    auto context = seams.context();
    run_rerun(options, context);
    FAIL("a rerun that did not run must not give a verdict");
  } catch (const Failure& failure) {
    CHECK(failure.error().message == "the rerun 1 could not start 'python3': no process expected in this test: python3");
    CHECK(failure.error().kind == ErrorKind::could_not_evaluate);
  }
  CHECK(seams.workflow.groups_closed == 1);
  CHECK(seams.files.files.at("out/report.xml") == kRun);  // left as it was
}
