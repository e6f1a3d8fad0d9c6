#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "gatekit/text.hpp"
#include "partition.hpp"

namespace gatekit::suite_report {

std::string ContextGroup::label() const { return join(contexts, ", "); }

std::vector<ContextGroup> group_contexts(const Selection& selection, const std::vector<std::string>& contexts) {
  std::vector<ContextGroup> groups;
  for (const auto& context : contexts) {
    ContextGroup group;
    group.universe = universe_expression(selection, context);
    for (const auto& leg : selection.legs) group.expressions.push_back(leg_expression(selection, leg, context));
    auto same = std::find_if(groups.begin(), groups.end(), [&](const ContextGroup& g) {
      return g.universe == group.universe && g.expressions == group.expressions;
    });
    if (same != groups.end()) {
      same->contexts.push_back(context);
      continue;
    }
    group.contexts.push_back(context);
    groups.push_back(std::move(group));
  }
  return groups;
}

PartitionResult decide_partition(const std::string& label, const std::vector<std::string>& universe,
                                 const std::vector<std::string>& leg_names,
                                 const std::vector<const std::vector<std::string>*>& legs) {
  PartitionResult result;
  result.label = label;
  result.universe = universe.size();
  // node id -> the legs that select it (indexes); ids stay owned by the inputs.
  std::unordered_map<std::string_view, std::vector<std::size_t>> seen;
  seen.reserve(universe.size() * 2);
  for (const auto& id : universe) seen.try_emplace(id);
  for (std::size_t leg = 0; leg < legs.size(); ++leg) {
    result.leg_counts.push_back(legs[leg]->size());
    for (const auto& id : *legs[leg]) {
      auto it = seen.find(id);
      if (it == seen.end()) {
        result.outside.push_back(id);
        continue;
      }
      if (it->second.empty() || it->second.back() != leg) it->second.push_back(leg);
    }
  }
  for (const auto& [id, selected_by] : seen) {
    if (selected_by.empty()) {
      result.in_no_leg.emplace_back(id);
    } else if (selected_by.size() > 1) {
      Overlap overlap{std::string(id), {}};
      for (auto leg : selected_by) overlap.legs.push_back(leg_names[leg]);
      result.in_two_legs.push_back(std::move(overlap));
    }
  }
  std::sort(result.in_no_leg.begin(), result.in_no_leg.end());
  std::sort(result.in_two_legs.begin(), result.in_two_legs.end(),
            [](const Overlap& a, const Overlap& b) { return a.node_id < b.node_id; });
  std::sort(result.outside.begin(), result.outside.end());
  result.outside.erase(std::unique(result.outside.begin(), result.outside.end()), result.outside.end());
  return result;
}

}  // namespace gatekit::suite_report
