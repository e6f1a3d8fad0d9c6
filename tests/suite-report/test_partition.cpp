// The partition decision, the pytest command line it runs, and the whole subcommand over a
// fake pytest (the real one runs in test_partition_suites.py).
#include <map>

#include "catch.hpp"
#include "collect.hpp"
#include "common.hpp"
#include "gatekit/fake_context.hpp"
#include "partition.hpp"
#include "suite-report.hpp"

using namespace gatekit;
using namespace gatekit::suite_report;

namespace {

Selection two_legs() {
  auto s = load_selection_text("version: 1\nlegs:\n  cpu: {markers: not gpu}\n  gpu: {markers: gpu}\n", "suite.yml");
  REQUIRE(s.ok());
  return std::move(*s);
}

ProcessResult exited(int code, std::string out, std::string err = "") {
  ProcessResult r;
  r.exit_code = code;
  r.out = std::move(out);
  r.err = std::move(err);
  r.out_bytes = r.out.size();
  return r;
}

// A fake pytest: the -m value picks the answer.
FakeProcessRunner fake_pytest(std::map<std::string, ProcessResult> by_expression) {
  return FakeProcessRunner([by_expression](const ProcessSpec& spec) -> Result<ProcessResult> {
    std::string expression;
    for (std::size_t i = 0; i + 1 < spec.argv.size(); ++i)
      if (spec.argv[i] == "-m" && spec.argv[i + 1] != "pytest") expression = spec.argv[i + 1];
    auto it = by_expression.find(expression);
    if (it == by_expression.end()) return exited(5, "\nno tests ran\n");
    return it->second;
  });
}

struct Run {
  ExitCode code = ExitCode::pass;
  RecordingWorkflow workflow;
  std::string failure;
};

Run run_with(FakeProcessRunner& runner, const std::string& selection_yaml, std::vector<std::string> contexts = {}) {
  FakeSeams seams;
  seams.files.files["ci/suite.yml"] = selection_yaml;
  PartitionOptions options;
  options.selection = "ci/suite.yml";
  options.contexts = std::move(contexts);
  Run run;
  Context context{seams.env, seams.run,    seams.clock, seams.files, runner,     seams.make_transport,
                  run.workflow, seams.in,    seams.out,   seams.gpus, seams.err};
  try {
    run.code = run_partition(options, context);
  } catch (const Failure& failure) {
    run.code = exit_code_of(failure.error());
    run.failure = failure.error().message;
  }
  return run;
}

const std::string kYaml = "version: 1\nlegs:\n  cpu: {markers: not gpu}\n  gpu: {markers: gpu}\n";

}  // namespace

TEST_CASE("partition: a test in no leg, in two legs, or only seen through a leg is named") {
  const std::vector<std::string> universe{"t.py::a", "t.py::b", "t.py::c", "t.py::d"};
  const std::vector<std::string> cpu{"t.py::a", "t.py::c"};
  const std::vector<std::string> gpu{"t.py::c", "t.py::d", "t.py::z"};
  const auto r = decide_partition("pr", universe, {"cpu", "gpu"}, {&cpu, &gpu});
  CHECK_FALSE(r.ok());
  CHECK(r.universe == 4);
  CHECK(r.leg_counts == std::vector<std::size_t>{2, 3});
  CHECK(r.in_no_leg == std::vector<std::string>{"t.py::b"});
  REQUIRE(r.in_two_legs.size() == 1);
  CHECK(r.in_two_legs[0].node_id == "t.py::c");
  CHECK(r.in_two_legs[0].legs == std::vector<std::string>{"cpu", "gpu"});
  CHECK(r.outside == std::vector<std::string>{"t.py::z"});
  const std::vector<std::string> gpu_ok{"t.py::b", "t.py::d"};
  CHECK(decide_partition("pr", universe, {"cpu", "gpu"}, {&cpu, &gpu_ok}).ok());
}

TEST_CASE("contexts with the same expressions are collected and checked once") {
  const auto s = two_legs();
  const auto groups = group_contexts(s, {"pr", "main", "daily", "gate", "gate-full"});
  REQUIRE(groups.size() == 2);
  CHECK(groups[0].label() == "pr, main, gate");
  CHECK(groups[0].universe == "not nightly");
  CHECK(groups[0].expressions == std::vector<std::string>{"(not gpu) and not nightly", "(gpu) and not nightly"});
  CHECK(groups[1].label() == "daily, gate-full");
  CHECK(groups[1].universe.empty());
}

TEST_CASE("pytest's command line: argv only, the expression is -m's value, no path reads as an option") {
  CollectSpec spec;
  spec.python = "py";
  spec.paths = {"--rootdir=/tmp", "tests/a.py::test_b"};
  CHECK(collect_argv(spec, "gpu or rocm") ==
        std::vector<std::string>{"py", "-m", "pytest", "--collect-only", "-q", "-o", "addopts=", "--strict-markers", "-p",
                                 "no:cacheprovider", "--color=no", "-m", "gpu or rocm", "./--rootdir=/tmp",
                                 "tests/a.py::test_b"});
  spec.paths.clear();
  CHECK(collect_argv(spec, "").back() == "--color=no");
  const auto process = collect_process(spec, "gpu");
  CHECK(process.env_unset == std::vector<std::string>{"PYTEST_ADDOPTS", "PYTEST_PLUGINS"});
  CHECK(process.env_set.at("PY_COLORS") == "0");
}

TEST_CASE("pytest's --collect-only -q output: the node ids before the first blank line") {
  CHECK(parse_collect_output("a.py::t\r\nb.py::C::t[x y]\n\n3 tests collected in 0.01s\n") ==
        std::vector<std::string>{"a.py::t", "b.py::C::t[x y]"});
  CHECK(parse_collect_output("\nno tests collected (3 deselected) in 0.01s\n").empty());
  CHECK(parse_collect_output("").empty());
}

TEST_CASE("partition over a fake pytest: pass, a gap, and pytest's failures") {
  const auto all = exited(0, "t.py::a\nt.py::b\nt.py::n\n\n3 tests\n");
  const auto all_but_nightly = exited(0, "t.py::a\nt.py::b\n\n2/3 tests\n");
  SECTION("every test in exactly one leg") {
    auto runner = fake_pytest({{"", all},
                               {"not nightly", all_but_nightly},
                               {"(not gpu) and not nightly", exited(0, "t.py::a\n\n")},
                               {"(gpu) and not nightly", exited(0, "t.py::b\n\n")},
                               {"not gpu", exited(0, "t.py::a\nt.py::n\n\n")},
                               {"gpu", exited(0, "t.py::b\n\n")}});
    auto run = run_with(runner, kYaml);
    CHECK(run.code == ExitCode::pass);
    CHECK(runner.calls.size() == 6);
    CHECK(run.workflow.outputs.at("result") == "pass");
    CHECK(run.workflow.summary.find("## ✅ Test partition: every test is in exactly one leg") != std::string::npos);
  }
  SECTION("a nightly test that no leg selects on the daily run") {
    auto runner = fake_pytest({{"", all},
                               {"(not gpu) and not nightly", exited(0, "t.py::a\n\n")},
                               {"(gpu) and not nightly", exited(0, "t.py::b\n\n")},
                               {"not gpu", exited(0, "t.py::a\n\n")},
                               {"gpu", exited(0, "t.py::b\n\n")},
                               {"not nightly", all_but_nightly}});
    auto run = run_with(runner, kYaml);
    CHECK(run.code == ExitCode::verdict_fail);
    CHECK(run.workflow.outputs.at("result") == "fail");
    REQUIRE(run.workflow.annotations.size() == 1);
    CHECK(run.workflow.annotations[0].message == "t.py::n is in no leg (daily, gate-full): no CI job runs it");
    CHECK(run.workflow.annotations[0].file == "t.py");
    CHECK(run.workflow.summary.find("### In no leg (daily, gate-full)") != std::string::npos);
  }
  SECTION("pytest refuses the expression: a usage error quoting pytest") {
    auto runner = fake_pytest({{"not nightly", exited(4, "", "ERROR: Unknown marker(s) in '-m' expression: gpu.\n")}});
    auto run = run_with(runner, kYaml, {"pr"});
    CHECK(run.code == ExitCode::usage_error);
    CHECK(run.failure == "pytest --collect-only -m 'not nightly' failed (exit code 4):\n"
                         "ERROR: Unknown marker(s) in '-m' expression: gpu.");
  }
  SECTION("a collection error: could not evaluate") {
    auto runner = fake_pytest({{"not nightly", exited(2, "E   SyntaxError: invalid syntax\n\n1 error in 0.1s\n")}});
    auto run = run_with(runner, kYaml, {"main"});
    CHECK(run.code == ExitCode::could_not_evaluate);
    CHECK(run.failure == "pytest --collect-only -m 'not nightly' failed (exit code 2):\n"
                         "E   SyntaxError: invalid syntax\n1 error in 0.1s");
  }
  SECTION("an unknown --context is a usage error") {
    auto runner = fake_pytest({});
    auto run = run_with(runner, kYaml, {"nightly"});
    CHECK(run.code == ExitCode::usage_error);
    CHECK(run.failure == "unknown context 'nightly' (contexts: pr, main, daily, gate, gate-full)");
    CHECK(runner.calls.empty());
  }
}
