// The shard split: balance by recorded durations, the mean for tests without one, the start
// cost in every prediction, determinism (whatever the collection's order), and a partition in
// every case.
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
    std::int64_t mean_ms;
  };
  const std::vector<Case> cases{
      {"one shard holds everything", {1, 2, 3}, 1, {6000}, 2000},
      {"a long test lifts the mean over the median", {9, 1, 2, -1}, 2, {9000, 7000}, 4000},
      {"a long test alone, the rest together", {10, 1, 2, 3, 4}, 2, {10000, 10000}, 4000},
      {"no history at all: by count (1 s each)", {-1, -1, -1, -1, -1}, 2, {3000, 2000}, 1000},
      // pytest-split's rule: the mean of the recorded ones (2 s), not their median (1 s, which
      // gave 4/4 with the two new tests taken for quick ones).
      {"new tests count as the mean", {4, 1, 1, -1, -1}, 2, {5000, 5000}, 2000},
      {"the mean rounds half up", {0.001, 0.002, -1}, 2, {3, 2}, 2},
      {"more shards than tests: empty shards", {1, 1}, 3, {1000, 1000, 0}, 1000},
      {"LPT alone is 7 vs 6: the swap evens it", {3, 3, 2, 2, 2}, 2, {6000, 6000}, 2400},
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
      CHECK(plan.mean_ms == c.mean_ms);
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

TEST_CASE("plan_shards: the collection's order never changes the split") {
  // Twelve tests, some without a recorded duration: longest-first leaves the shards 100 ms
  // apart, and the moves that even them out had to pick among tests of equal time. They
  // picked by position in the collection, so two shard jobs whose pytest collected in another
  // order (pytest-randomly, a reordering conftest) put test_b and test_g in different shards.
  const std::vector<double> tenths{-1, 4, -1, -1, 2, 3, 5, -1, 2, -1, -1, 6};
  ShardInput natural;
  for (std::size_t i = 0; i < tenths.size(); ++i) {
    natural.tests.push_back("tests/test_gpu.py::test_" + std::string(1, static_cast<char>('a' + i)));
    if (tenths[i] >= 0) natural.seconds[natural.tests.back()] = tenths[i] / 10;
  }
  natural.shards = 3;
  auto shards_of = [](const ShardPlan& plan) {
    std::vector<std::set<std::string>> out;
    for (const auto& shard : plan.shards) out.emplace_back(shard.tests.begin(), shard.tests.end());
    return out;
  };
  const auto expected = shards_of(plan_shards(natural));
  ShardInput reversed = natural;
  std::reverse(reversed.tests.begin(), reversed.tests.end());
  CHECK(shards_of(plan_shards(reversed)) == expected);
  ShardInput rotated = natural;
  for (std::size_t r = 1; r < rotated.tests.size(); ++r) {
    std::rotate(rotated.tests.begin(), rotated.tests.begin() + 1, rotated.tests.end());
    CHECK(shards_of(plan_shards(rotated)) == expected);
  }
  // And each list keeps the order this job collected in (the order its pytest runs).
  const auto plan = plan_shards(reversed);
  for (const auto& shard : plan.shards) CHECK(std::is_sorted(shard.tests.rbegin(), shard.tests.rend()));
  CHECK(split_digest(reversed) == split_digest(natural));
  CHECK(tests_digest(reversed.tests) == tests_digest(natural.tests));
}

TEST_CASE("plan_shards: a shard's start cost is in every prediction, never in the split") {
  ShardInput input;
  input.tests = ids(6);
  for (std::size_t i = 0; i < input.tests.size(); ++i) input.seconds[input.tests[i]] = 0.001 * static_cast<double>(i + 1);
  input.shards = 3;
  const auto without = plan_shards(input);
  input.start_ms = 2100;  // aorta: 99 ms of tests predicted, 2.2 s taken
  const auto with = plan_shards(input);
  for (std::size_t k = 0; k < with.shards.size(); ++k) {
    CHECK(with.shards[k].tests == without.shards[k].tests);
    CHECK(with.shards[k].tests_ms == without.shards[k].tests_ms);
    CHECK(with.shards[k].predicted_ms == 2100 + without.shards[k].tests_ms);
  }
  CHECK(with.start_ms == 2100);
  CHECK(with.makespan_ms == 2107);
  CHECK(with.ideal_ms == 2107);
  CHECK(with.lower_bound_ms == 2107);
  CHECK(with.total_ms == 21);
  CHECK(split_digest(input) == [&] {
    ShardInput other = input;
    other.start_ms = 0;
    return split_digest(other);
  }());
}

TEST_CASE("split_digest: the tests, their estimates and the shard count, nothing else") {
  ShardInput a;
  a.tests = {"t.py::a", "t.py::b"};
  a.seconds = {{"t.py::a", 1.0}};
  a.shards = 2;
  ShardInput more_shards = a;
  more_shards.shards = 3;
  ShardInput other_time = a;
  other_time.seconds["t.py::a"] = 2.0;
  ShardInput by_count = a;
  by_count.seconds.clear();
  ShardInput duplicated = a;
  duplicated.tests.push_back("t.py::a");
  CHECK(split_digest(a).size() == 64);
  CHECK(split_digest(a) != split_digest(more_shards));
  CHECK(split_digest(a) != split_digest(other_time));
  CHECK(split_digest(a) == split_digest(by_count));  // both estimate 1 s a test
  CHECK(split_digest(a) == split_digest(duplicated));
  CHECK(tests_digest({"t.py::b", "t.py::a"}) == tests_digest({"t.py::a", "t.py::b", "t.py::a"}));
  CHECK(tests_digest({"t.py::a"}) != tests_digest({"t.py::a", "t.py::b"}));
  CHECK(tests_digest({}) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");  // "" hashed
}

TEST_CASE("to_ms: hostile durations") {
  CHECK(to_ms(-3) == 0);
  CHECK(to_ms(std::numeric_limits<double>::quiet_NaN()) == 0);
  CHECK(to_ms(std::numeric_limits<double>::infinity()) == 0);
  CHECK(to_ms(1e300) == 1'000'000'000'000'000);
  CHECK(to_ms(0.0015) == 2);
}
