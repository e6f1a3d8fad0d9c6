#include "rerun_plan.hpp"

#include "gatekit/text.hpp"

#include "report.hpp"

namespace gatekit::flaky_tracker {

std::optional<std::string> unsafe_name(std::string_view name) {
  if (name.empty()) return "the test has no name";
  if (has_control(name)) return "the test name holds control characters";
  return std::nullopt;
}

RerunPlan decide_rerun(const std::vector<junit::TestCase>& cases, int max_failures, TargetForm form) {
  RerunPlan plan;
  for (const auto& c : cases) plan.failures += failed(c);
  if (plan.failures > static_cast<std::size_t>(max_failures)) {
    plan.broken = std::to_string(plan.failures) + " tests failed, more than --max-failures " +
                  std::to_string(max_failures) + ": real breakage, nothing was rerun";
    return plan;
  }
  for (const auto& c : cases) {
    if (!failed(c)) continue;
    if (c.outcome == JunitOutcome::error) {
      plan.not_rerun.push_back({c.id(), "an error (collection, setup or teardown) is never flaky"});
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
