#pragma once
// Setting a commit status through the core GitHub client (POST /repos/{repo}/statuses/{sha}).
// The token comes from the environment (GITHUB_TOKEN, else GH_TOKEN) and is masked in
// everything the tool writes; GITHUB_API_URL points the client elsewhere (a GitHub Enterprise
// server, the API test server).
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/context.hpp"
#include "gatekit/github.hpp"
#include "gatekit/result.hpp"

namespace gatekit::gpu_gate {

struct StatusPost {
  std::string repository;   // owner/name
  std::string sha;          // full commit object name
  std::string context;      // "gate/gpu"
  std::string state;        // success | failure | pending | error
  std::string description;  // fitted by status_description()
  std::string target_url;   // "" = none
};

// GitHub refuses a description over 140 characters: longer text keeps its first 137
// characters (never half a UTF-8 sequence; invalid bytes become U+FFFD) and ends in "...".
// Line breaks and other controls become spaces: a status shows one line.
std::string status_description(std::string_view text);

// Checks the post (repository `owner/name`, a full object name, a known state, a context)
// and sends it. Errors: bad_input for a bad post or a missing token, could_not_evaluate for
// an API failure (the message names the call and GitHub's answer).
Status post_commit_status(const StatusPost& post, Context& context);

// Every status GitHub keeps for the commit, newest first (GET
// /repos/{repo}/commits/{sha}/statuses, every page). Errors as for post_commit_status.
Result<std::vector<github::CommitStatus>> read_commit_statuses(const std::string& repository, const std::string& sha,
                                                               Context& context);

}  // namespace gatekit::gpu_gate
