// Which runs may post gate/gpu: see posting_mode.hpp.
#include "status/posting_mode.hpp"

#include <string>

#include "gatekit/git.hpp"

namespace gatekit::gpu_gate {

Result<PostingMode> parse_posting_mode(std::string_view text) {
  if (text.empty()) return PostingMode::unchecked;
  if (text == "strict") return PostingMode::strict;
  if (text == "pull-request") return PostingMode::pull_request;
  return bad_input("--mode must be 'strict' or 'pull-request', got " + quote_for_message(text));
}

Status check_posting(PostingMode mode, std::string_view event_name) {
  if (mode != PostingMode::strict || event_name == "workflow_run" || event_name == "workflow_dispatch") return {};
  const std::string event = event_name.empty() ? "no GITHUB_EVENT_NAME" : "a " + std::string(event_name) + " run";
  return bad_input("strict mode posts gate/gpu only from a workflow_run or workflow_dispatch run of the default "
                   "branch's workflow, not from " + event +
                   ", which may execute the pull request's own workflow file: compute it with post: false there "
                   "(docs/gpu-gate.md, \"Trust model\")");
}

}  // namespace gatekit::gpu_gate
