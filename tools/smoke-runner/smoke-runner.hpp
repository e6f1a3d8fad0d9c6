#pragma once
// smoke-runner: runs GPU workload smokes from a YAML manifest (docs/smoke-manifest.md), by
// tier and GPU count. Three modes over the core's seams (gatekit/context.hpp): --check
// (check.cpp), --list (list.cpp) and the default, which runs the smokes (run.cpp).
#include <string>

#include "gatekit/context.hpp"
#include "gatekit/exit_code.hpp"

int smoke_runner_main(int argc, const char* const* argv);

namespace gatekit::smoke_runner {

// The variable that holds the tier when --tier is not given, and the compatibility variable
// read as well unless --tier-env names another.
inline constexpr const char* kDefaultTierEnv = "GATEKIT_SMOKE_TIER";
inline constexpr const char* kCompatTierEnv = "AORTA_CI_TIER";

struct Options {
  std::string manifest = "config/ci/gpu_regression_smokes.yaml";
  std::string tier;
  std::string tier_env = kDefaultTierEnv;
  bool tier_env_given = false;  // --tier-env named: the compatibility variable is not read
  int gpus = -1;                // -1: detect
  bool allow_no_gpu = false;
  bool serial = false;
  bool fail_fast = false;
  std::string report_dir = "smoke-reports";
  std::string durations_from;
  std::string shard;            // --shard K/N: run only this runner's share of the smokes
  bool check = false;
  bool list = false;
};

// --check: validate the manifest only. Exit 0, or a bad_input Failure listing every problem.
ExitCode run_check(const Options& options, Context& context);
// --list: show what each tier would run on the GPUs found; run nothing.
ExitCode run_list(const Options& options, Context& context);
// The default: run the smokes and write the reports, also when it fails. Exit 0 (every
// eligible smoke passed), 1 (one did not); an error or a cancellation writes the reports and
// outputs first, then leaves as a Failure (exit 2 or 3).
ExitCode run_smokes(const Options& options, Context& context);

}  // namespace gatekit::smoke_runner
