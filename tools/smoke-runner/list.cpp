// --list: show what each tier would run on the GPUs found (or --gpus N); run nothing.
#include <vector>

#include "gatekit/environment.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "modes.hpp"
#include "plan.hpp"
#include "results.hpp"

namespace gatekit::smoke_runner {

namespace {

void list_plan(const Manifest& m, Tier tier, const gatekit::GpuInventory& gpus, bool serial,
               const std::map<std::string, milliseconds>& previous, gatekit::Workflow& wf) {
  const auto decisions = select_smokes(m, tier, gpus.count);
  const auto jobs = make_jobs(m, decisions, previous);
  const auto plan = plan_runs(jobs, gpus.count, serial);
  wf.log("Tier " + std::string(to_string(tier)) + " on " + std::to_string(gpus.count) +
         (gpus.count == 1 ? " GPU" : " GPUs") + ": " + std::to_string(jobs.size()) + " of " +
         std::to_string(m.smokes.size()) + " smokes run");
  for (const auto& run : plan.runs) {
    const auto& s = m.smokes[run.id];
    wf.log("  RUN  " + s.name + ": " + display_command(s.command) + " [GPU" + (run.devices.size() == 1 ? " " : "s ") +
           display_devices(run.devices) + "] from +" + gatekit::format_duration(run.start) + ", estimate " +
           gatekit::format_duration(run.end - run.start));
  }
  for (std::size_t i = 0; i < m.smokes.size(); ++i) {
    if (!decisions[i].run) wf.log("  SKIP " + m.smokes[i].name + ": " + decisions[i].reason);
  }
  if (!plan.runs.empty()) {
    wf.log("  expected: " + gatekit::format_duration(plan.makespan) + " (one after another: " +
           gatekit::format_duration(plan.serial_time) + ")");
  }
}

}  // namespace

ExitCode run_list(const Options& options, Context& context) {
  const Manifest manifest = value_or_throw(load_manifest_file(context.files, options.manifest));
  // Without a tier named anywhere, both tiers are shown.
  std::vector<Tier> tiers{Tier::pr, Tier::full};
  const Environment& env = context.env;
  if (!options.tier.empty() || env.get_nonempty(options.tier_env) ||
      (!options.tier_env_given && env.get_nonempty(kCompatTierEnv))) {
    tiers = {value_or_throw(resolve_tier(options.tier, options.tier_env, options.tier_env_given, env))};
  }
  const auto gpus = value_or_throw(resolve_gpus(options, context));
  context.workflow.log("GPUs: " + gpus.describe());
  const auto previous = load_durations(options.durations_from, context.files, context.workflow);
  for (auto tier : tiers) list_plan(manifest, tier, gpus, options.serial, previous, context.workflow);
  return ExitCode::pass;
}

}  // namespace gatekit::smoke_runner
