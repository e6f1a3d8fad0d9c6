#pragma once
// The state of one flaky-test issue, kept in the issue itself, and the rules that move it
// (pure). The issue body starts with two hidden lines that only gatekit writes:
//   <!-- gatekit-flaky-test: tests/test_a.py::test%2dx -->
//   <!-- gatekit-flaky-state: {"v":1,"greens":3,...} -->
// The first holds the test id (the marker issues are found by, never the title); the second
// the state as JSON. Both are escaped so that no test name can end the comment early.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flaky-tracker.hpp"
#include "gatekit/result.hpp"
#include "report.hpp"

namespace gatekit::flaky_tracker {

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

struct Rules {
  int close_after_greens = 20;
  int close_after_absences = 5;
};

// The run being applied.
struct RunStamp {
  std::string key;   // unique per run and job: applying the same run twice changes nothing
  std::string url;
  std::string time;  // UTC, ISO 8601
  RunKind kind = RunKind::pr;
  std::string scope;  // the suite the run's reports cover ("": all of them)
};

enum class IssueMove { keep, reopen, close_green, close_absent };

struct IssueAction {
  bool write = false;    // the state changed: the body is rewritten
  bool comment = false;  // a flake to comment on
  IssueMove move = IssueMove::keep;
  IssueState next;
};

// The rules (docs/actions/flaky-tracker.md, "Issue lifecycle"):
// - a run whose key was applied already changes nothing (overlapping runs, catching up,
//   several legs of one run), except that the run's first flake still counts;
// - flaky (any kind of run): flakes + 1, greens and absences back to 0, a comment, and a
//   closed issue reopens; the run's scope joins the issue's scopes;
// - passed the first time, open issue, `main` run: greens + 1; at close_after_greens the
//   issue closes;
// - failed (not flaky): greens back to 0;
// - absent from a `daily` run, open issue: absences + 1 when the run covers the test's scopes
//   (the run has no scope, the issue none yet, or the run's is one of them); at
//   close_after_absences it closes ("test no longer exists"); present in any run: absences
//   back to 0;
// - anything else leaves the issue alone (no write).
IssueAction update_issue_state(const IssueState& state, bool open, Observation observation, const RunStamp& run,
                               const Rules& rules);

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

std::string_view to_string(RunKind kind);

}  // namespace gatekit::flaky_tracker
