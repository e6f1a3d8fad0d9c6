// `suite-report growth` over the core's seams: the selection, the baseline and the next
// baseline go through the Files seam (in memory here); this run's report is streamed from
// disk by the JUnit reader; the clock dates the history point.
#include <filesystem>
#include <fstream>
#include <iterator>

#include "catch.hpp"
#include "counting_files.hpp"
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
    seams.run.sha = "0123456789abcdef";
    options.selection = "ci/suite.yml";
    options.leg = "cpu";
    options.context = "pr";
    options.report = "cpu.xml";
    options.baseline = "base.xml";
    options.python_version = "3.12";
    options.write_baseline = "next/suite-baseline.json";
  }
};


// A report of `tests` cases whose display names take some 65 bytes each in a baseline: over
// 1 MiB of them from 17,000 tests.
std::string large_report(int tests) {
  std::string xml = "<testsuite name='pytest'>";
  for (int i = 0; i < tests; ++i)
    xml += "<testcase classname='tests.test_m" + std::to_string(i / 50) + "' name='test_case[" + std::to_string(i) +
           "-" + std::string(40, 'p') + "]' time='0.25'/>";
  return xml + "</testsuite>";
}

// The files whose names start with `prefix`.
std::vector<std::string> files_named(const MemoryFiles& files, const std::string& prefix) {
  std::vector<std::string> names;
  for (const auto& [name, content] : files.files)
    if (name.rfind(prefix, 0) == 0) names.push_back(name);
  return names;
}

}  // namespace

TEST_CASE("growth: the next baseline is written while the report is read once, and replaces the last one at once") {
  GrowthSetup s;
  s.seams.files.files["cpu.xml"] = large_report(20000);
  s.seams.files.files["next/suite-baseline.json"] = "the last baseline";
  testing::CountingFiles files(s.seams.files);
  Context context{s.seams.env, s.seams.run,      s.seams.clock, files,       s.seams.processes, s.seams.make_transport,
                  s.seams.workflow, s.seams.in,    s.seams.out, s.seams.gpus,      s.seams.err};
  REQUIRE(run_growth(s.options, context) == ExitCode::pass);
  CHECK(s.seams.workflow.lines.back() == "wrote the next baseline (20000 tests) to next/suite-baseline.json");
  CHECK(files.reads["cpu.xml"] == 1);
  // Never written in place: a reader sees the last baseline, then the next one whole.
  std::vector<std::string> in_place;
  for (const auto& change : files.changes)
    if (change.substr(change.rfind(' ') + 1) == "next/suite-baseline.json") in_place.push_back(change);
  CHECK(in_place == std::vector<std::string>{"rename next/suite-baseline.json.tmp next/suite-baseline.json"});
  CHECK(files_named(s.seams.files, "next/") == std::vector<std::string>{"next/suite-baseline.json"});
  auto next = read_baseline(s.seams.files, "next/suite-baseline.json");
  REQUIRE(next.ok());
  CHECK(next->tests.size() == 20000);
  CHECK(next->tests.seconds_of("tests/test_m399.py::test_case[19999-" + std::string(40, 'p') + "]") == 0.25);
}

TEST_CASE("growth: a next baseline that cannot be written whole leaves the last one as it was, and no part of it") {
  GrowthSetup s;
  s.seams.files.files["cpu.xml"] = large_report(20000);  // some 1.3 MB of names: written in pieces
  s.seams.files.files["next/suite-baseline.json"] = "the last baseline";
  testing::CountingFiles files(s.seams.files);
  files.failing_prefix = "next/";  // the disk fills after the first MiB
  Context context{s.seams.env, s.seams.run,      s.seams.clock, files,       s.seams.processes, s.seams.make_transport,
                  s.seams.workflow, s.seams.in,    s.seams.out, s.seams.gpus,      s.seams.err};
  REQUIRE(run_growth(s.options, context) == ExitCode::pass);
  REQUIRE(s.seams.workflow.annotations.size() == 2);  // the warning, then the growth notice
  CHECK(s.seams.workflow.annotations[0].severity == Severity::warning);
  CHECK(s.seams.workflow.annotations[0].message ==
        "could not write the next suite baseline: cannot write next/suite-baseline.json.tests.tmp: No space left on "
        "device");
  CHECK(s.seams.files.files.at("next/suite-baseline.json") == "the last baseline");
  CHECK(files_named(s.seams.files, "next/") == std::vector<std::string>{"next/suite-baseline.json"});
}

TEST_CASE("growth: a report that cannot be read to its end leaves no part of the next baseline") {
  GrowthSetup s;
  std::string report = large_report(20000);
  report.resize(report.size() - 20);  // cut short, after more than 1 MiB of names went beside the baseline
  s.seams.files.files["cpu.xml"] = report;
  s.seams.files.files["next/suite-baseline.json"] = "the last baseline";
  auto context = s.seams.context();
  CHECK_THROWS_AS(run_growth(s.options, context), Failure);
  CHECK(s.seams.files.files.at("next/suite-baseline.json") == "the last baseline");
  CHECK(files_named(s.seams.files, "next/") == std::vector<std::string>{"next/suite-baseline.json"});
}

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
  CHECK(s.seams.files.files.at("next/suite-baseline.json").find("\"version\":3") != std::string::npos);
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
        "could not write the next suite baseline: cannot write next/suite-baseline.json.tmp: Read-only file system");
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

namespace {

// A report of the core's test data, as a real runner wrote it (tests/core/data/junit).
std::string core_report(const std::string& file) {
  const auto path = std::filesystem::path(GATEKIT_TEST_DATA).parent_path().parent_path() / "core/data/junit" / file;
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("growth: every case a test of its own where its family says so: jest-junit's suites, TestNG's invocations") {
  // jest-junit: one title in two files (a suite per file), and test.each's three cases of one
  // title; jest-junit's defaults (a suite per first describe block); five suites of Pulsar's
  // TestNG report, whose data providers write one name per invocation. pytest-rerunfailures'
  // and gotestsum's attempts stay one test each.
  const std::pair<const char*, const char*> rows[] = {{"jest-junit-filepath.xml", "9"},
                                                      {"jest-junit.xml", "9"},
                                                      {"testng-pulsar.xml", "22"},
                                                      {"pytest-rerunfailures-xunit2.xml", "6"},
                                                      {"gotestsum-rerun.xml", "8"}};
  for (const auto& [file, tests] : rows) {
    INFO(file);
    GrowthSetup s;
    s.seams.files.files["cpu.xml"] = core_report(file);
    s.seams.files.files["base.xml"] = core_report(file);
    auto context = s.seams.context();
    REQUIRE(run_growth(s.options, context) == ExitCode::pass);
    CHECK(s.seams.workflow.outputs.at("tests") == tests);
    CHECK(s.seams.workflow.outputs.at("new-tests") == "0");
    CHECK(s.seams.workflow.outputs.at("removed-tests") == "0");
    // The next baseline, read back, compares equal too.
    GrowthSetup again;
    again.seams.files.files["cpu.xml"] = core_report(file);
    again.seams.files.files["base.json"] = s.seams.files.files.at("next/suite-baseline.json");
    again.options.baseline = "base.json";
    auto context2 = again.seams.context();
    REQUIRE(run_growth(again.options, context2) == ExitCode::pass);
    CHECK(again.seams.workflow.outputs.at("baseline") == "found");
    CHECK(again.seams.workflow.outputs.at("new-tests") == "0");
  }
}

TEST_CASE("growth: a version 2 baseline (ids before families) is compared where ids did not change, else noticed") {
  // A baseline as a main run of an older gatekit stored it: version 2 (its lines are this
  // gatekit's, which only the header tells apart).
  const auto stored_by_older = [](const std::string& report) {
    GrowthSetup s;
    s.seams.files.files["cpu.xml"] = report;
    s.options.baseline.clear();
    auto context = s.seams.context();
    REQUIRE(run_growth(s.options, context) == ExitCode::pass);
    std::string text = s.seams.files.files.at("next/suite-baseline.json");
    const auto at = text.find("\"version\":3");
    REQUIRE(at != std::string::npos);
    return text.replace(at, 11, "\"version\":2");
  };
  // A pytest report: ids as before, compared.
  GrowthSetup pytest;
  pytest.seams.files.files["base.json"] = stored_by_older(pytest.seams.files.files.at("base.xml"));
  pytest.options.baseline = "base.json";
  auto context = pytest.seams.context();
  REQUIRE(run_growth(pytest.options, context) == ExitCode::pass);
  CHECK(pytest.seams.workflow.outputs.at("baseline") == "found");
  CHECK(pytest.seams.workflow.outputs.at("new-tests") == "1");
  // A jest-junit report: its ids name the suite now. Not compared, and said why.
  GrowthSetup jest;
  jest.seams.files.files["cpu.xml"] = core_report("jest-junit-filepath.xml");
  jest.seams.files.files["base.json"] = stored_by_older(jest.seams.files.files.at("cpu.xml"));
  jest.options.baseline = "base.json";
  auto jest_context = jest.seams.context();
  REQUIRE(run_growth(jest.options, jest_context) == ExitCode::pass);
  CHECK(jest.seams.workflow.outputs.at("baseline") == "none");
  REQUIRE(jest.seams.workflow.annotations.size() == 1);
  CHECK(jest.seams.workflow.annotations[0].severity == Severity::notice);
  CHECK(jest.seams.workflow.annotations[0].message ==
        "growth is not compared: base.json was written by an older gatekit, whose test ids left out the suite and "
        "counted a name's cases as one test; 9 of this run's cases have other ids now (first: "
        "`src/a.test.js::math::adds`), so the two would differ where the tests did not: growth is compared again once "
        "a push to the baseline branch stores a version 3 baseline (nothing to do but wait for that run, or re-run "
        "the last one)");
  // The next baseline is version 3 and keeps the history.
  auto next = read_baseline(jest.seams.files, "next/suite-baseline.json");
  REQUIRE(next.ok());
  CHECK_FALSE(next->legacy_ids);
  CHECK(next->history.size() == 2);
  CHECK(next->tests.size() == 9);
}
