#include "rerun_plan.hpp"

#include <algorithm>
#include <unordered_map>

#include "gatekit/text.hpp"

#include "report.hpp"

namespace gatekit::flaky_tracker {

std::optional<std::string> unsafe_name(std::string_view name) {
  if (name.empty()) return "the test has no name";
  if (has_control(name)) return "the test name holds control characters";
  return std::nullopt;
}

namespace {

// How many cases of the report share each numbered id (junit::Occurrences): the k-th case's
// number says that k share it so far; the last one says how many in all.
std::unordered_map<std::string, std::size_t> shared_ids(const std::vector<junit::TestCase>& cases) {
  std::unordered_map<std::string, std::size_t> shared;
  std::string scratch;
  for (const auto& c : cases)
    if (c.occurrence > 1) {
      auto& n = shared[std::string(c.base_id(scratch))];
      n = std::max(n, c.occurrence);
    }
  return shared;
}

}  // namespace

RerunPlan decide_rerun(const std::vector<junit::TestCase>& cases, int max_failures, TargetForm form) {
  RerunPlan plan;
  for (const auto& c : cases) plan.failures += failed(c);
  if (plan.failures > static_cast<std::size_t>(max_failures)) {
    plan.broken = std::to_string(plan.failures) + " tests failed, more than --max-failures " +
                  std::to_string(max_failures) + ": real breakage, nothing was rerun";
    return plan;
  }
  const auto shared = shared_ids(cases);
  std::string scratch;
  for (const auto& c : cases) {
    if (!failed(c)) continue;
    if (c.outcome == JunitOutcome::error) {
      plan.not_rerun.push_back({c.id(), "an error (collection, setup or teardown) is never flaky"});
      continue;
    }
    if (const auto it = shared.empty() ? shared.end() : shared.find(std::string(c.base_id(scratch))); it != shared.end()) {
      plan.not_rerun.push_back({c.id(), "not rerun: " + std::to_string(it->second) +
                                            " cases of the report have its name (a data provider's invocations, or one "
                                            "name in two files), and a rerun's cases could not be matched to them"});
      continue;
    }
    const std::string arg = form == TargetForm::node_ids ? c.node_id : c.name;
    const auto unsafe = form == TargetForm::node_ids ? unsafe_node_id(arg) : unsafe_name(arg);
    if (unsafe) plan.not_rerun.push_back({c.id(), "not rerun: " + *unsafe});
    else plan.targets.push_back({c.id(), arg});
  }
  return plan;
}

}  // namespace gatekit::flaky_tracker
