#pragma once
// The status a commit gets from the gate's results: a pure decision, shared by `gpu-gate
// status` (this machine's view) and the CI side (`ci-status`, which first drops results
// whose signature it does not trust).
//
// States and descriptions (docs/gpu-gate.md, "The gate/gpu status"), in order of precedence:
//   success  "passed in 4m"                          the newest result for this exact tree passed
//   failure  "failed (result of 2026-12-01T10:00:00Z)"  the newest result for this exact tree
//            failed; the description carries the result's time, so that CI can tell later that
//            an older result must not undo this failure (ci_status_decide.hpp)
//   success  "inherited from <commit>, docs-only delta"  the nearest ancestor tree with a result
//            (first-parent chain, every step docs-only) passed; a failure there gives
//            failure "failed", with that commit as the source
//   success  "no GPU-relevant change since <commit>: <n> files outside the gpu filter"
//            the same over steps that need no GPU result (docs_rule.hpp, why_gpu: the path
//            gate's GPU filter takes none of their paths), some of them not docs only (<n>:
//            those paths; "gpu" is the filter's name); a failure there gives failure "failed"
//   success  "no code change"                        the change since the merge base with the
//                                                    base branch touches docs only
//   success  "no GPU-relevant change since <merge base>: <n> files outside the gpu filter"
//            the change since the merge base needs no GPU result, and is not docs only
//   pending  "no gate result for this tree"          none of the above
// Results are ignored, each with its reason in GateStatus::ignored, when they are older than
// the expiry, dated more than the allowed clock skew ahead of `now`, recorded at a committer
// date that differs from their time by more than that skew, or recorded without a GPU (unless
// cpu_gate lets a CPU machine gate: then the description says "no GPU"), or recorded with a
// configuration other than the trusted base's (StatusInput::config_digest). Among the rest for
// one tree (reruns, machines) the newest counts. Only commits reached through docs-only steps are searched for an
// inherited result, so an exact-tree result always wins and a code change stops inheritance.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "record/record.hpp"

namespace gatekit::gpu_gate {

enum class GateState { success, failure, pending };
std::string_view to_string(GateState state);  // "success", "failure", "pending"

enum class StatusSource { exact, inherited, no_code_change, no_gpu_change, none };
// "exact", "inherited", "no-code-change", "no-gpu-change", "none"
std::string_view to_string(StatusSource source);

// One commit of the first-parent walk from the revision asked about.
struct HistoryCommit {
  std::string commit;
  std::string tree;
  // The change from this commit's first parent to it touches docs only (true for a commit
  // whose tree equals its parent's). Unused for the last commit of the walk.
  bool docs_only_step = false;
  // The change from its first parent needs no GPU result though it is not docs only: its
  // paths that are not docs only, sorted (docs_rule.hpp, why_gpu). Empty when the step is
  // docs only or needs a GPU result.
  std::vector<std::string> outside_filter;
  // The step lends an older result over it: docs only, or no GPU result needed.
  bool needs_no_gpu() const { return docs_only_step || !outside_filter.empty(); }
};

struct StatusInput {
  // The revision first, then its first-parent ancestors, newest first, as far as the walk
  // went (it stops after the first step that is not docs-only: older commits cannot lend
  // their result).
  std::vector<HistoryCommit> history;
  // Results of the trees in `history` (others are ignored); expired ones are filtered here.
  std::vector<GateRecord> records;
  // The change from the merge base with the base branch to the revision touches docs only
  // and changes something (nullopt: no base known; an empty change is not "no code change":
  // the revision is the base itself).
  std::optional<bool> change_docs_only;
  // When that change is not docs only but needs no GPU result: its paths that are not docs
  // only (sorted), and the merge base. Empty otherwise.
  std::vector<std::string> change_outside_filter;
  std::string merge_base;
  std::string gpu_filter = "gpu";  // the GPU filter's name, for the descriptions
  std::int64_t now = 0;  // seconds since the epoch
  std::chrono::hours expiry{24 * 28};
  std::chrono::minutes clock_skew{5};  // the configuration's clock_skew_minutes
  bool cpu_gate = false;               // results recorded without a GPU count
  // The digest of the trusted base's configuration (config_digest in config.hpp): a result
  // recorded with another configuration (a narrower scope, another command or selection), or
  // before records carried one, does not count. nullopt: not checked.
  std::optional<std::string> config_digest;
};

struct GateStatus {
  GateState state = GateState::pending;
  std::string description;
  std::string tree;     // the tree of the revision asked about
  std::string source;   // the commit whose result counts ("" for no-code-change and pending)
  StatusSource source_kind = StatusSource::none;
  std::optional<GateRecord> record;  // the result that counts
  std::vector<std::string> ignored;  // results of the walk's trees left out: "'<ref>': <reason>"
  // The paths, not docs only, that the status lets go without a GPU result (an inheritance
  // over steps outside the GPU filter, or "no GPU-relevant change"), sorted.
  std::vector<std::string> outside_filter;
};

// Why a result does not count (nullopt: it may count): the rules above, first match.
std::optional<std::string> ignore_reason(const GateRecord& record, const StatusInput& input);
// The description of a failure: "failed (result of <its time>)".
std::string failure_description(std::int64_t result_time);
inline constexpr std::string_view kNoGpuNote = " (no GPU; cpu_gate is on)";

GateStatus decide_status(const StatusInput& input);

// "no GPU-relevant change since <commit>: <n> files outside the <filter> filter".
std::string no_gpu_change_description(std::string_view since, std::size_t files, std::string_view filter);

// "passed in 4m": whole minutes from one minute on ("1h 05m" from an hour), else seconds.
std::string short_duration(std::chrono::milliseconds duration);
// How a commit is named in descriptions: its first 12 hex digits.
std::string short_commit(std::string_view commit);

}  // namespace gatekit::gpu_gate
