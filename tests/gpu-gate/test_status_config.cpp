// A result counts only when it was recorded with the trusted base's configuration (the record's
// `config` digest, config_digest in config.hpp): the pure rule, then ci-status end to end on
// real git clones, with the GitHub API test server.
#include "catch.hpp"
#include "config.hpp"
#include "gatekit/json.hpp"
#include "status/ci_status.hpp"
#include "status/status_decide.hpp"
#include "test_ci_scene.hpp"
#include "../core/github_server.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;
using gatekit::testing::CiScene;
using gatekit::testing::CiSeams;
using gatekit::testing::git_in;
using gatekit::testing::GitHubServer;

TEST_CASE("the configuration digest covers what decides the tests the gate runs, and nothing else", "[config]") {
  const Config base = value_or_throw(parse_config("scope:\n  folders: [tests/gpu]\n", "gate.yml"));
  const std::string digest = config_digest(base, std::nullopt);
  CHECK(digest.size() == 71);
  // The digest is part of every published result: a gatekit that computed it otherwise would
  // leave every result out. The default configuration's, with no selection file, is pinned.
  CHECK(config_digest(default_config(), std::nullopt) ==
        "sha256:7a55c55b4e0012b84b4944f4ae3c8c4e61f6b2a166427cf89eadea36050fff6a");
  CHECK(digest.starts_with("sha256:"));
  CHECK(config_digest(base, std::nullopt) == digest);
  const std::vector<std::string> same{
      "scope:\n  folders: [tests/gpu]\nworkers: 64\n",
      "scope:\n  folders: [tests/gpu]\nnamespace: other\nexpiry_days: 3\ncpu_gate: true\n",
      "scope:\n  folders: [tests/gpu]\nsigning:\n  sign: true\n  allowed_signers: a\n",
      "# a comment\nscope: {folders: [tests/gpu]}\n",
  };
  for (const auto& text : same) {
    INFO(text);
    CHECK(config_digest(value_or_throw(parse_config(text, "g.yml")), std::nullopt) == digest);
  }
  const std::vector<std::string> other{
      "scope:\n  folders: [tests/gpu/stream]\n",
      "scope:\n  folders: [tests/gpu]\n  extras: [tests/test_x.py]\n",
      "scope:\n  folders: [tests/gpu]\n  modules: [torch]\n",
      "scope:\n  folders: [tests/gpu, tests/more]\n",
      "scope:\n  folders: [tests/gpu]\ncommand: [python, -m, pytest, '--junitxml={junit}', '{tests}']\n",
      "scope:\n  folders: [tests/gpu]\nnightly_marker: slow\n",
      "scope:\n  folders: [tests/gpu]\nselection: ci/suite.yml\n",
      "scope:\n  folders: [tests/gpu]\nconcurrency: ['src/**']\n",
      "scope:\n  folders: [tests/gpu]\nstress_repeats: 1\n",
  };
  for (const auto& text : other) {
    INFO(text);
    CHECK(config_digest(value_or_throw(parse_config(text, "g.yml")), std::nullopt) != digest);
  }
  // The selection file's text is part of it: its nightly rule and legs decide what runs.
  CHECK(config_digest(base, std::string("version: 1\nlegs: {all: {markers: not nightly}}\n")) != digest);
  CHECK(config_digest(base, std::string("")) != digest);  // an empty file is not no file
}

TEST_CASE("a result recorded with another configuration, or before records named one, does not count", "[status]") {
  const std::string tree(40, 'a');
  const std::string trusted = "sha256:" + std::string(64, '1');
  StatusInput input;
  input.history = {{std::string(40, 'c'), tree, false}};
  input.now = 1'800'000'000;
  input.config_digest = trusted;
  GateRecord record;
  record.verdict = Verdict::pass;
  record.tree = tree;
  record.time = input.now - 60;
  record.machine = "m1";
  record.device = {"cuda", 1, {}, "", "", ""};
  record.ref = "refs/gatekit-gate/" + tree + "/m1";
  record.config = trusted;
  input.records = {record};
  CHECK(decide_status(input).state == GateState::success);

  input.records.front().config = "sha256:" + std::string(64, '2');
  auto status = decide_status(input);
  CHECK(status.state == GateState::pending);
  CHECK(status.ignored == std::vector<std::string>{
                              "'" + record.ref + "': recorded with another configuration of the gate (sha256:222222222222) "
                              "than the base branch's (sha256:111111111111): the scope, the command or the selection file "
                              "differ; run the gate again (it reads the base branch's configuration)"});
  input.records.front().config = "";
  input.records.front().format = 1;
  status = decide_status(input);
  CHECK(status.state == GateState::pending);
  CHECK(status.ignored == std::vector<std::string>{"'" + record.ref +
                                                   "': recorded before results named their configuration (format "
                                                   "gatekit-gpu-gate/1): run the gate again"});
  // A reader that checks nothing (no trusted configuration given) counts it.
  input.config_digest.reset();
  CHECK(decide_status(input).state == GateState::success);
}

namespace {

struct Posted {
  std::string state, description;
};

Posted last_post(GitHubServer& server) {
  Posted out;
  const auto stats = server.stats();
  for (const auto& request : stats.at("requests").as_array()) {
    const auto& r = request.as_object();
    if (std::string(r.at("method").as_string()) != "POST") continue;
    const auto& body = r.at("body").as_object();
    out = {std::string(body.at("state").as_string()), std::string(body.at("description").as_string())};
  }
  return out;
}

}  // namespace

TEST_CASE("ci-status counts a result only with the base branch's configuration, whatever the pull request's says",
          "[ci-status][git][api]") {
  CiScene scene;
  scene.write(".github/gatekit/gpu-gate.yml", "scope:\n  folders: [tests/gpu]\n");
  scene.commit("the gate's scope");
  git_in(scene.dev, {"push", "-q", "origin", "main"});
  const Config base = value_or_throw(parse_config("scope:\n  folders: [tests/gpu]\n", "base"));
  const Config narrowed = value_or_throw(parse_config("scope:\n  folders: [tests/gpu/easy]\n", "pr"));
  // The pull request narrows the scope in its own tree.
  git_in(scene.dev, {"switch", "-q", "-c", "narrow"});
  scene.write(".github/gatekit/gpu-gate.yml", "scope:\n  folders: [tests/gpu/easy]\n");
  scene.write("src/kernel.py", "def add(a, b):\n    return a - b\n");
  const std::string head = scene.commit("narrow the gate");
  git_in(scene.dev, {"push", "-q", "origin", "narrow", "HEAD:refs/pull/1/head"});
  GitHubServer server(R"({"login": "gatekit-gate[bot]", "repos": {"o/r": {}}})");
  CiSeams seams(server.url());
  auto context = seams.context();
  CiStatusOptions o;
  o.sha = head;
  o.base = "main";
  o.repository = "o/r";
  o.post = true;
  o.poster = "gatekit-gate[bot]";  // posting needs the login that creates gatekit's statuses

  SECTION("a pass recorded on the pull request's own terms is left out, named with the reason") {
    scene.config = config_digest(narrowed, std::nullopt);
    scene.publish(head, Verdict::pass, "gpu-box");
    o.repo_dir = scene.ci_clone().string();
    CHECK(run_ci_status(o, context) == ExitCode::pass);
    CHECK(last_post(server).state == "pending");
    CHECK(last_post(server).description == "no gate result for this tree");
    CHECK(seams.workflow.summary.find("recorded with another configuration of the gate (" +
                                      config_digest(narrowed, std::nullopt).substr(0, 19) + ") than the base branch's (" +
                                      config_digest(base, std::nullopt).substr(0, 19) + ")") != std::string::npos);
  }
  SECTION("a pass recorded with the base branch's configuration counts") {
    scene.config = config_digest(base, std::nullopt);
    scene.publish(head, Verdict::pass, "gpu-box");
    o.repo_dir = scene.ci_clone().string();
    CHECK(run_ci_status(o, context) == ExitCode::pass);
    CHECK(last_post(server).state == "success");
    CHECK(last_post(server).description == "passed in 4m");
  }
}
