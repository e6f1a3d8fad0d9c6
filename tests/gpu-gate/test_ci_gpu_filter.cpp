// ci-status and the path gate's GPU filter (scope/gpu_filter.hpp, issue 43 item 12): a pull
// request that changes nothing the trusted branch's GPU filter takes gets gate/gpu success
// ("no GPU-relevant change"), never pending; the filter is the trusted branch's, never the pull
// request's; rules the trusted branch cannot load fail closed (exit 2, `error` posted). Real git
// clones and the GitHub API test server.
#include "catch.hpp"
#include "ci_status_framed.hpp"
#include "status/ci_status.hpp"
#include "test_ci_scene.hpp"
#include "../core/github_server.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;
using gatekit::testing::CiScene;
using gatekit::testing::CiSeams;
using gatekit::testing::git_in;
using gatekit::testing::GitHubServer;

namespace {

constexpr const char* kRules =
    "filters:\n"
    "  gpu:\n"
    "    paths: ['src/**', 'tests/gpu/**']\n"
    "    always: ['requirements*.txt', pytest.ini, '**/conftest.py', Dockerfile]\n";

struct Posted {
  std::string state, description;
};

std::vector<Posted> posts(GitHubServer& server) {
  std::vector<Posted> out;
  const auto stats = server.stats();
  for (const auto& request : stats.at("requests").as_array()) {
    const auto& r = request.as_object();
    if (std::string(r.at("method").as_string()) != "POST") continue;
    const auto& body = r.at("body").as_object();
    out.push_back({std::string(body.at("state").as_string()), std::string(body.at("description").as_string())});
  }
  return out;
}

// The default branch with the rules (`rules`, none when empty), then a pull request branch
// whose head changes `files`. Returns the head.
std::string pull_request(CiScene& scene, const std::string& rules, const std::vector<std::pair<std::string, std::string>>& files) {
  if (!rules.empty()) scene.write(".github/gatekit/filters.yml", rules);
  scene.write("analysis/plot_loss.py", "print('loss')\n");
  scene.commit("rules and analysis");
  git_in(scene.dev, {"push", "-q", "origin", "main"});
  git_in(scene.dev, {"switch", "-q", "-c", "topic"});
  for (const auto& [path, text] : files) scene.write(path, text);
  const std::string head = scene.commit("the change");
  git_in(scene.dev, {"push", "-q", "origin", "topic", "HEAD:refs/pull/1/head"});
  return head;
}

CiStatusOptions options(const std::string& head) {
  CiStatusOptions o;
  o.sha = head;
  o.base = "main";
  o.repository = "o/r";
  o.post = true;
  o.poster = "gatekit-gate[bot]";
  return o;
}

}  // namespace

TEST_CASE("ci-status posts success when the change touches nothing the trusted GPU filter takes", "[ci-status][git][api]") {
  CiScene scene;
  GitHubServer server(R"({"login": "gatekit-gate[bot]", "repos": {"o/r": {}}})");
  CiSeams seams(server.url());
  auto context = seams.context();

  SECTION("analysis scripts only: no GPU result needed (before: pending, no gate result for this tree)") {
    const std::string head = pull_request(scene, kRules, {{"analysis/plot_loss.py", "print('loss', 2)\n"},
                                                          {"analysis/compare.py", "print('runs')\n"}});
    const std::string base = git_in(scene.dev, {"rev-parse", "main"});
    auto o = options(head);
    o.repo_dir = scene.ci_clone().string();
    CHECK(run_ci_status(o, context) == ExitCode::pass);
    const auto posted = posts(server);
    REQUIRE(posted.size() == 1);
    CHECK(posted[0].state == "success");
    CHECK(posted[0].description == "no GPU-relevant change since " + base.substr(0, 12) + ": 2 files outside the gpu filter");
    CHECK(seams.workflow.summary.find("| outside the GPU filter | `analysis/compare.py`, `analysis/plot_loss.py` |") !=
          std::string::npos);
    CHECK(seams.workflow.summary.find("| GPU filter | 'gpu' of main:.github/gatekit/filters.yml |") != std::string::npos);
  }
  SECTION("a change the filter takes, beside analysis scripts, still waits for a result") {
    const std::string head = pull_request(scene, kRules, {{"analysis/plot_loss.py", "x = 1\n"}, {"requirements-gpu.txt", "triton\n"}});
    auto o = options(head);
    o.repo_dir = scene.ci_clone().string();
    CHECK(run_ci_status(o, context) == ExitCode::pass);
    const auto posted = posts(server);
    REQUIRE(posted.size() == 1);
    CHECK(posted[0].state == "pending");
    CHECK(posted[0].description == "no gate result for this tree");
  }
  SECTION("the pull request's own rules decide nothing: it narrows the filter and changes code, and waits") {
    const std::string head = pull_request(scene, kRules,
                                          {{".github/gatekit/filters.yml", "filters:\n  gpu:\n    paths: ['tests/gpu/**']\n"},
                                           {"src/kernel.py", "def add(a, b):\n    return a - b\n"}});
    auto o = options(head);
    o.repo_dir = scene.ci_clone().string();
    CHECK(run_ci_status(o, context) == ExitCode::pass);
    const auto posted = posts(server);
    REQUIRE(posted.size() == 1);
    CHECK(posted[0].state == "pending");
  }
  SECTION("a change to the rules file alone needs a result (self-protection, as the path gate)") {
    const std::string head =
        pull_request(scene, kRules, {{".github/gatekit/filters.yml", std::string(kRules) + "  docs:\n    category: docs\n"}});
    auto o = options(head);
    o.repo_dir = scene.ci_clone().string();
    CHECK(run_ci_status(o, context) == ExitCode::pass);
    const auto posted = posts(server);
    REQUIRE(posted.size() == 1);
    CHECK(posted[0].state == "pending");
  }
  SECTION("no rules file on the trusted branch: every change outside the docs waits, as before") {
    const std::string head = pull_request(scene, "", {{"analysis/plot_loss.py", "x = 1\n"}});
    auto o = options(head);
    o.repo_dir = scene.ci_clone().string();
    CHECK(run_ci_status(o, context) == ExitCode::pass);
    const auto posted = posts(server);
    REQUIRE(posted.size() == 1);
    CHECK(posted[0].state == "pending");
    CHECK(seams.workflow.summary.find("| GPU filter | none: every change outside the docs needs a result |") !=
          std::string::npos);
  }
  SECTION("rules the trusted branch cannot load fail closed: exit 2, error posted, never success") {
    const std::string head =
        pull_request(scene, "filters:\n  gpu:\n    paths: ['[z-a]']\n", {{"analysis/plot_loss.py", "x = 1\n"}});
    auto o = options(head);
    o.repo_dir = scene.ci_clone().string();
    const auto ran = gatekit::testing::ci_status_framed(o, context);
    CHECK(ran.code == 2);
    const std::string message = "main:.github/gatekit/filters.yml:3:15: filters.gpu.paths[0]: invalid pattern '[z-a]': "
                                "reversed range 'z-a' in brackets (hint: write 'a-z')";
    CHECK(ran.err.find(message) != std::string::npos);
    const auto posted = posts(server);
    REQUIRE(posted.size() == 1);
    CHECK(posted[0].state == "error");
    CHECK(posted[0].description.starts_with("could not evaluate: "));
  }
  SECTION("a rules file without the filter fails closed too") {
    const std::string head =
        pull_request(scene, "filters:\n  kernels:\n    paths: ['src/**']\n", {{"analysis/plot_loss.py", "x = 1\n"}});
    auto o = options(head);
    o.repo_dir = scene.ci_clone().string();
    const auto ran = gatekit::testing::ci_status_framed(o, context);
    CHECK(ran.code == 2);
    CHECK(ran.err == "gpu-gate: error: main:.github/gatekit/filters.yml: no filter 'gpu' (its filters: 'kernels'): name "
                     "the filter that runs the GPU suites in gpu_filter.filter (default 'gpu')\n");
    const auto posted = posts(server);
    REQUIRE(posted.size() == 1);
    CHECK(posted[0].state == "error");
  }
}
