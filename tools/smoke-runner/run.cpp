// The default mode: run the smokes on the GPUs found, then write the reports (also on failure).
#include <algorithm>
#include <chrono>

#include "executor.hpp"
#include "gatekit/clock.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/gpu_backends.hpp"
#include "gatekit/no_verdict.hpp"
#include "gatekit/process.hpp"
#include "gatekit/termination.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "modes.hpp"
#include "plan.hpp"
#include "options.hpp"
#include "report.hpp"
#include "runner_shard.hpp"

namespace gatekit::smoke_runner {

namespace {

// Zero GPUs: what each backend's container needs, and the variables that may hide the devices
// (the backend table, gatekit/gpu_backends.hpp).
std::string no_gpu_advice() {
  auto variables = gpu_visibility_variables();
  std::string hiding = variables.empty() ? std::string() : variables.back();
  if (variables.size() > 1) {
    variables.pop_back();
    hiding = join(variables, ", ") + " and " + hiding;
  }
  return "no GPU is visible to this job. Check the device passthrough: " + gpu_passthrough_advice() +
         "; check that " + hiding + " do not hide every device. Pass --allow-no-gpu to report every smoke as "
         "skipped instead";
}

// A run that reached a verdict: its exit code, `result` output and message.
struct Verdict {
  ExitCode code = ExitCode::pass;
  std::string result;  // passed | failed
  std::string message;
};

// What the planning phase hands to the smokes.
struct Schedule {
  std::vector<Decision> decisions;
  std::vector<Job> jobs;
  Plan plan;
  bool replay = false;  // every estimate came from a previous run: replay the plan
};

class SmokeRun {
 public:
  SmokeRun(const Options& options, Context& context) : options_(options), context_(context) {}

  // Every phase (manifest, GPU probe, planning, smokes) looks at termination_signal() when it
  // ends; the probe and the smokes end early on it. So a cancelled job has its reports within
  // 2 s of the first signal (termination.hpp). Errors and the cancellation leave from one
  // place, stop(), after the reports and outputs are written.
  ExitCode go() {
    install_termination_handlers();
    // A process a smoke leaves behind, even outside its process group, stays below the runner
    // and is ended in conclude().
    adopt_orphans();
    report_.started_at = format_utc(context_.clock.epoch_seconds());
    started_ = context_.clock.monotonic();
    auto verdict = evaluate();
    if (!verdict) stop(verdict.error());
    return finish(*verdict);
  }

 private:
  Result<Verdict> evaluate() {
    if (auto loaded = load(); !loaded) return loaded.error();
    auto tier = resolve_tier(options_.tier, options_.tier_env, options_.tier_env_given, context_.env);
    if (!tier) return tier.error();
    report_.tier = std::string(to_string(*tier));
    if (termination_signal() != 0) return cancellation();
    auto gpus = count_gpus();
    if (!gpus) return gpus.error();
    auto schedule = make_schedule(*tier, *gpus);
    if (!schedule) return schedule.error();
    if (termination_signal() != 0) return cancellation();
    execute(*schedule, *gpus);
    if (termination_signal() != 0) return cancellation();
    return judge(*tier, *gpus, schedule->jobs.size());
  }

  gatekit::Status load() {
    auto loaded = load_manifest_file(context_.files, options_.manifest);
    if (!loaded) manifest_.path = options_.manifest;
    report_.manifest = &manifest_;
    if (!loaded) return loaded.error();
    manifest_ = std::move(*loaded);
    report_.smokes.resize(manifest_.smokes.size());
    for (std::size_t i = 0; i < report_.smokes.size(); ++i) {
      report_.smokes[i].index = i;
      report_.smokes[i].reason = "not started";
    }
    return {};
  }

  // The probe ends at once on a termination signal; its error then is the cancellation.
  Result<int> count_gpus() {
    auto inventory = resolve_gpus(options_, context_);
    if (termination_signal() != 0) return cancellation();
    if (!inventory) return inventory.error();
    report_.gpus = *inventory;
    report_.gpus_known = true;
    context_.workflow.log("GPUs: " + report_.gpus.describe());
    if (report_.gpus.count == 0 && !options_.allow_no_gpu) return could_not_evaluate(no_gpu_advice());
    return report_.gpus.count;
  }

  Result<Schedule> make_schedule(Tier tier, int gpus) {
    Schedule s;
    s.decisions = select_smokes(manifest_, tier, gpus);
    if (tier == Tier::pr && std::none_of(manifest_.smokes.begin(), manifest_.smokes.end(), [](auto& m) { return m.pr; })) {
      return bad_input(manifest_.path +
                       ": no entry has pr: true, so the pr tier has nothing to run; mark at least one entry pr: true");
    }
    const auto previous = load_durations(options_.durations_from, context_.files, context_.workflow);
    if (!options_.shard.empty()) {
      auto shard = parse_shard(options_.shard);
      if (!shard) return shard.error();
      keep_shard(s.decisions, tier, *shard, previous);
    }
    for (std::size_t i = 0; i < s.decisions.size(); ++i) {
      if (s.decisions[i].run) continue;
      report_.smokes[i].status = Status::skipped;
      report_.smokes[i].reason = s.decisions[i].reason;
      context_.workflow.log("SKIP " + manifest_.smokes[i].name + ": " + s.decisions[i].reason);
    }
    s.jobs = make_jobs(manifest_, s.decisions, previous);
    report_.concurrent = !options_.serial && gpus >= 2 && s.jobs.size() >= 2;
    s.plan = plan_runs(s.jobs, gpus, options_.serial);
    const bool known = !previous.empty() && all_estimates_known(manifest_, s.decisions, previous);
    s.replay = report_.concurrent && known;
    if (report_.concurrent) log_packing(s, gpus, known);
    return s;
  }

  // This runner's share: the split over every smoke of the tier (whatever this runner's GPU
  // count, so every runner computes the same one); the others are skipped here.
  void keep_shard(std::vector<Decision>& decisions, Tier tier, const RunnerShard& shard,
                  const std::map<std::string, milliseconds>& previous) {
    const auto everyone = make_jobs(manifest_, select_smokes(manifest_, tier, kMaxGpuCount), previous);
    const auto runner = assign_runners(everyone, shard.count);
    std::size_t mine = 0;
    for (std::size_t j = 0; j < everyone.size(); ++j) {
      if (runner[j] == shard.index - 1) {
        ++mine;
        continue;
      }
      auto& d = decisions[everyone[j].id];
      d.run = false;
      d.reason = "runs on shard " + std::to_string(runner[j] + 1) + " of " + std::to_string(shard.count);
    }
    shard_ = shard;
    shard_smokes_ = mine;
    context_.workflow.log("Shard " + std::to_string(shard.index) + " of " + std::to_string(shard.count) + ": " +
                          std::to_string(mine) + " of " + std::to_string(everyone.size()) + " smokes");
  }

  void log_packing(const Schedule& s, int gpus, bool known) {
    // Estimates are only worth printing when they come from a previous run, not from timeouts.
    const std::string estimate =
        known ? "; expected " + format_duration(s.plan.makespan) + " (one after another: " +
                    format_duration(s.plan.serial_time) + ")"
              : " (no previous durations: the largest and longest-timeout smokes start first)";
    context_.workflow.log("Packing " + std::to_string(s.jobs.size()) + " smokes onto " + std::to_string(gpus) +
                          " GPUs" + estimate);
  }

  void execute(const Schedule& s, int gpus) {
    ExecOptions exec;
    exec.gpus = gpus;
    exec.serial = options_.serial;
    exec.fail_fast = options_.fail_fast;
    exec.stream = !report_.concurrent;
    exec.replay_plan = s.replay;
    report_.result = "running";
    Executor executor(context_);
    report_.smokes = executor.run(manifest_, s.decisions, s.plan, exec, [&](const std::vector<SmokeResult>& now) {
      report_.smokes = now;
      report_.duration = elapsed();
      // Progress reports: a job killed outright still leaves the latest state behind.
      (void)write_reports(report_, options_.report_dir, context_.files);
    });
  }

  Result<Verdict> judge(Tier tier, int gpus, std::size_t eligible) {
    const auto c = count_results(report_.smokes);
    for (const auto& r : report_.smokes) {
      if (!is_failure(r.status)) continue;
      const auto& s = manifest_.smokes[r.index];
      context_.workflow.annotate(
          {Severity::error, "smoke " + s.name + " failed: " + r.reason, "smoke-runner", manifest_.path, s.line, 0});
    }
    if (const int bad = c.failed + c.timed_out + c.errors; bad > 0) {
      return Verdict{ExitCode::verdict_fail, "failed",
                     std::to_string(bad) + " of " + std::to_string(eligible) + " smokes did not pass"};
    }
    if (c.ran() > 0) return Verdict{ExitCode::pass, "passed", ""};
    if (shard_.count > 0 && shard_smokes_ == 0)
      return Verdict{ExitCode::pass, "passed", "no smoke is on shard " + std::to_string(shard_.index) + " of " +
                                                   std::to_string(shard_.count)};
    if (gpus == 0 && options_.allow_no_gpu) {
      const std::string skipped = "no GPU visible (--allow-no-gpu): every smoke was skipped";
      context_.workflow.annotate({Severity::warning, skipped, "smoke-runner", "", 0, 0});
      return Verdict{ExitCode::pass, "passed", skipped};
    }
    return could_not_evaluate("no smoke ran: every " + std::string(tier == Tier::pr ? "pr-tier " : "") +
                              "entry needs more GPUs than the " + std::to_string(gpus) + " this runner has");
  }

  milliseconds elapsed() const { return context_.clock.monotonic() - started_; }

  Error cancellation() {
    const std::string sig = signal_name(termination_signal());
    for (auto& r : report_.smokes) {
      if (r.status == Status::not_run) r.reason = "not started: the runner received " + sig;
    }
    return gatekit::cancellation("the runner", "; reports written");
  }

  // An error or a cancellation: the reports, then the step's no verdict the frame's way
  // (`result` says error or cancelled; the counts and summary follow), all before the error
  // goes to the frame, which prints it and exits with its kind's code: the reports and
  // outputs are written on every path, so the run reports its no verdict itself.
  [[noreturn]] void stop(const Error& error) {
    const bool cancelled = error.kind == ErrorKind::could_not_evaluate && termination_signal() != 0;
    const NoVerdict no_verdict{true, [this](const Error&, Context&) { write_outputs(); },
                               cancelled ? "cancelled" : "error"};
    auto written = conclude(exit_code_of(error), no_verdict.result, error.message);
    report_no_verdict(no_verdict, error, context_);
    throw_if_error(written);
    fail(error);
  }

  ExitCode finish(const Verdict& verdict) {
    // A verdict stands only with its reports: without them the run could not be evaluated
    // (result=error, exit 3), never `passed` beside an exit code that says otherwise.
    if (auto written = conclude(verdict.code, verdict.result, verdict.message); !written) stop(written.error());
    context_.workflow.set_output("result", verdict.result);  // passed | failed: the run's verdict
    write_outputs();
    context_.workflow.log("smoke-runner: " + verdict.result + (verdict.message.empty() ? "" : ": " + verdict.message) +
                          " (reports in " + options_.report_dir + ")");
    return verdict.code;
  }

  // The end of every run: no process left, the final reports.
  gatekit::Status conclude(ExitCode code, const std::string& result, const std::string& message) {
    end_leftovers();
    report_.result = result;
    report_.exit_code = to_int(code);
    report_.message = message;
    report_.duration = elapsed();
    return write_reports(report_, options_.report_dir, context_.files);
  }

  // The step outputs after `result`, and the summary.
  void write_outputs() {
    const auto c = count_results(report_.smokes);
    const auto paths = report_paths(options_.report_dir);
    Workflow& wf = context_.workflow;
    wf.set_output("passed", std::to_string(c.passed));
    wf.set_output("failed", std::to_string(c.failed + c.timed_out + c.errors));
    wf.set_output("skipped", std::to_string(c.skipped));
    wf.set_output("report-dir", options_.report_dir);
    wf.set_output("json", paths.json.string());
    wf.set_output("junit", paths.junit.string());
    wf.append_summary(report_summary(report_));
  }

  // Nothing a smoke started outlives the run, so nothing can write into the step's files (or
  // the log) after the runner's outputs.
  void end_leftovers() {
    const int left = end_child_processes(std::chrono::milliseconds(500));
    if (left == 0) return;
    context_.workflow.annotate({Severity::warning,
                                std::to_string(left) + (left == 1 ? " process" : " processes") +
                                    " left running by smokes outside their process groups (setsid) killed at the "
                                    "end of the run; a smoke must wait for what it starts",
                                "smoke-runner", "", 0, 0});
  }

  const Options& options_;
  Context& context_;
  RunnerShard shard_;             // --shard; count 0: not sharded
  std::size_t shard_smokes_ = 0;  // the smokes of the tier assigned to this runner
  Manifest manifest_;
  RunReport report_;
  milliseconds started_{0};  // the clock's monotonic reading at the start
};

}  // namespace

ExitCode run_smokes(const Options& options, Context& context) {
  SmokeRun run(options, context);
  return run.go();
}

}  // namespace gatekit::smoke_runner
