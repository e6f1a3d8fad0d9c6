#pragma once
// gate/gpu on a merge queue's group commit (docs/gpu-gate.md, "Merge queues"): pure.
//
// A merge queue tests a commit it made itself, the group commit on
// `gh-readonly-queue/<base branch>/pr-<number>-<base commit>`: the pull request's head merged
// onto the base branch and the entries queued before it. No machine gated that tree. The rule:
//   1. the group commit's own status when a result covers it (an exact result, a docs-only
//      inheritance, "no code change"): as for any commit;
//   2. otherwise, when no path where the group's tree differs from the pull request head's
//      needs a GPU result (docs_rule.hpp, why_gpu: docs only, or outside the path gate's GPU
//      filter), the group commit takes the head's status:
//        success "inherited from <head> (pull request head), the queue adds docs only"
//        success "inherited from <head> (pull request head), the queue adds <n> files outside
//                the gpu filter"
//        failure "failed at the pull request head <head> (result of <time>)"
//        pending "no gate result for the pull request head <head>";
//   3. otherwise it is pending, "the queue adds code the gate did not test: <path> (+N more)":
//      the base branch moved on with code the GPU needs, or an entry queued before it holds
//      some, and that combination never ran on a GPU machine.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/result.hpp"
#include "status/status_decide.hpp"

namespace gatekit::gpu_gate {

struct QueueRef {
  std::string base_branch;  // the branch the group merges into
  std::string pr;           // the pull request number, digits
  std::string base_commit;  // the commit the entry was built on (40 hex digits)
};

// "gh-readonly-queue/<branch>/pr-<number>-<40 hex>", with or without "refs/heads/". Anything
// else is bad_input naming the value.
Result<QueueRef> parse_queue_ref(std::string_view ref);

// group_own: the group commit's own status; head: the pull request head's status and commit;
// added_code: the paths where the group's tree differs from the head's that need a GPU result;
// head_failed_at: the time of the failure behind a failing head status (its result's, or the
// one CI remembered), carried into the description so that CI remembers it on the group
// commit too (ci_status_decide.hpp); added_outside: the paths it adds that are not docs only
// but need no GPU result (outside the GPU filter `filter`), named in a success.
GateStatus decide_merge_group(const GateStatus& group_own, const GateStatus& head, std::string_view head_commit,
                              const std::vector<std::string>& added_code,
                              std::optional<std::int64_t> head_failed_at = std::nullopt,
                              const std::vector<std::string>& added_outside = {}, std::string_view filter = "gpu");

}  // namespace gatekit::gpu_gate
