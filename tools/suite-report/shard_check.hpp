#pragma once
// After the shard jobs: did they run the leg's selection, each test in exactly one shard?
// Each shard job collected and split on its own runner; what they must agree on is in their
// plans (shard_record.hpp): the tests collected, the durations split by, each shard's list.
// Pure: the shards' lists and plans in, the problems found out.
#include <cstddef>
#include <string>
#include <vector>

#include "shard_record.hpp"

namespace gatekit::suite_report {

// One shard as shard-report found it: its list and its plan (both present).
struct ShardSeen {
  int index = 0;
  std::vector<std::string> tests;  // list.txt
  ShardRecord record;
};

struct ShardCheck {
  std::vector<std::string> problems;  // one sentence each: why the shards are not one split
  std::size_t selected = 0;           // the tests the shards collected (0 when they disagree on them)
  std::size_t in_no_shard = 0;        // selected tests in no shard's list
  std::size_t in_two_shards = 0;      // tests in the lists of two shards or more
  std::vector<std::string> in_two_named;  // the first few of them, sorted
  bool ok() const { return problems.empty(); }
};

// `shards` are the shards found, in index order; `count` is --shards and `leg` --leg. Every
// plan must be for this leg, this count and its own index; all must have collected the same
// tests and split them by the same estimates; each list must be the one its plan holds; and the
// lists together must hold every selected test exactly once.
ShardCheck check_shards(const std::vector<ShardSeen>& shards, int count, const std::string& leg);

}  // namespace gatekit::suite_report
