// --shard K/N: its strict reading, and the split of the smokes over runners by GPU-time.
#include <algorithm>
#include <numeric>

#include "catch.hpp"
#include "runner_shard.hpp"

using namespace gatekit::smoke_runner;
using std::chrono::milliseconds;

TEST_CASE("parse_shard: K/N, digits only, 1 <= K <= N <= 256") {
  struct Case {
    const char* text;
    int index, count;  // 0, 0: refused
  };
  const Case cases[] = {{"1/1", 1, 1}, {"2/4", 2, 4}, {"256/256", 256, 256}, {"0/2", 0, 0}, {"3/2", 0, 0},
                        {"1/257", 0, 0}, {"1", 0, 0}, {"1/", 0, 0}, {"/2", 0, 0}, {"+1/2", 0, 0},
                        {"1/2/3", 0, 0}, {"0x1/2", 0, 0}, {" 1/2", 0, 0}};
  for (const auto& c : cases) {
    CAPTURE(c.text);
    auto shard = parse_shard(c.text);
    if (c.count == 0) {
      REQUIRE_FALSE(shard.ok());
      CHECK(shard.error().message ==
            std::string("expected K/N with 1 <= K <= N <= 256 in decimal digits, got '") + c.text + "'");
    } else {
      REQUIRE(shard.ok());
      CHECK(shard->index == c.index);
      CHECK(shard->count == c.count);
    }
  }
}

TEST_CASE("assign_runners: by GPU-time, largest first, ties to the lower runner") {
  // GPU-time: a 2x40=80, b 1x50=50, c 1x30=30, d 2x10=20, e 1x20=20
  const std::vector<Job> jobs{{0, 2, milliseconds(40)}, {1, 1, milliseconds(50)}, {2, 1, milliseconds(30)},
                              {3, 2, milliseconds(10)}, {4, 1, milliseconds(20)}};
  CHECK(assign_runners(jobs, 1) == std::vector<int>{0, 0, 0, 0, 0});
  // a->0 (80); b->1 (50); c->1 (80); d (20, id 3) and e (20, id 4): d->0 (100), e->1 (100).
  CHECK(assign_runners(jobs, 2) == std::vector<int>{0, 1, 1, 0, 1});
  // More runners than smokes: one each, the rest idle.
  CHECK(assign_runners(jobs, 8) == std::vector<int>{0, 1, 2, 3, 4});
}

TEST_CASE("assign_runners: the same jobs in another order give each job the same runner") {
  std::vector<Job> jobs;
  for (std::size_t i = 0; i < 60; ++i) jobs.push_back({i, static_cast<int>(1 + i % 4), milliseconds(1000 + (i * 37) % 500)});
  const auto forward = assign_runners(jobs, 4);
  std::vector<Job> reversed(jobs.rbegin(), jobs.rend());
  const auto backward = assign_runners(reversed, 4);
  for (std::size_t i = 0; i < jobs.size(); ++i) CHECK(forward[i] == backward[jobs.size() - 1 - i]);
}
