// run's pure parts: the command line, the stress decision, the verdict.
#include "catch.hpp"
#include "run_plan.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;

TEST_CASE("the command's placeholders expand; {paths} becomes one argument per path, none an option") {
  CHECK(expand_command({"python", "-m", "pytest", "-n", "{workers}", "--junitxml={junit}", "{paths}"}, 8, "/tmp/j.xml",
                       {"tests/a.py", "-tests/b.py"}) ==
        std::vector<std::string>{"python", "-m", "pytest", "-n", "8", "--junitxml=/tmp/j.xml", "tests/a.py", "./-tests/b.py"});
}

TEST_CASE("the stress pass is due when the change touches the concurrency patterns") {
  std::string touched;
  CHECK(touches({"src/stream/**"}, {{'M', "docs/a.md", ""}, {'R', "src/new.py", "src/stream/old.py"}}, &touched));
  CHECK(touched == "src/stream/old.py");
  CHECK_FALSE(touches({"src/stream/**"}, {{'M', "src/other.py", ""}}));
  CHECK(stress_paths({"**/stream/**"}, {"tests/stream/test_a.py", "tests/test_b.py"}) ==
        std::vector<std::string>{"tests/stream/test_a.py"});
  CHECK(stress_paths({"**/stream/**"}, {"tests/test_b.py"}) == std::vector<std::string>{"tests/test_b.py"});
}

TEST_CASE("the verdict passes only when the gate pass and every stress repeat passed, with tests run") {
  PassResult good{"gate", 0, {5, 0, 1, 0}, {}};
  PassResult failed{"stress 2/3", 1, {4, 1, 0, 0}, {}};
  PassResult empty{"gate", 0, {0, 0, 3, 0}, {}};
  CHECK(verdict_of(good, {good, good, good}) == Verdict::pass);
  CHECK(verdict_of(good, {good, failed}) == Verdict::fail);
  CHECK(verdict_of(empty, {}) == Verdict::fail);
  CHECK(stress_text(true, "src/stream/a.py", {good, failed}, 3) == "failed on repeat 2 of 3 (src/stream/a.py)");
  CHECK(stress_text(true, "src/stream/a.py", {good, good, good}, 3) == "passed 3x (src/stream/a.py)");
  CHECK(stress_text(false, "", {}, 3) == "not needed (no concurrency change)");
}
