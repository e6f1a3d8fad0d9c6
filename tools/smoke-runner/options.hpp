#pragma once
// What the command line asked for; cli.cpp fills it, the modes read it.
#include <string>
#include <string_view>

#include "gatekit/result.hpp"
#include "plan.hpp"

namespace smoke_runner {

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
  bool check = false;
  bool list = false;
};

inline constexpr int kMaxGpuCount = 1024;  // --gpus, as min_gpus in the manifest

// A count on the command line (--gpus): decimal digits only, 0..max. "0x2", "1e1", " 3",
// "+3" and "3.0" are refused rather than read as some other number.
gatekit::Result<int> parse_count(std::string_view text, int max);

}  // namespace smoke_runner
