#include "runner_shard.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <queue>
#include <string>

#include "options.hpp"

namespace gatekit::smoke_runner {

gatekit::Result<RunnerShard> parse_shard(std::string_view text) {
  const auto slash = text.find('/');
  const std::string message = "expected K/N with 1 <= K <= N <= 256 in decimal digits, got '" + std::string(text) + "'";
  if (slash == std::string_view::npos) return gatekit::bad_input(message);
  auto index = parse_count(text.substr(0, slash), 256);
  auto count = parse_count(text.substr(slash + 1), 256);
  if (!index || !count || *index < 1 || *count < 1 || *index > *count) return gatekit::bad_input(message);
  return RunnerShard{*index, *count};
}

std::vector<int> assign_runners(const std::vector<Job>& jobs, int runners) {
  std::vector<int> assignment(jobs.size(), 0);
  if (runners <= 1) return assignment;
  const auto area = [&](std::size_t i) { return static_cast<std::int64_t>(jobs[i].gpus) * jobs[i].estimate.count(); };
  std::vector<std::size_t> order(jobs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (area(a) != area(b)) return area(a) > area(b);
    return jobs[a].id < jobs[b].id;
  });
  using Load = std::pair<std::int64_t, int>;
  std::priority_queue<Load, std::vector<Load>, std::greater<>> heap;
  for (int r = 0; r < runners; ++r) heap.push({0, r});
  for (std::size_t i : order) {
    auto [load, r] = heap.top();
    heap.pop();
    assignment[i] = r;
    heap.push({load + area(i), r});
  }
  return assignment;
}

}  // namespace gatekit::smoke_runner
