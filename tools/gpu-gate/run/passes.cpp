// The passes of a run, `--full` or not (steps.hpp): the plan's, then the stress repeats.
#include "gatekit/junit_reader.hpp"
#include "run/run_pass.hpp"
#include "run/steps.hpp"

namespace gatekit::gpu_gate {
namespace {

std::string file_of(const junit::TestCase& test) {
  if (!test.file.empty()) return test.file;
  const auto id = test.id();
  const auto sep = id.find("::");
  return sep == std::string::npos ? "" : id.substr(0, sep);
}

// Each test case of the report into `cases`: where it lives, and whether it ran on some run.
// A name's distinct cases are numbered as every tool numbers them (junit::Occurrences).
junit::CaseHandler collect_into(PassCases& cases) {
  return [&cases, occurrences = junit::Occurrences{}, scratch = std::string{}](const junit::TestCase& test) mutable {
    auto& run = cases[std::string(occurrences.id(test, scratch))];
    run.file = file_of(test);
    run.ran = run.ran || test.ran();
  };
}

bool all_passed(const std::vector<PassResult>& passes) {
  for (const auto& pass : passes)
    if (!pass.passed()) return false;
  return true;
}

// The stress repeats: the gate pass again on the stress targets, with twice the workers
// and GATEKIT_STRESS=1, stopping at the first failure.
void run_stress(Context& context, const Config& config, const PassSpec& gate, const GateWorktree& worktree,
                RunOutcome& outcome) {
  for (int i = 1; i <= config.stress_repeats; ++i) {
    PassSpec pass = gate;
    pass.name = "stress " + std::to_string(i) + "/" + std::to_string(config.stress_repeats);
    pass.paths = outcome.stress_targets.tests;
    pass.workers = gate.workers * 2;
    pass.env["GATEKIT_STRESS"] = "1";
    pass.gpu_pass = false;  // the stress targets may be any tests: they prove the tree, not the GPU
    pass.packages = outcome.packages;
    outcome.stress.push_back(value_or_throw(run_test_pass(context, config, worktree.tree(), worktree.scratch(), pass)));
    if (!outcome.stress.back().passed()) return;
  }
}

}  // namespace

void run_passes(Context& context, const Config& config, const RunPlan& plan, const GateWorktree& worktree,
                RunOutcome& outcome) {
  outcome.cases.assign(plan.scope_check ? plan.passes.size() : 0, PassCases{});
  for (std::size_t i = 0; i < plan.passes.size(); ++i) {
    PassSpec pass = plan.passes[i];
    if (!pass.every_test) pass.paths = outcome.paths;
    pass.packages = outcome.packages;
    pass.gpu_markers = outcome.gpu_markers;
    if (plan.scope_check) pass.on_case = collect_into(outcome.cases[i]);
    outcome.passes.push_back(value_or_throw(run_test_pass(context, config, worktree.tree(), worktree.scratch(), pass)));
  }
  if (outcome.stress_needed && all_passed(outcome.passes))
    run_stress(context, config, plan.passes.front(), worktree, outcome);
}

}  // namespace gatekit::gpu_gate
