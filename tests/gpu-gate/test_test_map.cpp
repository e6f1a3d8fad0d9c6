// The test map's JSON form: round trip, strict reading, staleness.
#include "catch.hpp"
#include "gatekit/clock.hpp"
#include "gatekit/files.hpp"
#include "run/test_map.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;

TEST_CASE("test map: written, read back the same, in the documented form") {
  const auto map = TestMap::from(1'700'000'000, "c0ffee",
                                 {{"tests/test_a.py::test_x", {"src/b.py", "src/a.py"}},
                                  {"tests/test_a.py::test_y", {"src/a.py"}}});
  CHECK(map.files == std::vector<std::string>{"src/a.py", "src/b.py"});
  const auto text = format_test_map(map);
  CHECK(text ==
        "{\"format\":\"gatekit-test-map\",\"version\":1,\"created\":1700000000,\"commit\":\"c0ffee\","
        "\"files\":[\"src/a.py\",\"src/b.py\"],\"tests\":{\"tests/test_a.py::test_x\":[0,1],"
        "\"tests/test_a.py::test_y\":[0]}}\n");
  auto back = parse_test_map(text, "map.json");
  REQUIRE(back.ok());
  CHECK(back->files == map.files);
  CHECK(back->tests == map.tests);
  CHECK(back->created == map.created);
  CHECK(back->commit == "c0ffee");
}

TEST_CASE("test map: the reader is strict and names the file and the field") {
  struct Row {
    std::string json;
    std::string message;
  };
  const std::string head = R"({"format":"gatekit-test-map","version":1,"created":5,"commit":"c",)";
  const std::vector<Row> rows = {
      {"[]", "map.json: expected a JSON object"},
      {"{", "map.json: not JSON ("},
      {R"({"format":"other","version":1})", "map.json: format: expected \"gatekit-test-map\""},
      {R"({"format":"gatekit-test-map","version":2})", "map.json: version: expected 1 (written by another gatekit)"},
      {head + R"("files":[],"tests":{},"extra":1})", "map.json: extra: unknown key"},
      {head + R"("files":["b","a"],"tests":{}})", "map.json: files: expected sorted, unique paths"},
      {head + R"("files":["a",3],"tests":{}})", "map.json: files[1]: expected a path"},
      {head + R"("files":["a"],"tests":{"t":[1]}})", "map.json: tests.t: an index is not one of files (0..1)"},
      {head + R"("files":["a"],"tests":{"t":[-1]}})", "map.json: tests.t: an index is not one of files (0..1)"},
      {head + R"("files":["a"],"tests":[]})", "map.json: tests: expected an object of test ids"},
      {R"({"format":"gatekit-test-map","version":1,"created":-5,"commit":"c","files":[],"tests":{}})",
       "map.json: created: expected seconds since the epoch"},
  };
  for (const auto& row : rows) {
    INFO(row.json);
    auto map = parse_test_map(row.json, "map.json");
    REQUIRE_FALSE(map.ok());
    CHECK(map.error().kind == ErrorKind::bad_input);
    CHECK(map.error().message.rfind(row.message, 0) == 0);
  }
}

TEST_CASE("test map: stale after four weeks") {
  TestMap map;
  map.created = 1'700'000'000;
  const Clock::time_point written{std::chrono::seconds(map.created)};
  CHECK_FALSE(is_stale(map, written + std::chrono::hours(24 * 28)));
  CHECK(is_stale(map, written + std::chrono::hours(24 * 28) + std::chrono::seconds(1)));
  CHECK(age_in_days(map, written + std::chrono::hours(24 * 30)) == 30);
  CHECK(age_in_days(map, written - std::chrono::hours(1)) == 0);
}

TEST_CASE("test map: read through the files seam") {
  MemoryFiles files;
  files.files["m.json"] = format_test_map(TestMap::from(1, "c", {{"t", {"a"}}}));
  auto map = read_test_map(files, "m.json");
  REQUIRE(map.ok());
  CHECK(map->tests.at("t") == std::vector<std::size_t>{0});
  auto missing = read_test_map(files, "none.json");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message.rfind("cannot read none.json", 0) == 0);
}
