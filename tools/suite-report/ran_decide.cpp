#include <algorithm>
#include <map>

#include "ran.hpp"

namespace gatekit::suite_report {

RanVerdict decide_ran(const RanFacts& facts, const std::string& context) {
  if (!facts.imports.empty()) {
    std::string names;
    for (const auto& problem : facts.imports) names += (names.empty() ? "" : ", ") + problem.module;
    return {ExitCode::could_not_evaluate,
            "the leg's declared imports fail (" + names + "): its environment cannot run the tests it selects"};
  }
  if (facts.ran > 0)
    return {ExitCode::pass, std::to_string(facts.ran) + " of " + std::to_string(facts.cases) + " tests ran"};
  if (facts.cases > 0)
    return {ExitCode::could_not_evaluate,
            "zero tests ran: all " + std::to_string(facts.cases) + " tests in the report were skipped"};
  if (facts.selected.value_or(0) > 0)
    return {ExitCode::could_not_evaluate, "zero tests ran: the report has no test, but the leg's selection has " +
                                              std::to_string(*facts.selected) + " in context " + context};
  return {ExitCode::pass, "the leg's selection is empty in context " + context + ": nothing to run"};
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

}  // namespace gatekit::suite_report
