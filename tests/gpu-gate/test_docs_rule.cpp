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

TEST_CASE("docs rule: what the test configuration makes pytest collect is code") {
  struct Row {
    std::string path;
    TestConfigFacts tests;
    std::string why;  // "" = docs only
  };
  const TestConfigFacts none;
  const TestConfigFacts markdown{{"*.md", "docs/howto/*.rst"}, {}, ""};
  const TestConfigFacts sybil{{}, {"docs/conftest.py"}, ""};
  const TestConfigFacts broken{{}, {}, "setup.cfg: File contains no section headers."};
  const std::vector<Row> rows = {
      {"docs/intro.txt", none, ""},
      // pytest's default doctest glob, test*.txt, applies when no configuration names one.
      {"docs/test_intro.txt", none, "pytest collects it as a doctest (--doctest-glob 'test*.txt')"},
      {"docs/test_intro.txt", markdown, ""},  // a named glob replaces the default
      {"docs/guide.md", markdown, "pytest collects it as a doctest (--doctest-glob '*.md')"},
      {"README.md", markdown, "pytest collects it as a doctest (--doctest-glob '*.md')"},
      {"docs/howto/setup.rst", markdown, "pytest collects it as a doctest (--doctest-glob 'docs/howto/*.rst')"},
      {"docs/setup.rst", markdown, ""},
      {"docs/pytest.ini", none, "pytest reads its configuration from it"},
      {"docs/pyproject.toml", none, "pytest reads its configuration from it"},
      {"docs/tox.ini", none, "pytest reads its configuration from it"},
      {"docs/setup.cfg", none, "pytest reads its configuration from it"},
      {"docs/usage.rst", sybil, "pytest may collect it: docs/conftest.py binds pytest_collect_file"},
      {"docs/api/usage.rst", sybil, "pytest may collect it: docs/conftest.py binds pytest_collect_file"},
      {"overrides/main.html", sybil, ""},
      {"docs/index.md", broken,
       "the tree's test configuration does not read (setup.cfg: File contains no section headers.): what pytest "
       "collects is unknown"},
  };
  for (const auto& row : rows) {
    INFO(row.path);
    auto rule = DocsRule::make(glob::default_docs_patterns(), {}, row.tests);
    REQUIRE(rule.ok());
    CHECK(rule->why_code(row.path) == row.why);
  }
}

TEST_CASE("doctest globs match as pytest's fnmatch_ex does") {
  struct Row {
    std::string glob, path;
    bool matches;
  };
  const std::vector<Row> rows = {
      {"test*.txt", "docs/test_a.txt", true}, {"test*.txt", "docs/a_test.txt", false},
      {"*.md", "docs/a/b.md", true},          {"*.md", "docs/a.md.txt", false},
      {"[!x]*.rst", "docs/a.rst", true},      {"[!x]*.rst", "docs/x.rst", false},
      {"howto/*.rst", "docs/howto/a.rst", true}, {"howto/*.rst", "docs/other/a.rst", false},
      {"docs/*.rst", "docs/deep/a.rst", true},  // `*` crosses folders, as in Python's fnmatch
      {"a\\*.md", "docs/a\\b.md", true},  // no escapes: a backslash is a character
  };
  for (const auto& row : rows) {
    INFO(row.glob << " " << row.path);
    CHECK(doctest_glob_matches(row.glob, row.path) == row.matches);
  }
}

TEST_CASE("the test configuration is read from the tree: pytest.ini, tox.ini, setup.cfg, pyproject.toml, conftest.py",
          "[git]") {
  CiScene scene;
  scene.write("pytest.ini", "[pytest]\naddopts = -ra --doctest-glob='*.md' --doctest-glob docs/howto/*.rst\n");
  scene.write("sub/tox.ini", "[tox]\nenvlist = py3\n[pytest]\naddopts = --doctest-glob=*.txt\n");
  scene.write("sub/setup.cfg", "[tool:pytest]\naddopts = --strict-markers\n    --doctest-glob=*.adoc\n");
  scene.write("pyproject.toml", "[tool.pytest.ini_options]\naddopts = [\"--doctest-glob\", \"*.rest\"]\n");
  scene.write("docs/conftest.py", "from sybil import Sybil\npytest_collect_file = Sybil(patterns=['*.rst']).pytest()\n");
  scene.write("tests/conftest.py", "import pytest\n\n@pytest.fixture\ndef gpu():\n    return 0\n");
  const auto commit = scene.commit("the test configuration");
  SystemProcessRunner runner;
  Git git(runner, scene.dev);
  auto rule = docs_rule_for(git, glob::default_docs_patterns(), commit);
  REQUIRE(rule.ok());
  CHECK(rule->why_code("docs/guide.md") == "pytest collects it as a doctest (--doctest-glob '*.md')");
  CHECK(rule->why_code("docs/notes.txt") == "pytest collects it as a doctest (--doctest-glob '*.txt')");
  CHECK(rule->why_code("mkdocs.yml") == "");
  CHECK(rule->why_code("docs/api.adoc") == "pytest collects it as a doctest (--doctest-glob '*.adoc')");
  CHECK(rule->why_code("docs/more.rest") == "pytest collects it as a doctest (--doctest-glob '*.rest')");
  CHECK(rule->why_code("docs/index.rst") == "pytest may collect it: docs/conftest.py binds pytest_collect_file");
  CHECK(rule->why_code("overrides/page.html") == "");  // tests/conftest.py collects nothing else

  SECTION("a configuration that does not read leaves nothing docs only") {
    scene.write("setup.cfg", "addopts = --doctest-glob=*.md\n");  // no section header
    auto broken = docs_rule_for(git, glob::default_docs_patterns(), scene.commit("a broken setup.cfg"));
    REQUIRE(broken.ok());
    CHECK(broken->why_code("overrides/page.html").starts_with("the tree's test configuration does not read (setup.cfg: "));
  }
}

TEST_CASE("a doctest file pytest collects is code: a change to it inherits nothing (issue 42, item 10)",
          "[ci-status][git][api]") {
  CiScene scene;
  // A real pytest.ini with --doctest-glob: pytest runs docs/usage.md as a test.
  scene.write("pytest.ini", "[pytest]\naddopts = --doctest-glob=*.md\ntestpaths = docs src\n");
  scene.write("docs/usage.md", "# Usage\n\n    >>> 1 + 1\n    2\n");
  scene.commit("doctests in the docs");
  git_in(scene.dev, {"push", "-q", "origin", "main"});
  const auto collected = gatekit::testing::run_checked(
      {"python3", "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"}, scene.dev, "", false);
  INFO(collected.out);
  REQUIRE(collected.out.find("docs/usage.md::usage.md") != std::string::npos);

  git_in(scene.dev, {"switch", "-q", "-c", "feature"});
  scene.write("src/kernel.py", "def add(a, b):\n    return b + a\n");
  const auto tested = scene.commit("code");
  scene.publish(tested, Verdict::pass, "gpu-box");
  scene.write("docs/usage.md", "# Usage\n\n    >>> 1 + 1\n    3\n");  // now fails when pytest runs it
  const auto doctest = scene.commit("a doctest changed");
  git_in(scene.dev, {"switch", "-q", "-c", "words", "main"});
  scene.write("docs/notes.txt", "Just words.\n");
  const auto words = scene.commit("docs only");
  git_in(scene.dev, {"push", "-q", "origin", "feature", "words"});

  CHECK(ci_status_of(scene, tested) == "success passed in 4m");
  CHECK(ci_status_of(scene, doctest) == "pending no gate result for this tree");
  CHECK(ci_status_of(scene, words) == "success no code change");
}
