#pragma once
// The plan a shard job split by, written next to its list (`shard --plan FILE`) and read back
// by `shard-report`: what the job collected and split (as digests), where its durations came
// from, each shard's list as a digest, and the start cost it measured. Every shard job writes
// its own; `shard-report` compares them, so shards that split differently (another baseline,
// another collection) are caught instead of leaving tests in no shard, or in two. Pure.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/result.hpp"

namespace gatekit::suite_report {

struct ShardListRecord {
  std::size_t tests = 0;
  std::string sha256;        // tests_digest of the list
  std::int64_t tests_ms = 0;  // its tests' estimates (no start cost)
};

struct ShardRecord {
  std::string leg;
  int shards = 0;
  int index = 0;                 // this job's shard; 0: every list was written
  std::size_t tests = 0;         // the tests collected (each once)
  std::string tests_sha256;      // tests_digest of the collection
  std::string split_sha256;      // split_digest: the tests with their estimates and the shard count
  std::string durations;         // where the durations came from, as the summary says it
  std::size_t recorded = 0;      // tests with a recorded duration
  std::int64_t start_ms = 0;     // the start cost this job measured (its pytest collection)
  std::vector<ShardListRecord> lists;  // lists[k] is shard k + 1
};

// The record as one JSON object (format "gatekit-shard-plan", version 1), then a line break.
std::string record_json(const ShardRecord& record);

// A record written by record_json; could not evaluate naming `origin` and the field otherwise.
Result<ShardRecord> parse_record(std::string_view text, const std::string& origin);

}  // namespace gatekit::suite_report
