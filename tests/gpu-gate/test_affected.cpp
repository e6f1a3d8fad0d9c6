// Affected tests: the decision on a table of changes, and the command on a real repository.
#include <fstream>
#include <sstream>

#include "scope/affected.hpp"
#include "catch.hpp"
#include "gatekit/fake_context.hpp"
#include "gatekit/files.hpp"
#include "gatekit/json.hpp"
#include "gatekit/path_categories.hpp"
#include "temp_dir.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;

namespace {

TestMap sample_map(std::int64_t created = 1'700'000'000) {
  return TestMap::from(created, "c",
                       {{"tests/test_a.py::test_one", {"src/pkg/a.py", "tests/test_a.py"}},
                        {"tests/test_a.py::test_two", {"src/pkg/a.py", "src/pkg/b.py", "tests/test_a.py"}},
                        {"tests/test_b.py::test_b", {"src/pkg/b.py", "tests/test_b.py"}}});
}

FileChange changed(std::string path, char status = 'M', std::string previous = "") {
  return {status, std::move(path), std::move(previous)};
}

}  // namespace

TEST_CASE("affected: from the map, docs ignored, new test files themselves, unknown code means all") {
  struct Row {
    std::string name;
    std::vector<FileChange> changes;
    bool all;
    std::vector<std::string> tests;
    std::vector<std::string> unknown;
  };
  const std::vector<Row> rows = {
      {"one module", {changed("src/pkg/b.py")}, false, {"tests/test_a.py::test_two", "tests/test_b.py::test_b"}, {}},
      {"docs only", {changed("docs/x.md"), changed("README.md")}, false, {}, {}},
      {"a test file", {changed("tests/test_b.py")}, false, {"tests/test_b.py::test_b"}, {}},
      {"a new test file", {changed("tests/test_new.py", 'A')}, false, {"tests/test_new.py"}, {}},
      {"a rename out of the map's files", {changed("src/pkg/c.py", 'R', "src/pkg/a.py")}, true,
       {"tests/test_a.py::test_one", "tests/test_a.py::test_two"}, {"src/pkg/c.py"}},
      {"a new module", {changed("src/pkg/new.py", 'A'), changed("src/pkg/a.py")}, true,
       {"tests/test_a.py::test_one", "tests/test_a.py::test_two"}, {"src/pkg/new.py"}},
      {"a build file", {changed("pyproject.toml")}, true, {}, {"pyproject.toml"}},
      {"a deleted test file", {changed("tests/test_b.py", 'D')}, false, {}, {}},
      {"a renamed test file", {changed("tests/test_c.py", 'R', "tests/test_b.py")}, false, {"tests/test_c.py"}, {}},
      // The docs-only rule (docs_rule.hpp): Python under docs/ and a linked docs file are code.
      {"Python under docs/", {changed("docs/conf.py")}, true, {}, {"docs/conf.py"}},
      {"a docs file a link leads into", {changed("docs/helper.txt")}, true, {}, {"docs/helper.txt"}},
  };
  for (const auto& row : rows) {
    INFO(row.name);
    const auto docs = DocsRule::make(glob::default_docs_patterns(), {{"src/pkg/helper_link", "../../docs/helper.txt"}});
    REQUIRE(docs.ok());
    auto affected = decide_affected(sample_map(), row.changes, *docs);
    CHECK(affected.all == row.all);
    CHECK(affected.tests == row.tests);
    CHECK(affected.unknown == row.unknown);
  }
}

namespace {

void write(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

int sh(const std::filesystem::path& dir, const std::string& command) {
  return std::system(("cd '" + dir.string() + "' && " + command + " >/dev/null 2>&1").c_str());
}

struct RealSeams : RealFilesSeams {
  RealSeams() : RealFilesSeams(Clock::time_point(std::chrono::seconds(1'700'000'000 + 86400 * 3))) {}
};

const char* kGit = "git -c user.name=t -c user.email=t@example.com";

}  // namespace

TEST_CASE("affected command: committed, uncommitted and untracked changes since the merge base") {
  testing::TempDir dir;
  write(dir / "src/pkg/a.py", "A = 1\n");
  write(dir / "src/pkg/b.py", "B = 1\n");
  REQUIRE(sh(dir.path(), std::string("git init -q -b main . && git add . && ") + kGit + " commit -qm base") == 0);
  write(dir / ".git/gatekit/test-map.json", format_test_map(sample_map()));  // this machine's state
  REQUIRE(sh(dir.path(), std::string("git checkout -qb topic && echo B=2 > src/pkg/b.py && ") + kGit +
                             " commit -qam change && echo x > docs.md") == 0);
  RealSeams seams;
  auto context = seams.context();

  SECTION("committed change only (docs untracked)") {
    AffectedOptions options{dir.path().string(), "", "", true};
    REQUIRE(run_affected(options, context) == ExitCode::pass);
    const auto json = boost::json::parse(seams.out.str());
    CHECK(json.at("base").as_string() == "main");
    CHECK(json.at("all").as_bool() == false);
    CHECK(boost::json::serialize(json.at("tests")) == R"(["tests/test_a.py::test_two","tests/test_b.py::test_b"])");
    CHECK(json.at("stale").as_bool() == false);
    CHECK(json.at("map_age_days").as_int64() == 3);
    CHECK(seams.workflow.annotations.empty());
  }
  SECTION("a tag named like the base branch never stands for it (issue 42, item 7)") {
    // Pushed by anyone who may push tags, on the change itself: git's own lookup of `main`
    // takes the tag, and the change since the merge base is empty.
    REQUIRE(sh(dir.path(), "git tag main topic") == 0);
    for (const std::string base : {"", "main"}) {
      AffectedOptions options{dir.path().string(), "", base, true};
      seams.out.str("");
      REQUIRE(run_affected(options, context) == ExitCode::pass);
      const auto json = boost::json::parse(seams.out.str());
      CHECK(json.at("base").as_string() == "main");
      CHECK(boost::json::serialize(json.at("tests")) == R"(["tests/test_a.py::test_two","tests/test_b.py::test_b"])");
    }
  }
  SECTION("an untracked module the map lacks: all") {
    write(dir / "src/pkg/new.py", "N = 1\n");
    AffectedOptions options{dir.path().string(), "", "main", false};
    REQUIRE(run_affected(options, context) == ExitCode::pass);
    CHECK(seams.workflow.outputs["all"] == "true");
    REQUIRE_FALSE(seams.workflow.lines.empty());
    CHECK(seams.workflow.lines.back() == "Affected: all tests (the test map lacks src/pkg/new.py)");
  }
  SECTION("an uncommitted edit of a mapped module") {
    write(dir / "src/pkg/a.py", "A = 2\n");
    AffectedOptions options{dir.path().string(), "", "main", false};
    REQUIRE(run_affected(options, context) == ExitCode::pass);
    CHECK(seams.workflow.lines == std::vector<std::string>{"Affected: 3 tests", "  tests/test_a.py::test_one",
                                                            "  tests/test_a.py::test_two", "  tests/test_b.py::test_b"});
  }
  SECTION("a map older than four weeks warns") {
    seams.clock.advance(std::chrono::hours(24 * 30));
    AffectedOptions options{dir.path().string(), "", "main", false};
    REQUIRE(run_affected(options, context) == ExitCode::pass);
    REQUIRE(seams.workflow.annotations.size() == 1);
    CHECK(seams.workflow.annotations[0].message ==
          "the test map is 33 days old (written 2023-11-14T22:13:20Z); run `gpu-gate run --full` to refresh it");
    CHECK(seams.workflow.summary.find("> [!WARNING]") != std::string::npos);
  }
  SECTION("a base that is not in the clone is a usage error") {
    AffectedOptions options{dir.path().string(), "", "nosuch", false};
    try {
      (void)run_affected(options, context);
      FAIL("no failure");
    } catch (const Failure& failure) {
      CHECK(failure.error().kind == ErrorKind::bad_input);
      CHECK(failure.error().message ==
            "the base 'nosuch' is not a commit in this clone (--base names the branch the change is compared with)");
    }
  }
  SECTION("--json prints the JSON alone: no step outputs") {
    AffectedOptions options{dir.path().string(), "", "main", true};
    REQUIRE(run_affected(options, context) == ExitCode::pass);
    CHECK(seams.workflow.outputs.empty());
  }
  SECTION("no map: all, with a warning") {
    std::filesystem::remove(dir / ".git/gatekit/test-map.json");
    AffectedOptions options{dir.path().string(), "", "main", false};
    REQUIRE(run_affected(options, context) == ExitCode::pass);
    CHECK(seams.workflow.outputs["all"] == "true");
    REQUIRE(seams.workflow.annotations.size() == 1);
    CHECK(seams.workflow.annotations[0].message ==
          "no test map at .git/gatekit/test-map.json: every test is affected; `gpu-gate run --full` writes it");
  }
}
