// RunInfo (gatekit/run_info.hpp): the CI run's identity, read once from the Actions
// environment; the event kinds; the link to the run.
#include <stdlib.h>

#include <optional>
#include <string>

#include "catch.hpp"
#include "gatekit/context.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/run_info.hpp"

using namespace gatekit;

TEST_CASE("run info: every field from its GITHUB_* variable") {
  const MapEnvironment env{{"GITHUB_ACTIONS", "true"},
                           {"GITHUB_REPOSITORY", "o/r"},
                           {"GITHUB_EVENT_NAME", "pull_request"},
                           {"GITHUB_EVENT_PATH", "/runner/event.json"},
                           {"GITHUB_REF", "refs/pull/7/merge"},
                           {"GITHUB_SHA", "0123abcd"},
                           {"GITHUB_RUN_ID", "77"},
                           {"GITHUB_RUN_ATTEMPT", "2"},
                           {"GITHUB_WORKFLOW", "CPU tests"},
                           {"GITHUB_WORKFLOW_REF", "o/r/.github/workflows/ci.yml@refs/pull/7/merge"},
                           {"GITHUB_JOB", "tests"},
                           {"GITHUB_SERVER_URL", "https://ghe.example"},
                           {"GITHUB_API_URL", "https://ghe.example/api/v3/"},
                           {"GITHUB_TOKEN", "t0ken"}};
  const RunInfo run = run_info_from(env);
  CHECK(run.actions);
  CHECK(run.repository == "o/r");
  CHECK(run.event_name == "pull_request");
  CHECK(run.event() == RunEvent::pull_request);
  CHECK(run.event_path == "/runner/event.json");
  CHECK(run.ref == "refs/pull/7/merge");
  CHECK(run.sha == "0123abcd");
  CHECK(run.run_id == "77");
  CHECK(run.run_attempt == "2");
  CHECK(run.workflow == "CPU tests");
  CHECK(run.workflow_ref == "o/r/.github/workflows/ci.yml@refs/pull/7/merge");
  CHECK(run.job == "tests");
  CHECK(run.server_url == "https://ghe.example");
  CHECK(run.api_url == "https://ghe.example/api/v3/");  // as given: the client drops the '/'
}

TEST_CASE("run info: outside a workflow run every field is empty") {
  const RunInfo run = run_info_from(MapEnvironment{{"GITHUB_ACTIONS", "false"}, {"GITHUB_REPOSITORY", ""}});
  CHECK_FALSE(run.actions);
  CHECK(run.repository.empty());
  CHECK(run.event() == RunEvent::none);
  CHECK(run.run_id.empty());
  CHECK(run.server() == "https://github.com");
  CHECK_FALSE(run.url().has_value());
}

TEST_CASE("run info: the system seams resolve it from the process environment once") {
  ::setenv("GITHUB_REPOSITORY", "seams/probe", 1);
  SystemSeams seams;
  ::setenv("GITHUB_REPOSITORY", "changed/later", 1);
  CHECK(seams.context().run.repository == "seams/probe");
  ::unsetenv("GITHUB_REPOSITORY");
}

TEST_CASE("run info: the one map from event names to kinds") {
  struct Row {
    const char* name;
    RunEvent event;
    bool reviews;
  };
  const Row rows[] = {
      {"", RunEvent::none, false},
      {"pull_request", RunEvent::pull_request, true},
      {"pull_request_target", RunEvent::pull_request, true},
      {"merge_group", RunEvent::merge_group, true},
      {"push", RunEvent::push, false},
      {"schedule", RunEvent::schedule, false},
      {"workflow_dispatch", RunEvent::workflow_dispatch, false},
      {"workflow_run", RunEvent::workflow_run, false},
      {"release", RunEvent::other, false},
      {"Pull_Request", RunEvent::other, false},  // GitHub's names are lower case; no guessing
  };
  for (const auto& row : rows) {
    INFO(row.name);
    CHECK(run_event_of(row.name) == row.event);
    CHECK(reviews_a_change(run_event_of(row.name)) == row.reviews);
  }
}

TEST_CASE("run info: a tool's --repo wins over the run's repository") {
  RunInfo run;
  CHECK(run.repository_or("").empty());
  CHECK(run.repository_or("given/one") == "given/one");
  run.repository = "o/r";
  CHECK(run.repository_or("") == "o/r");
  CHECK(run.repository_or("given/one") == "given/one");
}

TEST_CASE("run info: the link to the run: server, repository and run id, or nothing outside a run") {
  struct Row {
    const char* name;
    MapEnvironment env;
    std::optional<std::string> url;
  };
  const Row rows[] = {
      {"a run on github.com", {{"GITHUB_REPOSITORY", "o/r"}, {"GITHUB_RUN_ID", "77"}},
       "https://github.com/o/r/actions/runs/77"},
      {"GitHub Enterprise Server",
       {{"GITHUB_SERVER_URL", "https://ghe.example"}, {"GITHUB_REPOSITORY", "o/r"}, {"GITHUB_RUN_ID", "5"}},
       "https://ghe.example/o/r/actions/runs/5"},
      {"an empty server is github.com",
       {{"GITHUB_SERVER_URL", ""}, {"GITHUB_REPOSITORY", "o/r"}, {"GITHUB_RUN_ID", "5"}},
       "https://github.com/o/r/actions/runs/5"},
      {"no run id", {{"GITHUB_REPOSITORY", "o/r"}}, std::nullopt},
      {"an empty run id", {{"GITHUB_REPOSITORY", "o/r"}, {"GITHUB_RUN_ID", ""}}, std::nullopt},
  };
  for (const auto& row : rows) {
    INFO(row.name);
    CHECK(run_info_from(row.env).url() == row.url);
  }
}
