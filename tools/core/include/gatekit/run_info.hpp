#pragma once
// The identity of the CI run a tool runs in: GitHub Actions' default variables
// (https://docs.github.com/en/actions/reference/workflows-and-actions/variables), resolved once
// by the frame (run_info_from, in SystemSeams) and read by every tool from `Context::run`. No
// tool reads a GITHUB_* variable itself: tests/core/test_run_info_reads.py names the file and
// line of any that does. Outside a workflow run every field is empty. A test fills the fields
// it needs (FakeSeams::run).
//
// Not here: the step's files (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, ...) are the Workflow seam's
// (workflow.hpp), and the token (GITHUB_TOKEN, GH_TOKEN) is a credential the GitHub client
// reads when it connects (github.hpp, options_for), so it never sits in a struct every tool
// can print.
#include <optional>
#include <string>
#include <string_view>

namespace gatekit {

class Environment;

// The events gatekit tells apart (GITHUB_EVENT_NAME); the one map from event names to kinds.
enum class RunEvent {
  none,               // no event: not in a workflow run
  pull_request,       // pull_request, pull_request_target
  merge_group,        // a merge queue's group
  push,
  schedule,
  workflow_dispatch,
  workflow_run,
  other,              // any other event
};

RunEvent run_event_of(std::string_view event_name);

// A change under review: a pull request, or a merge queue's group of them.
inline bool reviews_a_change(RunEvent event) {
  return event == RunEvent::pull_request || event == RunEvent::merge_group;
}

struct RunInfo {
  bool actions = false;      // GITHUB_ACTIONS is "true": the step runs in GitHub Actions
  std::string repository;    // GITHUB_REPOSITORY: owner/name
  std::string event_name;    // GITHUB_EVENT_NAME
  std::string event_path;    // GITHUB_EVENT_PATH: the file holding the event's payload
  std::string ref;           // GITHUB_REF: refs/heads/main, refs/pull/7/merge, ...
  std::string sha;           // GITHUB_SHA
  std::string run_id;        // GITHUB_RUN_ID, as given (a tool that needs a number checks it)
  std::string run_attempt;   // GITHUB_RUN_ATTEMPT, as given
  std::string workflow;      // GITHUB_WORKFLOW: the workflow's name
  std::string workflow_ref;  // GITHUB_WORKFLOW_REF: owner/name/.github/workflows/ci.yml@refs/heads/main
  std::string job;           // GITHUB_JOB: the job's id
  std::string server_url;    // GITHUB_SERVER_URL ("" : https://github.com)
  std::string api_url;       // GITHUB_API_URL ("" : https://api.github.com)

  RunEvent event() const { return run_event_of(event_name); }
  // A tool's `--repo`/`--repository` when given, else this run's repository ("" when neither).
  const std::string& repository_or(const std::string& option) const { return option.empty() ? repository : option; }
  // The web server: server_url, or https://github.com.
  std::string server() const;
  // The link to this workflow run, SERVER/OWNER/NAME/actions/runs/ID: the default of a link a
  // tool posts (a commit status's target, a flaky-test issue's run); nullopt outside a workflow
  // run (no run id).
  std::optional<std::string> url() const;
};

// The run's identity from the environment; an unset and an empty variable read the same.
RunInfo run_info_from(const Environment& env);

}  // namespace gatekit
