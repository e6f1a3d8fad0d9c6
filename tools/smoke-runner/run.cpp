// The default mode: run the smokes on the GPUs found, then write the reports (also on failure).
#include <algorithm>
#include <chrono>
#include <ctime>
#include <iostream>

#include "executor.hpp"
#include "gatekit/cli.hpp"
#include "gatekit/process.hpp"
#include "gatekit/termination.hpp"
#include "gatekit/text.hpp"
#include "modes.hpp"
#include "plan.hpp"
#include "report.hpp"

namespace smoke_runner {

namespace {

using gatekit::ExitCode;
using gatekit::ToolError;

const char* kPassthrough =
    "no GPU is visible to this job. Check the device passthrough: a ROCm container needs "
    "--device /dev/kfd --device /dev/dri (and the video/render groups), an NVIDIA one the NVIDIA "
    "container runtime (--gpus all); check that ROCR_VISIBLE_DEVICES, HIP_VISIBLE_DEVICES and "
    "CUDA_VISIBLE_DEVICES do not hide every device. Pass --allow-no-gpu to report every smoke as "
    "skipped instead";

class Run {
 public:
  Run(const Options& o, const gatekit::Environment& env, gatekit::StreamWorkflow& wf) : o_(o), env_(env), wf_(wf) {}

  // Every phase (manifest, GPU probe, planning, smokes, reports) looks at
  // termination_signal() when it ends; the probe and the smokes end early on it. So a
  // cancelled job has its reports within 2 s of the first signal (termination.hpp).
  ExitCode go() {
    gatekit::install_termination_handlers();
    // A process a smoke leaves behind, even outside its process group, stays below the runner
    // and is ended in finish().
    gatekit::adopt_orphans();
    report_.started_at = gatekit::format_utc(std::time(nullptr));
    started_ = std::chrono::steady_clock::now();
    auto loaded = load_manifest_file(o_.manifest);
    if (!loaded) {
      manifest_.path = o_.manifest;
      report_.manifest = &manifest_;
      return stop(loaded.error().code, loaded.error().message);
    }
    manifest_ = std::move(*loaded);
    report_.manifest = &manifest_;
    report_.smokes.resize(manifest_.smokes.size());
    for (std::size_t i = 0; i < report_.smokes.size(); ++i) {
      report_.smokes[i].index = i;
      report_.smokes[i].reason = "not started";
    }

    auto tier = resolve_tier(o_.tier, o_.tier_env, o_.tier_env_given, env_);
    if (!tier) return stop(tier.error().code, tier.error().message);
    report_.tier = std::string(to_string(*tier));
    if (gatekit::termination_signal() != 0) return cancelled();

    // The probe ends at once on a termination signal; its error then is the cancellation.
    auto inventory = resolve_gpus(o_, env_);
    if (gatekit::termination_signal() != 0) return cancelled();
    if (!inventory) return stop(inventory.error().code, inventory.error().message);
    report_.gpus = *inventory;
    report_.gpus_known = true;
    const int gpus = report_.gpus.count;
    wf_.log("GPUs: " + report_.gpus.describe());
    if (gpus == 0 && !o_.allow_no_gpu) return stop(ExitCode::could_not_evaluate, kPassthrough);

    const auto decisions = select_smokes(manifest_, *tier, gpus);
    if (*tier == Tier::pr && std::none_of(manifest_.smokes.begin(), manifest_.smokes.end(), [](auto& s) { return s.pr; })) {
      return stop(ExitCode::usage_error,
                  manifest_.path + ": no entry has pr: true, so the pr tier has nothing to run; mark at least one entry pr: true");
    }
    for (std::size_t i = 0; i < decisions.size(); ++i) {
      if (decisions[i].run) continue;
      report_.smokes[i].status = Status::skipped;
      report_.smokes[i].reason = decisions[i].reason;
      wf_.log("SKIP " + manifest_.smokes[i].name + ": " + decisions[i].reason);
    }
    const auto previous = load_durations(o_.durations_from, wf_);
    const auto jobs = make_jobs(manifest_, decisions, previous);
    report_.concurrent = !o_.serial && gpus >= 2 && jobs.size() >= 2;
    const auto plan = plan_runs(jobs, gpus, o_.serial);
    if (report_.concurrent) {
      // Estimates are only worth printing when they come from a previous run, not from timeouts.
      const std::string estimate =
          all_estimates_known(manifest_, decisions, previous)
              ? "; expected " + gatekit::format_duration(plan.makespan) + " (one after another: " +
                    gatekit::format_duration(plan.serial_time) + ")"
              : " (no previous durations: the largest and longest-timeout smokes start first)";
      wf_.log("Packing " + std::to_string(jobs.size()) + " smokes onto " + std::to_string(gpus) + " GPUs" + estimate);
    }

    if (gatekit::termination_signal() != 0) return cancelled();

    gatekit::SystemProcessRunner runner;
    Executor executor(runner, wf_, std::cout, env_);
    ExecOptions exec;
    exec.gpus = gpus;
    exec.serial = o_.serial;
    exec.fail_fast = o_.fail_fast;
    exec.stream = !report_.concurrent;
    exec.replay_plan = report_.concurrent && !previous.empty() && all_estimates_known(manifest_, decisions, previous);
    report_.result = "running";
    report_.smokes = executor.run(manifest_, decisions, plan, exec, [&](const std::vector<SmokeResult>& now) {
      report_.smokes = now;
      report_.duration = elapsed();
      // Progress reports: a job killed outright still leaves the latest state behind.
      (void)write_reports(report_, o_.report_dir);
    });
    if (gatekit::termination_signal() != 0) return cancelled();

    const auto c = count_results(report_.smokes);
    for (const auto& r : report_.smokes) {
      if (!is_failure(r.status)) continue;
      const auto& s = manifest_.smokes[r.index];
      wf_.annotate({gatekit::Severity::error, "smoke " + s.name + " failed: " + r.reason, "smoke-runner",
                    manifest_.path, s.line, 0});
    }
    if (c.failed + c.timed_out + c.errors > 0) {
      return finish(ExitCode::verdict_fail, "failed",
                    std::to_string(c.failed + c.timed_out + c.errors) + " of " + std::to_string(jobs.size()) +
                        " smokes did not pass");
    }
    if (c.ran() == 0) {
      if (gpus == 0 && o_.allow_no_gpu) {
        wf_.annotate({gatekit::Severity::warning, "no GPU visible (--allow-no-gpu): every smoke was skipped", "smoke-runner",
                      "", 0, 0});
        return finish(ExitCode::pass, "passed", "no GPU visible (--allow-no-gpu): every smoke was skipped");
      }
      return stop(ExitCode::could_not_evaluate,
                  "no smoke ran: every " + std::string(*tier == Tier::pr ? "pr-tier " : "") + "entry needs more GPUs than the " +
                      std::to_string(gpus) + " this runner has");
    }
    return finish(ExitCode::pass, "passed", "");
  }

 private:
  milliseconds elapsed() const {
    return std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - started_);
  }

  ExitCode cancelled() {
    const std::string sig = gatekit::signal_name(gatekit::termination_signal());
    for (auto& r : report_.smokes) {
      if (r.status == Status::not_run) r.reason = "not started: the runner received " + sig;
    }
    return stop(ExitCode::could_not_evaluate, "cancelled: the runner received " + sig + "; reports written");
  }

  // An error or a cancellation: reports are still written, then the tool fails.
  ExitCode stop(ExitCode code, const std::string& message) {
    finish(code, code == ExitCode::could_not_evaluate && gatekit::termination_signal() != 0 ? "cancelled" : "error", message);
    throw ToolError{code, message};
  }

  ExitCode finish(ExitCode code, const std::string& result, const std::string& message) {
    // Nothing a smoke started outlives the run, so nothing can write into the step's files
    // (or the log) after the runner's outputs.
    if (const int left = gatekit::end_child_processes(std::chrono::milliseconds(500)); left > 0) {
      wf_.annotate({gatekit::Severity::warning,
                    std::to_string(left) + (left == 1 ? " process" : " processes") +
                        " left running by smokes outside their process groups (setsid) killed at the end of the run; "
                        "a smoke must wait for what it starts",
                    "smoke-runner", "", 0, 0});
    }
    report_.result = result;
    report_.exit_code = gatekit::to_int(code);
    report_.message = message;
    report_.duration = elapsed();
    auto written = write_reports(report_, o_.report_dir);
    const auto c = count_results(report_.smokes);
    const auto paths = report_paths(o_.report_dir);
    wf_.set_output("result", result);
    wf_.set_output("passed", std::to_string(c.passed));
    wf_.set_output("failed", std::to_string(c.failed + c.timed_out + c.errors));
    wf_.set_output("skipped", std::to_string(c.skipped));
    wf_.set_output("report-dir", o_.report_dir);
    wf_.set_output("json", paths.json.string());
    wf_.set_output("junit", paths.junit.string());
    wf_.append_summary(report_summary(report_));
    if (!written) throw ToolError{ExitCode::could_not_evaluate, written.error().message};
    if (!wf_.write_errors().empty()) throw ToolError{ExitCode::could_not_evaluate, wf_.write_errors().front()};
    if (code == ExitCode::pass || code == ExitCode::verdict_fail) {
      wf_.log(std::string(code == ExitCode::pass ? "smoke-runner: passed" : "smoke-runner: failed") +
              (message.empty() ? "" : ": " + message) + " (reports in " + o_.report_dir + ")");
    }
    return code;
  }

  const Options& o_;
  const gatekit::Environment& env_;
  gatekit::StreamWorkflow& wf_;
  Manifest manifest_;
  RunReport report_;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace

ExitCode run_mode(const Options& o, const gatekit::Environment& env, gatekit::StreamWorkflow& wf) {
  Run run(o, env, wf);
  return run.go();
}

}  // namespace smoke_runner
