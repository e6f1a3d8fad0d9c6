// `suite-report unmarked` as a whole over fakes: the CPU leg's report read through the Files
// seam (the real pytest runs in test_unmarked_ran_suites.py).
#include <string>

#include "catch.hpp"
#include "gatekit/fake_context.hpp"
#include "suite-report.hpp"

using namespace gatekit;
using namespace gatekit::suite_report;

namespace {

UnmarkedOptions unmarked_options() {
  UnmarkedOptions o;
  o.selection = "suite.yml";
  o.leg = "cpu";
  o.report = "cpu.xml";
  return o;
}

}  // namespace

TEST_CASE("unmarked over fakes: a CPU-leg test skipped for want of a GPU is named with its marker") {
  FakeSeams seams;
  seams.files.files["suite.yml"] = "version: 1\nlegs:\n  cpu: {markers: not gpu}\n  gpu: {device: gpu, markers: gpu}\n";
  seams.files.files["cpu.xml"] =
      "<testsuite>\n<testcase classname='tests.test_k' name='test_plain' file='tests/test_k.py' line='3'/>\n"
      "<testcase classname='tests.test_k' name='test_kernel' file='tests/test_k.py' line='9'>"
      "<skipped message='requires a GPU'/></testcase></testsuite>";
  auto context = seams.context();
  CHECK(run_unmarked(unmarked_options(), context) == ExitCode::verdict_fail);
  CHECK(seams.workflow.outputs.at("result") == "fail");
  CHECK(seams.workflow.outputs.at("unmarked") == "1");
  CHECK(seams.workflow.lines.at(0) ==
        "tests/test_k.py::test_kernel: skipped on the cpu leg (\"requires a GPU\"): mark it @pytest.mark.gpu");
  CHECK(seams.workflow.lines.back() == "2 tests in cpu.xml, 1 skipped, 1 for want of a device");
  REQUIRE(seams.workflow.annotations.size() == 1);
  CHECK(seams.workflow.annotations[0].file == "tests/test_k.py");
  CHECK(seams.workflow.annotations[0].line == 10);
}

TEST_CASE("unmarked over fakes: a report with no such skip passes; a GPU leg is refused") {
  FakeSeams seams;
  seams.files.files["suite.yml"] = "version: 1\nlegs:\n  cpu: {markers: not gpu}\n  gpu: {device: gpu, markers: gpu}\n";
  seams.files.files["cpu.xml"] = "<testsuite><testcase classname='tests.test_k' name='test_plain'/></testsuite>";
  auto context = seams.context();
  CHECK(run_unmarked(unmarked_options(), context) == ExitCode::pass);
  CHECK(seams.workflow.outputs.at("unmarked") == "0");
  auto gpu = unmarked_options();
  gpu.leg = "gpu";
  try {
    run_unmarked(gpu, context);
    FAIL("a GPU leg must be refused");
  } catch (const Failure& failure) {
    CHECK(failure.error().message == "leg 'gpu' is a GPU leg (device: gpu): unmarked reads a CPU leg's report");
    CHECK(failure.error().kind == ErrorKind::bad_input);
  }
}
