#include "shard_check.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "gatekit/text.hpp"
#include "shard_plan.hpp"

namespace gatekit::suite_report {

namespace {

constexpr std::size_t kNamed = 10;

std::string shard_names(const std::vector<int>& indexes) {
  std::vector<std::string> names;
  for (int k : indexes) names.push_back(std::to_string(k));
  return (indexes.size() == 1 ? "shard " : "shards ") + join(names, ", ");
}

// The shards grouped by one field of their plans, in order of first appearance.
template <class Key>
std::vector<std::pair<std::vector<int>, const ShardRecord*>> grouped(const std::vector<ShardSeen>& shards, Key key) {
  std::vector<std::pair<std::vector<int>, const ShardRecord*>> groups;
  for (const auto& s : shards) {
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return key(*g.second) == key(s.record); });
    if (it == groups.end()) groups.push_back({{s.index}, &s.record});
    else it->first.push_back(s.index);
  }
  return groups;
}

// "shards 1, 3: WHAT; shard 2: WHAT"
template <class Describe>
std::string describe_groups(const std::vector<std::pair<std::vector<int>, const ShardRecord*>>& groups, Describe what) {
  std::vector<std::string> parts;
  for (const auto& [indexes, record] : groups) parts.push_back(shard_names(indexes) + ": " + what(*record));
  return join(parts, "; ");
}

void check_each_plan(const std::vector<ShardSeen>& shards, int count, const std::string& leg, ShardCheck& out) {
  for (const auto& s : shards) {
    const auto& r = s.record;
    if (r.leg != leg || r.shards != count || r.index != s.index)
      out.problems.push_back("shard " + std::to_string(s.index) + "'s plan is for leg " + r.leg + ", shard " +
                             std::to_string(r.index) + " of " + std::to_string(r.shards) + " (expected leg " + leg +
                             ", shard " + std::to_string(s.index) + " of " + std::to_string(count) + ")");
    const auto k = static_cast<std::size_t>(s.index - 1);
    if (k < r.lists.size() && (tests_digest(s.tests) != r.lists[k].sha256 || s.tests.size() != r.lists[k].tests))
      out.problems.push_back("shard " + std::to_string(s.index) + " uploaded a list (" + std::to_string(s.tests.size()) +
                             " tests) other than the one its plan made (" + std::to_string(r.lists[k].tests) + " tests)");
  }
}

// Tests in the lists of two shards or more.
void count_overlaps(const std::vector<ShardSeen>& shards, ShardCheck& out, std::size_t& distinct) {
  std::unordered_map<std::string_view, int> seen;
  std::vector<std::string> twice;
  for (const auto& s : shards) {
    std::vector<std::string_view> mine(s.tests.begin(), s.tests.end());
    std::sort(mine.begin(), mine.end());
    mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
    for (auto id : mine)
      if (++seen[id] == 2) twice.emplace_back(id);
  }
  distinct = seen.size();
  std::sort(twice.begin(), twice.end());
  out.in_two_shards = twice.size();
  if (twice.size() > kNamed) twice.resize(kNamed);
  out.in_two_named = std::move(twice);
}

}  // namespace

ShardCheck check_shards(const std::vector<ShardSeen>& shards, int count, const std::string& leg) {
  ShardCheck out;
  if (shards.empty()) return out;
  check_each_plan(shards, count, leg, out);

  const auto collections = grouped(shards, [](const ShardRecord& r) { return r.tests_sha256; });
  if (collections.size() > 1)
    out.problems.push_back("the shards collected different tests (" +
                           describe_groups(collections, [](const ShardRecord& r) {
                             return std::to_string(r.tests) + " tests, " + r.tests_sha256.substr(0, 12);
                           }) + "): the collection differs from runner to runner");
  const auto splits = grouped(shards, [](const ShardRecord& r) { return r.split_sha256; });
  if (collections.size() == 1 && splits.size() > 1)
    out.problems.push_back("the shards split by different durations (" +
                           describe_groups(splits, [](const ShardRecord& r) { return r.durations; }) +
                           "): every shard job must read the same baseline");

  std::size_t distinct = 0;
  count_overlaps(shards, out, distinct);
  if (collections.size() == 1) {
    out.selected = shards.front().record.tests;
    // Each list is part of a split of the one collection, so the lists hold only selected tests.
    out.in_no_shard = out.selected > distinct ? out.selected - distinct : 0;
    std::vector<std::string> all;
    for (const auto& s : shards) all.insert(all.end(), s.tests.begin(), s.tests.end());
    if (out.in_no_shard == 0 && out.in_two_shards == 0 && tests_digest(std::move(all)) != shards.front().record.tests_sha256)
      out.problems.push_back("the shards' lists together are not the tests they collected");
  }
  if (out.in_no_shard > 0 || out.in_two_shards > 0) {
    std::string what = std::to_string(out.in_no_shard) + " of " + std::to_string(out.selected) +
                       " selected tests ran in no shard, " + std::to_string(out.in_two_shards) + " in two or more";
    if (collections.size() > 1) what = std::to_string(out.in_two_shards) + " tests ran in two shards or more";
    out.problems.insert(out.problems.begin(), what);
  }
  return out;
}

}  // namespace gatekit::suite_report
