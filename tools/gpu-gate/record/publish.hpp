#pragma once
// `run --publish`: push this machine's result, then (with a token) ask CI to refresh the
// status through a workflow dispatch on the default branch, so "the gate ended after CI" needs
// no manual step. In gate.yml's strict mode that dispatch is the run that posts gate/gpu.
#include <string>

#include "config.hpp"
#include "gatekit/context.hpp"
#include "gatekit/git.hpp"
#include "gpu-gate.hpp"

namespace gatekit::gpu_gate {

// The remote's default branch name ("main" when the clone does not know it).
std::string default_branch(const Git& git, const std::string& remote);

// Pushes this machine's result `ref` (refs/<ns>-mine/<tree>/<machine>@<run>) to the same name
// under refs/<ns>/ on the remote (a result recorded without a GPU, under refs/<ns>-nogpu/,
// is never pushed: an error says why), then
// dispatches `options.workflow` on the default branch when a token (GITHUB_TOKEN, GH_TOKEN)
// and a repository (--repository, GITHUB_REPOSITORY) are known: once with input `pr` =
// --pr, or without --pr once for each open pull request whose head is `commit` (none: a log
// line says how to refresh by hand). A failure is an Error (could_not_evaluate) that says
// what did and did not happen.
Status publish_result(Context& context, const Git& git, const RunOptions& options, const Config& config,
                      const std::string& commit, const std::string& ref);

}  // namespace gatekit::gpu_gate
