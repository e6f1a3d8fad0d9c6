#pragma once
// Applies runs to the flaky-test issues through an IssueStore. One issue per test, found by
// its marker; every write is preceded by a fresh read and followed by a check that it stuck,
// so that two overlapping runs neither open two issues for one test nor lose a count:
// - before opening an issue the list is read again; after opening it, the list is read once
//   more and, when another run opened one for the same test at the same time, the higher
//   number is closed as a duplicate and this run's flake goes to the lower one;
// - after writing a state, the issue is read back; when the run's key is not in it (another
//   run wrote in between), the run is applied again on top (up to 3 tries).
// The workflow's concurrency group (docs/actions/flaky-tracker.md) keeps such races rare.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "batch.hpp"
#include "issue_store.hpp"

namespace gatekit::flaky_tracker {

struct Change {
  std::string id;
  std::int64_t number = 0;
  std::string url;
  std::string what;  // "opened", "commented", "reopened", "green 3 of 20", "closed: ..."
};

class Tracker {
 public:
  Tracker(IssueStore& store, std::string label, Rules rules);
  // Reads every issue with the label; closes open duplicates (same marker, higher number).
  Status load();
  Status apply(const Batch& batch);
  const std::vector<Change>& changes() const { return changes_; }
  // The tracked issues as the run left them, by test id.
  const std::map<std::string, StoredIssue>& issues() const { return index_; }

 private:
  Status reindex(const std::vector<StoredIssue>& issues, bool close_duplicates);
  Status apply_one(const std::string& id, Observation observation, const FlakeText* text, const RunStamp& run);
  // Returns true when done (opened), false when the test turned out to have an issue already.
  Result<bool> open_issue(const std::string& id, const FlakeText* text, const RunStamp& run);
  Result<bool> write_state(const std::string& id, Observation observation, const FlakeText* text, const RunStamp& run);

  IssueStore& store_;
  std::string label_;
  Rules rules_;
  std::map<std::string, StoredIssue> index_;
  std::vector<Change> changes_;
};

}  // namespace gatekit::flaky_tracker
