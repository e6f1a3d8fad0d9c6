// Reading a workflow file: triggers and their filters, jobs, steps; scalars typed as GitHub's
// parser types them; and the errors, verbatim, for what the doctor cannot read.
#include <cmath>
#include <string>
#include <vector>

#include "catch.hpp"
#include "workflow_file.hpp"

using namespace gatekit;
using namespace gatekit::gatekit_doctor;
using expr::Value;

TEST_CASE("workflow file: YAML scalars as GitHub's parser types them (the YAML 1.2 core schema)") {
  struct Row {
    std::string text;
    bool plain;
    Value::Kind kind;
    std::string as_text;
  };
  const std::vector<Row> rows = {
      {"3.10", true, Value::Kind::number, "3.1"},     {"3.10", false, Value::Kind::string, "3.10"},
      {"12", true, Value::Kind::number, "12"},        {"0x1F", true, Value::Kind::number, "31"},
      {"0o17", true, Value::Kind::number, "15"},      {"1e3", true, Value::Kind::number, "1000"},
      {"-0.5", true, Value::Kind::number, "-0.5"},    {"true", true, Value::Kind::boolean, "true"},
      {"False", true, Value::Kind::boolean, "false"}, {"yes", true, Value::Kind::string, "yes"},
      {"on", true, Value::Kind::string, "on"},        {"~", true, Value::Kind::null, ""},
      {"null", true, Value::Kind::null, ""},          {"", true, Value::Kind::null, ""},
      {"null", false, Value::Kind::string, "null"},   {"ubuntu-24.04", true, Value::Kind::string, "ubuntu-24.04"},
      {"1.2.3", true, Value::Kind::string, "1.2.3"},  {".inf", true, Value::Kind::number, "Infinity"},
  };
  for (const auto& row : rows) {
    INFO(row.text << (row.plain ? " (plain)" : " (quoted)"));
    const auto v = scalar_value(row.text, row.plain);
    CHECK(v.kind == row.kind);
    CHECK(expr::to_text(v) == row.as_text);
  }
  CHECK(std::isnan(scalar_value(".nan", true).number));
}

TEST_CASE("workflow file: the triggers, their filters, and a job's parts") {
  const std::string text = R"(name: CPU tests
on:
  pull_request:
    branches: [main, 'release/**']
    paths-ignore: docs/**
    types: [opened, synchronize]
  merge_group:
  schedule:
    - cron: '0 6 * * *'
  workflow_run:
    workflows: [GPU tests]
jobs:
  changes:
    runs-on: ubuntu-24.04
    steps:
      - uses: ./actions/path-gate
        with:
          filters: .github/gatekit/filters.yml
          list: [a]
      - run: echo
  tests:
    name: pytest (CPU, py${{ matrix.python }})
    needs: changes
    if: ${{ needs.changes.outputs.cpu == 'true' }}
    environment:
      name: gatekit-gate
    strategy:
      matrix:
        python: ['3.10', 3.12]
        include:
          - python: '3.10'
            tier: full
  call:
    uses: ./.github/workflows/reusable.yml
    needs: [changes, tests]
    if: always()
)";
  auto read = read_workflow(text, ".github/workflows/cpu-tests.yml");
  REQUIRE(read.ok());
  const auto& w = *read;
  CHECK(w.name == "CPU tests");
  CHECK(w.triggered_by("pull_request"));
  CHECK(w.triggered_by("merge_group"));
  CHECK(w.triggered_by("schedule"));
  const auto& pr = w.on.at("pull_request");
  CHECK(pr.line == 3);
  CHECK(*pr.branches == std::vector<std::string>{"main", "release/**"});
  CHECK(*pr.paths_ignore == std::vector<std::string>{"docs/**"});
  CHECK_FALSE(pr.paths.has_value());
  CHECK(*pr.types == std::vector<std::string>{"opened", "synchronize"});
  CHECK(w.on.at("workflow_run").workflows == std::vector<std::string>{"GPU tests"});
  REQUIRE(w.jobs.size() == 3);
  const auto& changes = w.jobs[0];
  REQUIRE(changes.steps.size() == 2);
  CHECK(changes.steps[0].uses == "./actions/path-gate");
  CHECK(changes.steps[0].with == std::map<std::string, std::string>{{"filters", ".github/gatekit/filters.yml"}});
  CHECK(changes.steps[1].uses.empty());
  CHECK_FALSE(changes.written_condition);
  const auto& tests = w.jobs[1];
  CHECK(tests.line == 21);
  CHECK(tests.if_line == 24);
  CHECK(tests.needs == std::vector<std::string>{"changes"});
  CHECK(tests.environment == "gatekit-gate");
  CHECK_FALSE(tests.status_function);
  REQUIRE(tests.matrix.has_value());
  REQUIRE(tests.matrix->axes.size() == 1);
  CHECK(tests.matrix->axes[0].second[1].kind == Value::Kind::number);
  REQUIRE(tests.matrix->include.size() == 1);
  CHECK(tests.matrix->include[0][1].first == "tier");
  const auto& call = w.jobs[2];
  CHECK(call.uses == "./.github/workflows/reusable.yml");
  CHECK(call.status_function);
  CHECK(call.display_name() == "call");
}

TEST_CASE("workflow file: on: as one event, or a list") {
  auto one = read_workflow("on: pull_request\njobs: {}\n", "a.yml");
  REQUIRE(one.ok());
  CHECK(one->triggered_by("pull_request"));
  CHECK(one->name == "a.yml");
  auto list = read_workflow("on: [push, merge_group]\njobs: {}\n", "b.yml");
  REQUIRE(list.ok());
  CHECK(list->triggered_by("merge_group"));
  CHECK_FALSE(list->triggered_by("pull_request"));
}

TEST_CASE("workflow file: what the doctor cannot read is an error naming file, line, column and field") {
  struct Row {
    std::string text;
    std::string error;
  };
  const std::vector<Row> rows = {
      {"- a\n", "1 error in w.yml:\nw.yml:1:1: expected a map (a workflow's name:, on: and jobs:), got a list"},
      {"name: x\njobs: {}\n", "1 error in w.yml:\nw.yml:1:1: on: missing: a workflow needs on:"},
      {"on: push\njobs: [a]\n", "1 error in w.yml:\nw.yml:2:7: jobs: expected a map of jobs, got a list"},
      {"on: push\njobs:\n  a:\n    if: ${{ github.event_name == }}\n",
       "1 error in w.yml:\nw.yml:4:9: jobs.a.if: not an expression GitHub accepts: column 26: unexpected end of "
       "expression"},
      {"on: push\njobs:\n  a:\n    name: build ${{ matrix. }}\n",
       "1 error in w.yml:\nw.yml:4:11: jobs.a.name: not an expression GitHub accepts: column 19: expected a property "
       "name after '.', got end of expression"},
      {"on: push\njobs:\n  a:\n    strategy:\n      matrix:\n        py: '3.10'\n",
       "1 error in w.yml:\nw.yml:6:13: jobs.a.strategy.matrix.py: expected a list of values, got the string \"3.10\""},
      {"on:\n  pull_request:\n    branches: {a: 1}\njobs: {}\n",
       "1 error in w.yml:\nw.yml:3:15: on.pull_request.branches: expected a string or a list of strings, got a map"},
      {"on: push\njobs:\n  a:\n    needs: [{x: 1}]\n", "1 error in w.yml:\nw.yml:4:13: jobs.a.needs: expected a string, got a map"},
      {"on: push\njobs:\n  a:\n    steps: run\n", "1 error in w.yml:\nw.yml:4:12: jobs.a.steps: expected a list of steps, got 'run'"},
      {"on: push\njobs:\n  a: {x: 1\n", "w.yml:4:1: invalid YAML: end of map flow not found"},
  };
  for (const auto& row : rows) {
    INFO(row.text);
    auto read = read_workflow(row.text, "w.yml");
    REQUIRE_FALSE(read.ok());
    CHECK(read.error().kind == ErrorKind::bad_input);
    CHECK(read.error().message == row.error);
  }
  // Every error of a file at once.
  auto two = read_workflow("on: push\njobs:\n  a:\n    needs: [{x: 1}]\n  b:\n    steps: run\n", "w.yml");
  REQUIRE_FALSE(two.ok());
  CHECK(two.error().message ==
        "2 errors in w.yml:\nw.yml:4:13: jobs.a.needs: expected a string, got a map\nw.yml:6:12: jobs.b.steps: "
        "expected a list of steps, got 'run'");
}

TEST_CASE("workflow file: an if: with ${{ }} beside other text is a string to GitHub, so always true") {
  auto read = read_workflow("on: push\njobs:\n  a:\n    if: ${{ false }} && x\n", "w.yml");
  REQUIRE(read.ok());
  CHECK(expr::truth_of(expr::evaluate(read->jobs[0].written_condition, {})) == expr::Truth::yes);
}
