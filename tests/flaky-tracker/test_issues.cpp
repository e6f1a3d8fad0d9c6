// The issues subcommand's default kind of run, from the workflow event (no --kind given).
#include <string>

#include "catch.hpp"
#include "flaky-tracker.hpp"

using namespace gatekit::flaky_tracker;

TEST_CASE("issues: the kind of run follows the workflow event when --kind is not given") {
  struct Row {
    const char* event;
    RunKind kind;
  };
  const Row rows[] = {
      {"pull_request", RunKind::pr},  {"pull_request_target", RunKind::pr}, {"merge_group", RunKind::pr},
      {"schedule", RunKind::daily},   {"push", RunKind::main},              {"workflow_dispatch", RunKind::main},
      {"", RunKind::main},            {"Schedule", RunKind::main},          {"pull_request_review", RunKind::main},
  };
  for (const auto& row : rows) {
    INFO(row.event);
    CHECK(run_kind_of_event(row.event) == row.kind);
  }
}
