#pragma once
// Splitting a leg's tests into N shards of about equal time. Pure: node ids and the last main
// run's durations in, shards and their predicted times out.
//
// The estimate of a test is its recorded duration; a test without one (new, renamed, or no
// baseline at all) counts as the median of the recorded tests of the leg (1 s when none is
// recorded), so new tests spread over the shards instead of piling onto one. The split is
// longest-processing-time-first (each test, longest first, to the shard with the least time;
// ties go to the lower shard, tests of equal time in id order), then moves and swaps out of
// the slowest shard while they shorten it. Same input, same shards.
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace gatekit::suite_report {

struct ShardInput {
  std::vector<std::string> tests;                       // the leg's collection, in pytest's order
  std::unordered_map<std::string, double> seconds;      // recorded durations (test id -> seconds)
  int shards = 1;
};

struct Shard {
  std::vector<std::string> tests;  // in the collection's order
  std::int64_t predicted_ms = 0;
};

struct ShardPlan {
  std::vector<Shard> shards;        // shards[0] is shard 1
  std::size_t tests = 0;            // distinct tests
  std::size_t with_history = 0;     // tests that had a recorded duration
  std::int64_t median_ms = 0;       // the estimate of a test without one
  std::int64_t total_ms = 0;
  std::int64_t longest_ms = 0;
  std::int64_t ideal_ms = 0;        // total / N (rounded up)
  std::int64_t lower_bound_ms = 0;  // max(longest test, total / N): no split is faster
  std::int64_t makespan_ms = 0;     // the slowest shard's prediction
};

// The duration estimate in whole milliseconds (negative or non-finite: 0).
std::int64_t to_ms(double seconds);

struct Estimates {
  std::vector<std::int64_t> ms;   // per test of `tests`
  std::size_t with_history = 0;
  std::int64_t median_ms = 0;
};
// Each test's estimate: its recorded duration, else the median of the recorded ones among
// `tests` (1 s when there are none).
Estimates estimate(const std::vector<std::string>& tests, const std::unordered_map<std::string, double>& seconds);

// `input.shards` must be at least 1 (the caller checks). Duplicate ids count once.
ShardPlan plan_shards(const ShardInput& input);

// The core of plan_shards on bare estimates: the shard of each job (0-based). Exposed for the
// benchmark and the tests.
std::vector<int> assign_shards(const std::vector<std::int64_t>& estimates_ms, const std::vector<std::string>& ids,
                               int shards);

// How far `value` lies above `base`, for the summaries: "12%" (whole percent, rounded toward
// zero); "0%" when base is not positive.
std::string percent_over(std::int64_t value, std::int64_t base);

}  // namespace gatekit::suite_report
