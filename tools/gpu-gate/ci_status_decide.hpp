#pragma once
// The CI side's decision (pure): which results count, and the status they give.
//
// Only published results count (a result still under refs/<namespace>-mine/ has not reached
// the remote). When the configuration names an allowed-signers file, a result counts only
// when its record commit is `trusted` (signatures.hpp); the others are left out before
// decide_status runs, exactly as if they had never been pushed. The description says so
// when leaving them out changed the status (an ignored result would have counted):
//   "no gate result for this tree (an unsigned or foreign result was ignored)"
// Otherwise it is decide_status's, word for word.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "signatures.hpp"
#include "status_decide.hpp"

namespace gatekit::gpu_gate {

inline constexpr std::string_view kIgnoredNote = " (an unsigned or foreign result was ignored)";

struct ConsideredResult {
  GateRecord record;
  std::optional<SignatureVerdict> signature;  // nullopt: not verified (no allowed-signers file)
  bool counted = false;                       // used by the decision (published and trusted)
};

struct CiDecision {
  GateStatus status;        // the status to post; its description carries the note when due
  int ignored = 0;          // published results left out for their signature
  bool ignored_mattered = false;
  std::vector<ConsideredResult> results;  // every result of the walk's trees, newest first
};

// `input` as gather_status_input built it; `verdicts` by record commit, or nullopt when no
// allowed-signers file is configured (every published result counts).
CiDecision decide_ci_status(const StatusInput& input,
                            const std::optional<std::map<std::string, SignatureVerdict>>& verdicts);

}  // namespace gatekit::gpu_gate
