#pragma once
// The job summary of `issues` (pure).
#include <cstddef>
#include <string>

#include "batch.hpp"
#include "tracker.hpp"

namespace gatekit::flaky_tracker {

struct IssuesView {
  const Batch& run;
  std::size_t caught_up = 0;  // journalled runs applied before this one
  std::size_t left = 0;       // runs still in the journal (not applied)
  std::string error;          // the API error that stopped the updates ("" when none)
  std::size_t unposted = 0;   // comments kept for the next run (their POST failed)
  JournalDrop dropped;        // what the journal's bound left out
  std::size_t deferred = 0;   // flakes of new tests left for later runs by the bound on new issues
  int max_new_issues = 0;     // that bound (--max-new-issues)
  std::string pending;        // --pending ("" : none, the deferred flakes are not kept)
  std::string set_aside;      // where an unreadable journal was set aside ("" : none was)
  std::string unreadable;     // why it could not be read
};

std::string issues_summary(const IssuesView& view, const Tracker& tracker, const Rules& rules);

}  // namespace gatekit::flaky_tracker
