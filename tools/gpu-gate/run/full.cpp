// `gpu-gate run --full`: GPU pass, CPU pass, scope check, test map, record (see full.hpp).
#include "run/full.hpp"

#include <filesystem>

#include "common.hpp"
#include "run/coverage.hpp"
#include "run/device_facts.hpp"
#include "run/full_steps.hpp"
#include "run/run_pass.hpp"
#include "gatekit/junit_reader.hpp"
#include "gatekit/clock.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "record/record.hpp"
#include "run/test_map.hpp"
#include "run/test_map_place.hpp"
#include "run/worktree.hpp"

namespace gatekit::gpu_gate {

namespace {

// The Python that reads coverage: the test command's own when it is one, else python3.
std::string python_of(const Config& config) {
  if (!config.command.empty()) {
    const auto& first = config.command.front();
    const auto slash = first.rfind('/');
    if ((slash == std::string::npos ? first : first.substr(slash + 1)).starts_with("python")) return first;
  }
  return "python3";
}

// Writes the test map from the GPU pass's coverage; a warning (and no map) when it cannot.
std::string write_test_map(Context& context, const Config& config, const TestMapPlace& place,
                           const std::filesystem::path& data_file, const std::filesystem::path& worktree,
                           const std::string& commit) {
  if (!is_pytest_command(config.command)) return "not written: the test command is not pytest (no coverage per test)";
  auto coverage = read_coverage(context.processes, python_of(config), data_file, worktree);
  if (!coverage) return "not written: " + coverage.error().message;
  const auto now = std::chrono::duration_cast<std::chrono::seconds>(context.clock.now().time_since_epoch()).count();
  const auto map = TestMap::from(now, commit, *coverage);
  if (auto made = context.files.make_directories(place.path.parent_path()); !made) return "not written: " + made.error().message;
  if (auto written = context.files.write(place.path, format_test_map(map)); !written) {
    return "not written: " + written.error().message;
  }
  return "written to " + place.shown + ": " + std::to_string(map.tests.size()) + " tests, " +
         std::to_string(map.files.size()) + " files";
}

std::string file_of(const junit::TestCase& test) {
  if (!test.file.empty()) return test.file;
  const auto id = test.id();
  const auto sep = id.find("::");
  return sep == std::string::npos ? "" : id.substr(0, sep);
}

// One pass of every test on the device (full_pass), its cases collected for the scope check.
PassOutcome device_pass(Context& context, const Config& config, const GateWorktree& worktree, Device device,
                        int workers) {
  PassOutcome outcome{device, {}, {}, 0, {}};
  PassSpec pass = full_pass(config, device, workers);
  if (device == Device::gpu) pass.env["COVERAGE_FILE"] = (worktree.scratch() / ".coverage").string();
  pass.on_case = [&outcome](const junit::TestCase& test) {
    auto& run = outcome.cases[test.id()];
    run.file = file_of(test);
    run.ran = run.ran || test.ran();
  };
  const auto ran = value_or_throw(run_test_pass(context, config, worktree.tree(), worktree.scratch(), pass));
  outcome.counts = ran.counts;
  outcome.exit_code = ran.exit_code;
  outcome.duration = ran.duration;
  return outcome;
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

int workers_of(const RunOptions& options, const Config& config) {
  return options.workers > 0 ? options.workers : config.workers;
}

}  // namespace

ExitCode run_full(const RunOptions& options, Context& context) {
  auto config = load_gate_config(context, options.repo_dir, options.config);
  const std::filesystem::path repo(options.repo_dir);
  const std::string machine = resolve_machine(context, options.machine);
  Git git(context.processes, repo);
  refuse_uncommitted_changes(git);
  const auto commit = value_or_throw(git.rev_parse("HEAD"));
  const auto tree = value_or_throw(git.rev_parse("HEAD^{tree}"));
  const auto started = context.clock.now();
  const auto device = probe_device_facts(context, config, options.allow_no_gpu);

  GateWorktree worktree(git, context.files, commit);
  use_selection(context, worktree.tree(), config, /*full=*/true);  // the nightly tests too
  const auto scope = value_or_throw(scope_of_checkout(context.processes, context.files, worktree.tree(), config));
  context.workflow.log("Full run of " + commit + " on " + machine + ": " + std::to_string(scope.files.size()) + " of " +
                       std::to_string(scope.test_files.size()) + " test files in scope");
  const int workers = workers_of(options, config);
  const auto data_file = worktree.scratch() / ".coverage";
  const auto gpu = device_pass(context, config, worktree, Device::gpu, workers);
  const auto cpu = device_pass(context, config, worktree, Device::cpu, workers);
  const auto violations = check_scope(scope, gpu.cases, cpu.cases);
  const std::string config_file =
      config.source.empty() ? default_config_path : config.source.lexically_normal().string();
  report_violations(context.workflow, violations, config_file);
  const auto map_place = test_map_place(git, config, repo);
  const std::string map_note = write_test_map(context, config, map_place, data_file, worktree.tree(), commit);
  context.workflow.log("Test map " + map_note);
  if (map_note.starts_with("written")) {
    if (map_place.in_checkout) warn_unless_ignored(git, context.workflow, config.test_map);
  } else {
    context.workflow.annotate({Severity::warning, "test map " + map_note, "gpu-gate: test map"});
  }

  FullOutcome outcome{commit, tree, machine, device, gpu, cpu, violations, map_note,
                      std::chrono::duration_cast<std::chrono::milliseconds>(context.clock.now() - started)};
  const auto ref = value_or_throw(record_full_run(git, context, config, outcome));
  context.workflow.log(std::string("Verdict: ") + (outcome.passed() ? "pass" : "fail") + ", recorded as " + ref);
  context.workflow.append_summary(full_summary(outcome, config_file));
  return outcome.passed() ? ExitCode::pass : ExitCode::verdict_fail;
}

}  // namespace gatekit::gpu_gate
