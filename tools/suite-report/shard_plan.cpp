#include "shard_plan.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <queue>
#include <set>
#include <unordered_set>
#include <utility>

#include "gatekit/sha256.hpp"

namespace gatekit::suite_report {

namespace {

using Member = std::pair<std::int64_t, std::size_t>;  // (estimate, job), ordered
using Members = std::set<Member>;

constexpr std::int64_t kNoHistoryMs = 1000;
// The improvement's bounds: rounds, and the least loaded shards tried for each.
constexpr std::size_t kMaxRounds = 256;
constexpr std::size_t kShardsTried = 4;

// Longest processing time first: each job, longest first (equal ones by id), to the shard with
// the least time so far (the lower shard on a tie).
std::vector<int> longest_first(const std::vector<std::int64_t>& estimates, const std::vector<std::string>& ids, int shards) {
  std::vector<std::size_t> order(estimates.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (estimates[a] != estimates[b]) return estimates[a] > estimates[b];
    return ids[a] < ids[b];
  });
  using Load = std::pair<std::int64_t, int>;
  std::priority_queue<Load, std::vector<Load>, std::greater<>> heap;
  for (int k = 0; k < shards; ++k) heap.push({0, k});
  std::vector<int> assignment(estimates.size(), 0);
  for (std::size_t job : order) {
    auto [load, k] = heap.top();
    heap.pop();
    assignment[job] = k;
    heap.push({load + estimates[job], k});
  }
  return assignment;
}

struct Exchange {
  std::int64_t pair_max = 0;  // the larger of the two shards' times after it
  bool swap = false;
  Member out;  // leaves the slow shard
  Member in;   // leaves the other shard (a swap only)
};

// The best single move or swap from `slow` to `other` that leaves both below slow's time:
// the one that brings the two closest to even.
bool best_exchange(const Members& slow, const Members& other, std::int64_t slow_load, std::int64_t other_load,
                   Exchange& best) {
  const std::int64_t gap = slow_load - other_load;
  if (gap <= 1) return false;
  bool found = false;
  best.pair_max = slow_load;
  auto consider = [&](std::int64_t moved, const Member& out, const Member* in) {
    if (moved <= 0 || moved >= gap) return;
    const std::int64_t pair_max = std::max(slow_load - moved, other_load + moved);
    if (pair_max < best.pair_max) {
      best = {pair_max, in != nullptr, out, in != nullptr ? *in : Member{}};
      found = true;
    }
  };
  // A move: the job nearest half the gap.
  const Member half{gap / 2, 0};
  auto it = slow.lower_bound(half);
  if (it != slow.end()) consider(it->first, *it, nullptr);
  if (it != slow.begin()) consider(std::prev(it)->first, *std::prev(it), nullptr);
  // A swap: for each job t of the slow shard, the job u of the other nearest t - gap/2.
  for (const auto& t : slow) {
    if (t.first <= 0) continue;
    auto u = other.lower_bound(Member{t.first - gap / 2, 0});
    if (u != other.end()) consider(t.first - u->first, t, &*u);
    if (u != other.begin()) consider(t.first - std::prev(u)->first, t, &*std::prev(u));
  }
  return found;
}

// Moves and swaps out of the slowest shard (to one of the least loaded few) while one shortens
// it, until it meets the lower bound. Each one lowers the sum of the squared shard times, so
// this ends; the caps bound the work on any input.
void improve(std::vector<int>& assignment, const std::vector<std::int64_t>& estimates, int shards) {
  std::vector<Members> members(static_cast<std::size_t>(shards));
  std::vector<std::int64_t> load(static_cast<std::size_t>(shards), 0);
  for (std::size_t job = 0; job < assignment.size(); ++job) {
    members[static_cast<std::size_t>(assignment[job])].insert({estimates[job], job});
    load[static_cast<std::size_t>(assignment[job])] += estimates[job];
  }
  std::vector<std::size_t> by_load(load.size());
  const std::int64_t longest = estimates.empty() ? 0 : *std::max_element(estimates.begin(), estimates.end());
  const std::int64_t total = std::accumulate(load.begin(), load.end(), std::int64_t{0});
  const std::int64_t bound = std::max(longest, (total + shards - 1) / shards);
  for (std::size_t round = 0; round < kMaxRounds; ++round) {
    const auto slow = static_cast<std::size_t>(std::max_element(load.begin(), load.end()) - load.begin());
    if (load[slow] <= bound) return;  // no split is faster
    std::iota(by_load.begin(), by_load.end(), std::size_t{0});
    std::stable_sort(by_load.begin(), by_load.end(), [&](std::size_t a, std::size_t b) { return load[a] < load[b]; });
    bool improved = false;
    for (std::size_t tried = 0; tried < by_load.size() && tried < kShardsTried; ++tried) {
      const std::size_t other = by_load[tried];
      if (other == slow) continue;
      Exchange exchange;
      if (!best_exchange(members[slow], members[other], load[slow], load[other], exchange)) continue;
      members[slow].erase(exchange.out);
      members[other].insert(exchange.out);
      assignment[exchange.out.second] = static_cast<int>(other);
      std::int64_t moved = exchange.out.first;
      if (exchange.swap) {
        members[other].erase(exchange.in);
        members[slow].insert(exchange.in);
        assignment[exchange.in.second] = static_cast<int>(slow);
        moved -= exchange.in.first;
      }
      load[slow] -= moved;
      load[other] += moved;
      improved = true;
      break;
    }
    if (!improved) return;
  }
}

// The mean of the recorded estimates, rounded half up; kNoHistoryMs when there are none.
std::int64_t mean_of(const std::vector<std::int64_t>& values) {
  if (values.empty()) return kNoHistoryMs;
  const auto count = static_cast<std::int64_t>(values.size());
  const std::int64_t sum = std::accumulate(values.begin(), values.end(), std::int64_t{0});  // each at most 1e15 ms
  return (sum + count / 2) / count;
}

// The tests as a set: sorted by id, each once. What the split is made from, so that the
// collection's order cannot change it.
std::vector<std::string> canonical(std::vector<std::string> tests) {
  std::sort(tests.begin(), tests.end());
  tests.erase(std::unique(tests.begin(), tests.end()), tests.end());
  return tests;
}

}  // namespace

std::int64_t to_ms(double seconds) {
  if (!std::isfinite(seconds) || seconds <= 0) return 0;
  constexpr double kMaxMs = 1e15;  // ~31,000 years: sums of many stay far from overflow
  return static_cast<std::int64_t>(std::llround(std::min(seconds * 1000.0, kMaxMs)));
}

std::vector<int> assign_shards(const std::vector<std::int64_t>& estimates_ms, const std::vector<std::string>& ids,
                               int shards) {
  if (shards <= 1) return std::vector<int>(estimates_ms.size(), 0);
  auto assignment = longest_first(estimates_ms, ids, shards);
  improve(assignment, estimates_ms, shards);
  return assignment;
}

Estimates estimate(const std::vector<std::string>& tests, const std::unordered_map<std::string, double>& seconds) {
  Estimates out;
  out.ms.assign(tests.size(), -1);
  std::vector<std::int64_t> recorded;
  for (std::size_t i = 0; i < tests.size(); ++i) {
    if (auto it = seconds.find(tests[i]); it != seconds.end()) {
      out.ms[i] = to_ms(it->second);
      recorded.push_back(out.ms[i]);
    }
  }
  out.with_history = recorded.size();
  out.mean_ms = mean_of(recorded);
  for (auto& e : out.ms)
    if (e < 0) e = out.mean_ms;
  return out;
}

ShardPlan plan_shards(const ShardInput& input) {
  const int n = std::max(1, input.shards);
  ShardPlan plan;
  const std::vector<std::string> ids = canonical(input.tests);
  plan.tests = ids.size();

  const auto estimated = estimate(ids, input.seconds);
  const auto& estimates = estimated.ms;
  plan.with_history = estimated.with_history;
  plan.mean_ms = estimated.mean_ms;
  plan.start_ms = std::max<std::int64_t>(0, input.start_ms);

  const auto assignment = assign_shards(estimates, ids, n);
  plan.shards.resize(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < ids.size(); ++i) {
    plan.shards[static_cast<std::size_t>(assignment[i])].tests_ms += estimates[i];
    plan.total_ms += estimates[i];
    plan.longest_ms = std::max(plan.longest_ms, estimates[i]);
  }
  // Each shard's tests in the order this job collected them (the order its pytest runs them).
  std::unordered_set<std::string> placed;
  for (const auto& id : input.tests) {
    if (!placed.insert(id).second) continue;
    const auto at = static_cast<std::size_t>(std::lower_bound(ids.begin(), ids.end(), id) - ids.begin());
    plan.shards[static_cast<std::size_t>(assignment[at])].tests.push_back(id);
  }
  for (auto& shard : plan.shards) {
    shard.predicted_ms = plan.start_ms + shard.tests_ms;
    plan.makespan_ms = std::max(plan.makespan_ms, shard.predicted_ms);
  }
  const std::int64_t even = (plan.total_ms + n - 1) / n;
  plan.ideal_ms = plan.start_ms + even;
  plan.lower_bound_ms = plan.start_ms + std::max(plan.longest_ms, even);
  return plan;
}

std::string tests_digest(std::vector<std::string> tests) {
  std::string text;
  for (const auto& id : canonical(std::move(tests))) text.append(id).push_back('\n');
  return sha256_hex(text);
}

std::string split_digest(const ShardInput& input) {
  const std::vector<std::string> ids = canonical(input.tests);
  const auto estimated = estimate(ids, input.seconds);
  std::string text = "shards " + std::to_string(std::max(1, input.shards)) + "\n";
  for (std::size_t i = 0; i < ids.size(); ++i) text.append(ids[i]).append("\t").append(std::to_string(estimated.ms[i])).push_back('\n');
  return sha256_hex(text);
}

std::string percent_over(std::int64_t value, std::int64_t base) {
  if (base <= 0) return "0%";
  return std::to_string(static_cast<long long>((value - base) * 100 / base)) + "%";
}

}  // namespace gatekit::suite_report
