#pragma once
// Finding the baseline artifact of the last main run through the GitHub API: the newest
// completed runs of the same workflow on the main branch, triggered by `push` (so neither a
// pull request from a fork whose branch is also called main, nor a manual run, can supply
// one), and the first of them holding an unexpired artifact named after the key.
//
// The branch is resolved by its full ref, refs/heads/main, never by its short name: GitHub
// reports a tag push's run with event `push` and the tag's name as head_branch, so a tag named
// main (pushed, its run storing an artifact, deleted again) looks like the branch in the runs
// listing. A run counts only when its commit is one refs/heads/main was updated to (the
// repository's activity for that full ref: pushes, merges, force pushes).
#include <cstddef>
#include <cstdint>
#include <string>

#include "gatekit/github.hpp"

namespace gatekit::suite_report {

struct BaselineLookup {
  bool found = false;
  bool api_failed = false;  // the API failed (note)
  std::int64_t run_id = 0;
  std::string sha;
  std::string note;         // why none was found, or the API error
  std::size_t not_the_branch = 0;  // push runs named like the branch whose commit it never had
};

// The branch's activity is read up to `max_updates` updates back: a run of a commit older
// than that is not taken.
BaselineLookup find_baseline_artifact(github::Client& client, const std::string& repo, const std::string& workflow_file,
                                      const std::string& branch, const std::string& artifact, std::size_t max_runs = 20,
                                      std::size_t max_updates = 100);

}  // namespace gatekit::suite_report
