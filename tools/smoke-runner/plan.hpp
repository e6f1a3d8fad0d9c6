#pragma once
// Which smokes run (tier, then GPU count) and how they are packed onto GPUs. Pure functions.
#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "manifest.hpp"
#include "smoke-runner.hpp"

namespace gatekit {
class Environment;
}

namespace gatekit::smoke_runner {

enum class Tier { pr, full };
std::string_view to_string(Tier tier);
std::optional<Tier> parse_tier(std::string_view text);  // exactly "pr" or "full"

struct Decision {
  bool run = false;
  std::string reason;  // why it is skipped: "not in the pr tier (pr: false)", "needs 2 GPUs, runner has 1"
};

// One decision per manifest entry, in manifest order. Tier first, then GPU count.
std::vector<Decision> select_smokes(const Manifest& manifest, Tier tier, int gpus);

// ---- packing ------------------------------------------------------------------------------

struct Job {
  std::size_t id = 0;        // caller's index (the manifest entry)
  int gpus = 1;              // devices it needs
  milliseconds estimate{0};  // expected duration
};

// Order in which jobs are considered: more GPUs first, then longer estimates, then id.
std::vector<Job> priority_order(std::vector<Job> jobs);

struct RunningJob {
  int gpus = 0;
  milliseconds expected_end{0};  // start + estimate, in the same time base as `now`
};

// The start rule shared by the planner and the executor (EASY backfilling): take jobs in
// `queue` order while they fit in `free_gpus`; once one does not fit it gets a reservation at
// the earliest time enough GPUs are expected to be free, and a later job may start before it
// only when it is expected to end by then or uses GPUs the reservation does not need. With
// `serial`, at most one job runs at a time. Returns positions in `queue` to start now.
// `reserve` false: plain greedy list scheduling (any job that fits starts).
std::vector<std::size_t> jobs_to_start(const std::vector<Job>& queue, int free_gpus,
                                       const std::vector<RunningJob>& running, milliseconds now,
                                       bool serial, bool reserve = true);

// `count` devices from the free ones: the lowest contiguous run when there is one, else the
// lowest free indices. Empty when not enough are free.
std::vector<int> choose_devices(const std::vector<bool>& busy, int count);

struct PlannedRun {
  std::size_t id = 0;
  std::vector<int> devices;
  milliseconds start{0};
  milliseconds end{0};
};

struct Plan {
  std::vector<Job> order;  // the queue order the executor follows
  bool reserve = true;     // the start rule's reservation switch the executor uses
  std::vector<PlannedRun> runs;  // in start order
  milliseconds makespan{0};
  milliseconds serial_time{0};  // sum of estimates: one after another
  milliseconds lower_bound{0};  // max(longest, sum(gpus x time) / GPUs)
};

// Simulates jobs_to_start with the estimates as durations on `gpus` devices, for a few queue
// orders (priority_order first; then longest first, largest gpus x time first) with and
// without reservations, and keeps the shortest (the first on a tie). Jobs needing more than
// `gpus` are left out (select_smokes skips them first). With `serial`, every job gets all
// devices, one job at a time, in priority_order.
Plan plan_runs(const std::vector<Job>& jobs, int gpus, bool serial);
// One simulation with the queue taken as given.
Plan simulate(const std::vector<Job>& order, int gpus, bool serial, bool reserve);

// True when every eligible smoke has a previous duration (the plan is then worth replaying).
bool all_estimates_known(const Manifest& manifest, const std::vector<Decision>& decisions,
                         const std::map<std::string, milliseconds>& previous);

// Estimates per smoke: the previous duration when known, else the smoke's timeout.
std::vector<Job> make_jobs(const Manifest& manifest, const std::vector<Decision>& decisions,
                           const std::map<std::string, milliseconds>& previous);

// The tier: --tier when given, else the variable named by --tier-env (default
// GATEKIT_SMOKE_TIER; AORTA_CI_TIER is read too when --tier-env was not given), an empty
// value counting as unset. Anything but "pr" or "full", or no tier at all, is a usage error.
gatekit::Result<Tier> resolve_tier(const std::string& option, const std::string& env_name, bool env_name_given,
                                   const gatekit::Environment& env);

}  // namespace gatekit::smoke_runner
