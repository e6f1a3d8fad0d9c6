#pragma once
// Which results `gpu-gate prune` deletes: a pure decision from the records, the time, the
// trees open pull requests rely on, and which published results' signatures verify.
#include <chrono>
#include <cstdint>
#include <optional>
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
  // Published results whose signature does not verify (when signatures are checked): judged
  // apart from the verified ones, so none of them ever replaces a verified result.
  std::vector<GateRecord> unverified;
};

// Each result is kept when it is the newest of its tree and machine (ties: the later ref
// name), and not expired (or expired but relied on); otherwise it goes.
// `relied_on`: the trees open pull requests' heads take their status from (their own tree and
// the trees of their docs-only ancestry).
// `verified`: the record commits of the published results whose signature verifies against
// the allowed signers (nullopt: signatures are not checked, every result counts). A published
// result outside it is compared only with other such results: "newest" among the verified
// ones is decided by them alone, so an unsigned or foreign ref pushed with a later time never
// makes prune delete a verified one. The local halves (mine, no-GPU) are this machine's own
// and are not checked.
PruneDecision decide_prune(const std::vector<GateRecord>& records, std::int64_t now, std::chrono::hours expiry,
                           const std::set<std::string>& relied_on,
                           const std::optional<std::set<std::string>>& verified = std::nullopt);

}  // namespace gatekit::gpu_gate
