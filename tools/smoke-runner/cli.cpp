// Maps argv to smoke_runner::Options and calls the mode asked for.
#include <optional>
#include <string>

#include "gatekit/cli.hpp"
#include "gatekit/termination.hpp"
#include "modes.hpp"
#include "options.hpp"
#include "runner_shard.hpp"
#include "smoke-runner.hpp"

namespace {

using gatekit::smoke_runner::Options;

// Strict, and rewritten to plain decimal: CLI11 alone reads "0x2" as 2.
std::string gpu_count(std::string& value) {
  using namespace gatekit::smoke_runner;
  auto n = parse_count(value, kMaxGpuCount);
  if (!n) return n.error().message;
  value = std::to_string(*n);
  return std::string();
}

std::string shard_spec(const std::string& value) {
  auto shard = gatekit::smoke_runner::parse_shard(value);
  return shard ? std::string() : shard.error().message;
}

// Returns the --tier-env option, to tell later whether it was given.
gatekit::CliOption configure(gatekit::CliCommand& app, Options& o) {
  app.option("--manifest", o.manifest, "The smoke manifest (docs/smoke-manifest.md)");
  app.option("--tier", o.tier, "pr or full (default: from --tier-env)");
  auto tier_env = app.option("--tier-env", o.tier_env,
                             "Variable holding the tier when --tier is not given; when this option is not "
                             "given, AORTA_CI_TIER is read too");
  app.option("--gpus", o.gpus, "Do not probe the runtimes: N GPUs are installed (the *_VISIBLE_DEVICES "
             "variables still narrow them)")
      .transform(gpu_count, "0.." + std::to_string(gatekit::smoke_runner::kMaxGpuCount));
  app.flag("--allow-no-gpu", o.allow_no_gpu, "Zero visible GPUs skips every smoke instead of failing (exit 3)");
  app.flag("--serial", o.serial, "Run one smoke at a time, each seeing every GPU (no packing)");
  app.flag("--fail-fast", o.fail_fast, "Start no further smoke after the first failure");
  app.option("--report-dir", o.report_dir, "Where smoke-results.json, smoke-junit.xml and smoke-summary.md go");
  app.option("--durations-from", o.durations_from,
             "A previous smoke-results.json: its durations order and pack the smokes");
  app.option("--shard", o.shard, "K/N: split the smokes over N runners by GPU-time and run share K here")
      .check(shard_spec, "K/N");
  app.flag("--check", o.check, "Only validate the manifest (for pre-commit)");
  app.flag("--list", o.list, "Show what each tier would run on the GPUs found (or --gpus N); run nothing");
  return tier_env;
}

}  // namespace

int smoke_runner_main(int argc, const char* const* argv) {
  using namespace gatekit;
  // First thing: a cancelled job's SIGINT/SIGTERM, whenever it comes, ends the run in order
  // (reports, outputs, no child left) instead of killing the tool outright.
  install_termination_handlers();
  Options o;
  std::optional<CliOption> tier_env;
  // No verdict: a rejected command line leaves `result=error` and a short summary; the run
  // mode reports its own (result=error or cancelled, with its counts) before it fails.
  ToolInfo info{"smoke-runner", "Runs GPU workload smokes from a YAML manifest, by tier and GPU count."};
  info.rejected_argv = NoVerdict{
      true, [](const Error& error, Context& context) { smoke_runner::report_usage_error(error.message, context.workflow); }};
  return run_tool(
      info, argc, argv, [&](gatekit::CliCommand& app) { tier_env = configure(app, o); },
      [&](Context& context) -> ExitCode {
        o.tier_env_given = tier_env && tier_env->count() > 0;
        if (o.check) return smoke_runner::run_check(o, context);
        if (o.list) return smoke_runner::run_list(o, context);
        return smoke_runner::run_smokes(o, context);
      });
}
