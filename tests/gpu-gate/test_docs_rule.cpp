// The docs-only rule (docs_rule.hpp): the pure decision on tables, the tree's links read from a
// real repository, and the rule end to end on the CI side (a docs file a link makes code
// inherits nothing) and in `gpu-gate status`'s gathering.
#include "scope/docs_rule.hpp"

#include "../core/github_server.hpp"
#include "catch.hpp"
#include "status/ci_status.hpp"
#include "config.hpp"
#include "gatekit/json.hpp"
#include "gatekit/path_categories.hpp"
#include "status/status.hpp"
#include "test_ci_scene.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;
using gatekit::testing::CiScene;
using gatekit::testing::CiSeams;
using gatekit::testing::git_in;
using gatekit::testing::GitHubServer;

namespace {

DocsRule rule_with(const std::vector<TreeLink>& links) {
  auto rule = DocsRule::make(glob::default_docs_patterns(), links);
  REQUIRE(rule.ok());
  return std::move(*rule);
}

}  // namespace

TEST_CASE("docs rule: patterns, Python code wherever it lies, and links into docs") {
  struct Row {
    std::string path;
    std::vector<TreeLink> links;
    std::string why;  // "" = docs only
  };
  const std::string by_pattern = "it is not in the docs patterns";
  const std::string python = "Python imports or pytest collects it";
  const std::vector<Row> rows = {
      {"docs/guide.md", {}, ""},
      {"README.md", {}, ""},
      {"src/kernel.py", {}, by_pattern},
      {"src/notes.md", {}, by_pattern},
      {"docs/conf.py", {}, python},
      {"docs/conftest.py", {}, python},
      {"docs/stubs/api.pyi", {}, python},
      {"docs/ext/_fast.cpython-312-x86_64-linux-gnu.so", {}, python},
      {"docs/ext/_fast.pyd", {}, python},
      // the issue's case: src/helper.py -> ../docs/helper.py
      {"docs/helper.txt", {{"src/helper.py", "../docs/helper.txt"}}, "a symbolic link leads into it (src/helper.py)"},
      // a link to a folder holding the path
      {"docs/data/table.csv", {{"src/pkg/data", "../../docs/data"}}, "a symbolic link leads into it (src/pkg/data)"},
      {"docs/data2/table.csv", {{"src/pkg/data", "../../docs/data"}}, ""},
      // through another link: src/a -> ../docs/hop, docs/hop -> real: both docs/hop and docs/real
      {"docs/real/x.md", {{"src/a", "../docs/hop"}, {"docs/hop", "real"}}, "a symbolic link leads into it (src/a)"},
      {"docs/hop", {{"src/a", "../docs/hop"}, {"docs/hop", "real"}}, "a symbolic link leads into it (src/a)"},
      // a link to the root leads into everything
      {"docs/guide.md", {{"tools/all", ".."}}, "a symbolic link leads into it (tools/all)"},
      // outside the tree, absolute, or a loop: leads nowhere in the tree
      {"docs/guide.md", {{"src/out", "../../elsewhere/docs/guide.md"}}, ""},
      {"docs/guide.md", {{"src/abs", "/docs/guide.md"}}, ""},
      {"docs/guide.md", {{"docs/a", "b"}, {"docs/b", "a"}}, ""},
      // `.` and redundant slashes
      {"docs/guide.md", {{"src/x", ".//../docs/./guide.md"}}, "a symbolic link leads into it (src/x)"},
  };
  for (const auto& row : rows) {
    INFO(row.path << " with " << row.links.size() << " links");
    CHECK(rule_with(row.links).why_code(row.path) == row.why);
  }
}

TEST_CASE("docs rule: a change to a link or a submodule is never docs only") {
  const auto rule = rule_with({});
  CHECK(rule.is_docs_change("docs/guide.md", "100644", "100644"));
  CHECK_FALSE(rule.is_docs_change("docs/link", "120000", "120000"));
  CHECK_FALSE(rule.is_docs_change("docs/link", "000000", "120000"));
  CHECK_FALSE(rule.is_docs_change("docs/guide.md", "120000", "100644"));
  CHECK_FALSE(rule.is_docs_change("docs/theme", "160000", "160000"));
}

TEST_CASE("docs rule: link_reach lists every link passed and the target") {
  const std::map<std::string, std::string, std::less<>> links{{"docs/hop", "real"}, {"docs/loop", "loop"}};
  CHECK(link_reach(links, "src/a", "../docs/hop/x.md") == std::vector<std::string>{"docs/hop", "docs/real/x.md"});
  CHECK(link_reach(links, "a", "..").empty());
  CHECK(link_reach(links, "src/l", "../docs/loop").empty());
  CHECK(link_reach(links, "src/r", "..") == std::vector<std::string>{""});
}

TEST_CASE("docs rule: a bad docs pattern is bad input naming it") {
  auto rule = DocsRule::make({"docs/[z-a]"}, {});
  REQUIRE_FALSE(rule.ok());
  CHECK(rule.error().kind == ErrorKind::bad_input);
  CHECK(rule.error().message.starts_with("docs pattern 'docs/[z-a]': "));
}

TEST_CASE("docs rule: parse_raw_line reads modes and C-quoted paths, refuses anything else") {
  auto change = parse_raw_line(":100644 120000 " + std::string(40, 'a') + " " + std::string(40, 'b') + " T\t\"docs/\\303\\251.md\"");
  REQUIRE(change.ok());
  CHECK(change->old_mode == "100644");
  CHECK(change->new_mode == "120000");
  CHECK(change->path == "docs/\xc3\xa9.md");
  auto bad = parse_raw_line("docs/x.md");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message == "unexpected git raw diff line: 'docs/x.md'");
}

namespace {

// The token is the App's: what it posts is created by gatekit-gate[bot], the poster gatekit trusts.
const char* kState = R"({"login": "gatekit-gate[bot]", "repos": {"o/r": {}}})";

std::string last_description(GitHubServer& server) {
  std::string description;
  const auto stats = server.stats();  // the loop reads into it: keep it alive
  for (const auto& request : stats.at("requests").as_array()) {
    const auto& r = request.as_object();
    if (std::string(r.at("method").as_string()) == "POST")
      description = std::string(r.at("body").as_object().at("state").as_string()) + " " +
                    std::string(r.at("body").as_object().at("description").as_string());
  }
  return description;
}

std::string ci_status_of(CiScene& scene, const std::string& sha) {
  GitHubServer server(kState);
  CiSeams seams(server.url());
  auto context = seams.context();
  CiStatusOptions o;
  o.repo_dir = scene.ci_clone("ci-" + sha.substr(0, 8)).string();
  o.sha = sha;
  o.base = "main";
  o.repository = "o/r";
  o.post = true;
  o.poster = "gatekit-gate[bot]";
  REQUIRE(run_ci_status(o, context) == ExitCode::pass);
  return last_description(server);
}

}  // namespace

TEST_CASE("tree_links reads a commit's links and their targets through git", "[git]") {
  CiScene scene;
  scene.write("docs/helper.txt", "HELP = 1\n");
  std::filesystem::create_symlink("../docs/helper.txt", scene.dev / "src" / "helper.py");
  std::filesystem::create_directories(scene.dev / "docs" / "odd dir");
  std::filesystem::create_symlink("../../src", scene.dev / "docs" / "odd dir" / "l\xc3\xa9nk");
  const auto commit = scene.commit("links");
  SystemProcessRunner runner;
  Git git(runner, scene.dev);
  auto links = tree_links(git, commit);
  REQUIRE(links.ok());
  REQUIRE(links->size() == 2);
  CHECK(links->at(0).path == "docs/odd dir/l\xc3\xa9nk");
  CHECK(links->at(0).target == "../../src");
  CHECK(links->at(1).path == "src/helper.py");
  CHECK(links->at(1).target == "../docs/helper.txt");
}

TEST_CASE("ci-status: a docs file a link makes code inherits nothing (issue 21, item 5)", "[ci-status][git][api]") {
  CiScene scene;
  // src/helper.py is a link to docs/helper.txt: Python imports the docs file.
  scene.write("docs/helper.txt", "HELP = 1\n");
  std::filesystem::create_symlink("../docs/helper.txt", scene.dev / "src" / "helper.py");
  scene.commit("helper");
  git_in(scene.dev, {"push", "-q", "origin", "main"});
  git_in(scene.dev, {"switch", "-q", "-c", "feature"});
  scene.write("src/kernel.py", "def add(a, b):\n    return b + a\n");
  const auto tested = scene.commit("code");
  scene.publish(tested, Verdict::pass, "gpu-box");
  scene.write("docs/helper.txt", "HELP = 2\n");  // changes what `import helper` runs
  const auto linked = scene.commit("the linked docs file");
  scene.write("docs/index.md", "# Docs\n\nMore.\n");
  const auto plain = scene.commit("plain docs");  // on top: still nothing to inherit
  git_in(scene.dev, {"push", "-q", "origin", "feature"});

  CHECK(ci_status_of(scene, tested) == "success passed in 4m");
  CHECK(ci_status_of(scene, linked) == "pending no gate result for this tree");
  CHECK(ci_status_of(scene, plain) == "pending no gate result for this tree");
}

TEST_CASE("ci-status: Python under docs/ is code, and a linked docs file is no 'no code change'", "[ci-status][git][api]") {
  CiScene scene;
  scene.write("docs/helper.txt", "HELP = 1\n");
  std::filesystem::create_symlink("../docs/helper.txt", scene.dev / "src" / "helper.py");
  scene.commit("helper");
  git_in(scene.dev, {"push", "-q", "origin", "main"});
  git_in(scene.dev, {"switch", "-q", "-c", "feature"});
  scene.write("docs/conf.py", "project = 'x'\n");
  const auto conf = scene.commit("docs/conf.py");
  git_in(scene.dev, {"switch", "-q", "-c", "feature2", "main"});
  scene.write("docs/helper.txt", "HELP = 3\n");
  const auto linked = scene.commit("linked docs only");
  git_in(scene.dev, {"switch", "-q", "-c", "feature3", "main"});
  scene.write("docs/index.md", "# Docs\n\nOnly words.\n");
  const auto words = scene.commit("docs only");
  git_in(scene.dev, {"push", "-q", "origin", "feature", "feature2", "feature3"});

  CHECK(ci_status_of(scene, conf) == "pending no gate result for this tree");
  CHECK(ci_status_of(scene, linked) == "pending no gate result for this tree");
  CHECK(ci_status_of(scene, words) == "success no code change");
}

TEST_CASE("ci-status: adding or retargeting a link in docs ends a docs-only history", "[ci-status][git][api]") {
  CiScene scene;
  git_in(scene.dev, {"switch", "-q", "-c", "feature"});
  scene.write("src/kernel.py", "def add(a, b):\n    return b + a\n");
  const auto tested = scene.commit("code");
  scene.publish(tested, Verdict::pass, "gpu-box");
  std::filesystem::create_symlink("index.md", scene.dev / "docs" / "alias.md");
  const auto link = scene.commit("a link in docs");
  git_in(scene.dev, {"push", "-q", "origin", "feature"});
  CHECK(ci_status_of(scene, link) == "pending no gate result for this tree");
}
