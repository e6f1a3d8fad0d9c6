#pragma once
// The hidden state of a flaky-test issue, as flaky-tracker writes it and ci-report reads it.
// The issue body starts with two hidden lines that only gatekit writes:
//   <!-- gatekit-flaky-test: tests/test_a.py::test%2dx -->
//   <!-- gatekit-flaky-state: {"v":1,"greens":3,...} -->
// The first holds the test id (the marker issues are found by, never the title); the second
// the state as JSON. Both are escaped so that no test name can end the comment early.
// The rules that move the state are flaky-tracker's (tools/flaky-tracker/issue_state.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/result.hpp"

namespace gatekit::flaky_issue {

struct IssueState {
  int greens = 0;    // main runs in a row in which the test passed the first time
  int absences = 0;  // daily runs in a row whose reports do not have the test
  int flakes = 0;    // flakes recorded in all
  std::string first_seen, last_flake;  // UTC, ISO 8601
  std::string last_run;                // URL of the last run that changed the state
  std::vector<std::string> applied;    // keys of the runs applied, newest last (bounded); a
                                       // run's flake is recorded as KEY!, anything else as KEY
  std::vector<std::string> scopes;     // the scopes (suites) the test flaked in (bounded)
  bool operator==(const IssueState&) const = default;
};

inline constexpr std::size_t kMaxApplied = 30;
inline constexpr std::size_t kMaxStateBytes = 8192;
inline constexpr std::size_t kMaxScopes = 10;

// The id a test's issue is kept under (its marker): the test id itself up to
// kMaxMarkerIdBytes; a longer id is its first kMaxMarkerIdBytes bytes (cut at a character)
// followed by " [sha256 of the whole id: HEX]". Identity is the whole id, so two tests whose
// ids differ only late get two issues, and an issue body stays within GitHub's size; a long
// key is always longer than kMaxMarkerIdBytes, so it never equals a short id.
inline constexpr std::size_t kMaxMarkerIdBytes = 4096;
std::string issue_key(std::string_view test_id);

// The hidden lines.
std::string marker_line(std::string_view test_id);
std::string state_line(const IssueState& state);
// The test id of an issue body written by gatekit (its first line), or nullopt.
std::optional<std::string> marker_id(std::string_view body);
// The state of an issue body (its second line); an Error when it is missing or unreadable.
Result<IssueState> parse_state(std::string_view body);

// One entry of `applied`: the run it names and whether the run recorded a flake. The run key
// is GITHUB_RUN_ID.GITHUB_RUN_ATTEMPT unless flaky-tracker was given --run-key; run_id is
// the Actions run id when the key has that form (digits, then "." and digits), else nullopt.
struct AppliedRun {
  std::optional<std::int64_t> run_id;
  bool flake = false;
};
AppliedRun applied_run(std::string_view entry);

}  // namespace gatekit::flaky_issue
