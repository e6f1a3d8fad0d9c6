// The check names a job reports: GitHub's matrix rules (combinations, exclude, include) and
// its leg names, table-driven from workflow text.
#include <string>
#include <vector>

#include "catch.hpp"
#include "check_names.hpp"
#include "workflow_file.hpp"

using namespace gatekit;
using namespace gatekit::gatekit_doctor;

namespace {

std::vector<std::string> names_of(const std::string& job_yaml, const std::string& id = "tests",
                                  const std::vector<WorkflowFile>& others = {}) {
  const std::string text = "name: CI\non: pull_request\njobs:\n" + job_yaml;
  auto workflow = read_workflow(text, ".github/workflows/ci.yml");
  if (!workflow) FAIL(workflow.error().message);
  std::vector<WorkflowFile> all = others;
  all.push_back(*workflow);
  const auto* job = all.back().job(id);
  REQUIRE(job != nullptr);
  std::vector<std::string> out;
  for (const auto& name : check_names(*job, {}, all)) out.push_back(name.text());
  return out;
}

}  // namespace

TEST_CASE("check names: a job's name, its id, and a matrix's legs as GitHub names them") {
  struct Row {
    std::string title;
    std::string job;
    std::vector<std::string> names;
  };
  const std::vector<Row> rows = {
      {"no name: the id", "  tests:\n    runs-on: x\n", {"tests"}},
      {"a name", "  tests:\n    name: CPU tests\n", {"CPU tests"}},
      {"one list, the values in parentheses", "  tests:\n    strategy:\n      matrix:\n        python: ['3.10', '3.11']\n",
       {"tests (3.10)", "tests (3.11)"}},
      {"an unquoted 3.10 is the number 3.1", "  tests:\n    name: pytest\n    strategy:\n      matrix:\n"
                                             "        python: [3.10, 3.12]\n",
       {"pytest (3.1)", "pytest (3.12)"}},
      {"two lists: every combination, in the order written",
       "  tests:\n    name: pytest\n    strategy:\n      matrix:\n        os: [linux, mac]\n        py: ['3.11', '3.12']\n",
       {"pytest (linux, 3.11)", "pytest (linux, 3.12)", "pytest (mac, 3.11)", "pytest (mac, 3.12)"}},
      {"a name with an expression: evaluated per leg, nothing appended",
       "  tests:\n    name: pytest (CPU, py${{ matrix.python }})\n    strategy:\n      matrix:\n"
       "        python: ['3.10', '3.11']\n",
       {"pytest (CPU, py3.10)", "pytest (CPU, py3.11)"}},
      {"exclude drops the combinations it matches",
       "  tests:\n    strategy:\n      matrix:\n        os: [linux, mac]\n        py: [a, b]\n        exclude:\n"
       "          - os: mac\n            py: a\n",
       {"tests (linux, a)", "tests (linux, b)", "tests (mac, b)"}},
      {"include adds a value to the legs it agrees with; its own keys are not shown",
       "  tests:\n    strategy:\n      matrix:\n        py: [a, b]\n        include:\n          - py: b\n"
       "            experimental: true\n",
       {"tests (a)", "tests (b)"}},
      {"an include that agrees with no leg is a leg of its own, showing all its values",
       "  tests:\n    strategy:\n      matrix:\n        py: [a, b]\n        include:\n          - py: c\n"
       "            os: windows\n",
       {"tests (a)", "tests (b)", "tests (c, windows)"}},
      {"include only", "  tests:\n    strategy:\n      matrix:\n        include:\n          - shard: 1\n          - shard: 2\n",
       {"tests (1)", "tests (2)"}},
      {"everything excluded, no include: one leg without values",
       "  tests:\n    strategy:\n      matrix:\n        py: [a]\n        exclude:\n          - py: a\n", {"tests"}},
      {"maps and lists show their scalars; empty values are left out",
       "  tests:\n    strategy:\n      matrix:\n        cfg:\n          - {name: cuda, v: [12, 13]}\n        extra: ['', x]\n",
       {"tests (cuda, 12, 13)", "tests (cuda, 12, 13, x)"}},
      {"exclude matches a map by the keys it names",
       "  tests:\n    strategy:\n      matrix:\n        cfg: [{name: cuda, v: 12}, {name: rocm, v: 7}]\n        exclude:\n"
       "          - cfg: {name: rocm}\n",
       {"tests (cuda, 12)"}},
      {"booleans and null as GitHub prints them", "  tests:\n    strategy:\n      matrix:\n        flag: [true, false, ~]\n",
       {"tests (true)", "tests (false)", "tests"}},
      {"a matrix from an expression: its legs are not known",
       "  tests:\n    name: pytest (GPU, shard ${{ matrix.shard }})\n    strategy:\n      matrix:\n"
       "        shard: ${{ fromJSON(needs.a.outputs.list) }}\n",
       {"pytest (GPU, shard *)"}},
      {"a matrix from an expression, a plain name", "  tests:\n    strategy:\n      matrix: ${{ fromJSON(x) }}\n",
       {"tests (*)"}},
      {"a name that reads what only the run knows", "  tests:\n    name: build ${{ inputs.target }}\n", {"build *"}},
      {"a reusable workflow of another repository", "  tests:\n    name: Lint\n    uses: o/r/.github/workflows/l.yml@v1\n",
       {"Lint / *"}},
  };
  for (const auto& row : rows) {
    INFO(row.title);
    CHECK(names_of(row.job) == row.names);
  }
}

TEST_CASE("check names: a reusable workflow of this repository reports caller / callee") {
  auto callee = read_workflow("on: workflow_call\njobs:\n  unit:\n    name: unit tests\n    strategy:\n      matrix:\n"
                              "        py: [a, b]\n  lint:\n    runs-on: x\n",
                              ".github/workflows/reusable.yml");
  REQUIRE(callee.ok());
  CHECK(names_of("  tests:\n    name: Python\n    uses: ./.github/workflows/reusable.yml\n", "tests", {*callee}) ==
        std::vector<std::string>{"Python / unit tests (a)", "Python / unit tests (b)", "Python / lint"});
}

TEST_CASE("check names: over 256 legs, or an exclude naming no list, GitHub refuses the matrix") {
  auto workflow = read_workflow(
      "on: push\njobs:\n  big:\n    strategy:\n      matrix:\n        a: [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17]\n"
      "        b: [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]\n  odd:\n    strategy:\n      matrix:\n        a: [1]\n"
      "        exclude:\n          - c: 1\n",
      "w.yml");
  REQUIRE(workflow.ok());
  CHECK(expand(workflow->job("big")->matrix).error == "the matrix has 272 legs, over GitHub's 256");
  CHECK(expand(workflow->job("odd")->matrix).error == "exclude names 'c', which is not a list of the matrix");
}

TEST_CASE("check names: a name pattern matches names with anything for its unknown parts") {
  struct Row {
    std::vector<expr::TextPiece> pieces;
    std::string name;
    bool matches;
  };
  using P = expr::TextPiece;
  const std::vector<Row> rows = {
      {{P{"CPU tests", false}}, "CPU tests", true},
      {{P{"CPU tests", false}}, "CPU test", false},
      {{P{"CPU tests", false}}, "CPU tests ", false},
      {{P{"shard ", false}, P{"", true}}, "shard 3", true},
      {{P{"shard ", false}, P{"", true}}, "shard ", true},
      {{P{"shard ", false}, P{"", true}}, "shards 3", false},
      {{P{"", true}, P{" / lint", false}}, "CI / lint", true},
      {{P{"", true}, P{" / lint", false}}, "CI / lint2", false},
      {{P{"a", false}, P{"", true}, P{"b", false}, P{"", true}, P{"c", false}}, "a-b-c", true},
      {{P{"a", false}, P{"", true}, P{"b", false}, P{"", true}, P{"c", false}}, "abc", true},
      {{P{"a", false}, P{"", true}, P{"b", false}, P{"", true}, P{"c", false}}, "ac", false},
      {{P{"ab", false}, P{"", true}, P{"ba", false}}, "aba", false},
      {{P{"", true}}, "", true},
      {{P{"x (", false}, P{"", true}, P{")", false}}, "x (1, 2)", true},
  };
  for (const auto& row : rows) {
    NamePattern pattern{row.pieces};
    INFO(pattern.text() << " vs " << row.name);
    CHECK(pattern.matches(row.name) == row.matches);
  }
}
