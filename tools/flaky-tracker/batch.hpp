#pragma once
// What one run tells the issue tracker, and the journal of runs whose flakes could not be
// recorded yet (the API was down): kept in a file between runs and applied first next time.
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gatekit/junit_reader.hpp"
#include "gatekit/result.hpp"
#include "issue_body.hpp"
#include "issue_state.hpp"

namespace gatekit::flaky_tracker {

struct Flake {
  std::string id;
  FlakeText text;
};

struct Batch {
  RunStamp run;
  std::vector<Flake> flakes;
  // Every test of the run's reports (absent from the journal: a journalled run only brings
  // its flakes, so greens and absences are counted by the runs that reached the API).
  std::unordered_map<std::string, Observation> seen;
  bool complete = false;
};

// Adds one report's tests to the batch; a test in several reports (legs) counts as flaky if
// it flaked in any, else failed if it failed in any, else passed if it passed in any.
void add_report(Batch& batch, const std::vector<junit::TestCase>& cases);

inline constexpr std::size_t kMaxJournalBatches = 50;
inline constexpr std::size_t kMaxJournalFlakes = 100;  // per batch
inline constexpr std::size_t kMaxJournalBytes = 4u << 20;

std::string journal_json(const std::vector<Batch>& batches);
// Errors are could_not_evaluate and say what is wrong with the file's content.
Result<std::vector<Batch>> parse_journal(std::string_view json);

}  // namespace gatekit::flaky_tracker
