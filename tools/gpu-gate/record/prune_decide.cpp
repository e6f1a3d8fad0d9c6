#include "record/prune_decide.hpp"

#include <map>
#include <tuple>

namespace gatekit::gpu_gate {

PruneDecision decide_prune(const std::vector<GateRecord>& records, std::int64_t now, std::chrono::hours expiry,
                           const std::set<std::string>& relied_on) {
  const std::int64_t oldest = now - std::chrono::duration_cast<std::chrono::seconds>(expiry).count();
  std::map<std::tuple<RefHalf, std::string, std::string>, const GateRecord*> newest;
  for (const auto& record : records) {
    auto& best = newest[{record.half, record.tree, record.machine}];
    if (best == nullptr || record.time > best->time || (record.time == best->time && record.ref > best->ref))
      best = &record;
  }
  PruneDecision decision;
  for (const auto& record : records) {
    if (newest.at({record.half, record.tree, record.machine}) != &record) decision.superseded.push_back(record);
    else if (record.time >= oldest) ++decision.kept;
    else if (relied_on.count(record.tree) > 0) decision.spared.push_back(record);
    else decision.remove.push_back(record);
  }
  return decision;
}

}  // namespace gatekit::gpu_gate
