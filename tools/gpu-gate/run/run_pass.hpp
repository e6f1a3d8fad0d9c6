#pragma once
// One run of the test command in the worktree, output streamed to the log, counts from its
// JUnit report.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "config.hpp"
#include "gatekit/context.hpp"
#include "run/run_plan.hpp"
#include "scope/scope.hpp"

namespace gatekit::gpu_gate {

struct PassSpec {
  std::string name;                         // "gate", "stress 2/3"
  std::vector<std::string> paths;           // the test files
  int workers = 8;
  std::map<std::string, std::string> env;   // added to the command's environment
};

// could_not_evaluate when the command cannot start, ends other than with 0 or 1 (pytest: 2
// interrupted, 3 internal error, 4 usage error, 5 no tests collected; a signal; ...) or
// leaves no readable JUnit report.
Result<PassResult> run_test_pass(Context& context, const Config& config, const std::filesystem::path& worktree,
                                 const std::filesystem::path& scratch, const PassSpec& spec);

// The stress targets of a run over `scope` (the checkout's), for the changed concurrency
// paths `touched`; the test map is read from repo_dir when it exists (an unreadable or
// invalid one is bad_input, as for `affected`). Logs each target and why.
StressTargets find_stress_targets(Context& context, const std::filesystem::path& repo_dir, const Config& config,
                                  const std::vector<std::string>& touched, const Scope& scope);

}  // namespace gatekit::gpu_gate
