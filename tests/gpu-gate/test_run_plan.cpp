// run's pure parts: the command line, the stress decision, the verdict.
#include "catch.hpp"
#include "run/run_pass.hpp"
#include "run/run_plan.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;

TEST_CASE("the command's placeholders expand; {tests} becomes one argument per path, none an option") {
  Config config;
  config.command = {"python", "-m", "pytest", "-n", "{workers}", "--junitxml={junit}", "{tests}"};
  PassSpec pass;
  pass.name = "gate";
  pass.paths = {"tests/a.py", "-tests/b.py"};
  pass.workers = 8;
  CHECK(pass_command(config, "/tmp/j.xml", pass) ==
        std::vector<std::string>{"python", "-m", "pytest", "-n", "8", "--junitxml=/tmp/j.xml", "tests/a.py", "./-tests/b.py"});
}

TEST_CASE("the stress pass is due when the change touches the concurrency patterns") {
  std::string touched;
  CHECK(touches({"src/stream/**"}, {{'M', "docs/a.md", ""}, {'R', "src/new.py", "src/stream/old.py"}}, &touched));
  CHECK(touched == "src/stream/old.py");
  CHECK_FALSE(touches({"src/stream/**"}, {{'M', "src/other.py", ""}}));
  CHECK(touched_paths({"src/stream/**"}, {{'M', "src/stream/b.py", ""}, {'R', "src/new.py", "src/stream/a.py"},
                                          {'M', "src/stream/b.py", ""}, {'M', "docs/a.md", ""}}) ==
        std::vector<std::string>{"src/stream/a.py", "src/stream/b.py"});
}

namespace {

python::ImportGraph graph(std::vector<std::pair<std::string, std::vector<std::string>>> files) {
  python::ImportGraph g;
  for (auto& [path, loads] : files) {
    auto& edges = g[path];
    for (auto& to : loads) edges.push_back({to, 3, "module"});
  }
  return g;
}

}  // namespace

TEST_CASE("the stress targets: the test files that load the touched code, by imports or the test map") {
  // tests/test_q.py imports the queue; tests/test_pool.py through a helper; tests/test_cli.py
  // runs it in a way the analysis cannot see, but the test map saw it execute; test_other
  // and the helper are not test files or do not load it.
  const auto imports = graph({{"src/stream/queue.py", {}},
                              {"src/stream/pool.py", {"src/stream/queue.py"}},
                              {"tests/helpers.py", {"src/stream/pool.py"}},
                              {"tests/test_q.py", {"src/stream/queue.py"}},
                              {"tests/test_pool.py", {"tests/helpers.py"}},
                              {"tests/test_cli.py", {}},
                              {"tests/test_other.py", {"src/kernels.py"}},
                              {"tests/test_gone.py", {}}});
  const std::vector<std::string> tests{"tests/test_cli.py", "tests/test_other.py", "tests/test_pool.py", "tests/test_q.py"};
  TestMap map = TestMap::from(1, "c", {{"tests/test_cli.py::test_run", {"src/stream/queue.py", "src/cli.py"}},
                                       {"tests/test_other.py::test_k", {"src/kernels.py"}},
                                       {"tests/test_gone.py::test_x", {"src/stream/queue.py"}}});
  const std::vector<std::string> scope{"tests/gpu/test_kernels.py"};
  const std::vector<std::string> touched{"src/stream/queue.py"};

  auto targets = stress_targets(touched, imports, tests, &map, scope);
  CHECK_FALSE(targets.fallback);
  CHECK(targets.tests == std::vector<std::string>{"tests/test_cli.py", "tests/test_pool.py", "tests/test_q.py"});
  CHECK(targets.reasons == std::vector<std::string>{"executed src/stream/queue.py (test map)",
                                                    "imports src/stream/queue.py through tests/helpers.py",
                                                    "imports src/stream/queue.py"});
  // Without the map: the imports alone.
  targets = stress_targets(touched, imports, tests, nullptr, scope);
  CHECK(targets.tests == std::vector<std::string>{"tests/test_pool.py", "tests/test_q.py"});
  // A touched test file is stressed itself.
  targets = stress_targets({"tests/test_other.py"}, imports, tests, nullptr, scope);
  CHECK(targets.tests == std::vector<std::string>{"tests/test_other.py"});
  CHECK(targets.reasons == std::vector<std::string>{"changed"});
  // Nothing loads the touched file: the gate's scope, said so.
  targets = stress_targets({"src/stream/unused.py"}, imports, tests, &map, scope);
  CHECK(targets.fallback);
  CHECK(targets.tests == scope);
}

TEST_CASE("the record's stress value names what was stressed, within the record's limit") {
  PassResult good{"stress 1/3", 0, {5, 0, 1, 0}, {}};
  PassResult failed{"stress 2/3", 1, {4, 1, 0, 0}, {}};
  StressTargets one{{"src/stream/a.py"}, {"tests/test_a.py"}, {"imports src/stream/a.py"}, false};
  CHECK(stress_text(true, "src/stream/a.py", one, {good, good, good}, 3) == "passed 3x on tests/test_a.py (src/stream/a.py)");
  CHECK(stress_text(true, "src/stream/a.py", one, {good, failed}, 3) ==
        "failed on repeat 2 of 3 on tests/test_a.py (src/stream/a.py)");
  CHECK(stress_text(true, "src/stream/a.py", one, {}, 3) == "not run: the gate pass failed (src/stream/a.py)");
  StressTargets two{{"src/stream/a.py"}, {"tests/test_a.py", "tests/test_b.py"}, {"", ""}, false};
  CHECK(stress_text(true, "src/stream/a.py", two, {good, good, good}, 3) ==
        "passed 3x on 2 test files: tests/test_a.py, tests/test_b.py (src/stream/a.py)");
  StressTargets fallback{{"src/stream/a.py"}, {"tests/gpu/test_k.py", "tests/gpu/test_l.py"}, {"", ""}, true};
  CHECK(stress_text(true, "src/stream/a.py", fallback, {good, good, good}, 3) ==
        "passed 3x on the gate's 2 test files, none loads it (src/stream/a.py)");
  StressTargets many{{"src/stream/a.py"}, {}, {}, false};
  for (int i = 0; i < 40; ++i) many.tests.push_back("tests/stream/test_case_number_" + std::to_string(10 + i) + ".py");
  const auto text = stress_text(true, "src/stream/a.py", many, {good, good, good}, 3);
  CHECK(text.size() <= kMaxFactBytes);
  CHECK(text.starts_with("passed 3x on 40 test files: tests/stream/test_case_number_10.py, "));
  CHECK(text.ends_with(" more (src/stream/a.py)"));
  CHECK(clean_fact(text) == text);
}

TEST_CASE("the verdict passes only when the gate pass and every stress repeat passed, with tests run") {
  PassResult good{"gate", 0, {5, 0, 1, 0}, {}};
  PassResult failed{"stress 2/3", 1, {4, 1, 0, 0}, {}};
  PassResult empty{"gate", 0, {0, 0, 3, 0}, {}};
  CHECK(verdict_of(good, {good, good, good}) == Verdict::pass);
  CHECK(verdict_of(good, {good, failed}) == Verdict::fail);
  CHECK(verdict_of(empty, {}) == Verdict::fail);
  CHECK(stress_text(false, "", {}, {}, 3) == "not needed (no concurrency change)");
}

TEST_CASE("the plan: run and run --full are one pipeline; --full changes the passes, the markers and the checks") {
  Config config;
  config.workers = 8;
  config.command = {"python", "-m", "pytest", "-n", "{workers}", "--junitxml={junit}", "{tests}"};
  RunOptions options;
  options.publish = true;

  const RunPlan gate = plan_run(options, config);
  CHECK_FALSE(gate.full);  // the selection context `gate`: the nightly tests stay out
  CHECK(gate.workers == 8);
  REQUIRE(gate.passes.size() == 1);
  CHECK(gate.passes[0].name == "gate");
  CHECK_FALSE(gate.passes[0].every_test);  // the scope's files, filled in once the scope is known
  CHECK(gate.passes[0].env == std::map<std::string, std::string>{{"GATEKIT_DEVICE", "gpu"}});
  CHECK(gate.passes[0].extra_args.empty());
  CHECK_FALSE(gate.passes[0].coverage);
  CHECK(gate.stress);
  CHECK(gate.needs_scope);
  CHECK_FALSE(gate.scope_check);
  CHECK_FALSE(gate.test_map);
  CHECK(gate.publish);

  options.full = true;
  options.workers = 3;  // the option wins over the configuration
  const RunPlan full = plan_run(options, config);
  CHECK(full.full);  // the selection context `gate-full`: every test, nightly included
  CHECK(full.workers == 3);
  REQUIRE(full.passes.size() == 2);
  CHECK(full.passes[0].name == "GPU");
  CHECK(full.passes[1].name == "CPU");
  for (const auto& pass : full.passes) {
    CHECK(pass.every_test);
    CHECK(pass.workers == 3);
    CHECK(pass.env.at("GATEKIT_NIGHTLY") == "1");
  }
  CHECK(full.passes[0].env.at("GATEKIT_DEVICE") == "gpu");
  CHECK(full.passes[1].env.at("GATEKIT_DEVICE") == "cpu");
  CHECK(full.passes[0].coverage);  // the test map's data comes from the GPU pass
  CHECK(full.passes[0].extra_args == std::vector<std::string>{"--cov=.", "--cov-context=test", "--cov-report="});
  CHECK_FALSE(full.passes[1].coverage);
  CHECK(full.passes[1].extra_args.empty());
  CHECK_FALSE(full.stress);
  CHECK_FALSE(full.needs_scope);
  CHECK(full.scope_check);
  CHECK(full.test_map);
  CHECK_FALSE(full.publish);  // a full run's result is recorded, not pushed

  config.command = {"make", "test", "JUNIT={junit}"};  // not pytest: no coverage options to add
  CHECK(plan_run(options, config).passes[0].extra_args.empty());
}

TEST_CASE("a pass of every test passes with none passing; the gate pass needs one") {
  PassResult cpu{"CPU", 0, {0, 0, 3, 0}, {}, /*may_pass_empty=*/true};
  PassResult gate{"gate", 0, {0, 0, 3, 0}, {}};
  CHECK(cpu.passed());
  CHECK_FALSE(gate.passed());
  cpu.counts.errors = 1;
  CHECK_FALSE(cpu.passed());
}
