// The GPU filter check's pure parts: roots, path-classifier's answers, the suggested pattern,
// the escapes.
#include "catch.hpp"
#include "gpu_filter.hpp"

using namespace gatekit;
using namespace gatekit::suite_report;

TEST_CASE("gpu roots: the test files with the conftest.py and __init__.py of their folders") {
  const std::vector<std::string> python{"conftest.py", "src/pkg/__init__.py", "tests/conftest.py",
                                        "tests/gpu/__init__.py", "tests/gpu/test_a.py", "tests/other/conftest.py",
                                        "tests/test_b.py"};
  CHECK(gpu_roots({"tests/gpu/test_a.py", "tests/test_b.py"}, python) ==
        std::vector<std::string>{"conftest.py", "tests/conftest.py", "tests/gpu/__init__.py", "tests/gpu/test_a.py",
                                 "tests/test_b.py"});
  CHECK(gpu_roots({"test_top.py"}, python) == std::vector<std::string>{"conftest.py", "test_top.py"});
  CHECK(gpu_roots({}, python).empty());
}

TEST_CASE("path-classifier's answers: the named filter per path; a filter the rules lack is a usage error") {
  struct Row {
    std::string output;
    std::size_t count;
    std::string filter;
    std::vector<bool> expected;
    std::string error;  // "" = ok
    ErrorKind kind = ErrorKind::bad_input;
  };
  const std::vector<Row> rows = {
      {"cpu=1 gpu=0\ncpu=0 gpu=1\n", 2, "gpu", {false, true}, ""},
      {"cpu=1 gpu=0\n", 1, "cpu", {true}, ""},
      {"cpu=1 docs=0\n", 1, "gpu", {}, "rules.yml has no filter 'gpu' (filters: cpu, docs); --filter names the GPU filter"},
      {"\n", 1, "gpu", {}, "rules.yml has no filter 'gpu' (filters: none); --filter names the GPU filter"},
      {"cpu=1 gpu=0\n", 2, "gpu", {}, "path-classifier --match-batch answered 1 paths of 2", ErrorKind::could_not_evaluate},
      {"1\n", 1, "gpu", {}, "path-classifier --match-batch printed an unexpected answer: '1'", ErrorKind::could_not_evaluate},
  };
  for (const auto& row : rows) {
    INFO(row.output);
    auto answers = parse_filter_answers(row.output, row.count, row.filter, "rules.yml");
    if (row.error.empty()) {
      REQUIRE(answers.ok());
      CHECK(*answers == row.expected);
    } else {
      REQUIRE_FALSE(answers.ok());
      CHECK(answers.error().message == row.error);
      CHECK(answers.error().kind == row.kind);
    }
  }
}

TEST_CASE("the suggested pattern: the folder's glob two levels down, else the file") {
  CHECK(suggested_pattern("src/pkg/util.py") == "src/pkg/**");
  CHECK(suggested_pattern("src/pkg/sub/util.py") == "src/pkg/sub/**");
  CHECK(suggested_pattern("tests/test_a.py") == "tests/test_a.py");
  CHECK(suggested_pattern("setup.py") == "setup.py");
}

TEST_CASE("escapes: the files the filter misses, with the GPU test that pulls each in") {
  std::map<std::string, python::Via> closure{
      {"tests/gpu/test_a.py", {"", 0, "tests/gpu/test_a.py"}},
      {"tests/test_b.py", {"", 0, "tests/test_b.py"}},
      {"tests/helpers.py", {"tests/gpu/test_a.py", 3, "tests/gpu/test_a.py"}},
      {"src/pkg/util.py", {"tests/helpers.py", 7, "tests/gpu/test_a.py"}},
  };
  const std::map<std::string, bool> relevant{{"tests/gpu/test_a.py", true},
                                             {"tests/test_b.py", false},
                                             {"tests/helpers.py", true},
                                             {"src/pkg/util.py", false}};
  const auto result = decide_gpu_filter(closure, relevant);
  CHECK(result.checked == 4);
  REQUIRE(result.escapes.size() == 2);
  CHECK(result.escapes[0].file == "src/pkg/util.py");
  CHECK(result.escapes[0].test_file == "tests/gpu/test_a.py");
  CHECK(result.escapes[0].chain ==
        "tests/gpu/test_a.py imports tests/helpers.py (line 3), which imports src/pkg/util.py (line 7)");
  CHECK(result.escapes[0].importer == "tests/helpers.py");
  CHECK(result.escapes[0].line == 7);
  CHECK(result.escapes[0].pattern == "src/pkg/**");
  CHECK(result.escapes[1].file == "tests/test_b.py");
  CHECK(result.escapes[1].importer.empty());
  CHECK(result.escapes[1].pattern == "tests/test_b.py");
  CHECK(decide_gpu_filter(closure, {{"tests/test_b.py", true}, {"src/pkg/util.py", true}}).ok());
}
