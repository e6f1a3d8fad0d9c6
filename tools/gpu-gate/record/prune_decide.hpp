#pragma once
// Which results `gpu-gate prune` deletes: a pure decision from the records, the time, and
// the trees open pull requests rely on.
#include <chrono>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "record/record.hpp"

namespace gatekit::gpu_gate {

struct PruneDecision {
  std::vector<GateRecord> remove;  // expired, relied on by no open pull request
  // Not the newest result of its tree and machine (in its half: published, mine, no-GPU): a
  // newer run replaced it, whatever the layout of either ref. The newest always stays.
  std::vector<GateRecord> superseded;
  std::vector<GateRecord> spared;  // expired, but an open pull request's head relies on its tree
  std::size_t kept = 0;            // not expired
};

// Each result is kept when it is the newest of its tree and machine (ties: the later ref
// name), and not expired (or expired but relied on); otherwise it goes.
// `relied_on`: the trees open pull requests' heads take their status from (their own tree and
// the trees of their docs-only ancestry).
PruneDecision decide_prune(const std::vector<GateRecord>& records, std::int64_t now, std::chrono::hours expiry,
                           const std::set<std::string>& relied_on);

}  // namespace gatekit::gpu_gate
