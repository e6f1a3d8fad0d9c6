#pragma once
// The link to the workflow run a tool runs in, from the GitHub Actions environment: the
// default of a link a tool posts (a commit status's target, a flaky-test issue's run).
#include <optional>
#include <string>

#include "gatekit/environment.hpp"

namespace gatekit {

// $GITHUB_SERVER_URL (default https://github.com)/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID;
// nullopt outside a workflow run (GITHUB_RUN_ID unset or empty).
std::optional<std::string> workflow_run_url(const Environment& env);

}  // namespace gatekit
