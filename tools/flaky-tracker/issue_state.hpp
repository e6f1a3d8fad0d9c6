#pragma once
// The rules that move a flaky-test issue's state (pure). The state and the hidden lines that
// hold it in the issue body are the core's (gatekit/flaky_issue.hpp), which ci-report reads too.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flaky-tracker.hpp"
#include "gatekit/flaky_issue.hpp"
#include "gatekit/result.hpp"
#include "report.hpp"

namespace gatekit::flaky_tracker {

using flaky_issue::IssueState;
using flaky_issue::kMaxApplied;
using flaky_issue::kMaxMarkerIdBytes;
using flaky_issue::kMaxScopes;
using flaky_issue::kMaxStateBytes;

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

using flaky_issue::issue_key;
using flaky_issue::marker_id;
using flaky_issue::marker_line;
using flaky_issue::parse_state;
using flaky_issue::state_line;

std::string_view to_string(RunKind kind);

}  // namespace gatekit::flaky_tracker
