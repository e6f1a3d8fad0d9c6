// The issue lifecycle rules (pure, table-driven) and the hidden lines.
#include <string>
#include <vector>

#include "catch.hpp"
#include "issue_body.hpp"
#include "issue_state.hpp"

using namespace gatekit::flaky_tracker;

namespace {

RunStamp run(const std::string& key, RunKind kind) { return {key, "https://ci/run/" + key, "2026-12-01T00:00:00Z", kind}; }

}  // namespace

TEST_CASE("update_issue_state: one row per rule") {
  struct Row {
    const char* what;
    IssueState before;
    bool open;
    Observation observation;
    RunKind kind;
    bool write;
    IssueMove move;
    int greens, absences, flakes;
  };
  const Rules rules{3, 2};
  const IssueState s0{1, 1, 2, "t0", "t1", "u", {"old"}};
  const std::vector<Row> table = {
      {"flake on an open issue: count, reset, comment", s0, true, Observation::flaky, RunKind::pr, true, IssueMove::keep, 0, 0, 3},
      {"flake on a closed issue: reopen", s0, false, Observation::flaky, RunKind::daily, true, IssueMove::reopen, 0, 0, 3},
      {"green on main", s0, true, Observation::passed, RunKind::main, true, IssueMove::keep, 2, 0, 2},
      {"green on a pr run: only the absence resets", s0, true, Observation::passed, RunKind::pr, true, IssueMove::keep, 1, 0, 2},
      {"the third green in a row closes", IssueState{2, 0, 2}, true, Observation::passed, RunKind::main, true, IssueMove::close_green, 3, 0, 2},
      {"a green on a closed issue changes nothing", IssueState{2, 0, 2}, false, Observation::passed, RunKind::main, false, IssueMove::keep, 2, 0, 2},
      {"a real failure resets the greens", IssueState{2, 0, 2}, true, Observation::failed, RunKind::main, true, IssueMove::keep, 0, 0, 2},
      {"absent from a daily run", IssueState{2, 0, 2}, true, Observation::absent, RunKind::daily, true, IssueMove::keep, 2, 1, 2},
      {"the second absence closes", s0, true, Observation::absent, RunKind::daily, true, IssueMove::close_absent, 1, 2, 2},
      {"absent from a main run: nothing", s0, true, Observation::absent, RunKind::main, false, IssueMove::keep, 1, 1, 2},
      {"skipped on pr with no absence: nothing", IssueState{2, 0, 2}, true, Observation::skipped, RunKind::pr, false, IssueMove::keep, 2, 0, 2},
  };
  for (const auto& row : table) {
    INFO(row.what);
    const IssueAction a = update_issue_state(row.before, row.open, row.observation, run("k1", row.kind), rules);
    CHECK(a.write == row.write);
    CHECK(a.move == row.move);
    CHECK(a.comment == (row.observation == Observation::flaky));
    CHECK(a.next.greens == row.greens);
    CHECK(a.next.absences == row.absences);
    CHECK(a.next.flakes == row.flakes);
    if (row.write) {
      CHECK(a.next.applied.back() == (row.observation == Observation::flaky ? "k1!" : "k1"));
      CHECK(a.next.last_run == "https://ci/run/k1");
    }
  }
}

TEST_CASE("update_issue_state: a run applied once is never applied twice; the key list is bounded") {
  IssueState s;
  const auto first = update_issue_state(s, true, Observation::flaky, run("r1", RunKind::main), Rules{});
  CHECK(first.next.flakes == 1);
  CHECK(first.next.first_seen == "2026-12-01T00:00:00Z");
  const auto again = update_issue_state(first.next, true, Observation::flaky, run("r1", RunKind::main), Rules{});
  CHECK_FALSE(again.write);
  CHECK(again.next.flakes == 1);
  IssueState many = first.next;
  for (int i = 0; i < 40; ++i)
    many = update_issue_state(many, true, Observation::passed, run("g" + std::to_string(i), RunKind::main), Rules{100, 5}).next;
  CHECK(many.applied.size() == kMaxApplied);
  CHECK(many.applied.back() == "g39");
  CHECK(many.greens == 40);
}

TEST_CASE("several legs of one run: the run counts once, but a flake in any leg counts") {
  const Rules rules{5, 2};
  IssueState s{2, 0, 1};
  auto green = update_issue_state(s, true, Observation::passed, run("r", RunKind::main), rules);
  CHECK(green.next.greens == 3);
  auto second_green = update_issue_state(green.next, true, Observation::passed, run("r", RunKind::main), rules);
  CHECK_FALSE(second_green.write);  // the other leg's green: same run
  auto flake = update_issue_state(green.next, true, Observation::flaky, run("r", RunKind::main), rules);
  CHECK(flake.write);  // a flake in another leg of the run still counts
  CHECK(flake.next.greens == 0);
  CHECK(flake.next.flakes == 2);
  CHECK_FALSE(update_issue_state(flake.next, true, Observation::flaky, run("r", RunKind::main), rules).write);
  CHECK_FALSE(update_issue_state(flake.next, true, Observation::passed, run("r", RunKind::main), rules).write);
}

TEST_CASE("daily absences count only in a run that covers the test's scopes") {
  const Rules rules{5, 2};
  RunStamp gpu_flake = run("f", RunKind::pr);
  gpu_flake.scope = "gpu";
  const IssueState s = update_issue_state(IssueState{}, true, Observation::flaky, gpu_flake, rules).next;
  CHECK(s.scopes == std::vector<std::string>{"gpu"});
  RunStamp cpu_daily = run("d1", RunKind::daily);
  cpu_daily.scope = "cpu";
  CHECK_FALSE(update_issue_state(s, true, Observation::absent, cpu_daily, rules).write);  // the CPU suite never had it
  RunStamp gpu_daily = run("d2", RunKind::daily);
  gpu_daily.scope = "gpu";
  CHECK(update_issue_state(s, true, Observation::absent, gpu_daily, rules).next.absences == 1);
  CHECK(update_issue_state(s, true, Observation::absent, run("d3", RunKind::daily), rules).next.absences == 1);
}

TEST_CASE("marker and state lines: hostile test ids cannot end the comment, and round-trip") {
  const std::vector<std::string> ids = {"tests/t.py::test_a", "t.py::x[-->]", "t.py::x[<!-- a -->]",
                                        "t.py::x[\n<!-- gatekit-flaky-test: other -->]", "t.py::100%", "t.py::ü"};
  for (const auto& id : ids) {
    INFO(id);
    const std::string line = marker_line(id);
    CHECK(line.find("-->") == line.size() - 3);
    CHECK(line.find('\n') == std::string::npos);
    IssueState s{1, 2, 3, "2026-01-01T00:00:00Z", "x-->y", "https://a/b?c=<d>", {"1.1", "2.1!"}, {"gpu"}};
    const std::string body = issue_body(id, s, Rules{}, "");
    CHECK(marker_id(body) == id);
    auto back = parse_state(body);
    REQUIRE(back.ok());
    CHECK(*back == s);
    const std::string state = state_line(s);
    CHECK(state.find("--") == state.find("<!--") + 2);  // only the comment's own dashes
    CHECK(state.find('>') == state.size() - 1);
  }
  CHECK_FALSE(marker_id("Flaky test: x\n<!-- gatekit-flaky-test: x -->").has_value());  // first line only
  CHECK_FALSE(marker_id("<!-- gatekit-flaky-test: bad%zz -->").has_value());
  CHECK(parse_state("<!-- gatekit-flaky-test: x -->\nno state").error().message ==
        "no gatekit state line under the marker");
  CHECK(parse_state("<!-- gatekit-flaky-test: x -->\n<!-- gatekit-flaky-state: [1] -->").error().message ==
        "the state line is not a JSON object");
}
