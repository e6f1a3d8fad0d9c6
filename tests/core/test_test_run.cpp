// The test-run module: the command template (parse, expand), the child logger, the runner.
#include "catch.hpp"
#include "gatekit/fake_context.hpp"
#include "gatekit/test_run.hpp"

using namespace gatekit;
using namespace gatekit::test_run;

namespace {

using Words = std::vector<std::string>;
const std::vector<std::string_view> kGate{kWorkers, kTests, kJunit, kMarkers};
const std::vector<std::string_view> kRerun{kTests, kNames, kJunit};

}  // namespace

TEST_CASE("test_run: parse_template accepts the placeholders, rewrites the old spellings, refuses the rest") {
  struct Row {
    Words words;
    std::vector<std::string_view> known;
    Words expected;       // the words in the current spelling
    Words old_spellings;  // found
    std::string error;    // non-empty: the bad_input message
  };
  const std::vector<Row> rows = {
      {{"pytest", "-n", "{workers}", "--junitxml={junit}", "{tests}"}, kGate,
       {"pytest", "-n", "{workers}", "--junitxml={junit}", "{tests}"}, {}, ""},
      {{"pytest", "--junitxml={junit}", "{paths}", "{paths}"}, kGate,
       {"pytest", "--junitxml={junit}", "{tests}", "{tests}"}, {"{paths}"}, ""},
      {{"pytest", "--junitxml={report}", "--", "{tests}"}, kRerun,
       {"pytest", "--junitxml={junit}", "--", "{tests}"}, {"{report}"}, ""},
      {{"ctest", "-R", "{names}", "--output-junit", "{report}", "x{paths}"}, kRerun, {}, {},
       "{tests} must be a word of its own (it becomes one word per test)"},
      {{"pytest", "{junit}", "{test}"}, kRerun, {}, {}, "unknown placeholder {test} (known: {tests} {names} {junit})"},
      {{"pytest", "--x={markers}", "{tests}"}, kRerun, {}, {}, "unknown placeholder {markers} (known: {tests} {names} {junit})"},
      {{"pytest", "--tests={tests}"}, kGate, {}, {}, "{tests} must be a word of its own (it becomes one word per test)"},
      {{"echo", "{}", "{1}", "{ tests}", "json={\"a\": 1}"}, kGate, {"echo", "{}", "{1}", "{ tests}", "json={\"a\": 1}"}, {}, ""},
  };
  for (const auto& row : rows) {
    INFO(row.words.back());
    auto parsed = parse_template(row.words, row.known);
    if (!row.error.empty()) {
      REQUIRE_FALSE(parsed);
      CHECK(parsed.error().kind == ErrorKind::bad_input);
      CHECK(parsed.error().message == row.error);
      continue;
    }
    REQUIRE(parsed);
    CHECK(parsed->words == row.expected);
    CHECK(parsed->old_spellings == row.old_spellings);
  }
}

TEST_CASE("test_run: an old spelling is a deprecation warning through the workflow") {
  RecordingWorkflow workflow;
  const auto parsed = parse_template({"pytest", "--junitxml={report}", "{paths}"}, {kTests, kJunit});
  REQUIRE(parsed);
  warn_old_spellings(workflow, *parsed, ".github/gatekit/gpu-gate.yml: command");
  REQUIRE(workflow.annotations.size() == 2);
  CHECK(workflow.annotations[0].severity == Severity::warning);
  CHECK(workflow.annotations[0].message ==
        ".github/gatekit/gpu-gate.yml: command: {report} is the old spelling of {junit}: write {junit} (the old one "
        "will be removed)");
  CHECK(workflow.annotations[1].message ==
        ".github/gatekit/gpu-gate.yml: command: {paths} is the old spelling of {tests}: write {tests} (the old one "
        "will be removed)");
  CHECK(workflow.annotations[0].title == "gatekit: deprecated placeholder");
}

TEST_CASE("test_run: expand replaces each placeholder once, and no test reads as an option") {
  struct Row {
    Words words;
    CommandValues values;
    Words argv;
  };
  CommandValues all;
  all.tests = {"tests/a.py", "-rf.py", "--junitxml=/etc/x", "tests/b.py::test[-x]"};
  all.junit = "/tmp/j.xml";
  all.markers = "not nightly";
  all.workers = 4;
  CommandValues hostile;
  hostile.markers = "{workers}{junit}";  // a value is never expanded again
  hostile.workers = 2;
  hostile.junit = "{markers}";
  hostile.names = names_regex({"a{copy}", "b.c"});
  hostile.copy = "3";
  const std::vector<Row> rows = {
      {{"pytest", "-n", "{workers}", "--junitxml={junit}", "-m", "{markers}", "{tests}"}, all,
       {"pytest", "-n", "4", "--junitxml=/tmp/j.xml", "-m", "not nightly", "tests/a.py", "./-rf.py",
        "./--junitxml=/etc/x", "tests/b.py::test[-x]"}},
      {{"pytest", "{tests}", "--junitxml={junit}"}, CommandValues{}, {"pytest", "--junitxml={junit}"}},
      {{"x", "{markers}|{workers}|{junit}", "{names}", "c{copy}{copy}"}, hostile,
       {"x", "{workers}{junit}|2|{markers}", R"(^(a\{copy\}|b\.c)$)", "c33"}},
      {{"{", "{junit", "a{junit}}b{"}, all, {"{", "{junit", "a/tmp/j.xml}b{"}},
  };
  for (const auto& row : rows) CHECK(expand(row.words, row.values) == row.argv);
}

TEST_CASE("test_run: ChildLog logs whole lines, bounded, each through Workflow::log") {
  RecordingWorkflow workflow;
  ChildLog log(workflow);
  log.feed("one\ntw");
  log.feed("o\n::error::not a command\n");
  CHECK(workflow.lines == std::vector<std::string>{"one", "two", "::error::not a command"});
  log.feed(std::string(ChildLog::kMaxLine + 1, 'x'));  // no newline: logged in a piece, not held
  CHECK(workflow.lines.size() == 4);
  log.feed("tail");
  log.flush();
  CHECK(workflow.lines.back() == "tail");
  log.flush();
  CHECK(workflow.lines.size() == 5);
}

namespace {

const char* const kReport =
    R"(<testsuite><testcase classname="t" name="a"/><testcase classname="t" name="b"><failure message="m"/></testcase>)"
    R"(<testcase classname="t" name="c"><skipped/></testcase></testsuite>)";

ProcessResult exited(int code) {
  ProcessResult r;
  r.exit_code = code;
  r.duration = std::chrono::milliseconds(1500);
  return r;
}

TestPass pass_of() {
  TestPass pass;
  pass.name = "gate pass";
  pass.argv = {"pytest", "--junitxml=out/j.xml"};
  pass.junit = "out/j.xml";
  pass.env = {{"GATEKIT_DEVICE", "gpu"}};
  pass.cwd = "work";
  pass.group = "gate: 3 tests";
  return pass;
}

}  // namespace

TEST_CASE("test_run: run_test_pass runs the command, logs its output, reads its report through Files") {
  FakeSeams seams;
  seams.processes = FakeProcessRunner([&](const ProcessSpec& spec) -> Result<ProcessResult> {
    spec.on_output(OutputStream::out, "collected 3\n::set-output name=x::y\npartial");
    seams.files.files["out/j.xml"] = kReport;
    return exited(1);
  });
  auto context = seams.context();
  std::vector<std::string> ids;
  auto pass = pass_of();
  pass.on_case = [&](const junit::TestCase& c) { ids.push_back(c.id()); };
  auto result = run_test_pass(context, pass);
  REQUIRE(result);
  CHECK(result->evaluated());
  CHECK(result->process.exit_code == 1);
  CHECK(result->process.duration == std::chrono::milliseconds(1500));
  REQUIRE(result->report);
  CHECK(result->report->passed == 1);
  CHECK(result->report->failures == 1);
  CHECK(result->report->skipped == 1);
  CHECK(ids.size() == 3);
  REQUIRE(seams.processes.calls.size() == 1);
  const auto& spec = seams.processes.calls[0];
  CHECK(spec.argv == pass.argv);
  CHECK(spec.cwd == "work");
  CHECK(spec.env_set == pass.env);
  CHECK(spec.merge_stderr);
  CHECK(seams.workflow.groups == std::vector<std::string>{"gate: 3 tests"});
  CHECK(seams.workflow.groups_closed == 1);
  CHECK(seams.workflow.lines == std::vector<std::string>{"collected 3", "::set-output name=x::y", "partial"});
}

TEST_CASE("test_run: run_test_pass says why a pass gives no verdict") {
  struct Row {
    ProcessResult ran;
    bool writes_report;
    Words reasons;
  };
  ProcessResult signalled;
  signalled.signal = 9;
  ProcessResult timed_out;
  timed_out.timed_out = true;
  timed_out.signal = 15;
  const std::vector<Row> rows = {
      {exited(0), true, {}},
      {exited(4), true,
       {"the gate pass ended with exit code 4: no verdict (the test command exits 0 or 1 when its tests ran)"}},
      {exited(0), false, {"the gate pass left no readable JUnit report: out/j.xml: cannot read the report (missing or unreadable)"}},
      {signalled, false,
       {"the gate pass ended with " + signalled.describe() + ": no verdict (the test command exits 0 or 1 when its tests ran)",
        "the gate pass left no readable JUnit report: out/j.xml: cannot read the report (missing or unreadable)"}},
      {timed_out, true,
       {"the gate pass ended with " + timed_out.describe() + ": no verdict (the test command exits 0 or 1 when its tests ran)"}},
  };
  for (const auto& row : rows) {
    FakeSeams seams;
    seams.processes = FakeProcessRunner([&](const ProcessSpec&) -> Result<ProcessResult> {
      if (row.writes_report) seams.files.files["out/j.xml"] = kReport;
      return row.ran;
    });
    auto context = seams.context();
    auto result = run_test_pass(context, pass_of());
    REQUIRE(result);
    CHECK(result->could_not_evaluate == row.reasons);
    CHECK(result->evaluated() == row.reasons.empty());
  }
}

TEST_CASE("test_run: a report that is not JUnit, and a command that cannot start") {
  FakeSeams seams;
  seams.processes = FakeProcessRunner([&](const ProcessSpec&) -> Result<ProcessResult> {
    seams.files.files["out/j.xml"] = "not xml";
    return exited(0);
  });
  auto context = seams.context();
  auto result = run_test_pass(context, pass_of());
  REQUIRE(result);
  REQUIRE(result->could_not_evaluate.size() == 1);
  CHECK(result->could_not_evaluate[0].rfind("the gate pass left no readable JUnit report: out/j.xml", 0) == 0);
  CHECK_FALSE(result->report);

  FakeSeams none;  // every start fails
  auto context2 = none.context();
  auto failed = run_test_pass(context2, pass_of());
  REQUIRE_FALSE(failed);
  CHECK(failed.error().kind == ErrorKind::could_not_evaluate);
  CHECK(failed.error().message ==
        "the gate pass could not start 'pytest': no process expected in this test: pytest");
  CHECK(none.workflow.groups_closed == 1);
}

TEST_CASE("test_run: a report an earlier run left is never read as the pass's") {
  FakeSeams seams;
  seams.files.files["out/j.xml"] = kReport;  // the earlier run's: 1 passed, 1 failed, 1 skipped
  seams.processes = FakeProcessRunner([&](const ProcessSpec&) -> Result<ProcessResult> {
    CHECK(seams.files.files.count("out/j.xml") == 0);  // gone before the command starts
    return exited(0);                                 // and this one writes none
  });
  auto context = seams.context();
  auto result = run_test_pass(context, pass_of());
  REQUIRE(result);
  CHECK_FALSE(result->report);
  CHECK(result->report_error == "out/j.xml: cannot read the report (missing or unreadable)");
  CHECK(result->could_not_evaluate ==
        Words{"the gate pass left no readable JUnit report: out/j.xml: cannot read the report (missing or unreadable)"});
  REQUIRE(seams.processes.calls.size() == 1);
}

TEST_CASE("test_run: a pass whose report cannot be written does not start") {
  FakeSeams seams;
  seams.files.write_failure = "Read-only file system";
  auto context = seams.context();
  auto result = run_test_pass(context, pass_of());
  REQUIRE_FALSE(result);
  CHECK(result.error().kind == ErrorKind::could_not_evaluate);
  CHECK(result.error().message == "the gate pass did not start: cannot write out/j.xml: Read-only file system");
  CHECK(seams.processes.calls.empty());
  CHECK(seams.workflow.groups.empty());
}

TEST_CASE("test_run: a pass that does not log its output writes nothing to the workflow") {
  FakeSeams seams;
  seams.processes = FakeProcessRunner([&](const ProcessSpec& spec) -> Result<ProcessResult> {
    CHECK_FALSE(spec.on_output);
    CHECK(spec.capture_limit == 0);  // nor kept in memory
    seams.files.files["out/j.xml"] = kReport;
    return exited(1);
  });
  auto context = seams.context();
  auto pass = pass_of();
  pass.log_output = false;
  auto result = run_test_pass(context, pass);
  REQUIRE(result);
  CHECK(result->evaluated());
  CHECK(result->report_error.empty());
  REQUIRE(result->report);
  CHECK(result->report->failures == 1);
  CHECK(seams.workflow.groups.empty());
  CHECK(seams.workflow.groups_closed == 0);
  CHECK(seams.workflow.lines.empty());

  FakeSeams none;  // the command cannot start: still nothing in the workflow
  auto context2 = none.context();
  REQUIRE_FALSE(run_test_pass(context2, pass));
  CHECK(none.workflow.groups.empty());
  CHECK(none.workflow.groups_closed == 0);
}
