#pragma once
// One run of the test command in the worktree, for `run` and `run --full` alike, through the
// core's test-run module (gatekit/test_run.hpp): output streamed to the log, counts from its
// JUnit report.
#include <filesystem>
#include <string>
#include <vector>

#include "config.hpp"
#include "gatekit/context.hpp"
#include "run/run_plan.hpp"
#include "run/test_map_place.hpp"
#include "scope/scope.hpp"

namespace gatekit::gpu_gate {

// A pass with `coverage` gets COVERAGE_FILE=coverage_data_file(scratch) (coverage.hpp).
// could_not_evaluate when the command cannot start, ends other than with 0 or 1 (pytest: 2
// interrupted, 3 internal error, 4 usage error, 5 no tests collected; a signal; ...) or
// leaves no readable JUnit report; unless_cancelled's error when a signal ended it.
Result<PassResult> run_test_pass(Context& context, const Config& config, const std::filesystem::path& worktree,
                                 const std::filesystem::path& scratch, const PassSpec& spec);

// could_not_evaluate once gpu-gate has received SIGINT or SIGTERM (a cancelled run records
// nothing), naming the signal and what it stopped (`during`: "the gate pass").
Status unless_cancelled(const std::string& during);

// The configured command for a pass: its placeholders expanded, then `extra_args` appended.
std::vector<std::string> pass_command(const Config& config, const std::string& junit, const PassSpec& spec);

// The stress targets of a run over `scope` (the checkout's), for the changed concurrency
// paths `touched`; the test map is read from its place when it exists (an unreadable or
// invalid one is bad_input, as for `affected`). Logs each target and why.
StressTargets find_stress_targets(Context& context, const TestMapPlace& map_place,
                                  const std::vector<std::string>& touched, const Scope& scope);

}  // namespace gatekit::gpu_gate
