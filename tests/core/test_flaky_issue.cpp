// flaky-tracker's hidden issue state as the core reads it (flaky-tracker's own tests cover
// writing it through its rules): the runs an `applied` entry names.
#include <optional>
#include <string>
#include <vector>

#include "catch.hpp"
#include "gatekit/flaky_issue.hpp"

using namespace gatekit::flaky_issue;

TEST_CASE("applied_run: the Actions run id of a RUN_ID.ATTEMPT key, and whether it was a flake") {
  struct Case {
    std::string entry;
    std::optional<std::int64_t> run_id;
    bool flake;
  };
  const std::vector<Case> cases{
      {"123.1", 123, false},
      {"123.2!", 123, true},
      {"9000000001.10!", 9000000001, true},
      {"nightly-7!", std::nullopt, true},   // a --run-key of the user's own
      {"123!", std::nullopt, true},         // no attempt
      {".1", std::nullopt, false},
      {"123.", std::nullopt, false},
      {"12a.1", std::nullopt, false},
      {"123.1.1", std::nullopt, false},
      {"-1.1", std::nullopt, false},
      {"1234567890123456789.1", std::nullopt, false},  // past 18 digits: not a run id
      {"", std::nullopt, false},
      {"!", std::nullopt, true},
  };
  for (const auto& c : cases) {
    INFO(c.entry);
    const auto got = applied_run(c.entry);
    CHECK(got.run_id == c.run_id);
    CHECK(got.flake == c.flake);
  }
}

TEST_CASE("parse_state: the runs of a state written by state_line come back") {
  IssueState s;
  s.flakes = 2;
  s.applied = {"5.1", "6.1!", "7.2!"};
  const std::string body = marker_line("t.py::x[-->]") + "\n" + state_line(s) + "\n\ntext";
  CHECK(marker_id(body) == "t.py::x[-->]");
  auto back = parse_state(body);
  REQUIRE(back.ok());
  CHECK(*back == s);
  std::vector<std::int64_t> flakes;
  for (const auto& e : back->applied)
    if (auto r = applied_run(e); r.flake && r.run_id) flakes.push_back(*r.run_id);
  CHECK(flakes == std::vector<std::int64_t>{6, 7});
}
