// decide_rerun, the command template and node-id safety (pure, table-driven).
#include <optional>
#include <string>
#include <vector>

#include "catch.hpp"
#include "command.hpp"
#include "rerun_plan.hpp"

using namespace gatekit;
using namespace gatekit::flaky_tracker;

namespace {

junit::TestCase make(std::string node_id, JunitOutcome outcome, std::string name = "t") {
  junit::TestCase c;
  c.classname = "c";
  c.name = std::move(name);
  c.node_id = std::move(node_id);
  c.outcome = outcome;
  return c;
}

}  // namespace

TEST_CASE("decide_rerun: failures are rerun, errors and unsafe ids are not, too many is breakage") {
  const std::vector<junit::TestCase> cases = {
      make("t.py::ok", JunitOutcome::passed),        make("t.py::fails", JunitOutcome::failure),
      make("t.py::setup", JunitOutcome::error),      make("-x.py::opt", JunitOutcome::failure),
      make("t.py::skip", JunitOutcome::skipped),     make("", JunitOutcome::failure, "noid"),
  };
  const RerunPlan plan = decide_rerun(cases, 20, TargetForm::node_ids);
  CHECK(plan.failures == 4);
  CHECK(plan.broken.empty());
  REQUIRE(plan.targets.size() == 1);
  CHECK(plan.targets[0].id == "t.py::fails");
  CHECK(plan.targets[0].arg == "t.py::fails");
  REQUIRE(plan.not_rerun.size() == 3);
  CHECK(plan.not_rerun[0].reason == "an error (collection, setup or teardown) is never flaky");
  CHECK(plan.not_rerun[1].reason == "not rerun: the node id starts with '-' and would read as an option");
  CHECK(plan.not_rerun[2].reason == "not rerun: no pytest node id could be derived from the report");

  const RerunPlan by_name = decide_rerun(cases, 20, TargetForm::names);
  CHECK(by_name.targets.size() == 3);  // names: fails, opt, noid
  CHECK(by_name.targets[2].arg == "noid");

  const RerunPlan broken = decide_rerun(cases, 3, TargetForm::node_ids);
  CHECK(broken.targets.empty());
  CHECK(broken.broken == "4 tests failed, more than --max-failures 3: real breakage, nothing was rerun");
  CHECK(decide_rerun(cases, 4, TargetForm::node_ids).broken.empty());  // K itself is still rerun
}

TEST_CASE("unsafe_node_id: what pytest must never be given") {
  const std::vector<std::pair<std::string, std::optional<std::string>>> table = {
      {"tests/test_a.py::test_x[-rf]", std::nullopt},
      {"tests/test_a.py::test_x[a b]", std::nullopt},
      {"tests/test_a.py::test_x[../..]", std::nullopt},  // `..` in the parameter is not a path
      {"", "no pytest node id could be derived from the report"},
      {"--help", "the node id starts with '-' and would read as an option"},
      {"-p.py::t", "the node id starts with '-' and would read as an option"},
      {"@args.txt", "the node id starts with '@' and would read as a file of arguments (pytest 8.2+)"},
      {"@t.py::x", "the node id starts with '@' and would read as a file of arguments (pytest 8.2+)"},
      {"tests/t.py::x[@args]", std::nullopt},  // '@' inside the id is only text
      {"t.py::x\n--pdb", "the node id holds control characters"},
      {"/etc/t.py::x", "the node id is an absolute path"},
      {"../other/t.py::x", "the node id points outside the project ('..')"},
      {"a/../../t.py::x", "the node id points outside the project ('..')"},
  };
  for (const auto& [id, reason] : table) {
    INFO(id);
    CHECK(unsafe_node_id(id) == reason);
  }
  CHECK(unsafe_name("") == "the test has no name");
  CHECK(unsafe_name("a\x1b[31m") == "the test name holds control characters");
  CHECK_FALSE(unsafe_name("-R").has_value());  // names go inside a regex argument, never alone
}

TEST_CASE("command templates: checked, then expanded word by word") {
  const std::vector<std::pair<std::string, std::string>> errors = {
      {"", "--command: the rerun command is empty"},
      {"pytest {tests}", "--command: the command must write its JUnit report to {junit}"},
      {"pytest --junitxml={report}", "--command: name the tests with exactly one of {tests} or {names}"},
      {"ctest -R {names} --output-junit {report} {tests}",
       "--command: name the tests with exactly one of {tests} or {names}"},
      {"pytest --junitxml={report} x{tests}", "--command: {tests} must be a word of its own (it becomes one word per test)"},
      {"pytest --junitxml={report} {test}", "--command: unknown placeholder {test} (known: {tests} {names} {junit})"},
  };
  for (const auto& [text, message] : errors) {
    INFO(text);
    auto form = check_rerun_template(split_words(text));
    REQUIRE_FALSE(form.ok());
    CHECK(form.error().kind == ErrorKind::bad_input);
    CHECK(form.error().message == message);
  }
  CHECK(check_rerun_template(default_rerun_command())->form == TargetForm::node_ids);
  const auto ctest = check_rerun_template(split_words("ctest -R {names} --output-junit {report}"));
  CHECK(ctest->form == TargetForm::names);
  // {report} is the old spelling of {junit}: read as {junit}, and remembered for the warning.
  CHECK(ctest->command.words == std::vector<std::string>{"ctest", "-R", "{names}", "--output-junit", "{junit}"});
  CHECK(ctest->command.old_spellings == std::vector<std::string>{"{report}"});
  CHECK(check_rerun_template(default_rerun_command())->command.old_spellings.empty());

  test_run::CommandValues values;
  values.tests = {"t.py::a", "t.py::b[x y]"};
  values.junit = "/w/rerun-1.xml";
  CHECK(test_run::expand(default_rerun_command(), values) ==
        std::vector<std::string>{"python3", "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:rerunfailures",
                                 "--junitxml=/w/rerun-1.xml", "--", "t.py::a", "t.py::b[x y]"});
  values.names = test_run::names_regex({"a.b", "c(d)|e"});
  CHECK(test_run::expand(ctest->command.words, values) ==
        std::vector<std::string>{"ctest", "-R", R"(^(a\.b|c\(d\)\|e)$)", "--output-junit", "/w/rerun-1.xml"});
  CHECK(split_words("  a\tb  c ") == std::vector<std::string>{"a", "b", "c"});
  CHECK(check_stress_template(split_words("pytest --junitxml={report} -k {copy}")).ok());
  CHECK(check_stress_template(split_words("pytest {tests} --junitxml={report}")).error().message ==
        "--command: unknown placeholder {tests} (known: {junit} {copy})");
}
