// The run mode (run_smokes) over the Context: fake clock, environment, processes and
// workflow; real files in a temporary folder (reports are written to a temporary name and
// renamed, which the in-memory files cannot do). Covers what a black-box test cannot time
// reliably, such as a termination signal that arrives while the manifest is loaded.
#include <signal.h>

#include <fstream>
#include <sstream>

#include "catch.hpp"
#include "gatekit/fake_context.hpp"
#include "gatekit/json.hpp"
#include "gatekit/termination.hpp"
#include "smoke-runner.hpp"
#include "temp_dir.hpp"

using namespace gatekit::smoke_runner;
using gatekit::ProcessResult;
using gatekit::ProcessSpec;
using gatekit::Result;

namespace {

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct RunSetup {
  gatekit::testing::TempDir tmp;
  gatekit::FakeSeams seams;
  gatekit::SystemFiles files;
  Options options;

  explicit RunSetup(const std::string& manifest) {
    std::ofstream(tmp / "m.yaml") << manifest;
    options.manifest = (tmp / "m.yaml").string();
    options.tier = "pr";
    options.gpus = 1;
    options.report_dir = (tmp / "reports").string();
  }
  gatekit::ExitCode run() {
    gatekit::Context context{seams.env, seams.run,      seams.clock, files,     seams.processes, seams.make_transport,
                             seams.workflow, seams.in,    seams.out, seams.gpus,      seams.err};
    return run_smokes(options, context);
  }
  // The error the run left with, after it wrote its reports.
  gatekit::Error failure() {
    try {
      run();
    } catch (const gatekit::Failure& failure) {
      return failure.error();
    }
    FAIL("the run was expected to end with an error");
    return {};
  }
  boost::json::value report() const { return boost::json::parse(read(tmp / "reports" / "smoke-results.json")); }
};

const std::string kTwoSmokes =
    "smokes:\n"
    "  - name: first\n    command: [run-first]\n    pr: true\n"
    "  - name: second\n    command: [run-second, --fast]\n    pr: true\n";

}  // namespace

TEST_CASE("a signal received before the smokes start: nothing starts, every report says cancelled") {
  gatekit::reset_termination_for_testing();
  RunSetup s("smokes:\n  - name: never\n    command: [run-never]\n    pr: true\n");

  gatekit::request_termination(SIGINT);  // as if it came while the manifest was read
  const auto error = s.failure();
  gatekit::reset_termination_for_testing();
  CHECK(error.kind == gatekit::ErrorKind::could_not_evaluate);
  CHECK(error.message == "cancelled: the runner received SIGINT; reports written");

  CHECK(s.seams.processes.calls.empty());
  CHECK(s.seams.workflow.outputs.at("result") == "cancelled");
  CHECK(s.seams.workflow.outputs.at("passed") == "0");
  CHECK(s.seams.workflow.outputs.at("failed") == "0");
  CHECK(s.seams.workflow.outputs.at("skipped") == "0");
  const auto report = s.report();
  CHECK(report.at("result").as_string() == "cancelled");
  CHECK(report.at("smokes").at(0).at("status").as_string() == "not_run");
  CHECK(report.at("smokes").at(0).at("reason").as_string() == "not started: the runner received SIGINT");
  CHECK(read(s.tmp / "reports" / "smoke-junit.xml").find("<testcase classname=\"smoke-runner\" name=\"cancelled\"") !=
        std::string::npos);
  CHECK(s.seams.workflow.summary.find("> cancelled: the runner received SIGINT; reports written") != std::string::npos);
}

TEST_CASE("a passing run: exit 0, outputs, reports dated by the clock, the last log line") {
  gatekit::reset_termination_for_testing();
  RunSetup s(kTwoSmokes);
  s.seams.processes = gatekit::FakeProcessRunner([](const ProcessSpec&) -> Result<ProcessResult> {
    ProcessResult r;
    r.exit_code = 0;
    r.duration = std::chrono::milliseconds(1200);
    return r;
  });
  CHECK(s.run() == gatekit::ExitCode::pass);
  REQUIRE(s.seams.processes.calls.size() == 2);
  CHECK(s.seams.processes.calls[1].argv == std::vector<std::string>{"run-second", "--fast"});
  CHECK(s.seams.workflow.outputs.at("result") == "passed");
  CHECK(s.seams.workflow.outputs.at("passed") == "2");
  CHECK(s.seams.workflow.outputs.at("json") == (s.tmp / "reports" / "smoke-results.json").string());
  const auto report = s.report();
  CHECK(report.at("started_at").as_string() == "2023-11-14T22:13:20Z");  // the FakeClock's instant
  CHECK(report.at("smokes").at(1).at("duration_ms").as_int64() == 1200);
  CHECK(s.seams.workflow.lines.back() == "smoke-runner: passed (reports in " + s.options.report_dir + ")");
}

TEST_CASE("a passing run whose reports cannot be written: result=error and exit 3, never passed") {
  gatekit::reset_termination_for_testing();
  RunSetup s(kTwoSmokes);
  s.options.report_dir = (s.tmp / "m.yaml" / "reports").string();  // under a file: no folder can be made
  s.seams.processes = gatekit::FakeProcessRunner([](const ProcessSpec&) -> Result<ProcessResult> {
    ProcessResult r;
    r.exit_code = 0;
    return r;
  });
  const auto error = s.failure();
  CHECK(error.kind == gatekit::ErrorKind::could_not_evaluate);
  CHECK(error.message == "cannot create folder " + s.options.report_dir + ": Not a directory");
  CHECK(gatekit::exit_code_of(error) == gatekit::ExitCode::could_not_evaluate);
  CHECK(s.seams.processes.calls.size() == 2);  // the smokes passed: only their reports are missing
  CHECK(s.seams.workflow.outputs.at("result") == "error");
  CHECK(s.seams.workflow.outputs.at("passed") == "2");
}

TEST_CASE("a failing smoke: exit 1, an error annotation at its manifest entry") {
  gatekit::reset_termination_for_testing();
  RunSetup s(kTwoSmokes);
  s.seams.processes = gatekit::FakeProcessRunner([](const ProcessSpec& spec) -> Result<ProcessResult> {
    ProcessResult r;
    r.exit_code = spec.argv[0] == "run-second" ? 4 : 0;
    return r;
  });
  CHECK(s.run() == gatekit::ExitCode::verdict_fail);
  CHECK(s.seams.workflow.outputs.at("result") == "failed");
  CHECK(s.seams.workflow.outputs.at("failed") == "1");
  REQUIRE(s.seams.workflow.annotations.size() == 1);
  CHECK(s.seams.workflow.annotations[0].message == "smoke second failed: exit code 4");
  CHECK(s.seams.workflow.annotations[0].file == s.options.manifest);
  CHECK(s.seams.workflow.annotations[0].line == 5);  // where `- name: second` starts
  CHECK(s.seams.workflow.lines.back() ==
        "smoke-runner: failed: 1 of 2 smokes did not pass (reports in " + s.options.report_dir + ")");
}

TEST_CASE("an error after the manifest loaded: reports and outputs first, then a bad_input Failure") {
  gatekit::reset_termination_for_testing();
  RunSetup s("smokes:\n  - name: full_only\n    command: [run]\n");
  const auto error = s.failure();
  CHECK(error.kind == gatekit::ErrorKind::bad_input);
  CHECK(error.message == s.options.manifest +
                             ": no entry has pr: true, so the pr tier has nothing to run; mark at least one entry pr: true");
  CHECK(s.seams.processes.calls.empty());
  CHECK(s.seams.workflow.outputs.at("result") == "error");
  CHECK(s.report().at("exit_code").as_int64() == 2);
}

TEST_CASE("zero GPUs without --allow-no-gpu: could not evaluate, with the passthrough advice") {
  gatekit::reset_termination_for_testing();
  RunSetup s(kTwoSmokes);
  s.options.gpus = 0;
  const auto error = s.failure();
  CHECK(error.kind == gatekit::ErrorKind::could_not_evaluate);
  CHECK(error.message.starts_with("no GPU is visible to this job. Check the device passthrough"));
  CHECK(s.seams.workflow.outputs.at("result") == "error");
  CHECK(s.report().at("exit_code").as_int64() == 3);
}
