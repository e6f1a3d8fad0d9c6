#pragma once
// Splitting a leg's tests into N shards of about equal time. Pure: node ids and the last main
// run's durations in, shards and their predicted times out.
//
// The estimate of a test is its recorded duration; a test without one (new, renamed, or no
// baseline at all) counts as the mean of the recorded tests of the leg (1 s when none is
// recorded), as pytest-split counts it, so new tests spread over the shards instead of piling
// onto one. The split is longest-processing-time-first (each test, longest first, to the shard
// with the least time; ties go to the lower shard, tests of equal time in id order), then
// moves and swaps out of the slowest shard while they shorten it.
//
// Same set of tests and durations, same shards: the split works on the tests sorted by id, so
// the order pytest collected them in (pytest-randomly, a conftest that reorders, parameters
// from a set under hash randomization) never changes which shard a test lands in. Every shard
// job collects on its own runner, and all of them must derive the one split.
//
// A shard also pays a fixed cost before its first test (the interpreter, plugins, imports,
// collection): `start_ms`, measured by the shard job, is added to every shard's prediction but
// never decides the split (it is the same for every shard, and a measured value differs from
// runner to runner).
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
  std::int64_t start_ms = 0;                            // a shard's fixed start cost (measured)
};

struct Shard {
  std::vector<std::string> tests;  // in the collection's order
  std::int64_t tests_ms = 0;       // its tests' estimates
  std::int64_t predicted_ms = 0;   // start_ms + tests_ms
};

struct ShardPlan {
  std::vector<Shard> shards;        // shards[0] is shard 1
  std::size_t tests = 0;            // distinct tests
  std::size_t with_history = 0;     // tests that had a recorded duration
  std::int64_t mean_ms = 0;         // the estimate of a test without one
  std::int64_t start_ms = 0;        // each shard's start cost, in every figure below
  std::int64_t total_ms = 0;        // all tests' estimates (no start cost)
  std::int64_t longest_ms = 0;
  std::int64_t ideal_ms = 0;        // start + total / N (rounded up)
  std::int64_t lower_bound_ms = 0;  // start + max(longest test, total / N): no split is faster
  std::int64_t makespan_ms = 0;     // the slowest shard's prediction
};

// The duration estimate in whole milliseconds (negative or non-finite: 0).
std::int64_t to_ms(double seconds);

struct Estimates {
  std::vector<std::int64_t> ms;   // per test of `tests`
  std::size_t with_history = 0;
  std::int64_t mean_ms = 0;
};
// Each test's estimate: its recorded duration, else the mean of the recorded ones among
// `tests` (their milliseconds, rounded half up; 1 s when there are none).
Estimates estimate(const std::vector<std::string>& tests, const std::unordered_map<std::string, double>& seconds);

// `input.shards` must be at least 1 (the caller checks). Duplicate ids count once.
ShardPlan plan_shards(const ShardInput& input);

// What two shard jobs compare to know they split alike (64 hex digits each): the tests, as a
// set (sorted, duplicates once), and the estimates the split was made from, with the shard
// count. Equal digests, equal splits.
std::string tests_digest(std::vector<std::string> tests);
std::string split_digest(const ShardInput& input);

// The core of plan_shards on bare estimates: the shard of each job (0-based). Exposed for the
// benchmark and the tests.
std::vector<int> assign_shards(const std::vector<std::int64_t>& estimates_ms, const std::vector<std::string>& ids,
                               int shards);

// How far `value` lies above `base`, for the summaries: "12%" (whole percent, rounded toward
// zero); "0%" when base is not positive.
std::string percent_over(std::int64_t value, std::int64_t base);

}  // namespace gatekit::suite_report
