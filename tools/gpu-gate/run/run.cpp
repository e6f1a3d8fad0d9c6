// gpu-gate run, `--full` or not: one pipeline. Refuse a dirty tree, plan, probe the GPUs,
// test the committed HEAD tree in a temporary worktree (the plan's passes: the gate pass, or
// every test on the GPU then the CPU; the stress repeats when a concurrency change calls for
// them), check what the plan asks (the scope check and the test map of a full run), record
// the result, publish it when asked, and write the job summary.
#include "common.hpp"
#include "gatekit/clock.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "gpu-gate.hpp"
#include "record/publish.hpp"
#include "run/device_facts.hpp"
#include "run/evidence.hpp"
#include "run/run_pass.hpp"
#include "run/steps.hpp"
#include "status/status_decide.hpp"

namespace gatekit::gpu_gate {
namespace {

RunOutcome outcome_of_head(const Git& git, const std::string& machine, int workers) {
  const std::string line = trim(value_or_throw(git.run(GitCommand{"log", "-1", "--format=%H %T"}.revision("HEAD", "^{commit}").paths({}))));
  if (line.size() != 81 || !is_object_name(line.substr(0, 40)) || !is_object_name(line.substr(41)))
    fail_could_not_evaluate("unexpected git log output for HEAD: " + quote_for_message(line));
  RunOutcome outcome;
  outcome.commit = line.substr(0, 40);
  outcome.tree = line.substr(41);
  outcome.machine = machine;
  outcome.workers = workers;
  return outcome;
}

// The change since the merge base with the base branch (empty when there is no base).
std::vector<FileChange> change_since_base(Context& context, const Git& git, const RunOptions& options) {
  const std::string named = !options.base.empty() ? options.base : options.remote + "/" + default_branch(git, options.remote);
  // The branch by its full name: a tag named like it (refs/tags/origin/main) never stands for it.
  auto full = git.branch_first(named, options.remote);
  const std::string base = full ? *full : named;
  auto has = git.has_commit(base);
  if (!has || !*has) {
    context.workflow.log("no base branch " + base + " in this clone: the stress pass is decided on no change");
    return {};
  }
  return value_or_throw(git.diff(base, "HEAD", /*three_dot=*/true));
}

// Whether the plan's stress pass is due, and on which tests (it reads the test map).
void plan_stress(Context& context, const Git& git, const RunOptions& options, const Config& config, const Scope& scope,
                 RunOutcome& outcome, const std::vector<FileChange>& change) {
  outcome.stress_needed = touches(config.concurrency_patterns, change, &outcome.stress_touched);
  if (!outcome.stress_needed) return;
  outcome.stress_targets = find_stress_targets(context, test_map_place(git, context.files, config, options.repo_dir),
                                               touched_paths(config.concurrency_patterns, change), scope);
}

// The line that says what is about to run; a plan that needs the scope's files refuses an empty one.
void announce(Context& context, const RunPlan& plan, const Config& config, const Scope& scope, const RunOutcome& o) {
  if (plan.full) {
    context.workflow.log("Full run of " + o.commit + " on " + o.machine + ": " + std::to_string(scope.files.size()) +
                         " of " + std::to_string(scope.test_files.size()) + " test files in scope");
    return;
  }
  if (plan.needs_scope && o.paths.empty())
    fail_bad_input("the gate's scope holds no test file: set scope.folders, scope.modules or scope.extras in " +
                   (config.source.empty() ? std::string(default_config_path) : config.source.string()));
  context.workflow.log("testing " + short_commit(o.commit) + " (tree " + short_commit(o.tree) + "): " +
                       std::to_string(o.paths.size()) + " test files, " + std::to_string(o.workers) + " workers");
}

// The result as a ref of this machine's (signed when the configuration says so).
GateRecord record_result(Context& context, const Git& git, const Config& config, const RunPlan& plan, RunOutcome& outcome) {
  GateRecord record = record_of(outcome, plan, config, context.clock.epoch_seconds());
  const RefHalf half = half_for(record.device, config.cpu_gate);
  outcome.ref = value_or_throw(write_record(git, config.namespace_, record, config.sign, half));
  context.workflow.log(std::string(plan.full ? "Verdict: " : "verdict: ") + std::string(to_string(record.verdict)) +
                       ", recorded as " + outcome.ref);
  if (half == RefHalf::no_gpu) context.workflow.log(no_gpu_note(outcome.ref));
  return record;
}

Status publish(Context& context, const Git& git, const RunOptions& options, const Config& config, const RunPlan& plan,
               RunOutcome& outcome) {
  if (!plan.publish) {
    outcome.publish_note = "not pushed: `git push` (after gpu-gate setup) or `gpu-gate run --publish` sends it";
    return {};
  }
  Status published = publish_result(context, git, options, config, outcome.commit, outcome.ref);
  outcome.publish_note = published ? "pushed to " + options.remote : published.error().message;
  return published;
}

}  // namespace

ExitCode run_run(const RunOptions& options, Context& context) {
  // A full run's result is recorded, never pushed: a --publish it would ignore is refused.
  if (options.full && options.publish)
    fail_bad_input("--publish does not apply to --full: a full run's result is recorded here and goes out with the "
                   "next `git push` (after gpu-gate setup)");
  check_remote(options.remote);
  Git git(context.processes, options.repo_dir);
  // The scope, the command and the selection: the trusted base's, never the tested tree's own.
  const GateConfig gate_config = read_gate_config(context, git, options.repo_dir, options.config, options.remote);
  Config config = gate_config.config;
  const std::string machine = resolve_machine(context, options.machine);
  const RunPlan plan = plan_run(options, config);
  refuse_uncommitted_changes(git);
  announce_config(context, gate_config, options.config, options.remote);
  if (plan.test_map) (void)test_map_place(git, context.files, config, options.repo_dir);  // refused before anything runs
  RunOutcome outcome = outcome_of_head(git, machine, plan.workers);
  outcome.config_digest = gate_config.digest;
  outcome.config_from = gate_config.from;
  const auto started = context.clock.monotonic();
  outcome.device = probe_device_facts(context, config, options.allow_no_gpu);
  const auto change = plan.stress ? change_since_base(context, git, options) : std::vector<FileChange>{};

  GateWorktree worktree(git, context.files, outcome.commit, &context.workflow);
  // the nightly tests: out of `run`, in `--full`
  outcome.gpu_markers = use_selection(context, gate_config.selection_text, gate_config.selection_origin, config, plan.full);
  const auto scope = value_or_throw(scope_of_checkout(context.processes, context.files, worktree.tree(), config));
  outcome.paths = scope.paths();
  std::vector<std::string> python_files;
  for (const auto& [file, edges] : scope.imports) python_files.push_back(file);
  outcome.packages = repository_packages(python_files);
  plan_stress(context, git, options, config, scope, outcome, change);
  announce(context, plan, config, scope, outcome);
  run_passes(context, config, plan, worktree, outcome);
  check_passes(context, git, options.repo_dir, config, plan, scope, worktree, outcome);
  throw_if_error(unless_cancelled("the run"));
  outcome.duration = std::chrono::duration_cast<std::chrono::milliseconds>(context.clock.monotonic() - started);

  const GateRecord record = record_result(context, git, config, plan, outcome);
  const Status published = publish(context, git, options, config, plan, outcome);
  context.workflow.append_summary(run_summary(plan, outcome, record, config_file_of(config)));
  throw_if_error(published);
  return record.verdict == Verdict::pass ? ExitCode::pass : ExitCode::verdict_fail;
}

}  // namespace gatekit::gpu_gate
