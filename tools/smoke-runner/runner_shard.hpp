#pragma once
// Splitting the smokes over N runners (--shard K/N). Pure functions. Every runner computes the
// same split, so it depends only on what every runner sees alike: the manifest, the tier and
// the previous durations, never on this runner's GPU count. Each runner then packs its share
// onto its own GPUs (plan_runs), as without sharding.
#include <string_view>
#include <vector>

#include "gatekit/result.hpp"
#include "plan.hpp"

namespace gatekit::smoke_runner {

struct RunnerShard {
  int index = 0;  // 1..count
  int count = 0;  // 0: not sharded
};

// "K/N" with 1 <= K <= N <= 256, digits only; anything else is a usage error.
gatekit::Result<RunnerShard> parse_shard(std::string_view text);

// The runner (0-based) of each job, in `jobs` order: jobs by GPU-time (gpus x estimate),
// largest first (then id), each to the runner with the least GPU-time so far (the lower one
// on a tie).
std::vector<int> assign_runners(const std::vector<Job>& jobs, int runners);

}  // namespace gatekit::smoke_runner
