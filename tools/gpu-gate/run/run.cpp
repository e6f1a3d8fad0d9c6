// gpu-gate run: test the committed HEAD tree in a temporary worktree, stress it when the
// change touches concurrency code, record the result, optionally publish it.
#include "common.hpp"
#include "run/device_facts.hpp"
#include "run/full.hpp"
#include "gatekit/clock.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/text.hpp"
#include "gatekit/version.hpp"
#include "gatekit/workflow.hpp"
#include "gpu-gate.hpp"
#include "record/publish.hpp"
#include "run/run_pass.hpp"
#include "run/run_report.hpp"
#include "scope/scope.hpp"
#include "status/status_decide.hpp"
#include "run/worktree.hpp"

namespace gatekit::gpu_gate {
namespace {

struct Head {
  std::string commit;
  std::string tree;
};

Head head_of(const Git& git) {
  const std::string line = trim(value_or_throw(git.run(GitCommand{"log", "-1", "--format=%H %T"}.revision("HEAD", "^{commit}").paths({}))));
  if (line.size() != 81 || !is_object_name(line.substr(0, 40)) || !is_object_name(line.substr(41)))
    fail_could_not_evaluate("unexpected git log output for HEAD: " + quote_for_message(line));
  return {line.substr(0, 40), line.substr(41)};
}

// The change since the merge base with the base branch (empty when there is no base).
std::vector<FileChange> change_since_base(Context& context, const Git& git, const RunOptions& options) {
  const std::string base = !options.base.empty() ? options.base : options.remote + "/" + default_branch(git, options.remote);
  auto has = git.has_commit(base);
  if (!has || !*has) {
    context.workflow.log("no base branch " + base + " in this clone: the stress pass is decided on no change");
    return {};
  }
  return value_or_throw(git.diff(base, "HEAD", /*three_dot=*/true));
}

std::int64_t now_seconds(const Context& context) {
  return std::chrono::duration_cast<std::chrono::seconds>(context.clock.now().time_since_epoch()).count();
}

// The gate pass, then (when due and the gate pass passed) the stress repeats, stopping at
// the first failure.
void run_passes(Context& context, const Config& config, const GateWorktree& worktree, RunOutcome& outcome) {
  const std::map<std::string, std::string> gpu_env{{"GATEKIT_DEVICE", "gpu"}};
  outcome.gate = value_or_throw(run_test_pass(context, config, worktree.tree(), worktree.scratch(),
                                              {"gate", outcome.paths, outcome.workers, gpu_env}));
  if (!outcome.stress_needed || !outcome.gate.passed()) return;
  const auto& paths = outcome.stress_targets.tests;
  auto env = gpu_env;
  env["GATEKIT_STRESS"] = "1";
  for (int i = 1; i <= config.stress_repeats; ++i) {
    const std::string name = "stress " + std::to_string(i) + "/" + std::to_string(config.stress_repeats);
    outcome.stress.push_back(value_or_throw(run_test_pass(context, config, worktree.tree(), worktree.scratch(),
                                                          {name, paths, outcome.workers * 2, env})));
    if (!outcome.stress.back().passed()) return;
  }
}

}  // namespace

ExitCode run_run(const RunOptions& options, Context& context) {
  if (options.full) return run_full(options, context);
  check_remote(options.remote);
  Config config = load_gate_config(context, options.repo_dir, options.config);
  const std::string machine = resolve_machine(context, options.machine);
  const int workers = options.workers > 0 ? options.workers : config.workers;
  Git git(context.processes, options.repo_dir);
  refuse_uncommitted_changes(git);
  const Head head = head_of(git);
  const auto started = context.clock.now();
  RunOutcome outcome;
  outcome.commit = head.commit;
  outcome.tree = head.tree;
  outcome.machine = machine;
  outcome.workers = workers;
  outcome.device = probe_device_facts(context, config, options.allow_no_gpu);
  const auto change = change_since_base(context, git, options);
  outcome.stress_needed = touches(config.concurrency_patterns, change, &outcome.stress_touched);

  GateWorktree worktree(git, context.files, head.commit);
  use_selection(context, worktree.tree(), config, /*full=*/false);  // the nightly tests stay out
  const auto scope = value_or_throw(scope_of_checkout(context.processes, context.files, worktree.tree(), config));
  outcome.paths = scope.paths();
  if (outcome.stress_needed)
    outcome.stress_targets = find_stress_targets(context, test_map_place(git, config, options.repo_dir),
                                                 touched_paths(config.concurrency_patterns, change), scope);
  if (outcome.paths.empty())
    fail_bad_input("the gate's scope holds no test file: set scope.folders, scope.modules or scope.extras in " +
                   (config.source.empty() ? std::string(default_config_path) : config.source.string()));
  context.workflow.log("testing " + short_commit(head.commit) + " (tree " + short_commit(head.tree) + "): " +
                       std::to_string(outcome.paths.size()) + " test files, " + std::to_string(workers) + " workers");
  run_passes(context, config, worktree, outcome);
  outcome.duration = std::chrono::duration_cast<std::chrono::milliseconds>(context.clock.now() - started);
  const GateRecord record = record_of(outcome, config, now_seconds(context));
  const RefHalf half = half_for(record.device, config.cpu_gate);
  outcome.ref = value_or_throw(write_record(git, config.namespace_, record, config.sign, half));
  context.workflow.log("verdict: " + std::string(to_string(record.verdict)) + ", recorded as " + outcome.ref);
  if (half == RefHalf::no_gpu) context.workflow.log(no_gpu_note(outcome.ref));
  Status published;
  if (options.publish) {
    published = publish_result(context, git, options, config, head.commit, outcome.ref);
    outcome.publish_note = published ? "pushed to " + options.remote : published.error().message;
  } else {
    outcome.publish_note = "not pushed: `git push` (after gpu-gate setup) or `gpu-gate run --publish` sends it";
  }
  context.workflow.append_summary(run_summary(outcome, record));
  throw_if_error(published);
  return record.verdict == Verdict::pass ? ExitCode::pass : ExitCode::verdict_fail;
}

}  // namespace gatekit::gpu_gate
