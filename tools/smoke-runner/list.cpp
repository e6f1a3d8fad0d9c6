// --list: show what each tier would run on the GPUs found (or --gpus N); run nothing.
#include <vector>

#include "gatekit/cli.hpp"
#include "gatekit/text.hpp"
#include "modes.hpp"
#include "plan.hpp"
#include "results.hpp"

namespace smoke_runner {

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

gatekit::ExitCode list_mode(const Options& o, const gatekit::Environment& env, gatekit::Workflow& wf) {
  using gatekit::ToolError;
  auto loaded = load_manifest_file(o.manifest);
  if (!loaded) throw ToolError{loaded.error().code, loaded.error().message};
  // Without a tier named anywhere, both tiers are shown.
  std::vector<Tier> tiers{Tier::pr, Tier::full};
  if (!o.tier.empty() || env.get_nonempty(o.tier_env) || (!o.tier_env_given && env.get_nonempty(kCompatTierEnv))) {
    auto tier = resolve_tier(o.tier, o.tier_env, o.tier_env_given, env);
    if (!tier) throw ToolError{tier.error().code, tier.error().message};
    tiers = {*tier};
  }
  auto gpus = resolve_gpus(o, env);
  if (!gpus) throw ToolError{gpus.error().code, gpus.error().message};
  wf.log("GPUs: " + gpus->describe());
  const auto previous = load_durations(o.durations_from, wf);
  for (auto tier : tiers) list_plan(*loaded, tier, *gpus, o.serial, previous, wf);
  return gatekit::ExitCode::pass;
}

}  // namespace smoke_runner
