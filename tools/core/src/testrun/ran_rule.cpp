// Did a test pass run anything (gatekit/ran_rule.hpp).
#include "gatekit/ran_rule.hpp"

#include <algorithm>
#include <map>

namespace gatekit {

RanVerdict decide_ran(const RanFacts& facts, const std::string& context) {
  if (!facts.imports.empty()) {
    std::string names;
    for (const auto& problem : facts.imports) names += (names.empty() ? "" : ", ") + problem.module;
    return {ExitCode::could_not_evaluate,
            facts.selector + "'s declared imports fail (" + names + "): its environment cannot run the tests it selects"};
  }
  if (facts.ran > 0)
    return {ExitCode::pass, std::to_string(facts.ran) + " of " + std::to_string(facts.cases) + " " + facts.noun + " ran"};
  if (facts.cases > 0)
    return {ExitCode::could_not_evaluate, "zero " + facts.noun + " ran: all " + std::to_string(facts.cases) + " " +
                                              facts.noun + " in the report were skipped"};
  if (facts.selected.value_or(0) > 0)
    return {ExitCode::could_not_evaluate, "zero " + facts.noun + " ran: the report has no test, but " + facts.selector +
                                              "'s selection has " + std::to_string(*facts.selected) + " in context " + context};
  if (!facts.empty_is_evidence)
    return {ExitCode::could_not_evaluate,
            "zero " + facts.noun + " ran: " + facts.selector + " selected none in context " + context};
  return {ExitCode::pass, facts.selector + "'s selection is empty in context " + context + ": nothing to run"};
}

std::vector<SkipReason> group_skip_reasons(const std::vector<std::string>& messages, std::size_t limit) {
  std::map<std::string, std::size_t> counts;
  for (const auto& message : messages) ++counts[message.empty() ? "(no reason given)" : message];
  std::vector<SkipReason> reasons;
  for (const auto& [reason, count] : counts) reasons.push_back({reason, count});
  std::stable_sort(reasons.begin(), reasons.end(), [](const SkipReason& a, const SkipReason& b) { return a.count > b.count; });
  if (reasons.size() > limit) reasons.resize(limit);
  return reasons;
}

}  // namespace gatekit
