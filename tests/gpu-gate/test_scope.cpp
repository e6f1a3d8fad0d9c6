// The scope: which rule takes each test file (pure), --why sentences, and the command on a
// real repository with the real import analysis.
#include <fstream>
#include <sstream>

#include "catch.hpp"
#include "gatekit/fake_context.hpp"
#include "gatekit/files.hpp"
#include "gatekit/json.hpp"
#include "scope/scope.hpp"
#include "temp_dir.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;

namespace {

Import plain(std::string module, int line, std::string where = "module") {
  return {std::move(module), {}, line, ImportKind::plain, std::move(where)};
}
Import from(std::string module, std::vector<std::string> names, int line, ImportKind kind = ImportKind::from) {
  return {std::move(module), std::move(names), line, kind, "module"};
}

Config scope_config() {
  Config config;
  config.scope_folders = {"tests/gpu/"};
  config.modules = {"tinyml.gpu"};
  config.extras = {"tests/test_odd.py", "tests/nomatch_*.py"};
  config.source = ".github/gatekit/gpu-gate.yml";
  return config;
}

std::vector<SourceFile> repository() {
  return {
      {"tests/gpu/test_kernels.py", {plain("numpy", 1)}, {}},
      {"tests/test_direct.py", {plain("os", 1), plain("tinyml.gpu", 3, "function")}, {}},
      {"tests/helpers.py", {from("tinyml", {"gpu"}, 5)}, {}},
      {"tests/test_indirect.py", {plain("helpers", 2)}, {}},
      {"tests/deep.py", {from("tests", {"helpers"}, 4)}, {}},
      {"tests/test_chain.py", {plain("tests.deep", 7, "try")}, {}},
      {"tests/test_odd.py", {}, {}},
      {"tests/test_cpu.py", {plain("numpy", 1)}, {{9, "a child interpreter runs -c with an argument that is not a literal string; not analysed"}}},
      {"src/tinyml/gpu.py", {plain("ctypes", 1)}, {}},
      {"src/tinyml/__init__.py", {from("src.tinyml", {"gpu"}, 1, ImportKind::relative)}, {}},
      {"tests/test_pkg.py", {plain("tinyml.cpu", 2)}, {}},
      {"tests/a.py", {plain("b", 1)}, {}},
      {"tests/b.py", {plain("a", 1)}, {}},
      {"tests/test_cycle.py", {plain("a", 1)}, {}},
      {"tests/cpu_test.py", {}, {}},
  };
}

}  // namespace

TEST_CASE("scope: folder, then import (direct, through helpers, through a package), then extras") {
  auto scope = compute_scope(scope_config(), repository());
  REQUIRE(scope.ok());
  std::vector<std::string> rows;
  for (const auto& e : scope->files) rows.push_back(e.path + " " + std::string(to_string(e.rule)) + " " + e.reason);
  CHECK(rows == std::vector<std::string>{
                    "tests/gpu/test_kernels.py folder tests/gpu",
                    "tests/test_chain.py import tinyml.gpu",
                    "tests/test_direct.py import tinyml.gpu",
                    "tests/test_indirect.py import tinyml.gpu",
                    "tests/test_odd.py extra tests/test_odd.py",
                    "tests/test_pkg.py import tinyml.gpu",
                });
  CHECK(scope->test_files.size() == 9);
  CHECK(scope->unmatched_extras == std::vector<std::string>{"tests/nomatch_*.py"});
  CHECK(scope->notes == std::vector<std::string>{
                            "tests/test_cpu.py:9: a child interpreter runs -c with an argument that is not a literal "
                            "string; not analysed"});
}

TEST_CASE("scope: --why names the rule and spells out import chains") {
  const auto config = scope_config();
  auto scope = compute_scope(config, repository());
  REQUIRE(scope.ok());
  CHECK(explain(*scope, config, "tests/gpu/test_kernels.py") ==
        "tests/gpu/test_kernels.py is in scope: it lies under the scope folder tests/gpu.");
  CHECK(explain(*scope, config, "./tests/test_direct.py") ==
        "tests/test_direct.py is in scope: it imports tinyml.gpu (line 3, inside a function).");
  CHECK(explain(*scope, config, "tests/test_chain.py") ==
        "tests/test_chain.py is in scope: it imports tests/deep.py (line 7, under try), which imports "
        "tests/helpers.py (line 4), which imports tinyml.gpu (line 5).");
  CHECK(explain(*scope, config, "tests/test_pkg.py") ==
        "tests/test_pkg.py is in scope: it imports src/tinyml/__init__.py (line 2), which imports tinyml.gpu (line 1).");
  CHECK(explain(*scope, config, "tests/test_odd.py") ==
        "tests/test_odd.py is in scope: it matches the extras entry tests/test_odd.py.");
  CHECK(explain(*scope, config, "tests/test_cycle.py") ==
        "tests/test_cycle.py is not in scope: it lies under no scope folder (tests/gpu/), imports none of the "
        "modules (tinyml.gpu), and matches no extras entry (tests/test_odd.py, tests/nomatch_*.py).");
  CHECK(explain(*scope, config, "tests/helpers.py") ==
        "tests/helpers.py is not a test file (test_*.py or *_test.py), but it imports tinyml.gpu (line 5): the "
        "test files that import it are in scope.");
  CHECK(explain(*scope, config, "README.md") ==
        "README.md is not a test file of the repository (test_*.py or *_test.py, tracked or not ignored by git).");
}

TEST_CASE("scope: an extras pattern that does not compile names the configuration file") {
  auto config = scope_config();
  config.extras = {"tests/test_[a.py"};
  auto scope = compute_scope(config, repository());
  REQUIRE_FALSE(scope.ok());
  CHECK(scope.error().kind == ErrorKind::bad_input);
  CHECK(scope.error().message.rfind(".github/gatekit/gpu-gate.yml: scope.extras: 'tests/test_[a.py': ", 0) == 0);
}

TEST_CASE("scope: test files that cannot be analysed are errors, all together; helpers are notes") {
  auto files = repository();
  files.push_back({"tests/test_bad.py", {}, {}, "tests/test_bad.py:2:7: cannot analyse its imports: invalid syntax"});
  files.push_back({"tests/gpu/test_bad2.py", {}, {}, "tests/gpu/test_bad2.py:1:1: cannot analyse its imports: x"});
  files.push_back({"tools/legacy.py", {}, {}, "tools/legacy.py:1:7: cannot analyse its imports: invalid syntax"});
  auto scope = compute_scope(scope_config(), files);
  REQUIRE_FALSE(scope.ok());
  CHECK(scope.error().kind == ErrorKind::bad_input);
  CHECK(scope.error().message ==
        "tests/test_bad.py:2:7: cannot analyse its imports: invalid syntax\n"
        "tests/gpu/test_bad2.py:1:1: cannot analyse its imports: x");
  files.resize(files.size() - 3);
  files.push_back({"tools/legacy.py", {}, {}, "tools/legacy.py:1:7: cannot analyse its imports: invalid syntax"});
  auto with_helper = compute_scope(scope_config(), files);
  REQUIRE(with_helper.ok());
  CHECK(with_helper->notes.back() == "tools/legacy.py:1:7: cannot analyse its imports: invalid syntax; not followed");
}

TEST_CASE("scope: test files are pytest's default names") {
  CHECK(is_test_file("tests/test_a.py"));
  CHECK(is_test_file("a_test.py"));
  CHECK_FALSE(is_test_file("tests/test_.py"));
  CHECK_FALSE(is_test_file("tests/testing.py"));
  CHECK_FALSE(is_test_file("tests/test_a.pyc"));
  CHECK_FALSE(is_test_file("conftest.py"));
}

namespace {

void write(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

int sh(const std::filesystem::path& dir, const std::string& command) {
  return std::system(("cd '" + dir.string() + "' && " + command + " >/dev/null 2>&1").c_str());
}

using RealSeams = RealFilesSeams;

}  // namespace

TEST_CASE("scope command: a real repository, the real analysis, --why and --json") {
  testing::TempDir dir;
  write(dir / ".github/gatekit/gpu-gate.yml",
        "scope:\n  folders: [tests/gpu]\n  modules: [tinyml.gpu]\n  extras: [tests/test_odd.py]\n");
  write(dir / "src/tinyml/gpu.py", "import ctypes\n");
  write(dir / "tests/gpu/test_k.py", "def test_k(): pass\n");
  write(dir / "tests/test_child.py",
        "import subprocess, sys\ndef test_c():\n    subprocess.run([sys.executable, '-c', 'import tinyml.gpu'])\n");
  write(dir / "tests/test_cpu.py", "def test_c(): pass\n");
  write(dir / "tests/test_odd.py", "def test_o(): pass\n");
  write(dir / "tests/test_ignored.py", "import tinyml.gpu\n");
  write(dir / ".gitignore", "tests/test_ignored.py\n");
  REQUIRE(sh(dir.path(), "git init -q . && git add .github src tests/gpu tests/test_child.py .gitignore") == 0);

  RealSeams seams;
  auto context = seams.context();
  SECTION("--json lists tracked and untracked files, never ignored ones") {
    ScopeOptions options{dir.path().string(), "", "", true};
    REQUIRE(run_scope(options, context) == ExitCode::pass);
    const auto json = boost::json::parse(seams.out.str());
    const auto& files = json.at("files").as_array();
    std::vector<std::string> rows;
    for (const auto& f : files) {
      rows.push_back(std::string(f.at("path").as_string()) + " " + std::string(f.at("rule").as_string()));
    }
    CHECK(rows == std::vector<std::string>{"tests/gpu/test_k.py folder", "tests/test_child.py import",
                                           "tests/test_odd.py extra"});
    CHECK(json.at("test_files").as_int64() == 4);
    CHECK(seams.workflow.outputs.empty());  // stdout is the JSON alone
    CHECK(seams.workflow.summary.find("| `tests/test_child.py` | import | `tinyml.gpu` |") != std::string::npos);
    CHECK(seams.workflow.summary.find("pie title Test files by scope rule") != std::string::npos);
  }
  SECTION("--why, with a path relative to the repository or an absolute one") {
    for (const auto& why : {std::string("tests/test_child.py"), (dir / "tests/test_child.py").string()}) {
      seams.workflow.lines.clear();
      ScopeOptions options{dir.path().string(), "", why, false};
      REQUIRE(run_scope(options, context) == ExitCode::pass);
      CHECK(seams.workflow.outputs["count"] == "3");
      REQUIRE(seams.workflow.lines.size() == 1);
      CHECK(seams.workflow.lines[0] ==
            "tests/test_child.py is in scope: it imports tinyml.gpu (line 3, in code run by a child interpreter).");
    }
  }
}
