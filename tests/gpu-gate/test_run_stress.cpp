// The stress targets of a run (run_stress.cpp) over in-memory seams: the test map read from
// the repository when it exists, an invalid one refused, and what the log says.
#include <algorithm>

#include "catch.hpp"
#include "gatekit/fake_context.hpp"
#include "run/run_pass.hpp"
#include "run/test_map.hpp"
#include "run/test_map_place.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;

namespace {

Scope scope_with_a_queue() {
  Scope scope;
  scope.files = {{"tests/gpu/test_k.py", ScopeRule::folder, "tests/gpu"}};
  scope.test_files = {"tests/gpu/test_k.py", "tests/test_cli.py", "tests/test_q.py"};
  scope.imports["tests/test_q.py"] = {{"src/stream/q.py", 2, "module"}};
  scope.imports["tests/test_cli.py"] = {};
  return scope;
}

bool logged(const RecordingWorkflow& workflow, const std::string& line) {
  return std::find(workflow.lines.begin(), workflow.lines.end(), line) != workflow.lines.end();
}

}  // namespace

TEST_CASE("stress targets of a run: imports, then the repository's test map when there is one") {
  const Config config = default_config();
  const auto scope = scope_with_a_queue();
  FakeSeams seams;
  auto context = seams.context();
  auto targets = find_stress_targets(context, test_map_place_of(config, "/repo", ".git"), {"src/stream/q.py"}, scope);
  CHECK(targets.tests == std::vector<std::string>{"tests/test_q.py"});
  CHECK(logged(seams.workflow, "stress targets for src/stream/q.py (no test map at .git/gatekit/test-map.json):"));
  CHECK(logged(seams.workflow, "  tests/test_q.py: imports src/stream/q.py"));

  FakeSeams with_map;
  with_map.files.files["/repo/.git/gatekit/test-map.json"] =
      format_test_map(TestMap::from(1, "c", {{"tests/test_cli.py::test_run", {"src/stream/q.py"}}}));
  auto map_context = with_map.context();
  targets = find_stress_targets(map_context, test_map_place_of(config, "/repo", ".git"), {"src/stream/q.py"}, scope);
  CHECK(targets.tests == std::vector<std::string>{"tests/test_cli.py", "tests/test_q.py"});
  CHECK(logged(with_map.workflow, "  tests/test_cli.py: executed src/stream/q.py (test map)"));

  FakeSeams nothing;
  auto nothing_context = nothing.context();
  targets = find_stress_targets(nothing_context, test_map_place_of(config, "/repo", ".git"), {"src/stream/unused.py"}, scope);
  CHECK(targets.fallback);
  CHECK(targets.tests == std::vector<std::string>{"tests/gpu/test_k.py"});
  CHECK(logged(nothing.workflow, "  no test file imports it: the gate's 1 test files"));
}

TEST_CASE("stress targets of a run: an invalid test map is a usage error naming the file") {
  FakeSeams seams;
  seams.files.files["/repo/.gatekit/test-map.json"] = "{\"format\": \"something else\"}";
  auto context = seams.context();
  try {
    find_stress_targets(context, test_map_place_of(default_config(), "/repo", ".git"), {"src/stream/q.py"}, scope_with_a_queue());
    FAIL("no error");
  } catch (const Failure& failure) {
    CHECK(failure.error().kind == ErrorKind::bad_input);
    CHECK(failure.error().message == "/repo/.gatekit/test-map.json: format: expected \"gatekit-test-map\"");
  }
}

TEST_CASE("the test map's place: under the git directory by default, the old place read until then") {
  Config config;
  struct Row {
    std::string test_map;
    std::string common_dir;
    std::string path, shown, old;
    bool in_checkout;
  };
  const std::vector<Row> rows = {
      {"", ".git", "/repo/.git/gatekit/test-map.json", ".git/gatekit/test-map.json", "/repo/.gatekit/test-map.json", false},
      {"", "/main/.git", "/main/.git/gatekit/test-map.json", "/main/.git/gatekit/test-map.json",
       "/repo/.gatekit/test-map.json", false},
      {"", "../main/.git", "/repo/../main/.git/gatekit/test-map.json", "../main/.git/gatekit/test-map.json",
       "/repo/.gatekit/test-map.json", false},
      {"build/map.json", ".git", "/repo/build/map.json", "build/map.json", "", true},
  };
  for (const auto& row : rows) {
    config.test_map = row.test_map;
    const auto place = test_map_place_of(config, "/repo", row.common_dir);
    CHECK(place.path == row.path);
    CHECK(place.shown == row.shown);
    CHECK(place.old == row.old);
    CHECK(place.in_checkout == row.in_checkout);
  }

  FakeSeams seams;
  seams.files.files["/repo/.gatekit/test-map.json"] = "{}";
  auto context = seams.context();
  config.test_map = "";
  const auto place = test_map_place_of(config, "/repo", ".git");
  CHECK(test_map_to_read(context, place) == std::filesystem::path("/repo/.gatekit/test-map.json"));
  CHECK(logged(seams.workflow, "test map: reading the old place .gatekit/test-map.json; the next `gpu-gate run --full` "
                               "writes .git/gatekit/test-map.json (then remove .gatekit/test-map.json)"));
  seams.files.files["/repo/.git/gatekit/test-map.json"] = "{}";
  CHECK(test_map_to_read(context, place) == std::filesystem::path("/repo/.git/gatekit/test-map.json"));
  config.test_map = "build/map.json";
  CHECK_FALSE(test_map_to_read(context, test_map_place_of(config, "/repo", ".git")));
}
