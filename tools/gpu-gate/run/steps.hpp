#pragma once
// The steps of the one `gpu-gate run` pipeline (run.cpp) that run or check something, for
// `run` and `run --full` alike: which of them do what is the plan's (run_plan.hpp).
#include <filesystem>
#include <string>

#include "config.hpp"
#include "gatekit/context.hpp"
#include "gatekit/git.hpp"
#include "run/run_plan.hpp"
#include "run/run_report.hpp"
#include "run/worktree.hpp"
#include "scope/scope.hpp"

namespace gatekit::gpu_gate {

// The plan's passes in order (a pass that takes test files gets the scope's), each pass's
// cases collected when the plan checks the scope; then, when a concurrency change calls for
// it and every pass passed, the stress repeats, stopping at the first failure (passes.cpp).
// A pass that gives no verdict is a could_not_evaluate Failure: nothing is recorded.
void run_passes(Context& context, const Config& config, const RunPlan& plan, const GateWorktree& worktree,
                RunOutcome& outcome);

// After the passes, what the plan asks (full.cpp): the scope check (an error annotation per
// file outside the scope, the lines to paste in the log) and the test map from the GPU
// pass's coverage (a warning when it cannot be written).
void check_passes(Context& context, const Git& git, const std::filesystem::path& repo, const Config& config,
                  const RunPlan& plan, const Scope& scope, const GateWorktree& worktree, RunOutcome& outcome);

// The configuration file as messages name it: its path as read, else the default path.
std::string config_file_of(const Config& config);

}  // namespace gatekit::gpu_gate
