#include "record/prune_decide.hpp"

#include <map>
#include <tuple>

namespace gatekit::gpu_gate {

PruneDecision decide_prune(const std::vector<GateRecord>& records, std::int64_t now, std::chrono::hours expiry,
                           const std::set<std::string>& relied_on,
                           const std::optional<std::set<std::string>>& verified) {
  const std::int64_t oldest = now - std::chrono::duration_cast<std::chrono::seconds>(expiry).count();
  const auto counts = [&](const GateRecord& record) {
    return !verified || !record.published() || verified->count(record.record_commit) > 0;
  };
  // A result competes only with the results of its half, tree, machine and trust.
  using Group = std::tuple<RefHalf, std::string, std::string, bool>;
  const auto group_of = [&](const GateRecord& record) {
    return Group{record.half, record.tree, record.machine, counts(record)};
  };
  std::map<Group, const GateRecord*> newest;
  for (const auto& record : records) {
    auto& best = newest[group_of(record)];
    if (best == nullptr || record.time > best->time || (record.time == best->time && record.ref > best->ref))
      best = &record;
  }
  PruneDecision decision;
  for (const auto& record : records) {
    if (!counts(record)) decision.unverified.push_back(record);
    if (newest.at(group_of(record)) != &record) decision.superseded.push_back(record);
    else if (record.time >= oldest) ++decision.kept;
    else if (relied_on.count(record.tree) > 0) decision.spared.push_back(record);
    else decision.remove.push_back(record);
  }
  return decision;
}

}  // namespace gatekit::gpu_gate
