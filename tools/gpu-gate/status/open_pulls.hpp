#pragma once
// The repository's open pull requests and their heads, from the GitHub API (the issues
// listing names the pull requests, each pull request gives its head), for `prune` (which
// keeps what they rely on) and `run --publish` (which asks CI to refresh the status of the
// pull requests whose head it tested).
#include <cstdint>
#include <string>
#include <vector>

#include "gatekit/github.hpp"
#include "gatekit/result.hpp"

namespace gatekit::gpu_gate {

struct OpenPull {
  std::int64_t number = 0;
  std::string head_sha;
};

// Errors are could_not_evaluate: "cannot list the open pull requests of o/r: ..." or
// "cannot read pull request #N: ...".
Result<std::vector<OpenPull>> list_open_pulls(github::Client& client, const std::string& repo);

}  // namespace gatekit::gpu_gate
