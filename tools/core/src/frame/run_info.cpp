#include "gatekit/run_info.hpp"

#include "gatekit/environment.hpp"

namespace gatekit {

RunEvent run_event_of(std::string_view name) {
  if (name.empty()) return RunEvent::none;
  if (name == "pull_request" || name == "pull_request_target") return RunEvent::pull_request;
  if (name == "merge_group") return RunEvent::merge_group;
  if (name == "push") return RunEvent::push;
  if (name == "schedule") return RunEvent::schedule;
  if (name == "workflow_dispatch") return RunEvent::workflow_dispatch;
  if (name == "workflow_run") return RunEvent::workflow_run;
  return RunEvent::other;
}

std::string RunInfo::server() const { return server_url.empty() ? "https://github.com" : server_url; }

std::optional<std::string> RunInfo::url() const {
  if (run_id.empty()) return std::nullopt;
  return server() + "/" + repository + "/actions/runs/" + run_id;
}

RunInfo run_info_from(const Environment& env) {
  auto read = [&env](std::string_view name) { return env.get(name).value_or(""); };
  RunInfo run;
  run.actions = read("GITHUB_ACTIONS") == "true";
  run.repository = read("GITHUB_REPOSITORY");
  run.event_name = read("GITHUB_EVENT_NAME");
  run.event_path = read("GITHUB_EVENT_PATH");
  run.ref = read("GITHUB_REF");
  run.sha = read("GITHUB_SHA");
  run.run_id = read("GITHUB_RUN_ID");
  run.run_attempt = read("GITHUB_RUN_ATTEMPT");
  run.workflow = read("GITHUB_WORKFLOW");
  run.workflow_ref = read("GITHUB_WORKFLOW_REF");
  run.job = read("GITHUB_JOB");
  run.server_url = read("GITHUB_SERVER_URL");
  run.api_url = read("GITHUB_API_URL");
  return run;
}

}  // namespace gatekit
