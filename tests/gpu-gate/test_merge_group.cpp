// Merge queues (merge_group.hpp): the queue branch's name and the rule on tables, then
// ci-status on a real git history shaped like a queue: group commits on
// gh-readonly-queue/main/pr-<n>-<base> made by merging pull request heads onto main.
#include "status/merge_group.hpp"

#include "../core/github_server.hpp"
#include "catch.hpp"
#include "status/ci_status.hpp"
#include "gatekit/fake_context.hpp"
#include "gatekit/json.hpp"
#include "test_ci_scene.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;
using gatekit::testing::CiScene;
using gatekit::testing::CiSeams;
using gatekit::testing::git_in;
using gatekit::testing::GitHubServer;

namespace {

const std::string kBase(40, 'b');

}  // namespace

TEST_CASE("parse_queue_ref: the queue's branch names, and what is refused") {
  auto plain = parse_queue_ref("gh-readonly-queue/main/pr-12-" + kBase);
  REQUIRE(plain.ok());
  CHECK(plain->base_branch == "main");
  CHECK(plain->pr == "12");
  CHECK(plain->base_commit == kBase);
  auto nested = parse_queue_ref("refs/heads/gh-readonly-queue/release/v1/pr-3-" + kBase);
  REQUIRE(nested.ok());
  CHECK(nested->base_branch == "release/v1");
  CHECK(nested->pr == "3");
  for (const std::string& bad : std::vector<std::string>{"main", "gh-readonly-queue/main/pr-12", "gh-readonly-queue/pr-12-" + kBase,
                                "gh-readonly-queue/main/pr-012-" + kBase, "gh-readonly-queue/main/pr-x-" + kBase,
                                "gh-readonly-queue/main/pr-12-" + kBase.substr(1), "gh-readonly-queue/-x/pr-1-" + kBase,
                                "refs/tags/gh-readonly-queue/main/pr-1-" + kBase}) {
    INFO(bad);
    auto parsed = parse_queue_ref(bad);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.error().kind == ErrorKind::bad_input);
    CHECK(parsed.error().message.starts_with("--merge-group must be a merge queue branch, "
                                             "gh-readonly-queue/<branch>/pr-<number>-<commit>, got '"));
  }
}

TEST_CASE("decide_merge_group: own result first, else the head's when the queue adds docs only") {
  const std::string head(40, 'h');
  GateStatus none;
  none.description = "no gate result for this tree";
  GateStatus own_pass;
  own_pass.state = GateState::success;
  own_pass.description = "passed in 4m";
  own_pass.source_kind = StatusSource::exact;
  GateStatus head_pass = own_pass;
  head_pass.source = head;
  GateStatus head_fail = head_pass;
  head_fail.state = GateState::failure;
  head_fail.description = "failed";
  struct Row {
    std::string name;
    GateStatus own, at_head;
    std::vector<std::string> added;
    GateState state;
    std::string description;
  };
  const std::string h12 = head.substr(0, 12);
  const std::vector<Row> rows = {
      {"own result", own_pass, head_fail, {"src/a.py"}, GateState::success, "passed in 4m"},
      {"docs only on a pass", none, head_pass, {}, GateState::success,
       "inherited from " + h12 + " (pull request head), the queue adds docs only"},
      {"docs only on a failure", none, head_fail, {}, GateState::failure, "failed at the pull request head " + h12},
      {"docs only, head not gated", none, none, {}, GateState::pending, "no gate result for the pull request head " + h12},
      {"code added", none, head_pass, {"src/a.py", "src/b.py"}, GateState::pending,
       "the queue adds code the gate did not test: src/a.py (+1 more)"},
  };
  for (const auto& row : rows) {
    INFO(row.name);
    const auto status = decide_merge_group(row.own, row.at_head, head, row.added);
    CHECK(status.state == row.state);
    CHECK(status.description == row.description);
  }
  const auto long_path = decide_merge_group(none, head_pass, head, {std::string(200, 'x') + "/tail.py"});
  CHECK(long_path.description.size() == 140);  // GitHub's limit, the path's end kept
  CHECK(long_path.description.starts_with("the queue adds code the gate did not test: ...xxx"));
  CHECK(long_path.description.ends_with("x/tail.py"));
}

namespace {

// The token is the App's: what it posts is created by gatekit-gate[bot], the poster gatekit trusts.
const char* kState = R"({"login": "gatekit-gate[bot]", "repos": {"o/r": {}}})";

// A queue on the remote: `heads` merged one after another onto main's tip (`git merge
// --no-ff`, as the queue's merge method "merge" does), each group commit pushed to its
// gh-readonly-queue branch. Returns the group commits.
std::vector<std::string> queue(CiScene& scene, const std::vector<std::pair<int, std::string>>& heads) {
  const std::string main_tip = git_in(scene.dev, {"rev-parse", "main"});
  git_in(scene.dev, {"switch", "-q", "--detach", main_tip});
  std::vector<std::string> groups;
  for (const auto& [number, head] : heads) {
    git_in(scene.dev, {"merge", "-q", "--no-ff", "--no-edit", head});
    groups.push_back(git_in(scene.dev, {"rev-parse", "HEAD"}));
    git_in(scene.dev, {"push", "-q", "origin",
                       "HEAD:refs/heads/gh-readonly-queue/main/pr-" + std::to_string(number) + "-" + main_tip});
  }
  return groups;
}

std::string pull_request(CiScene& scene, int number, const std::string& path, const std::string& text) {
  git_in(scene.dev, {"switch", "-q", "-C", "pr-" + std::to_string(number), "main"});
  scene.write(path, text);
  const auto head = scene.commit("pull request " + std::to_string(number));
  git_in(scene.dev, {"push", "-q", "origin", "HEAD:refs/pull/" + std::to_string(number) + "/head"});
  return head;
}

void advance_main(CiScene& scene, const std::string& path, const std::string& text) {
  git_in(scene.dev, {"switch", "-q", "main"});
  scene.write(path, text);
  scene.commit("main moves on: " + path);
  git_in(scene.dev, {"push", "-q", "origin", "main"});
}

// gate/gpu that ci-status posts on the group commit `group` of pull request `number`.
std::string group_status(CiScene& scene, const std::string& group, int number, const std::string& main_tip) {
  GitHubServer server(kState);
  CiSeams seams(server.url());
  seams.run.event_name = "workflow_run";
  auto context = seams.context();
  CiStatusOptions o;
  o.repo_dir = scene.ci_clone("ci-" + group.substr(0, 8)).string();
  o.sha = group;
  o.merge_group = "gh-readonly-queue/main/pr-" + std::to_string(number) + "-" + main_tip;
  o.repository = "o/r";
  o.post = true;
  o.poster = "gatekit-gate[bot]";
  o.mode = "strict";
  REQUIRE(run_ci_status(o, context) == ExitCode::pass);
  std::string posted;
  const auto stats = server.stats();  // the loop reads into it: keep it alive
  for (const auto& request : stats.at("requests").as_array()) {
    const auto& r = request.as_object();
    if (std::string(r.at("method").as_string()) != "POST") continue;
    const std::string path(r.at("path").as_string());
    CHECK(path == "/repos/o/r/statuses/" + group);
    posted = std::string(r.at("body").as_object().at("state").as_string()) + " " +
             std::string(r.at("body").as_object().at("description").as_string());
  }
  return posted;
}

}  // namespace

TEST_CASE("merge queue: the group commit of an up-to-date head has the head's tree and result", "[ci-status][git][api]") {
  CiScene scene;
  const auto head = pull_request(scene, 7, "src/kernel.py", "def add(a, b):\n    return b + a\n");
  scene.publish(head, Verdict::pass, "gpu-box");
  const auto main_tip = git_in(scene.dev, {"rev-parse", "main"});
  const auto groups = queue(scene, {{7, head}});
  CHECK(scene.tree_of(groups[0]) == scene.tree_of(head));
  CHECK(group_status(scene, groups[0], 7, main_tip) == "success passed in 4m");
}

TEST_CASE("merge queue: main moved on with docs only, the group inherits the head's pass", "[ci-status][git][api]") {
  CiScene scene;
  const auto head = pull_request(scene, 7, "src/kernel.py", "def add(a, b):\n    return b + a\n");
  scene.publish(head, Verdict::pass, "gpu-box");
  advance_main(scene, "docs/index.md", "# Docs\n\nNews.\n");
  const auto main_tip = git_in(scene.dev, {"rev-parse", "main"});
  const auto groups = queue(scene, {{7, head}});
  CHECK(group_status(scene, groups[0], 7, main_tip) ==
        "success inherited from " + head.substr(0, 12) + " (pull request head), the queue adds docs only");
}

TEST_CASE("merge queue: a failed or missing head result carries over to the group",
          "[ci-status][git][api]") {
  CiScene scene;
  const auto failed = pull_request(scene, 7, "src/kernel.py", "def add(a, b):\n    return b - a\n");
  scene.publish(failed, Verdict::fail, "gpu-box");
  const auto untested = pull_request(scene, 8, "src/other.py", "X = 1\n");
  advance_main(scene, "docs/index.md", "# Docs\n\nNews.\n");
  const auto main_tip = git_in(scene.dev, {"rev-parse", "main"});
  const auto alone = queue(scene, {{7, failed}});
  const std::string at = group_status(scene, alone[0], 7, main_tip);
  CHECK(at.starts_with("failure failed at the pull request head " + failed.substr(0, 12) + " (result of 20"));
  CHECK(at.ends_with("Z)"));
  const auto other = queue(scene, {{8, untested}});
  CHECK(group_status(scene, other[0], 8, main_tip) ==
        "pending no gate result for the pull request head " + untested.substr(0, 12));
}

TEST_CASE("merge queue: main moved on with code, or an entry queued before adds code: pending", "[ci-status][git][api]") {
  CiScene scene;
  const auto first = pull_request(scene, 7, "src/kernel.py", "def add(a, b):\n    return b + a\n");
  scene.publish(first, Verdict::pass, "gpu-box");
  const auto second = pull_request(scene, 8, "src/other.py", "X = 1\n");
  scene.publish(second, Verdict::pass, "gpu-box");
  const auto main_tip = git_in(scene.dev, {"rev-parse", "main"});
  const auto groups = queue(scene, {{7, first}, {8, second}});
  CHECK(group_status(scene, groups[0], 7, main_tip) == "success passed in 4m");
  CHECK(group_status(scene, groups[1], 8, main_tip) == "pending the queue adds code the gate did not test: src/kernel.py");

  advance_main(scene, "src/third.py", "Y = 2\n");
  const auto moved = git_in(scene.dev, {"rev-parse", "main"});
  const auto later = queue(scene, {{8, second}});
  CHECK(group_status(scene, later[0], 8, moved) == "pending the queue adds code the gate did not test: src/third.py");
}

TEST_CASE("merge queue: a group commit that does not descend from its branch's base commit is refused",
          "[ci-status][git][api]") {
  CiScene scene;
  const auto head = pull_request(scene, 7, "src/kernel.py", "def add(a, b):\n    return b + a\n");
  scene.publish(head, Verdict::pass, "gpu-box");
  const auto elsewhere = pull_request(scene, 8, "src/other.py", "X = 1\n");  // not in the group's history
  const auto main_tip = git_in(scene.dev, {"rev-parse", "main"});
  const auto groups = queue(scene, {{7, head}});
  GitHubServer server(kState);
  CiSeams seams(server.url());
  auto context = seams.context();
  CiStatusOptions o;
  o.repo_dir = scene.ci_clone().string();
  o.sha = groups[0];
  o.merge_group = "gh-readonly-queue/main/pr-7-" + elsewhere;
  o.repository = "o/r";
  CHECK_THROWS_WITH(run_ci_status(o, context), "the group commit " + groups[0] + " does not descend from " +
                                                   elsewhere + ", the commit its queue branch "
                                                   "'gh-readonly-queue/main/pr-7-" + elsewhere + "' names");
  o.merge_group = "gh-readonly-queue/main/pr-7-" + main_tip;
  CHECK(run_ci_status(o, context) == ExitCode::pass);
  CHECK(seams.workflow.outputs.at("description") == "passed in 4m");
}

TEST_CASE("merge queue: --merge-group must agree with --pr and --base", "[ci-status]") {
  FakeSeams seams;
  auto context = seams.context();
  CiStatusOptions o;
  o.sha = std::string(40, 'a');
  o.merge_group = "gh-readonly-queue/main/pr-7-" + kBase;
  o.pr = "8";
  CHECK_THROWS_WITH(run_ci_status(o, context),
                    "--pr '8' is not the pull request of --merge-group 'gh-readonly-queue/main/pr-7-" + kBase + "'");
  o.pr = "";
  o.base = "release";
  CHECK_THROWS_WITH(run_ci_status(o, context),
                    "--base 'release' is not the branch of --merge-group 'gh-readonly-queue/main/pr-7-" + kBase + "'");
  o.base = "";
  o.sha = "";
  CHECK_THROWS_WITH(run_ci_status(o, context), "--merge-group needs --sha, the queue's group commit");
}

namespace {

// ci-status for a group commit (or, with merge_group "", a pull request's head) against a
// server that keeps what earlier runs posted; returns "<state> <description>" posted on `sha`.
std::string posted_on(GitHubServer& server, CiScene& scene, const std::string& sha, const std::string& merge_group,
                      const std::string& pr = "") {
  CiSeams seams(server.url());
  seams.run.event_name = "workflow_run";
  auto context = seams.context();
  CiStatusOptions o;
  o.repo_dir = scene.ci_clone("ci-" + std::to_string(server.stats().at("requests").as_array().size())).string();
  o.sha = sha;
  o.pr = pr;
  o.merge_group = merge_group;
  o.repository = "o/r";
  o.post = true;
  o.mode = "strict";
  o.poster = "gatekit-gate[bot]";
  REQUIRE(run_ci_status(o, context) == ExitCode::pass);
  std::string last;
  const auto stats = server.stats();  // the loop reads into it: keep it alive
  for (const auto& request : stats.at("requests").as_array()) {
    const auto& r = request.as_object();
    if (std::string(r.at("method").as_string()) != "POST" || std::string(r.at("path").as_string()) != "/repos/o/r/statuses/" + sha)
      continue;
    last = std::string(r.at("body").as_object().at("state").as_string()) + " " +
           std::string(r.at("body").as_object().at("description").as_string());
  }
  return last;
}

}  // namespace

TEST_CASE("merge queue: a failure CI posted stays after its result ref is deleted", "[ci-status][git][api][queue-memory]") {
  CiScene scene;
  const auto head = pull_request(scene, 7, "src/kernel.py", "def add(a, b):\n    return b + a\n");
  scene.publish(head, Verdict::pass, "gpu-box", nullptr, 600);
  const std::string fail = scene.publish(head, Verdict::fail, "gpu-box", nullptr, 60);
  GitHubServer server(kState);

  SECTION("the queue adds docs: the group commit's own failure, and a rebuilt group commit") {
    advance_main(scene, "docs/index.md", "# Docs\n\nNews.\n");
    const auto main_tip = git_in(scene.dev, {"rev-parse", "main"});
    const auto group = queue(scene, {{7, head}})[0];
    const std::string queue_branch = "gh-readonly-queue/main/pr-7-" + main_tip;
    const std::string failed = posted_on(server, scene, group, queue_branch);
    REQUIRE(failed.starts_with("failure failed at the pull request head " + head.substr(0, 12) + " (result of "));
    git_in(scene.dev, {"push", "-q", "origin", ":" + scene.result_ref_of(fail)});
    // The same group commit again (the GPU workflow's workflow_run after the CPU one's).
    CHECK(posted_on(server, scene, group, queue_branch) == failed);
    // The queue rebuilds the group on a newer main (docs again): a new group commit, no statuses.
    advance_main(scene, "docs/index.md", "# Docs\n\nMore news.\n");
    const auto moved = git_in(scene.dev, {"rev-parse", "main"});
    const auto rebuilt = queue(scene, {{7, head}})[0];
    CHECK(posted_on(server, scene, rebuilt, "gh-readonly-queue/main/pr-7-" + moved) == failed);
  }
  SECTION("an up-to-date head: the failure posted on the pull request head counts for the group commit") {
    CHECK(posted_on(server, scene, head, "", "7").starts_with("failure failed (result of "));
    git_in(scene.dev, {"push", "-q", "origin", ":" + scene.result_ref_of(fail)});
    const auto main_tip = git_in(scene.dev, {"rev-parse", "main"});
    const auto group = queue(scene, {{7, head}})[0];
    REQUIRE(scene.tree_of(group) == scene.tree_of(head));
    const std::string at_group = posted_on(server, scene, group, "gh-readonly-queue/main/pr-7-" + main_tip);
    CHECK(at_group.starts_with("failure failed (result of "));
    CHECK(at_group.ends_with("; older results do not undo it)"));
  }
}

TEST_CASE("merge queue: a clone that lacks the group commit fetches it, or says which commit it could not get",
          "[ci-status][git][api][queue-fetch]") {
  CiScene scene;
  const auto head = pull_request(scene, 7, "src/kernel.py", "def add(a, b):\n    return b + a\n");
  scene.publish(head, Verdict::pass, "gpu-box");
  advance_main(scene, "docs/index.md", "# Docs\n\nNews.\n");
  const auto main_tip = git_in(scene.dev, {"rev-parse", "main"});
  // A checkout of the default branch only (the workflow_run's), made before the queue ran.
  const auto ci = scene.tmp / "ci-main-only";
  git_in(scene.tmp.path(), {"clone", "-q", "--single-branch", "-b", "main", scene.url(), ci.string()});
  const auto group = queue(scene, {{7, head}})[0];
  const std::string queue_branch = "gh-readonly-queue/main/pr-7-" + main_tip;
  REQUIRE_FALSE(gatekit::testing::run_checked({"git", "cat-file", "-e", group}, ci, "", false).succeeded());
  GitHubServer server(kState);
  CiSeams seams(server.url());
  auto context = seams.context();
  CiStatusOptions o;
  o.repo_dir = ci.string();
  o.sha = group;
  o.merge_group = queue_branch;
  o.repository = "o/r";
  CHECK(run_ci_status(o, context) == ExitCode::pass);
  CHECK(seams.workflow.outputs.at("description") ==
        "inherited from " + head.substr(0, 12) + " (pull request head), the queue adds docs only");
  // A group commit the remote never had.
  const std::string unknown(40, 'e');
  o.sha = unknown;
  try {
    (void)run_ci_status(o, context);
    FAIL("no error");
  } catch (const Failure& failure) {
    CHECK(failure.error().kind == ErrorKind::could_not_evaluate);
    CHECK(failure.error().message.starts_with("the group commit " + unknown + " of '" + queue_branch +
                                              "' is not in this clone, and origin did not send it: "));
  }
}
