#pragma once
// Finding the baseline artifact of the last main run through the GitHub API: the newest
// completed runs of the same workflow on the main branch, triggered by `push` (so neither a
// pull request from a fork whose branch is also called main, nor a manual run, can supply
// one), and the first of them holding an unexpired artifact named after the key.
#include <cstddef>
#include <cstdint>
#include <string>

#include "gatekit/github.hpp"

namespace gatekit::suite_report {

struct BaselineLookup {
  bool found = false;
  bool api_failed = false;
  std::int64_t run_id = 0;
  std::string sha;
  std::string note;  // why none was found, or the API error
};

BaselineLookup find_baseline_artifact(github::Client& client, const std::string& repo, const std::string& workflow_file,
                                      const std::string& branch, const std::string& artifact, std::size_t max_runs = 20);

}  // namespace gatekit::suite_report
