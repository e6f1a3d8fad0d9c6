// The shard split: balance by recorded durations, the median for tests without one,
// determinism, and a partition in every case.
#include <algorithm>
#include <map>
#include <limits>
#include <set>

#include "catch.hpp"
#include "shard_plan.hpp"

using namespace gatekit::suite_report;

namespace {

std::vector<std::string> ids(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back("tests/test_" + std::to_string(i) + ".py::test");
  return out;
}

void require_partition(const ShardPlan& plan, const std::vector<std::string>& tests) {
  std::multiset<std::string> seen;
  for (const auto& shard : plan.shards) seen.insert(shard.tests.begin(), shard.tests.end());
  REQUIRE(seen == std::multiset<std::string>(tests.begin(), tests.end()));
}

}  // namespace

TEST_CASE("plan_shards: table of small splits") {
  struct Case {
    const char* name;
    std::vector<double> seconds;  // per test; < 0: no history
    int shards;
    std::vector<std::int64_t> predicted_ms;
    std::int64_t median_ms;
  };
  const std::vector<Case> cases{
      {"one shard holds everything", {1, 2, 3}, 1, {6000}, 2000},
      {"a long test alone, the rest together", {10, 1, 2, 3, 4}, 2, {10000, 10000}, 3000},
      {"no history at all: by count (1 s each)", {-1, -1, -1, -1, -1}, 2, {3000, 2000}, 1000},
      {"new tests count as the median", {4, 1, 1, -1, -1}, 2, {4000, 4000}, 1000},
      {"more shards than tests: empty shards", {1, 1}, 3, {1000, 1000, 0}, 1000},
      {"LPT alone is 7 vs 6: the swap evens it", {3, 3, 2, 2, 2}, 2, {6000, 6000}, 2000},
  };
  for (const auto& c : cases) {
    SECTION(c.name) {
      ShardInput input;
      input.tests = ids(static_cast<int>(c.seconds.size()));
      for (std::size_t i = 0; i < c.seconds.size(); ++i)
        if (c.seconds[i] >= 0) input.seconds[input.tests[i]] = c.seconds[i];
      input.shards = c.shards;
      const auto plan = plan_shards(input);
      std::vector<std::int64_t> predicted;
      for (const auto& s : plan.shards) predicted.push_back(s.predicted_ms);
      std::sort(predicted.rbegin(), predicted.rend());
      CHECK(predicted == c.predicted_ms);
      CHECK(plan.median_ms == c.median_ms);
      require_partition(plan, input.tests);
    }
  }
}

TEST_CASE("plan_shards: each shard keeps the collection's order; duplicates count once") {
  ShardInput input;
  input.tests = {"t/a.py::z", "t/a.py::y", "t/a.py::x", "t/a.py::y"};
  input.seconds = {{"t/a.py::z", 1}, {"t/a.py::y", 5}, {"t/a.py::x", 1}};
  input.shards = 2;
  const auto plan = plan_shards(input);
  CHECK(plan.tests == 3);
  CHECK(plan.shards[0].tests == std::vector<std::string>{"t/a.py::y"});
  CHECK(plan.shards[1].tests == std::vector<std::string>{"t/a.py::z", "t/a.py::x"});
  CHECK(plan.lower_bound_ms == 5000);
  CHECK(plan.ideal_ms == 3500);
  CHECK(plan.makespan_ms == 5000);
}

TEST_CASE("plan_shards: the same input gives the same shards, whatever the map's order") {
  ShardInput a;
  a.tests = ids(500);
  for (std::size_t i = 0; i < a.tests.size(); ++i) a.seconds[a.tests[i]] = static_cast<double>((i * 7919) % 13) / 4;
  a.shards = 7;
  ShardInput b = a;
  b.seconds.clear();
  for (auto it = a.tests.rbegin(); it != a.tests.rend(); ++it) b.seconds[*it] = a.seconds.at(*it);
  const auto pa = plan_shards(a);
  const auto pb = plan_shards(b);
  for (std::size_t k = 0; k < pa.shards.size(); ++k) CHECK(pa.shards[k].tests == pb.shards[k].tests);
  require_partition(pa, a.tests);
  CHECK(pa.makespan_ms <= pa.lower_bound_ms + 250);  // within the smallest test of the bound
}

TEST_CASE("to_ms: hostile durations") {
  CHECK(to_ms(-3) == 0);
  CHECK(to_ms(std::numeric_limits<double>::quiet_NaN()) == 0);
  CHECK(to_ms(std::numeric_limits<double>::infinity()) == 0);
  CHECK(to_ms(1e300) == 1'000'000'000'000'000);
  CHECK(to_ms(0.0015) == 2);
}
