#pragma once
// Finding the baseline artifact of the last main run through the GitHub API: the newest
// completed runs of the same workflow on the main branch, triggered by `push` (so neither a
// pull request from a fork whose branch is also called main, nor a manual run, can supply
// one), and the first of them holding an unexpired artifact named after the key. A push of a
// tag is a `push` run too, its head_branch the tag's name: when a tag named like the branch
// exists, no run is taken (api_failed, with the reason), rather than one that may be the tag's.
#include <cstddef>
#include <cstdint>
#include <string>

#include "gatekit/github.hpp"

namespace gatekit::suite_report {

struct BaselineLookup {
  bool found = false;
  bool api_failed = false;  // the API failed, or could not tell the branch's runs apart (note)
  std::int64_t run_id = 0;
  std::string sha;
  std::string note;  // why none was found, or the API error
};

BaselineLookup find_baseline_artifact(github::Client& client, const std::string& repo, const std::string& workflow_file,
                                      const std::string& branch, const std::string& artifact, std::size_t max_runs = 20);

}  // namespace gatekit::suite_report
