#include "stress_merge.hpp"

#include <unordered_map>

#include "report.hpp"

namespace gatekit::flaky_tracker {

namespace {

struct Tally {
  junit::TestCase first_failure;
  junit::TestCase last;
  int failed = 0, passed = 0;
};

junit::TestCase folded(const Tally& t) {
  if (t.failed == 0) return t.last;
  junit::TestCase c = t.first_failure;
  if (t.passed > 0) {  // flaky: it passed in the end, its failures are attempts
    c.outcome = JunitOutcome::passed;
    c.flaky_attempts = t.failed;
    c.rerun_failures = 0;
  } else {
    c.flaky_attempts = 0;
    c.rerun_failures = t.failed - 1;
  }
  return c;
}

}  // namespace

StressResult fold_copies(const std::vector<std::vector<junit::TestCase>>& copies) {
  std::vector<std::string> order;
  std::unordered_map<std::string, Tally> tallies;
  for (const auto& copy : copies)
    for (const auto& c : copy) {
      auto [it, inserted] = tallies.try_emplace(c.id());
      if (inserted) order.push_back(c.id());
      Tally& t = it->second;
      t.last = c;
      const bool fail = failed(c) || c.flaky_attempts > 0;
      if (fail && t.failed++ == 0) t.first_failure = c;
      if (c.outcome == JunitOutcome::passed && c.flaky_attempts == 0) ++t.passed;
    }
  StressResult result;
  for (const auto& id : order) {
    const Tally& t = tallies.at(id);
    result.cases.push_back(folded(t));
    if (t.failed == 0) continue;
    (t.passed > 0 ? result.flaky : result.broken).push_back({id, t.failed, t.failed + t.passed});
  }
  return result;
}

}  // namespace gatekit::flaky_tracker
