#pragma once
// Which runs may post gate/gpu (docs/gpu-gate.md, "Trust model"): pure.
//
//   strict        (the template's default) only a workflow_run or workflow_dispatch run posts:
//                 those run the default branch's copy of the workflow and of gatekit's
//                 actions, never the pull request's. A pull_request or merge_group run
//                 computes the status and posts nothing. What makes this hold against a
//                 pull request that edits the workflow is the setup around it (an App token
//                 in an environment limited to the default branch, the required status
//                 pinned to that App); this check keeps a misconfigured workflow from
//                 posting from the wrong run.
//   pull-request  (weaker, explicit) any run posts, as before: the pull request's own copy
//                 of the workflow decides, so anyone who can push a branch can post.
//   unchecked     (the tool run by hand, no --mode) no check.
#include <string_view>

#include "gatekit/result.hpp"

namespace gatekit::gpu_gate {

enum class PostingMode { unchecked, strict, pull_request };

// "strict", "pull-request"; "" = unchecked. Anything else is bad_input.
Result<PostingMode> parse_posting_mode(std::string_view text);

// Whether a run of `event_name` (GITHUB_EVENT_NAME) may post; bad_input says why not.
Status check_posting(PostingMode mode, std::string_view event_name);

}  // namespace gatekit::gpu_gate
