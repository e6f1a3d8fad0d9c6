// `suite-report ran` as a whole over fakes: the report read through the Files seam, the
// import checks through the process seam (the real pytest runs in test_unmarked_ran_suites.py).
#include <string>

#include "catch.hpp"
#include "gatekit/fake_context.hpp"
#include "ran.hpp"
#include "suite-report.hpp"

using namespace gatekit;
using namespace gatekit::suite_report;

namespace {

ProcessResult exited(int code, std::string err = "") {
  ProcessResult r;
  r.exit_code = code;
  r.err = std::move(err);
  return r;
}

RanOptions ran_options() {
  RanOptions o;
  o.selection = "suite.yml";
  o.leg = "gpu";
  o.context = "pr";
  o.report = "out/gpu.xml";
  o.python = "python9";
  o.root = "project";
  return o;
}

constexpr const char* kSelection =
    "version: 1\nlegs:\n  cpu: {markers: not gpu}\n  gpu:\n    device: gpu\n    markers: gpu\n"
    "    imports: [json, missing_mod]\n";

}  // namespace

TEST_CASE("ran over fakes: the report comes through the Files seam and each extra is imported by the leg's python") {
  FakeSeams seams;
  seams.files.files["suite.yml"] = kSelection;
  seams.files.files["out/gpu.xml"] =
      "<testsuite><testcase classname='tests.test_k' name='test_a'/>"
      "<testcase classname='tests.test_k' name='test_b'><skipped message='no GPU visible'/></testcase></testsuite>";
  FakeProcessRunner imports{[](const ProcessSpec& spec) -> Result<ProcessResult> {
    if (spec.argv.back() == "json") return exited(0);
    return exited(1, "Traceback (most recent call last):\nModuleNotFoundError: No module named 'missing_mod'\n");
  }};
  Context context{seams.env, seams.run,      seams.clock, seams.files, imports,    seams.make_transport,
                  seams.workflow, seams.in,    seams.out,   seams.gpus, seams.err};
  CHECK(run_ran(ran_options(), context) == ExitCode::could_not_evaluate);
  REQUIRE(imports.calls.size() == 2);
  CHECK(imports.calls[0].argv == std::vector<std::string>{"python9", "-c", kImportCheck, "json"});
  CHECK(imports.calls[0].cwd == "project");
  // No verdict: the frame writes `result=error` when run_ran returns (cli.suite-report.ran-all-skipped).
  CHECK(!seams.workflow.outputs.contains("result"));
  CHECK(seams.workflow.outputs.at("ran") == "1");
  CHECK(seams.workflow.lines.at(0) == "import json: ok");
  CHECK(seams.workflow.lines.at(1) == "import missing_mod: ModuleNotFoundError: No module named 'missing_mod'");
  CHECK(seams.workflow.summary.find("| `missing_mod` | ModuleNotFoundError: No module named 'missing\\_mod' |") !=
        std::string::npos);
}

TEST_CASE("ran over fakes: a leg whose tests ran passes, and a missing report could not be evaluated") {
  FakeSeams seams;
  seams.files.files["suite.yml"] = "version: 1\nlegs:\n  cpu: {markers: not gpu}\n  gpu: {device: gpu, markers: gpu}\n";
  seams.files.files["out/gpu.xml"] = "<testsuite><testcase classname='tests.test_k' name='test_a'/></testsuite>";
  auto context = seams.context();
  CHECK(run_ran(ran_options(), context) == ExitCode::pass);
  CHECK(seams.workflow.outputs.at("result") == "pass");
  CHECK(seams.workflow.outputs.at("ran") == "1");
  CHECK(seams.workflow.lines.back() == "leg gpu: 1 of 1 tests ran");

  seams.files.files.erase("out/gpu.xml");
  try {
    run_ran(ran_options(), context);
    FAIL("a missing report must not pass");
  } catch (const Failure& failure) {
    CHECK(failure.error().message == "out/gpu.xml: cannot read the report (missing or unreadable)");
    CHECK(failure.error().kind == ErrorKind::could_not_evaluate);
  }
}
