#include "prune_decide.hpp"

namespace gatekit::gpu_gate {

PruneDecision decide_prune(const std::vector<GateRecord>& records, std::int64_t now, std::chrono::hours expiry,
                           const std::set<std::string>& relied_on) {
  const std::int64_t oldest = now - std::chrono::duration_cast<std::chrono::seconds>(expiry).count();
  PruneDecision decision;
  for (const auto& record : records) {
    if (record.time >= oldest) ++decision.kept;
    else if (relied_on.count(record.tree) > 0) decision.spared.push_back(record);
    else decision.remove.push_back(record);
  }
  return decision;
}

}  // namespace gatekit::gpu_gate
