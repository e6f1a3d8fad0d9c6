// The checks only `run --full` plans, after its passes (steps.hpp): the scope check and the
// test map. The pipeline itself is run.cpp's, `--full` or not.
#include "run/full.hpp"

#include <filesystem>

#include "common.hpp"
#include "gatekit/clock.hpp"
#include "gatekit/files.hpp"
#include "gatekit/workflow.hpp"
#include "run/coverage.hpp"
#include "run/device_facts.hpp"
#include "run/steps.hpp"
#include "run/test_map.hpp"
#include "run/test_map_place.hpp"

namespace gatekit::gpu_gate {

namespace {

// Writes the test map from the GPU pass's coverage; a warning (and no map) when it cannot.
std::string write_test_map(Context& context, const Config& config, const TestMapPlace& place,
                           const std::filesystem::path& data_file, const std::filesystem::path& worktree,
                           const std::string& commit) {
  if (!is_pytest_command(config.command)) return "not written: the test command is not pytest (no coverage per test)";
  // The Python that reads coverage: the test command's own when it is one, else python3.
  auto coverage = read_coverage(context.processes, test_interpreter(config).value_or("python3"), data_file, worktree);
  if (!coverage) return "not written: " + coverage.error().message;
  const auto now = context.clock.epoch_seconds();
  const auto map = TestMap::from(now, commit, *coverage);
  if (auto made = context.files.make_directories(place.path.parent_path()); !made) return "not written: " + made.error().message;
  if (auto written = context.files.replace(place.path, format_test_map(map)); !written) {
    return "not written: " + written.error().message;
  }
  return "written to " + place.shown + ": " + std::to_string(map.tests.size()) + " tests, " +
         std::to_string(map.files.size()) + " files";
}

// One error annotation per file, then the lines to paste into the configuration.
void report_violations(Workflow& workflow, const std::vector<ScopeViolation>& violations, const std::string& config_file) {
  for (const auto& violation : violations) {
    workflow.annotate({Severity::error, describe(violation, config_file), "gpu-gate: outside the scope", violation.file});
  }
  if (violations.empty()) return;
  workflow.log("Add to " + config_file + ":");
  workflow.log("scope:");
  workflow.log("  extras:");
  for (const auto& violation : violations) workflow.log("    " + extras_line(violation.file));
}

// The map belongs to this machine: an untracked map that git does not ignore would make the
// next run refuse the tree as dirty.
void warn_unless_ignored(const Git& git, Workflow& workflow, const std::string& map_path) {
  auto ignored = git.exec(GitCommand{"check-ignore", "-q"}.paths({map_path}));
  auto tracked = git.exec(GitCommand{"ls-files", "--error-unmatch"}.paths({map_path}));
  if (!ignored || !tracked || ignored->exit_code == 0 || tracked->exit_code == 0) return;
  workflow.annotate({Severity::warning,
                     "the test map " + map_path + " is neither ignored nor committed: add it to .gitignore (or "
                     "commit it), or the next run refuses the working tree as uncommitted",
                     "gpu-gate: test map"});
}

// The test map step: written (and checked for the next run) or a warning saying why not.
std::string test_map_step(Context& context, const Git& git, const std::filesystem::path& repo, const Config& config,
                          const GateWorktree& worktree, const std::string& commit) {
  const auto place = test_map_place(git, context.files, config, repo);
  const std::string note =
      write_test_map(context, config, place, coverage_data_file(worktree.scratch()), worktree.tree(), commit);
  context.workflow.log("Test map " + note);
  if (!note.starts_with("written")) {
    context.workflow.annotate({Severity::warning, "test map " + note, "gpu-gate: test map"});
  } else if (place.in_checkout) {
    warn_unless_ignored(git, context.workflow, config.test_map);
  }
  return note;
}

}  // namespace

std::string config_file_of(const Config& config) {
  return config.source.empty() ? default_config_path : config.source.lexically_normal().string();
}

void check_passes(Context& context, const Git& git, const std::filesystem::path& repo, const Config& config,
                  const RunPlan& plan, const Scope& scope, const GateWorktree& worktree, RunOutcome& outcome) {
  if (plan.scope_check) {  // the plan's passes of a full run: GPU, then CPU
    outcome.violations = check_scope(scope, outcome.cases.at(0), outcome.cases.at(1));
    report_violations(context.workflow, outcome.violations, config_file_of(config));
  }
  if (plan.test_map) outcome.map_note = test_map_step(context, git, repo, config, worktree, outcome.commit);
}

ExitCode run_full(const RunOptions& options, Context& context) {
  RunOptions full = options;
  full.full = true;
  return run_run(full, context);
}

}  // namespace gatekit::gpu_gate
