// Parses argv into Options, then hands them to the mode asked for.
#include <iostream>

#include "gatekit/cli.hpp"
#include "gatekit/termination.hpp"
#include "modes.hpp"
#include "smoke-runner.hpp"

int smoke_runner_main(int argc, const char* const* argv) {
  // First thing: a cancelled job's SIGINT/SIGTERM, whenever it comes, ends the run in order
  // (reports, outputs, no child left) instead of killing the tool outright.
  gatekit::install_termination_handlers();
  smoke_runner::Options o;
  CLI::Option* tier_env = nullptr;
  return gatekit::run_tool(
      {"smoke-runner", "Runs GPU workload smokes from a YAML manifest, by tier and GPU count."}, argc, argv,
      [&](CLI::App& app) {
        app.add_option("--manifest", o.manifest, "The smoke manifest (docs/smoke-manifest.md)");
        app.add_option("--tier", o.tier, "pr or full (default: from --tier-env)");
        tier_env = app.add_option("--tier-env", o.tier_env,
                                  "Variable holding the tier when --tier is not given; when this option is not "
                                  "given, AORTA_CI_TIER is read too");
        app.add_option("--gpus", o.gpus, "Do not probe the runtimes: N GPUs are installed (the *_VISIBLE_DEVICES "
                                         "variables still narrow them)")
            // Strict, and rewritten to plain decimal: CLI11 alone reads "0x2" as 2.
            ->transform(CLI::Validator(
                [](std::string& value) {
                  auto n = smoke_runner::parse_count(value, smoke_runner::kMaxGpuCount);
                  if (!n) return n.error().message;
                  value = std::to_string(*n);
                  return std::string();
                },
                "0.." + std::to_string(smoke_runner::kMaxGpuCount)));
        app.add_flag("--allow-no-gpu", o.allow_no_gpu, "Zero visible GPUs skips every smoke instead of failing (exit 3)");
        app.add_flag("--serial", o.serial, "Run one smoke at a time, each seeing every GPU (no packing)");
        app.add_flag("--fail-fast", o.fail_fast, "Start no further smoke after the first failure");
        app.add_option("--report-dir", o.report_dir, "Where smoke-results.json, smoke-junit.xml and smoke-summary.md go");
        app.add_option("--durations-from", o.durations_from,
                       "A previous smoke-results.json: its durations order and pack the smokes");
        app.add_flag("--check", o.check, "Only validate the manifest (for pre-commit)");
        app.add_flag("--list", o.list, "Show what each tier would run on the GPUs found (or --gpus N); run nothing");
      },
      [&](CLI::App&) -> gatekit::ExitCode {
        o.tier_env_given = tier_env != nullptr && tier_env->count() > 0;
        gatekit::SystemEnvironment env;
        auto wf = gatekit::make_workflow(env, std::cout);
        if (o.check) return smoke_runner::check_mode(o, *wf);
        if (o.list) return smoke_runner::list_mode(o, env, *wf);
        return smoke_runner::run_mode(o, env, *wf);
      },
      [](const std::string& message) {
        // A rejected command line still tells the workflow: result=error and a summary.
        gatekit::SystemEnvironment env;
        auto wf = gatekit::make_workflow(env, std::cout);
        smoke_runner::report_usage_error(message, *wf);
      });
}
