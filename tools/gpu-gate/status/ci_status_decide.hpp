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
// cannot stop an older pass from undoing a newer failure. The statuses GitHub keeps can:
// every failure gatekit posts carries its result's time ("failed (result of <time>)"), and
// before posting, CI reads them (remembered_failure) and keeps the newest failure it has seen
// unless a result newer than that failure now counts (keep_newer_failure):
//   "failed (result of 2026-12-01T10:00:00Z; older results do not undo it)"
// Only statuses that gatekit's own poster created count (their `creator`: in strict mode the
// App's `<slug>[bot]`, in pull-request mode `github-actions[bot]`): a status anyone else with
// `statuses: write` posts is never remembered.
//
// Failures are remembered per tree, like results. A commit's statuses remember what was posted
// on that commit; a new commit with the same tree (an amend, a rebase that changes nothing, a
// revert of a revert) has none. So when a failure counts, CI also marks every pass that
// would count in its place were the failure's ref deleted (outranked_passes: the older passes
// of its tree and of the docs-only ancestors the walk reaches after it) with a status on the
// pass's record commit, "failed (result of <time>) for tree <tree>"; and before posting it
// reads the statuses of the record commit whose result counts, where such a mark applies when
// its tree lies on the walk from the commit to that result (lending_trees).
#include <cstdint>
#include <map>
#include <set>
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

// The time of the newest result behind a failure posted with `context` by `poster` among a
// commit's statuses: a failure description that carries "(result of <time>)" (or
// "(result of <time>; ...") counts; one marked "for tree <tree>" only when that tree is in
// `trees`. Statuses of another creator, or of none (a deleted account), never count.
std::optional<std::int64_t> remembered_failure(const std::vector<github::CommitStatus>& statuses,
                                               std::string_view context, std::string_view poster,
                                               const std::set<std::string>& trees = {});
// The mark left on a pass's record commit: "failed (result of <time>) for tree <tree>".
std::string outranked_description(std::int64_t failure_time, std::string_view tree);
// The passes to mark when `decision`'s status is a failure whose result counts (none
// otherwise): each counted pass older than that failure, of its tree or of a tree the walk
// (`input.history`) reaches after it, newest first, at most kMaxMarks.
inline constexpr std::size_t kMaxMarks = 16;
std::vector<GateRecord> outranked_passes(const CiDecision& decision, const StatusInput& input);
// The trees whose marks apply to the status: the walk's trees from the commit up to the tree
// of the result that counts (empty when no result counts).
std::set<std::string> lending_trees(const StatusInput& input, const GateStatus& status);
// The time of the failure behind the status: its result's, or the remembered one it kept
// (nullopt when the status is not a failure).
std::optional<std::int64_t> failure_time(const CiDecision& decision);
// Keeps a remembered failure unless the status already fails or a result newer than it counts.
// A remembered failure older than the expiry, or dated ahead of `now` by more than the
// allowed skew, is forgotten.
void keep_newer_failure(CiDecision& decision, std::optional<std::int64_t> failure_time, const StatusInput& input);
inline constexpr std::string_view kKeptFailureNote = "; older results do not undo it)";

}  // namespace gatekit::gpu_gate
