// Which runs may post gate/gpu (posting_mode.hpp): the decision on a table, and ci-status in
// strict mode end to end: a pull_request run posts nothing, a workflow_run run posts.
#include "status/posting_mode.hpp"

#include "../core/github_server.hpp"
#include "catch.hpp"
#include "ci_status_framed.hpp"
#include "status/ci_status.hpp"
#include "gatekit/json.hpp"
#include "test_ci_scene.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;
using gatekit::testing::CiScene;
using gatekit::testing::CiSeams;
using gatekit::testing::git_in;
using gatekit::testing::GitHubServer;

TEST_CASE("posting mode: strict posts only from workflow_run and workflow_dispatch") {
  struct Row {
    std::string mode, event;
    bool allowed;
  };
  const std::vector<Row> rows = {
      {"strict", "workflow_run", true},       {"strict", "workflow_dispatch", true},
      {"strict", "pull_request", false},      {"strict", "pull_request_target", false},
      {"strict", "merge_group", false},       {"strict", "push", false},
      {"strict", "", false},                  {"pull-request", "pull_request", true},
      {"pull-request", "merge_group", true},  {"", "pull_request", true},
  };
  for (const auto& row : rows) {
    INFO(row.mode << " / " << row.event);
    const auto mode = parse_posting_mode(row.mode);
    REQUIRE(mode.ok());
    CHECK(check_posting(*mode, row.event).ok() == row.allowed);
  }
  CHECK(check_posting(PostingMode::strict, "").error().message.find("not from no GITHUB_EVENT_NAME, ") !=
        std::string::npos);
  auto bad = parse_posting_mode("lenient");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message == "--mode must be 'strict' or 'pull-request', got 'lenient'");
}

namespace {

// The token is the App's: what it posts is created by gatekit-gate[bot], the poster gatekit trusts.
const char* kState = R"({"login": "gatekit-gate[bot]", "repos": {"o/r": {}}})";

std::size_t posts(GitHubServer& server) {
  std::size_t count = 0;
  const auto stats = server.stats();  // the loop reads into it: keep it alive
  for (const auto& request : stats.at("requests").as_array())
    if (std::string(request.as_object().at("method").as_string()) == "POST") ++count;
  return count;
}

}  // namespace

TEST_CASE("ci-status in strict mode: a pull_request run posts nothing, a workflow_run run posts",
          "[ci-status][git][api]") {
  CiScene scene;
  git_in(scene.dev, {"switch", "-q", "-c", "feature"});
  scene.write("src/kernel.py", "def add(a, b):\n    return b + a\n");
  const auto head = scene.commit("code");
  scene.publish(head, Verdict::pass, "gpu-box");
  git_in(scene.dev, {"push", "-q", "origin", "feature"});
  const auto ci = scene.ci_clone();
  CiStatusOptions o;
  o.repo_dir = ci.string();
  o.sha = head;
  o.base = "main";
  o.repository = "o/r";
  o.post = true;
  o.mode = "strict";
  o.poster = "gatekit-gate[bot]";
  for (const std::string& event : std::vector<std::string>{"pull_request", "merge_group"}) {
    GitHubServer server(kState);
    CiSeams seams(server.url());
    seams.run.event_name = event;
    auto context = seams.context();
    INFO(event);
    const auto ran = gatekit::testing::ci_status_framed(o, context);
    CHECK(ran.code == 2);
    CHECK(ran.err ==
          "gpu-gate: error: strict mode posts gate/gpu only from a workflow_run or workflow_dispatch run of the "
          "default branch's workflow, not from a " + event + " run, which may execute the pull request's own "
          "workflow file: compute it with post: false there (docs/gpu-gate.md, \"Trust model\")\n");
    CHECK(posts(server) == 0);  // not even an error status
    CHECK(seams.workflow.outputs.at("result") == "error");
    CHECK(seams.workflow.outputs.at("posted") == "false");
  }
  GitHubServer server(kState);
  CiSeams seams(server.url());
  seams.run.event_name = "workflow_run";
  auto context = seams.context();
  CHECK(run_ci_status(o, context) == ExitCode::pass);
  CHECK(posts(server) == 1);
  CHECK(seams.workflow.outputs.at("state") == "success");
  CHECK(seams.workflow.outputs.at("posted") == "true");
}
