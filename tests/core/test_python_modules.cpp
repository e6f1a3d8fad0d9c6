// The module index, the import graph and its closures (pure), and the listing of a real
// git checkout's Python files.
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "gatekit/files.hpp"
#include "gatekit/process.hpp"
#include "gatekit/python_modules.hpp"
#include "temp_dir.hpp"

using namespace gatekit;
using namespace gatekit::python;

namespace {

Import plain(std::string module, int line = 1) { return {std::move(module), {}, line, ImportKind::plain, "module"}; }
Import from(std::string module, std::vector<std::string> names, int line = 1) {
  return {std::move(module), std::move(names), line, ImportKind::from, "module"};
}

std::vector<std::string> targets(const ImportGraph& graph, const std::string& path) {
  std::vector<std::string> out;
  for (const auto& edge : graph.at(path)) out.push_back(edge.to + ":" + std::to_string(edge.line));
  return out;
}

}  // namespace

TEST_CASE("dotted names: leading folders dropped; under Naming::packages never past a package") {
  struct Case {
    std::string path;
    Naming naming;
    std::vector<std::string> expected;
  };
  const std::vector<std::string> packages{"src/pkg", "src/pkg/stream"};
  const std::vector<Case> cases = {
      {"src/pkg/gpu.py", Naming::any_folder, {"src.pkg.gpu", "pkg.gpu", "gpu"}},
      {"src/pkg/gpu.py", Naming::packages, {"src.pkg.gpu", "pkg.gpu"}},
      {"src/pkg/stream/queue.py", Naming::packages, {"src.pkg.stream.queue", "pkg.stream.queue"}},
      {"src/pkg/__init__.py", Naming::any_folder, {"src.pkg", "pkg"}},
      {"src/pkg/__init__.py", Naming::packages, {"src.pkg", "pkg"}},
      {"tests/helpers.py", Naming::packages, {"tests.helpers", "helpers"}},
      {"setup.py", Naming::packages, {"setup"}},
      {"__init__.py", Naming::any_folder, {}},
      {"README.md", Naming::any_folder, {}},
  };
  for (const auto& c : cases) {
    INFO(c.path);
    CHECK(dotted_names(c.path, c.naming, packages) == c.expected);
  }
}

TEST_CASE("loaded names: the module, its parents, and names imported from it") {
  CHECK(loaded_names(plain("a.b.c")) == std::vector<std::string>{"a.b.c", "a.b", "a"});
  CHECK(loaded_names(from("a.b", {"c", "D"})) == std::vector<std::string>{"a.b", "a", "a.b.c", "a.b.D"});
  CHECK(loaded_names(plain("a", 1)) == std::vector<std::string>{"a"});
}

TEST_CASE("the import graph: each file's repository files, package __init__.py included, each once") {
  const std::vector<SourceFile> files = {
      {"src/pkg/__init__.py", {}, {}, ""},
      {"src/pkg/stream/__init__.py", {}, {}, ""},
      {"src/pkg/stream/queue.py", {plain("threading", 1)}, {}, ""},
      {"tests/test_q.py", {plain("queue", 1), from("pkg.stream.queue", {"Queue"}, 4), plain("pkg", 5)}, {}, ""},
  };
  // any_folder: `import queue` (the standard library's) is taken for the repository's queue.py.
  const auto wide = import_graph(files);
  CHECK(targets(wide, "tests/test_q.py") ==
        std::vector<std::string>{"src/pkg/stream/queue.py:1", "src/pkg/stream/__init__.py:4", "src/pkg/__init__.py:4"});
  CHECK(wide.at("src/pkg/stream/queue.py").empty());
  // packages: only names Python could use.
  const auto exact = import_graph(files, Naming::packages);
  CHECK(targets(exact, "tests/test_q.py") ==
        std::vector<std::string>{"src/pkg/stream/queue.py:4", "src/pkg/stream/__init__.py:4", "src/pkg/__init__.py:4"});
}

TEST_CASE("closures: what roots load (with the chain), and what loads the targets") {
  ImportGraph graph;
  graph["tests/test_a.py"] = {{"tests/helpers.py", 2, "module"}};
  graph["tests/helpers.py"] = {{"src/pkg/gpu.py", 5, "function"}};
  graph["src/pkg/gpu.py"] = {{"tests/helpers.py", 9, "module"}};  // a cycle ends
  graph["tests/test_b.py"] = {{"src/pkg/cpu.py", 1, "module"}};
  const auto loaded = loaded_closure(graph, {"tests/test_a.py"});
  CHECK(loaded.size() == 3);
  CHECK(loaded.at("src/pkg/gpu.py").from == "tests/helpers.py");
  CHECK(loaded.at("src/pkg/gpu.py").root == "tests/test_a.py");
  CHECK(describe_chain(loaded, "src/pkg/gpu.py") ==
        "tests/test_a.py imports tests/helpers.py (line 2), which imports src/pkg/gpu.py (line 5)");
  CHECK(describe_chain(loaded, "tests/test_a.py") == "tests/test_a.py");

  const auto importers = importer_closure(graph, {"src/pkg/gpu.py"});
  CHECK(importers.size() == 3);  // gpu.py itself, helpers.py, test_a.py; never test_b.py
  CHECK(importers.at("tests/test_a.py").from == "tests/helpers.py");
  CHECK(importers.at("tests/test_a.py").root == "src/pkg/gpu.py");
  CHECK(importers.count("tests/test_b.py") == 0);
}

TEST_CASE("list_python_files: tracked and untracked-not-ignored *.py files of a real checkout") {
  testing::TempDir dir;
  const auto write = [&](const std::string& path, const std::string& text) {
    std::filesystem::create_directories((dir / path).parent_path());
    std::ofstream(dir / path) << text;
  };
  write(".gitignore", "build/\n");
  write("src/pkg/a.py", "");
  write("tests/test_a.py", "");
  write("build/gen.py", "");
  write("README.md", "");
  REQUIRE(std::system(("git init -q '" + dir.path().string() + "' && git -C '" + dir.path().string() +
                       "' add src/pkg/a.py .gitignore").c_str()) == 0);
  SystemProcessRunner processes;
  SystemFiles files;
  auto listed = list_python_files(processes, files, dir.path());
  REQUIRE(listed.ok());
  CHECK(*listed == std::vector<std::string>{"src/pkg/a.py", "tests/test_a.py"});

  testing::TempDir plain_dir;
  auto not_git = list_python_files(processes, files, plain_dir.path());
  REQUIRE_FALSE(not_git.ok());
  CHECK(not_git.error().kind == ErrorKind::could_not_evaluate);
  CHECK(not_git.error().message.starts_with("git ls-files -z --cached --others --exclude-standard -- *.py failed"));
}
