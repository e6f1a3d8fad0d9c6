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
//
// CI remembers failures. A result ref can be deleted by anyone who can push, so the refs alone
// cannot stop an older pass from undoing a newer failure. The statuses GitHub keeps for the
// commit can: every failure gatekit posts carries its result's time ("failed (result of
// <time>)"), and before posting, CI reads them (remembered_failure) and keeps the newest
// failure it has seen unless a result newer than that failure now counts (keep_newer_failure):
//   "failed (result of 2026-12-01T10:00:00Z; older results do not undo it)"
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gatekit/github.hpp"
#include "record/signatures.hpp"
#include "status/status_decide.hpp"

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
  // Every published result left out, "'<ref>': <reason>": for its signature, then the ones
  // decide_status ignored (expired, from the future, commit date off, no GPU).
  std::vector<std::string> left_out;
  std::optional<std::int64_t> remembered_failure;  // the newest failure CI posted before (its result's time)
  bool kept_failure = false;                       // that failure is posted again: nothing newer counts
  std::vector<ConsideredResult> results;  // every result of the walk's trees, newest first
};

// `input` as gather_status_input built it; `verdicts` by record commit, or nullopt when no
// allowed-signers file is configured (every published result counts).
CiDecision decide_ci_status(const StatusInput& input,
                            const std::optional<std::map<std::string, SignatureVerdict>>& verdicts);

// The time of the newest result behind a failure posted with `context` among a commit's
// statuses (any description in failure_description's form, "failed (result of <time>"...).
std::optional<std::int64_t> remembered_failure(const std::vector<github::CommitStatus>& statuses,
                                               std::string_view context);
// Keeps a remembered failure unless the status already fails or a result newer than it counts.
// A remembered failure older than the expiry, or dated ahead of `now` by more than the
// allowed skew, is forgotten (a status anyone with statuses: write could post).
void keep_newer_failure(CiDecision& decision, std::optional<std::int64_t> failure_time, const StatusInput& input);
inline constexpr std::string_view kKeptFailureNote = "; older results do not undo it)";

}  // namespace gatekit::gpu_gate
