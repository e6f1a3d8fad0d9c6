// The CI side end to end: real git clones of a bare remote, results published as refs, the
// status posted to the GitHub API test server (tests/github_api/), descriptions verbatim.
#include "status/ci_status.hpp"

#include "catch.hpp"
#include "ci_status_framed.hpp"
#include "gatekit/json.hpp"
#include "../core/github_server.hpp"
#include "gatekit/fake_context.hpp"
#include "status/status_decide.hpp"
#include "test_ci_scene.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;
using gatekit::testing::CiScene;
using gatekit::testing::CiSeams;
using gatekit::testing::git_in;
using gatekit::testing::GitHubServer;
using gatekit::testing::now_seconds;

namespace {

// The token is the App's: what it posts is created by gatekit-gate[bot], the poster gatekit trusts.
const char* kState = R"({"login": "gatekit-gate[bot]", "repos": {"o/r": {}}})";

struct Posted {
  std::string sha, state, description, context, target_url;
};

// Every status POST the server saw, in order: gate/gpu on commits (`marks` false), or the marks
// on the record commits of passes a failure outranked ("... for tree <tree>", `marks` true).
std::vector<Posted> posted(GitHubServer& server, bool marks = false) {
  std::vector<Posted> out;
  const auto stats = server.stats();
  for (const auto& request : stats.at("requests").as_array()) {
    const auto& r = request.as_object();
    const std::string path(r.at("path").as_string());
    if (std::string(r.at("method").as_string()) != "POST" || path.find("/statuses/") == std::string::npos) continue;
    const auto& body = r.at("body").as_object();
    auto text = [&body](const char* key) {
      return body.contains(key) ? std::string(body.at(key).as_string()) : std::string();
    };
    if ((text("description").find(") for tree ") != std::string::npos) != marks) continue;
    out.push_back({path.substr(path.rfind('/') + 1), text("state"), text("description"), text("context"),
                   text("target_url")});
  }
  return out;
}

CiStatusOptions options_for(const std::filesystem::path& ci, const std::string& sha) {
  CiStatusOptions o;
  o.repo_dir = ci.string();
  o.sha = sha;
  o.base = "main";
  o.repository = "o/r";
  o.post = true;
  o.poster = "gatekit-gate[bot]";
  o.target_url = "https://github.com/o/r/actions/runs/1";
  return o;
}

// A pull request branch on the remote: `change` edits the dev clone, then it is committed and
// pushed as refs/heads/<branch> and refs/pull/<n>/head, as GitHub keeps it.
template <class Change>
std::string open_pull_request(CiScene& scene, const std::string& branch, int number, Change change) {
  git_in(scene.dev, {"switch", "-q", "-c", branch, "main"});
  change();
  const std::string head = scene.commit("change on " + branch);
  git_in(scene.dev, {"push", "-q", "origin", branch, "HEAD:refs/pull/" + std::to_string(number) + "/head"});
  return head;
}

}  // namespace

TEST_CASE("ci-status posts the seed's descriptions for an exact result, a docs-only change and new code",
          "[ci-status][git][api]") {
  CiScene scene;
  GitHubServer server(kState);
  CiSeams seams(server.url());
  auto context = seams.context();

  const std::string tested = open_pull_request(scene, "feature", 1, [&] { scene.write("src/kernel.py", "def add(a, b):\n    return b + a\n"); });
  scene.publish(tested, Verdict::pass, "gpu-box");
  // docs-only on top of the tested commit: inherits
  scene.write("docs/index.md", "# Docs\n\nMore words.\n");
  const std::string docs = scene.commit("docs");
  // new code on top: pending
  scene.write("src/kernel.py", "def add(a, b):\n    return a + b + 0\n");
  const std::string code = scene.commit("code");
  git_in(scene.dev, {"push", "-q", "origin", "feature"});
  const auto ci = scene.ci_clone();

  CHECK(run_ci_status(options_for(ci, tested), context) == ExitCode::pass);
  CHECK(run_ci_status(options_for(ci, docs), context) == ExitCode::pass);
  CHECK(run_ci_status(options_for(ci, code), context) == ExitCode::pass);

  const auto statuses = posted(server);
  REQUIRE(statuses.size() == 3);
  CHECK(statuses[0].sha == tested);
  CHECK(statuses[0].state == "success");
  CHECK(statuses[0].description == "passed in 4m");
  CHECK(statuses[0].context == "gate/gpu");
  CHECK(statuses[0].target_url == "https://github.com/o/r/actions/runs/1");
  CHECK(statuses[1].sha == docs);
  CHECK(statuses[1].state == "success");
  CHECK(statuses[1].description == "inherited from " + tested.substr(0, 12) + ", docs-only delta");
  CHECK(statuses[2].sha == code);
  CHECK(statuses[2].state == "pending");
  CHECK(statuses[2].description == "no gate result for this tree");
  CHECK(seams.workflow.outputs.at("state") == "pending");
  CHECK(seams.workflow.outputs.at("posted") == "true");
  CHECK(seams.workflow.outputs.at("tree") == scene.tree_of(code));
  // Each run masks the token for each call: reading the commit's statuses, reading those of the
  // record commit whose pass counts (the first two runs), posting.
  CHECK(seams.workflow.masked == std::vector<std::string>(8, "t0ken"));
}

TEST_CASE("ci-status: a failed result posts failure, a docs-only pull request no code change", "[ci-status][git][api]") {
  CiScene scene;
  GitHubServer server(kState);
  CiSeams seams(server.url());
  auto context = seams.context();
  const std::string broken = open_pull_request(scene, "broken", 2, [&] { scene.write("src/kernel.py", "oops\n"); });
  scene.publish(broken, Verdict::fail, "gpu-box");
  const std::string docs = open_pull_request(scene, "docs", 3, [&] { scene.write("docs/index.md", "# Better docs\n"); });
  const auto ci = scene.ci_clone();

  CHECK(run_ci_status(options_for(ci, broken), context) == ExitCode::pass);
  CHECK(run_ci_status(options_for(ci, docs), context) == ExitCode::pass);
  const auto statuses = posted(server);
  REQUIRE(statuses.size() == 2);
  CHECK(statuses[0].state == "failure");
  CHECK(statuses[0].description.starts_with("failed (result of 20"));
  CHECK((statuses[1].state + ": " + statuses[1].description) == "success: no code change");
  CHECK(seams.workflow.summary.find("## gate/gpu: ❌ failure — failed (result of ") != std::string::npos);
}

TEST_CASE("ci-status sets the head's status from a merge-commit checkout", "[ci-status][git][api]") {
  CiScene scene;
  GitHubServer server(kState);
  CiSeams seams(server.url());
  auto context = seams.context();
  const std::string head = open_pull_request(scene, "feature", 4, [&] { scene.write("src/new.py", "X = 1\n"); });
  scene.publish(head, Verdict::pass, "gpu-box");
  // main moves on, so the merge commit's tree is one no machine tested
  git_in(scene.dev, {"switch", "-q", "main"});
  scene.write("src/other.py", "Y = 2\n");
  scene.commit("main moves on");
  git_in(scene.dev, {"merge", "-q", "--no-ff", "-m", "Merge pull request #4", "feature"});
  git_in(scene.dev, {"push", "-q", "origin", "HEAD:refs/pull/4/merge"});
  git_in(scene.dev, {"reset", "-q", "--hard", "HEAD~1"});
  git_in(scene.dev, {"push", "-q", "-f", "origin", "main"});
  // actions/checkout of a pull_request event: the merge commit, depth 1
  const auto ci = scene.tmp / "ci";
  git_in(scene.tmp.path(), {"init", "-q", ci.string()});
  git_in(ci, {"remote", "add", "origin", scene.url()});
  git_in(ci, {"fetch", "-q", "--depth=1", "origin", "+refs/pull/4/merge:refs/remotes/pull/4/merge"});
  git_in(ci, {"checkout", "-q", "--detach", "refs/remotes/pull/4/merge"});
  REQUIRE(git_in(ci, {"rev-parse", "HEAD^{tree}"}) != scene.tree_of(head));

  CHECK(run_ci_status(options_for(ci, head), context) == ExitCode::pass);
  const auto statuses = posted(server);
  REQUIRE(statuses.size() == 1);
  CHECK(statuses[0].sha == head);
  CHECK((statuses[0].state + ": " + statuses[0].description) == "success: passed in 4m");
  CHECK(git_in(ci, {"rev-parse", "--is-shallow-repository"}) == "false");  // unshallowed for the walk
}

TEST_CASE("ci-status with --pr alone fetches the pull request's head", "[ci-status][git][api]") {
  CiScene scene;
  GitHubServer server(kState);
  CiSeams seams(server.url());
  auto context = seams.context();
  const std::string head = open_pull_request(scene, "feature", 7, [&] { scene.write("src/new.py", "X = 1\n"); });
  scene.publish(head, Verdict::pass, "gpu-box");
  const auto ci = scene.ci_clone();  // a workflow_dispatch run: main checked out
  auto options = options_for(ci, "");
  options.pr = "7";
  CHECK(run_ci_status(options, context) == ExitCode::pass);
  const auto statuses = posted(server);
  REQUIRE(statuses.size() == 1);
  CHECK(statuses[0].sha == head);
  CHECK(statuses[0].description == "passed in 4m");
}

TEST_CASE("ci-status counts only results signed by a key of the base branch's allowed signers",
          "[ci-status][signatures][git][api]") {
  CiScene scene;
  const auto alice = scene.key("alice");
  const auto mallory = scene.key("mallory");
  scene.write(".github/gatekit/gpu-gate.yml", "signing:\n  sign: true\n  allowed_signers: .github/gatekit/allowed_signers\n");
  scene.write(".github/gatekit/allowed_signers", "alice@example.com " + alice.public_line + "\n");
  scene.commit("the gate's trust");
  git_in(scene.dev, {"push", "-q", "origin", "main"});
  GitHubServer server(kState);
  CiSeams seams(server.url());
  auto context = seams.context();

  SECTION("good: signed by alice") {
    const std::string head = open_pull_request(scene, "good", 1, [&] { scene.write("src/a.py", "A = 1\n"); });
    scene.publish(head, Verdict::pass, "alice-box", &alice);
    CHECK(run_ci_status(options_for(scene.ci_clone(), head), context) == ExitCode::pass);
    CHECK(posted(server).at(0).description == "passed in 4m");
    CHECK(seams.workflow.outputs.at("ignored") == "0");
    CHECK(seams.workflow.summary.find("signed by `alice@example.com`") != std::string::npos);
  }
  SECTION("missing: an unsigned result counts as absent, and the description says so") {
    const std::string head = open_pull_request(scene, "unsigned", 2, [&] { scene.write("src/a.py", "A = 2\n"); });
    scene.publish(head, Verdict::pass, "plain-box");
    CHECK(run_ci_status(options_for(scene.ci_clone(), head), context) == ExitCode::pass);
    const auto status = posted(server).at(0);
    CHECK(status.state == "pending");
    CHECK(status.description == "no gate result for this tree (an unsigned or foreign result was ignored)");
    CHECK(seams.workflow.outputs.at("ignored") == "1");
  }
  SECTION("bad: a signed result whose message was changed afterwards counts as absent") {
    const std::string head = open_pull_request(scene, "tampered", 3, [&] { scene.write("src/a.py", "A = 3\n"); });
    // alice's signature over a failed result, on the message of a passing one
    const std::string signed_fail = scene.make_record(head, Verdict::fail, "alice-box", &alice);
    const std::string plain_pass = scene.make_record(head, Verdict::pass, "alice-box");
    const std::string raw_fail = git_in(scene.dev, {"cat-file", "commit", signed_fail});
    const std::string raw_pass = git_in(scene.dev, {"cat-file", "commit", plain_pass});
    const std::string raw = raw_fail.substr(0, raw_fail.find("\n\n")) + raw_pass.substr(raw_pass.find("\n\n"));
    REQUIRE(raw.find("gpgsig") != std::string::npos);
    const std::string forged = git_in(scene.dev, {"hash-object", "-t", "commit", "-w", "--stdin"}, raw + "\n");
    git_in(scene.dev, {"push", "-q", "-f", "origin",
                       forged + ":refs/gatekit-gate/" + scene.tree_of(head) + "/alice-box"});
    CHECK(run_ci_status(options_for(scene.ci_clone(), head), context) == ExitCode::pass);
    const auto status = posted(server).at(0);
    CHECK(status.state == "pending");
    CHECK(status.description == "no gate result for this tree (an unsigned or foreign result was ignored)");
    CHECK(seams.workflow.summary.find("bad signature") != std::string::npos);
  }
  SECTION("foreign: a pull request that adds its own key to the allowed signers gains nothing") {
    const std::string head = open_pull_request(scene, "sneaky", 4, [&] {
      scene.write(".github/gatekit/allowed_signers", "alice@example.com " + alice.public_line + "\n" +
                                                         "mallory@example.com " + mallory.public_line + "\n");
      scene.write(".github/gatekit/gpu-gate.yml", "signing:\n  sign: false\n");  // nor by dropping the check
      scene.write("src/a.py", "A = 4\n");
    });
    scene.publish(head, Verdict::pass, "mallory-box", &mallory);
    CHECK(run_ci_status(options_for(scene.ci_clone(), head), context) == ExitCode::pass);
    const auto status = posted(server).at(0);
    CHECK(status.state == "pending");
    CHECK(status.description == "no gate result for this tree (an unsigned or foreign result was ignored)");
    CHECK(seams.workflow.summary.find("foreign") != std::string::npos);
  }
  SECTION("an unsigned result for the exact tree does not hide a trusted one inherited across docs") {
    const std::string tested = open_pull_request(scene, "inherit", 6, [&] { scene.write("src/a.py", "A = 6\n"); });
    scene.publish(tested, Verdict::pass, "alice-box", &alice, 600);
    scene.write("docs/index.md", "# Docs, reworded\n");
    const std::string head = scene.commit("docs");
    git_in(scene.dev, {"push", "-q", "origin", "inherit"});
    scene.publish(head, Verdict::fail, "plain-box", nullptr, 60);
    CHECK(run_ci_status(options_for(scene.ci_clone(), head), context) == ExitCode::pass);
    const auto status = posted(server).at(0);
    CHECK(status.state == "success");
    CHECK(status.description ==
          "inherited from " + tested.substr(0, 12) + ", docs-only delta (an unsigned or foreign result was ignored)");
  }
  SECTION("an ignored result is mentioned only when it would have changed the status") {
    const std::string head = open_pull_request(scene, "both", 5, [&] { scene.write("src/a.py", "A = 5\n"); });
    scene.publish(head, Verdict::pass, "alice-box", &alice, 600);
    scene.publish(head, Verdict::fail, "old-box", nullptr, 6000);  // older: would not count anyway
    const auto ci = scene.ci_clone();
    CHECK(run_ci_status(options_for(ci, head), context) == ExitCode::pass);
    CHECK(seams.workflow.outputs.at("ignored") == "1");
    scene.publish(head, Verdict::fail, "new-box", nullptr, 60);  // newer: it would
    CHECK(run_ci_status(options_for(ci, head), context) == ExitCode::pass);
    const auto statuses = posted(server);
    REQUIRE(statuses.size() == 2);
    CHECK(statuses[0].description == "passed in 4m");
    CHECK(statuses[1].description == "passed in 4m (an unsigned or foreign result was ignored)");
    CHECK(seams.workflow.outputs.at("ignored") == "2");
  }
}

TEST_CASE("ci-status fails closed: a named allowed-signers file missing on the base branch posts error",
          "[ci-status][signatures][git][api]") {
  CiScene scene;
  scene.write(".github/gatekit/gpu-gate.yml", "signing:\n  allowed_signers: .github/gatekit/allowed_signers\n");
  scene.commit("trust, without the file");
  git_in(scene.dev, {"push", "-q", "origin", "main"});
  const std::string head = open_pull_request(scene, "feature", 1, [&] { scene.write("src/a.py", "A = 1\n"); });
  scene.publish(head, Verdict::pass, "plain-box");
  GitHubServer server(kState);
  CiSeams seams(server.url());
  auto context = seams.context();
  const auto ran = gatekit::testing::ci_status_framed(options_for(scene.ci_clone(), head), context);
  CHECK(ran.code == 2);  // bad input
  CHECK(ran.err ==
        "gpu-gate: error: the allowed-signers file .github/gatekit/allowed_signers is not on the default branch main\n");
  const auto statuses = posted(server);
  REQUIRE(statuses.size() == 1);
  CHECK(statuses[0].state == "error");
  CHECK(statuses[0].description ==
        "could not evaluate: the allowed-signers file .github/gatekit/allowed_signers is not on the default branch main");
  CHECK(seams.workflow.outputs.at("result") == "error");
  CHECK(seams.workflow.outputs.at("posted") == "false");
}

TEST_CASE("ci-status: a status posted whose summary cannot be written is exit 3, result=error, posted=true",
          "[ci-status][git][api]") {
  // The frame turns the pass into exit 3 and writes `result=error` over the run's `pass`; the
  // status GitHub holds was posted all the same, and `posted` keeps saying so.
  CiScene scene;
  const std::string head = open_pull_request(scene, "feature", 1, [&] { scene.write("src/a.py", "A = 1\n"); });
  scene.publish(head, Verdict::pass, "gpu-box");
  GitHubServer server(kState);
  CiSeams seams(server.url());
  seams.workflow.unwritten.push_back("cannot write summary.md: Is a directory");
  auto context = seams.context();
  const auto ran = gatekit::testing::ci_status_framed(options_for(scene.ci_clone(), head), context);
  CHECK(ran.code == 3);
  CHECK(ran.err == "gpu-gate: error: the result could not be reported: cannot write summary.md: Is a directory "
                   "(downstream jobs would read empty outputs)\n");
  REQUIRE(posted(server).size() == 1);
  CHECK(posted(server)[0].state == "success");
  CHECK(seams.workflow.outputs.at("result") == "error");
  CHECK(seams.workflow.outputs.at("posted") == "true");
}

TEST_CASE("ci-status refuses options that could reach git as options", "[ci-status]") {
  gatekit::FakeSeams seams;
  auto context = seams.context();
  auto refused = [&](CiStatusOptions o) {
    try {
      (void)run_ci_status(o, context);
    } catch (const Failure& failure) {
      CHECK(failure.error().kind == ErrorKind::bad_input);
      return failure.error().message;
    }
    return std::string("no error");
  };
  CiStatusOptions o;
  o.base = "main";
  o.sha = "--upload-pack=x";
  CHECK(refused(o) == "--sha must be the full object name of the pull request's head commit, got '--upload-pack=x'");
  o.sha = "";
  o.pr = "1x";
  CHECK(refused(o) == "--pr must be a pull request number, got '1x'");
  o.pr = "";
  CHECK(refused(o) == "give --sha (the pull request's head commit) or --pr");
  o.pr = "3";
  o.base = "-main";
  CHECK(refused(o) == "--base: revision '-main' starts with '-': git would read it as an option");
  o.base = "refs/tags/v1";
  CHECK(refused(o) == "--base must be a branch or a commit, got 'refs/tags/v1'");
  CHECK(seams.processes.calls.empty());
}

TEST_CASE("ci-status judges a key's validity at the time of the check, not at the commit date the signer chose",
          "[ci-status][signatures][git][api]") {
  CiScene scene;
  const auto alice = scene.key("alice");
  scene.write(".github/gatekit/gpu-gate.yml",
              "expiry_days: 3650\nsigning:\n  sign: true\n  allowed_signers: .github/gatekit/allowed_signers\n");
  // alice's key stopped being valid on 1 January 2020.
  scene.write(".github/gatekit/allowed_signers", "alice@example.com valid-before=\"20200101\" " + alice.public_line + "\n");
  scene.commit("the gate's trust");
  git_in(scene.dev, {"push", "-q", "origin", "main"});
  GitHubServer server(kState);
  CiSeams seams(server.url());
  auto context = seams.context();
  const std::int64_t in_2019 = now_seconds() - 1'577'750'400;  // age that puts it at 2019-12-31T00:00:00Z

  SECTION("a record committed in 2019 with a current time: left out for its commit date") {
    const std::string head = open_pull_request(scene, "back-dated", 1, [&] { scene.write("src/a.py", "A = 1\n"); });
    scene.publish(head, Verdict::pass, "alice-box", &alice, 60, 1'577'750'400);  // committed at 2019-12-31T00:00:00Z
    CHECK(run_ci_status(options_for(scene.ci_clone(), head), context) == ExitCode::pass);
    const auto status = posted(server).at(0);
    CHECK(status.state == "pending");
    CHECK(status.description == "no gate result for this tree");
    CHECK(seams.workflow.summary.find(") is not its time (") != std::string::npos);
    CHECK(seams.workflow.summary.find("2019-12-31T00:00:00Z") != std::string::npos);
  }
  SECTION("a record dated 2019 throughout, when the key was valid: signed by a key not valid now") {
    const std::string head = open_pull_request(scene, "old", 2, [&] { scene.write("src/a.py", "A = 2\n"); });
    scene.publish(head, Verdict::pass, "alice-box", &alice, in_2019);
    CHECK(run_ci_status(options_for(scene.ci_clone(), head), context) == ExitCode::pass);
    const auto status = posted(server).at(0);
    CHECK(status.state == "pending");
    CHECK(status.description == "no gate result for this tree (an unsigned or foreign result was ignored)");
    CHECK(seams.workflow.summary.find("key not valid now") != std::string::npos);
  }
  SECTION("a valid-before that does not read is an error naming the file, the line and the option") {
    scene.write(".github/gatekit/allowed_signers", "# keys\nalice@example.com valid-before=\"2020-01-01\" " + alice.public_line + "\n");
    git_in(scene.dev, {"switch", "-q", "main"});
    scene.commit("a typo");
    git_in(scene.dev, {"push", "-q", "origin", "main"});
    const std::string head = open_pull_request(scene, "typo", 3, [&] { scene.write("src/a.py", "A = 3\n"); });
    scene.publish(head, Verdict::pass, "alice-box", &alice);
    try {
      (void)run_ci_status(options_for(scene.ci_clone(), head), context);
      FAIL("no error");
    } catch (const Failure& failure) {
      CHECK(failure.error().kind == ErrorKind::bad_input);
      CHECK(failure.error().message ==
            "main:.github/gatekit/allowed_signers:2: valid-before: '2020-01-01' is not a time like 20260101, "
            "202601011200 or 20260101120000Z");
    }
    CHECK(posted(server).at(0).state == "error");
  }
}

TEST_CASE("ci-status: an older result never undoes a newer failure CI has seen", "[ci-status][git][api]") {
  CiScene scene;
  GitHubServer server(kState);
  CiSeams seams(server.url());
  auto context = seams.context();
  const std::string head = open_pull_request(scene, "feature", 1, [&] { scene.write("src/a.py", "A = 1\n"); });
  const std::string older_pass = scene.publish(head, Verdict::pass, "gpu-box", nullptr, 600);
  const std::string newer_fail = scene.publish(head, Verdict::fail, "gpu-box", nullptr, 60);
  // Each run has its own ref: the failure did not replace the pass.
  REQUIRE(git_in(scene.remote, {"for-each-ref", "--format=%(objectname)", "refs/gatekit-gate/"}).size() == 2 * 40 + 1);
  const auto ci = scene.ci_clone();
  CHECK(run_ci_status(options_for(ci, head), context) == ExitCode::pass);
  const std::string failed = posted(server).at(0).description;
  CHECK(failed.starts_with("failed (result of "));

  std::string refused;  // what the summary must say about the failure's ref
  SECTION("the failure's ref deleted") {
    git_in(scene.dev, {"push", "-q", "origin", ":" + scene.result_ref_of(newer_fail)});
  }
  SECTION("the older pass force-pushed over the failure's ref") {
    git_in(scene.dev, {"push", "-q", "-f", "origin", older_pass + ":" + scene.result_ref_of(newer_fail)});
    refused = "the ref's run id is not the record's time and commit";
  }
  CHECK(run_ci_status(options_for(ci, head), context) == ExitCode::pass);
  CHECK(seams.workflow.summary.find(refused) != std::string::npos);
  auto statuses = posted(server);
  REQUIRE(statuses.size() == 2);
  CHECK(statuses[1].state == "failure");
  CHECK(statuses[1].description == failed.substr(0, failed.size() - 1) + "; older results do not undo it)");
  CHECK(seams.workflow.summary.find("A failure was posted before for this commit or its tree") != std::string::npos);
  // A newer result counts again.
  scene.publish(head, Verdict::pass, "gpu-box", nullptr, 10);
  CHECK(run_ci_status(options_for(ci, head), context) == ExitCode::pass);
  statuses = posted(server);
  REQUIRE(statuses.size() == 3);
  CHECK((statuses[2].state + ": " + statuses[2].description) == "success: passed in 4m");
}

TEST_CASE("ci-status mirrors the remote's results: a deleted result is gone, a clashing name blocks nothing",
          "[ci-status][git][api]") {
  CiScene scene;
  GitHubServer server(kState);
  CiSeams seams(server.url());
  auto context = seams.context();
  const std::string head = open_pull_request(scene, "feature", 1, [&] { scene.write("src/a.py", "A = 1\n"); });
  // A result of the first layout, refs/gatekit-gate/<tree>/m1.
  const std::string record = scene.make_record(head, Verdict::pass, "m1");
  const std::string legacy = "refs/gatekit-gate/" + scene.tree_of(head) + "/m1";
  git_in(scene.dev, {"push", "-q", "origin", record + ":" + legacy});
  const auto ci = scene.ci_clone();  // a persistent workspace: the same clone for every run
  CHECK(run_ci_status(options_for(ci, head), context) == ExitCode::pass);
  CHECK(posted(server).at(0).description == "passed in 4m");
  // On the remote, the result goes, and a ref whose name nests under the old one arrives.
  git_in(scene.dev, {"push", "-q", "origin", ":" + legacy});
  git_in(scene.dev, {"push", "-q", "origin", record + ":" + legacy + "/extra"});
  CHECK(run_ci_status(options_for(ci, head), context) == ExitCode::pass);
  const auto statuses = posted(server);
  REQUIRE(statuses.size() == 2);
  CHECK((statuses[1].state + ": " + statuses[1].description) == "pending: no gate result for this tree");
  CHECK(git_in(ci, {"for-each-ref", "--format=%(refname)", "refs/gatekit-gate/"}) == legacy + "/extra");
  CHECK(seams.workflow.summary.find("not a result ref name") != std::string::npos);
}

TEST_CASE("ci-status: a result recorded without a GPU counts only when the base branch lets a CPU machine gate",
          "[ci-status][git][api]") {
  CiScene scene;
  GitHubServer server(kState);
  CiSeams seams(server.url());
  auto context = seams.context();
  scene.backend = "none";
  scene.gpus = 0;
  const std::string head = open_pull_request(scene, "feature", 1, [&] { scene.write("src/a.py", "A = 1\n"); });
  scene.publish(head, Verdict::pass, "laptop");  // pushed by hand: gpu-gate itself keeps it local
  CHECK(run_ci_status(options_for(scene.ci_clone("ci1"), head), context) == ExitCode::pass);
  CHECK(posted(server).at(0).description == "no gate result for this tree");
  CHECK(seams.workflow.summary.find("recorded without a GPU (gpu-count 0)") != std::string::npos);
  git_in(scene.dev, {"switch", "-q", "main"});
  scene.write(".github/gatekit/gpu-gate.yml", "cpu_gate: true\n");
  scene.commit("a CPU machine may gate");
  git_in(scene.dev, {"push", "-q", "origin", "main"});
  CHECK(run_ci_status(options_for(scene.ci_clone("ci2"), head), context) == ExitCode::pass);
  CHECK((posted(server).at(1).state + ": " + posted(server).at(1).description) ==
        "success: passed in 4m (no GPU; cpu_gate is on)");
}

TEST_CASE("ci-status: a result dated ahead by more than the allowed skew does not win", "[ci-status][git][api]") {
  CiScene scene;
  GitHubServer server(kState);
  CiSeams seams(server.url());
  auto context = seams.context();
  const std::string head = open_pull_request(scene, "feature", 1, [&] { scene.write("src/a.py", "A = 1\n"); });
  scene.publish(head, Verdict::fail, "honest-box", nullptr, 60);
  scene.publish(head, Verdict::pass, "fast-clock", nullptr, -30 * 60);  // 30 minutes ahead
  CHECK(run_ci_status(options_for(scene.ci_clone(), head), context) == ExitCode::pass);
  CHECK(posted(server).at(0).state == "failure");
  CHECK(seams.workflow.summary.find("in the future: the allowed clock skew is 5 minutes") != std::string::npos);
}

TEST_CASE("ci-status: a key in the base branch's revoked keys is not trusted, and a named file must exist",
          "[ci-status][signatures][git][api]") {
  CiScene scene;
  const auto alice = scene.key("alice");
  scene.write(".github/gatekit/gpu-gate.yml", "signing:\n  sign: true\n  allowed_signers: .github/gatekit/allowed_signers\n"
                                              "  revoked_keys: .github/gatekit/revoked_keys\n");
  scene.write(".github/gatekit/allowed_signers", "alice@example.com " + alice.public_line + "\n");
  scene.write(".github/gatekit/revoked_keys", alice.public_line + "\n");
  scene.commit("alice's key is revoked");
  git_in(scene.dev, {"push", "-q", "origin", "main"});
  GitHubServer server(kState);
  CiSeams seams(server.url());
  auto context = seams.context();
  const std::string head = open_pull_request(scene, "feature", 1, [&] { scene.write("src/a.py", "A = 1\n"); });
  scene.publish(head, Verdict::pass, "alice-box", &alice);
  CHECK(run_ci_status(options_for(scene.ci_clone("ci1"), head), context) == ExitCode::pass);
  CHECK(posted(server).at(0).description == "no gate result for this tree (an unsigned or foreign result was ignored)");
  // The file named but gone from the base branch: fail closed.
  git_in(scene.dev, {"switch", "-q", "main"});
  git_in(scene.dev, {"rm", "-q", ".github/gatekit/revoked_keys"});
  scene.commit("revocations lost");
  git_in(scene.dev, {"push", "-q", "origin", "main"});
  try {
    (void)run_ci_status(options_for(scene.ci_clone("ci2"), head), context);
    FAIL("no error");
  } catch (const Failure& failure) {
    CHECK(failure.error().message == "the revoked-keys file .github/gatekit/revoked_keys is not on the default branch main");
  }
  CHECK(posted(server).at(1).state == "error");
}

TEST_CASE("ci-status trusts the default branch, never a base that the event or the pull request names",
          "[ci-status][signatures][git][api][trust]") {
  // The attack of a contributor with push access (not admin): a branch of their own whose
  // allowed signers hold their key, and a second pull request from the same head into it. The
  // workflow_run after it names that branch as the base; the App would post on the head, which
  // is also the head of the real pull request into main.
  CiScene scene;
  const auto alice = scene.key("alice");
  const auto mallory = scene.key("mallory");
  scene.write(".github/gatekit/gpu-gate.yml", "signing:\n  sign: true\n  allowed_signers: .github/gatekit/allowed_signers\n");
  scene.write(".github/gatekit/allowed_signers", "alice@example.com " + alice.public_line + "\n");
  scene.commit("the gate's trust");
  git_in(scene.dev, {"push", "-q", "origin", "main"});
  git_in(scene.dev, {"switch", "-q", "-c", "mallory-trust", "main"});
  scene.write(".github/gatekit/allowed_signers", "mallory@example.com " + mallory.public_line + "\n");
  scene.commit("my own trust");
  git_in(scene.dev, {"push", "-q", "origin", "mallory-trust"});
  const std::string head = open_pull_request(scene, "feature", 1, [&] { scene.write("src/a.py", "A = 1\n"); });
  git_in(scene.dev, {"push", "-q", "origin", "HEAD:refs/pull/2/head"});  // the second pull request, into mallory-trust
  scene.publish(head, Verdict::pass, "mallory-box", &mallory);
  GitHubServer server(kState);
  CiSeams seams(server.url());
  seams.run.event_name = "workflow_run";
  auto context = seams.context();
  auto options = options_for(scene.ci_clone(), head);
  options.mode = "strict";
  options.pr = "2";
  options.base = "mallory-trust";

  CHECK(run_ci_status(options, context) == ExitCode::pass);
  const auto status = posted(server).at(0);
  CHECK(status.sha == head);
  CHECK((status.state + ": " + status.description) ==
        "pending: no gate result for this tree (an unsigned or foreign result was ignored)");
  CHECK(seams.workflow.summary.find("| trusted files | from the default branch `main`; the base `mallory-trust` is not "
                                    "trusted, never the pull request |") != std::string::npos);
  CHECK(seams.workflow.summary.find("The base `mallory-trust` is neither the default branch nor a trusted base that "
                                    "the default branch's configuration lists (`trusted_bases`)") != std::string::npos);
  CHECK(seams.workflow.summary.find("foreign") != std::string::npos);
  const auto& log = seams.workflow.lines;
  CHECK(std::find(log.begin(), log.end(),
                  "the base 'mallory-trust' is neither the default branch nor a trusted base its configuration lists: "
                  "the trusted files come from the default branch main") != log.end());

  // Her branch's own configuration listing itself as trusted changes nothing: only the default
  // branch's list counts.
  git_in(scene.dev, {"switch", "-q", "mallory-trust"});
  scene.write(".github/gatekit/gpu-gate.yml", "trusted_bases: [mallory-trust]\nsigning:\n  sign: true\n"
                                              "  allowed_signers: .github/gatekit/allowed_signers\n");
  scene.commit("trust me");
  git_in(scene.dev, {"push", "-q", "origin", "mallory-trust"});
  CHECK(run_ci_status(options, context) == ExitCode::pass);
  CHECK((posted(server).at(1).state + ": " + posted(server).at(1).description) ==
        "pending: no gate result for this tree (an unsigned or foreign result was ignored)");
}

TEST_CASE("ci-status: \"no code change\" is judged against the trusted branch, not a base someone pushed",
          "[ci-status][git][api][trust]") {
  // A branch at the head's code commit makes the head's change "docs only" relative to it.
  CiScene scene;
  const std::string code = open_pull_request(scene, "feature", 1, [&] { scene.write("src/a.py", "A = 1\n"); });
  scene.write("docs/index.md", "# Docs, reworded\n");
  const std::string head = scene.commit("docs");
  git_in(scene.dev, {"push", "-q", "origin", "feature", "HEAD:refs/pull/1/head", code + ":refs/heads/stepping-stone"});
  GitHubServer server(kState);
  CiSeams seams(server.url());
  auto context = seams.context();
  const auto ci = scene.ci_clone();
  auto options = options_for(ci, head);
  options.base = "stepping-stone";
  CHECK(run_ci_status(options, context) == ExitCode::pass);
  options.base = "";  // none given: the default branch
  CHECK(run_ci_status(options, context) == ExitCode::pass);
  const auto statuses = posted(server);
  REQUIRE(statuses.size() == 2);
  CHECK((statuses[0].state + ": " + statuses[0].description) == "pending: no gate result for this tree");
  CHECK((statuses[1].state + ": " + statuses[1].description) == "pending: no gate result for this tree");
}

TEST_CASE("ci-status: a base the default branch's configuration lists in trusted_bases decides with its own files",
          "[ci-status][signatures][git][api][trust]") {
  CiScene scene;
  const auto alice = scene.key("alice");
  const auto carol = scene.key("carol");
  scene.write(".github/gatekit/gpu-gate.yml", "trusted_bases: [release/1.x]\nsigning:\n  sign: true\n"
                                              "  allowed_signers: .github/gatekit/allowed_signers\n");
  scene.write(".github/gatekit/allowed_signers", "alice@example.com " + alice.public_line + "\n");
  scene.commit("the gate's trust");
  git_in(scene.dev, {"push", "-q", "origin", "main"});
  git_in(scene.dev, {"switch", "-q", "-c", "release/1.x", "main"});
  scene.write(".github/gatekit/allowed_signers", "carol@example.com " + carol.public_line + "\n");
  scene.commit("the release's signers");
  git_in(scene.dev, {"push", "-q", "origin", "release/1.x"});
  git_in(scene.dev, {"switch", "-q", "-c", "fix", "release/1.x"});
  scene.write("src/a.py", "A = 2\n");
  const std::string head = scene.commit("a fix for the release");
  git_in(scene.dev, {"push", "-q", "origin", "fix", "HEAD:refs/pull/3/head"});
  scene.publish(head, Verdict::pass, "carol-box", &carol);
  GitHubServer server(kState);
  CiSeams seams(server.url());
  auto context = seams.context();
  auto options = options_for(scene.ci_clone(), head);
  options.base = "refs/heads/release/1.x";
  CHECK(run_ci_status(options, context) == ExitCode::pass);
  CHECK((posted(server).at(0).state + ": " + posted(server).at(0).description) == "success: passed in 4m");
  CHECK(seams.workflow.summary.find("| trusted files | from `release/1.x`, a trusted base the default branch's "
                                    "configuration lists, never the pull request |") != std::string::npos);
  CHECK(seams.workflow.summary.find("signed by `carol@example.com`") != std::string::npos);
  options.base = "main";  // carol is no signer of main's
  CHECK(run_ci_status(options, context) == ExitCode::pass);
  CHECK(posted(server).at(1).description == "no gate result for this tree (an unsigned or foreign result was ignored)");
}

TEST_CASE("ci-status remembers only the failures its own poster posted", "[ci-status][git][api][creator]") {
  // Any workflow with statuses: write (github-actions[bot]), or a person's token, can post a
  // gate/gpu failure in gatekit's form on any commit: remembered, it would block the pull
  // request for 28 days whatever results came after.
  CiScene scene;
  const std::string head = open_pull_request(scene, "feature", 1, [&] { scene.write("src/a.py", "A = 1\n"); });
  scene.publish(head, Verdict::pass, "gpu-box", nullptr, 600);
  const std::string forged = "failed (result of " + format_utc(now_seconds() - 60) + ")";
  auto state_with = [&](const std::string& creator) {
    return R"({"login": "gatekit-gate[bot]", "repos": {"o/r": {"statuses": {")" + head +
           R"(": [{"state": "failure", "context": "gate/gpu", "description": ")" + forged + R"(", "creator": )" +
           creator + "}]}}}}";
  };
  const auto ci = scene.ci_clone();
  for (const std::string& creator : {std::string(R"("github-actions[bot]")"), std::string(R"("mallory")"),
                                     std::string("null")}) {
    INFO(creator);
    GitHubServer server(state_with(creator));
    CiSeams seams(server.url());
    auto context = seams.context();
    CHECK(run_ci_status(options_for(ci, head), context) == ExitCode::pass);
    CHECK((posted(server).at(0).state + ": " + posted(server).at(0).description) == "success: passed in 4m");
  }
  GitHubServer server(state_with(R"("gatekit-gate[bot]")"));  // the App's own failure is remembered
  CiSeams seams(server.url());
  auto context = seams.context();
  CHECK(run_ci_status(options_for(ci, head), context) == ExitCode::pass);
  CHECK((posted(server).at(0).state + ": " + posted(server).at(0).description) ==
        "failure: " + forged.substr(0, forged.size() - 1) + "; older results do not undo it)");
}

TEST_CASE("ci-status: posting needs the poster whose failures it remembers", "[ci-status][creator]") {
  gatekit::FakeSeams seams;
  auto context = seams.context();
  CiStatusOptions o;
  o.sha = std::string(40, 'a');
  o.repository = "o/r";
  o.post = true;
  try {
    (void)run_ci_status(o, context);
    FAIL("no error");
  } catch (const Failure& failure) {
    CHECK(failure.error().kind == ErrorKind::bad_input);
    CHECK(failure.error().message == "posting needs --poster, the login that creates gatekit's statuses (strict mode: "
                                     "the App's <app-slug>[bot]): only its own earlier failures are remembered");
  }
  o.poster = "--upload-pack=x";
  try {
    (void)run_ci_status(o, context);
    FAIL("no error");
  } catch (const Failure& failure) {
    CHECK(failure.error().message == "--poster must be a GitHub login (NAME, or SLUG[bot] for an app), got '--upload-pack=x'");
  }
  CHECK(seams.processes.calls.empty());
}

TEST_CASE("ci-status: failures per tree, like passes: a new commit with a failed tree does not get an older pass back",
          "[ci-status][git][api][per-tree]") {
  // The tree of `first` passed; `second`, a new commit with the same tree (an amend, a revert of
  // a revert), failed later. The failure's ref is deleted; `third`, yet another commit with that
  // tree, must not get the older pass: the newest result for the tree failed.
  CiScene scene;
  GitHubServer server(kState);
  CiSeams seams(server.url());
  auto context = seams.context();
  const std::string first = open_pull_request(scene, "feature", 1, [&] { scene.write("src/a.py", "A = 1\n"); });
  const std::string pass = scene.publish(first, Verdict::pass, "gpu-box", nullptr, 600);
  const std::string second = scene.commit("the same tree, a new commit");
  git_in(scene.dev, {"push", "-q", "origin", "feature"});
  REQUIRE(scene.tree_of(second) == scene.tree_of(first));
  const std::string fail = scene.publish(second, Verdict::fail, "gpu-box", nullptr, 60);
  const auto ci = scene.ci_clone();
  CHECK(run_ci_status(options_for(ci, second), context) == ExitCode::pass);
  const std::string failed = posted(server).at(0).description;
  REQUIRE(failed.starts_with("failed (result of "));
  // The pass the failure outranks is marked on its record commit, for the tree.
  const auto marks = posted(server, true);
  REQUIRE(marks.size() == 1);
  CHECK(marks[0].sha == pass);
  CHECK(marks[0].state == "failure");
  CHECK(marks[0].description == failed.substr(0, failed.size() - 1) + ") for tree " + scene.tree_of(first));

  git_in(scene.dev, {"push", "-q", "origin", ":" + scene.result_ref_of(fail)});
  const std::string third = scene.commit("the same tree again");
  git_in(scene.dev, {"push", "-q", "origin", "feature"});
  CHECK(run_ci_status(options_for(ci, third), context) == ExitCode::pass);
  CHECK(run_ci_status(options_for(ci, first), context) == ExitCode::pass);
  const std::string kept = "failure: " + failed.substr(0, failed.size() - 1) + "; older results do not undo it)";
  auto statuses = posted(server);
  REQUIRE(statuses.size() == 3);
  CHECK(statuses[1].sha == third);
  CHECK((statuses[1].state + ": " + statuses[1].description) == kept);
  CHECK((statuses[2].state + ": " + statuses[2].description) == kept);
  // A docs-only commit on top inherits the failure too; a newer pass of the tree undoes it.
  scene.write("docs/index.md", "# Docs, reworded\n");
  const std::string docs = scene.commit("docs");
  git_in(scene.dev, {"push", "-q", "origin", "feature"});
  CHECK(run_ci_status(options_for(ci, docs), context) == ExitCode::pass);
  CHECK((posted(server).at(3).state + ": " + posted(server).at(3).description) == kept);
  scene.publish(third, Verdict::pass, "gpu-box", nullptr, 10);
  CHECK(run_ci_status(options_for(ci, third), context) == ExitCode::pass);
  CHECK((posted(server).at(4).state + ": " + posted(server).at(4).description) == "success: passed in 4m");
}
