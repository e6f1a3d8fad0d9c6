#pragma once
// Per-leg view of a workflow run: the jobs API lists every matrix leg with its conclusion,
// which `needs` does not expose. Used to show legs in the summary and to excuse failures of
// named legs (e.g. an experimental Python version).
#include <optional>
#include <string>
#include <vector>

namespace gatekit::matrix_aggregator {

struct Leg {
  std::string name;        // the check name, e.g. "pytest (CPU, py3.13)"
  std::string status;      // queued|in_progress|completed
  std::string conclusion;  // success|failure|cancelled|skipped|timed_out|neutral|... or empty
  std::string url;
};

struct LegView {
  bool available = false;
  std::string unavailable_reason;  // when not available: why (no token, API error, ...)
  std::vector<Leg> legs;
};

// A completed leg whose conclusion counts as "did not pass".
bool leg_did_not_pass(const Leg& leg);

struct LegExcuse {
  bool excused = false;
  std::vector<std::string> allowed_failed;  // failed legs that the allowance covers
  std::string why_not;                      // when not excused
};

// A failed job is excused only when the run has at least one failed leg and every leg of the
// run that did not pass concluded `failure` and is named in `allowed`. Legs cannot be tied to
// a `needs` entry reliably (their names come from `name:` templates), so the rule looks at the
// whole run: a failure anywhere else keeps the job failed. Cancelled and timed-out legs are
// never excused: they were not checked.
LegExcuse excuse_by_legs(const std::vector<Leg>& legs, const std::vector<std::string>& allowed);

}  // namespace gatekit::matrix_aggregator
