// scan_report and load_report: the first look that decides whether a report needs a merge,
// and the declared-count check both make.
#include <fstream>
#include <string>

#include "catch.hpp"
#include "gatekit/files.hpp"
#include "report.hpp"
#include "temp_dir.hpp"

using namespace gatekit;
using namespace gatekit::flaky_tracker;

namespace {

std::string write(const testing::TempDir& dir, const std::string& xml) {
  const std::string path = (dir / "r.xml").string();
  std::ofstream(path) << xml;
  return path;
}

std::string passing(const std::string& name) { return "<testcase classname=\"tests.test_a\" name=\"" + name + "\"/>"; }

}  // namespace

TEST_CASE("scan: a test's attempts with other tests between them (pytest-xdist) still need the merge") {
  // pytest-rerunfailures with -n 2: the failed attempt (pass-shaped), another worker's test,
  // then the attempt that passed. Nothing failed, yet the test is flaky.
  testing::TempDir dir;
  const auto path = write(dir, "<testsuites><testsuite name=\"pytest\">" + passing("test_flip") + passing("test_other") +
                                   passing("test_flip") + "</testsuite></testsuites>");
  const auto scan = scan_report(SystemFiles{}, path, "");
  REQUIRE(scan.ok());
  CHECK(scan->needs_merge);
  CHECK(scan->failed == 0);
  const auto report = load_report(SystemFiles{}, path, "");
  REQUIRE(report.ok());
  REQUIRE(report->cases.size() == 2);
  CHECK(report->cases[0].flaky_attempts == 1);
}

TEST_CASE("scan: ids met again further apart than the window, and distinct ids, need nothing") {
  testing::TempDir dir;
  std::string xml = "<testsuites><testsuite name=\"pytest\">";
  for (std::size_t i = 0; i < 3; ++i) xml += passing("test_" + std::to_string(i));
  const auto distinct = scan_report(SystemFiles{}, write(dir, xml + "</testsuite></testsuites>"), "");
  REQUIRE(distinct.ok());
  CHECK_FALSE(distinct->needs_merge);
  for (std::size_t i = 3; i < 2 * kScanWindow + 1; ++i) xml += passing("test_" + std::to_string(i));
  xml += passing("test_0") + "</testsuite></testsuites>";  // 2 * kScanWindow + 1 cases later
  const auto far = scan_report(SystemFiles{}, write(dir, xml), "");
  REQUIRE(far.ok());
  CHECK_FALSE(far->needs_merge);
}

TEST_CASE("scan and load: a suite declaring failures its cases do not show could not be evaluated") {
  testing::TempDir dir;
  const auto path = write(dir, "<testsuites>\n<testsuite name=\"pytest\" failures=\"1\" errors=\"0\">" + passing("test_ok") +
                                   "</testsuite></testsuites>");
  const std::string expected = path +
                               ":2: <testsuite name=\"pytest\"> declares 1 failures and errors, but its test cases show "
                               "0: the runner failed outside any test, or the report was cut short; the report cannot "
                               "say whether the tests passed";
  const auto scan = scan_report(SystemFiles{}, path, "");
  REQUIRE_FALSE(scan.ok());
  CHECK(scan.error().message == expected);
  CHECK(scan.error().kind == ErrorKind::could_not_evaluate);
  const auto report = load_report(SystemFiles{}, path, "");
  REQUIRE_FALSE(report.ok());
  CHECK(report.error().message == expected);
}
