// workflow_run_url: the link to the workflow run, from the Actions environment.
#include "catch.hpp"
#include "gatekit/workflow_run.hpp"

using namespace gatekit;

TEST_CASE("workflow_run_url: server, repository and run id, or nothing outside a run") {
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
    CHECK(workflow_run_url(row.env) == row.url);
  }
}
