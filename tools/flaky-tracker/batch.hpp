#pragma once
// What one run tells the issue tracker, and the journal of runs whose flakes could not be
// recorded yet (the API was down): kept in a file between runs and applied first next time.
#include <cstdint>
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
// it flaked in any, else failed if it failed in any, else passed if it passed in any. In a
// stress run (batch.run.kind) a failure counts as a flake: under load a test that fails in
// every copy (the usual stall or timeout) gets its issue like one that fails in some.
void add_report(Batch& batch, const std::vector<junit::TestCase>& cases);

// A comment whose POST failed: the next run posts it, so no flake or closing comment is lost.
struct PendingComment {
  std::int64_t issue = 0;
  std::string id;    // the test the issue tracks
  std::string body;
};

// What `issues` keeps between runs (--pending): the runs whose flakes are not recorded yet,
// oldest first, and the comments not posted yet. Greens and absences are never journalled.
struct Journal {
  std::vector<Batch> runs;
  std::vector<PendingComment> comments;
};

// What did not fit into the journal's bound: the oldest entries go first, and are counted
// and named (never dropped silently).
struct JournalDrop {
  std::size_t flakes = 0;
  std::size_t comments = 0;
  std::vector<std::string> tests;  // the tests whose entries were dropped, each once, oldest first
  bool empty() const { return flakes == 0 && comments == 0; }
};

struct JournalText {
  std::string json;
  JournalDrop dropped;
};

inline constexpr std::size_t kMaxJournalBytes = 4u << 20;      // read limit
inline constexpr std::size_t kJournalBudgetBytes = 2u << 20;   // what a written journal may hold
inline constexpr std::size_t kJournalDetailBytes = 4'000;      // output kept per journalled flake

// The journal as JSON, within max_bytes: when the entries do not fit, the oldest are left
// out (runs' flakes oldest run first, then comments oldest first) and listed in `dropped`.
JournalText journal_json(const Journal& journal, std::size_t max_bytes = kJournalBudgetBytes);
// Errors are could_not_evaluate and say what is wrong with the file's content.
Result<Journal> parse_journal(std::string_view json);

}  // namespace gatekit::flaky_tracker
