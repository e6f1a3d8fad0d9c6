// The import analysis on a table of cases: the real shipped script under the real python3.
#include <fstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "gatekit/fake_context.hpp"
#include "gatekit/process.hpp"
#include "gatekit/python_imports.hpp"
#include "temp_dir.hpp"

using namespace gatekit;
using namespace gatekit::python;

namespace {

// "line kind module [names] where" per import, in source order.
std::vector<std::string> describe(const SourceFile& file) {
  std::vector<std::string> lines;
  for (const auto& i : file.imports) {
    std::string names;
    for (const auto& n : i.names) names += (names.empty() ? "" : ",") + n;
    lines.push_back(std::to_string(i.line) + " " + std::string(to_string(i.kind)) + " " + i.module +
                    (names.empty() ? "" : " [" + names + "]") + " " + i.where);
  }
  return lines;
}

void write(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

struct Case {
  std::string path;
  std::string source;
  std::vector<std::string> expected;
};

const std::vector<Case> kCases = {
    {"tests/test_plain.py", "import os\nimport tinyml.gpu as g, json\n",
     {"1 import os module", "2 import tinyml.gpu module", "2 import json module"}},
    {"tests/test_from.py", "from tinyml import gpu, cpu\nfrom tinyml.gpu import *\n",
     {"1 from tinyml [gpu,cpu] module", "2 from tinyml.gpu module"}},
    {"tests/gpu/test_relative.py", "from . import helpers\nfrom .kernels import run\nfrom .. import conftest\n",
     {"1 relative tests.gpu [helpers] module", "2 relative tests.gpu.kernels [run] module",
      "3 relative tests [conftest] module"}},
    {"test_top_relative.py", "from .. import x\n", {}},
    {"tests/test_nested.py",
     "def test_a():\n    import torch\n\nclass T:\n    def m(self):\n        from jax import numpy\n"
     "if HAVE:\n    import cupy\ntry:\n    import tinyml.gpu\nexcept ImportError:\n    pass\n"
     "with ctx():\n    import w\nfor i in x:\n    import l\n",
     {"2 import torch function", "6 from jax [numpy] function", "8 import cupy if", "10 import tinyml.gpu try",
      "14 import w with", "16 import l loop"}},
    {"tests/test_child.py",
     "import subprocess, sys, textwrap\n"
     "subprocess.run([sys.executable, '-c', 'import tinyml.gpu'])\n"
     "CODE = 'from tinyml import gpu'\n"
     "subprocess.check_call((sys.executable, '-I', '-c', CODE))\n"
     "subprocess.run([sys.executable, '-m', 'tinyml.bench'])\n"
     "os.system(\"python3 -c 'import shellmod'\")\n"
     "subprocess.run('python -m pkg.tool --x', shell=True)\n"
     "subprocess.run([sys.executable, '-c', textwrap.dedent('''\n    import a\n    if x:\n        import b\n''')])\n"
     "subprocess.run([sys.executable, '-c', \"import sys, subprocess; "
     "subprocess.run([sys.executable, '-c', 'import deep'])\"])\n",
     {"1 import subprocess module", "1 import sys module", "1 import textwrap module",
      "2 import tinyml.gpu child interpreter", "4 from tinyml [gpu] child interpreter", "5 run tinyml.bench module",
      "6 import shellmod child interpreter", "7 run pkg.tool module", "8 import a child interpreter",
      "8 import b child interpreter", "13 import sys child interpreter", "13 import subprocess child interpreter",
      "13 import deep child interpreter"}},
    {"tests/test_dynamic.py",
     "import importlib, pytest\ncupy = pytest.importorskip('cupy')\nm = importlib.import_module('tinyml.gpu')\n"
     "n = __import__('numpy')\nimportlib.import_module('.x', 'pkg')\n",
     {"1 import importlib module", "1 import pytest module", "2 dynamic cupy module", "3 dynamic tinyml.gpu module",
      "4 dynamic numpy module"}},
    // Not imports: strings that merely mention them, other programs' -c.
    {"tests/test_not.py",
     "'''import fake'''\nx = 'from fake import y'\nsubprocess.run(['bash', '-c', 'import x'])\n"
     "subprocess.run(['node', '-e', 'python -c \"import z\"'])\n",
     {}},
};

}  // namespace

TEST_CASE("import analysis: every form, on a table of cases") {
  testing::TempDir dir;
  std::vector<std::string> paths;
  for (const auto& c : kCases) {
    write(dir / c.path, c.source);
    paths.push_back(c.path);
  }
  SystemProcessRunner processes;
  auto files = analyze_imports(processes, dir.path(), paths);
  REQUIRE(files.ok());
  REQUIRE(files->size() == kCases.size());
  for (std::size_t i = 0; i < kCases.size(); ++i) {
    INFO(kCases[i].path);
    CHECK((*files)[i].path == kCases[i].path);
    CHECK(describe((*files)[i]) == kCases[i].expected);
  }
}

TEST_CASE("import analysis: what it cannot follow is a note, not an error") {
  testing::TempDir dir;
  write(dir / "t.py",
        "import subprocess, sys\nsubprocess.run([sys.executable, '-c', make_code()])\n"
        "subprocess.run([sys.executable, '-c', 'def (:'])\n");
  SystemProcessRunner processes;
  auto files = analyze_imports(processes, dir.path(), {"t.py"});
  REQUIRE(files.ok());
  const auto& notes = (*files)[0].notes;
  REQUIRE(notes.size() == 2);
  CHECK(notes[0].line == 2);
  CHECK(notes[0].message ==
        "a child interpreter runs -c with an argument that is not a literal string; not analysed");
  CHECK(notes[1].line == 3);
  CHECK(notes[1].message == "code run in a child interpreter through -c is not valid Python; not analysed");
}

TEST_CASE("import analysis: files that cannot be read or parsed carry the reason, located") {
  testing::TempDir dir;
  write(dir / "tests/test_ok.py", "import os\n");
  write(dir / "tests/test_bad.py", "import os\ndef f(:\n");
  SystemProcessRunner processes;
  auto files = analyze_imports(processes, dir.path(), {"tests/test_bad.py", "tests/test_ok.py", "tests/missing.py"});
  REQUIRE(files.ok());
  REQUIRE(files->size() == 3);
  CHECK((*files)[0].error == "tests/test_bad.py:2:7: cannot analyse its imports: invalid syntax");
  CHECK((*files)[1].error.empty());
  CHECK(describe((*files)[1]) == std::vector<std::string>{"1 import os module"});
  CHECK((*files)[2].error == "tests/missing.py: cannot analyse its imports: cannot read it: No such file or directory");
}

TEST_CASE("import analysis: file names never reach the command line; the repository's modules never shadow the script's") {
  testing::TempDir dir;
  write(dir / "-c", "import from_dash_c\n");
  write(dir / "json.py", "raise SystemExit('the repository json.py was imported')\n");
  write(dir / "ast.py", "raise SystemExit('the repository ast.py was imported')\n");
  SystemProcessRunner real;
  FakeProcessRunner processes([&](const ProcessSpec& spec) { return real.run(spec); });
  auto files = analyze_imports(processes, dir.path(), {"-c"});
  REQUIRE(files.ok());
  CHECK(describe((*files)[0]) == std::vector<std::string>{"1 import from_dash_c module"});
  REQUIRE(processes.calls.size() == 1);
  const auto& argv = processes.calls[0].argv;
  REQUIRE(argv.size() == 4);
  CHECK(argv[1] == "-I");
  CHECK(argv[3] == std::string(import_analysis_script()));
}

TEST_CASE("import analysis: python missing or failing is could-not-evaluate") {
  SystemProcessRunner processes;
  auto missing = analyze_imports(processes, ".", {"t.py"}, "gatekit-no-such-python");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().kind == ErrorKind::could_not_evaluate);
  CHECK(missing.error().message.rfind("cannot analyse Python imports: ", 0) == 0);

  FakeProcessRunner failing([](const ProcessSpec&) -> Result<ProcessResult> {
    ProcessResult r;
    r.exit_code = 1;
    r.err = "Traceback: boom\n";
    return r;
  });
  auto failed = analyze_imports(failing, ".", {"t.py"});
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.error().kind == ErrorKind::could_not_evaluate);
  CHECK(failed.error().message == "cannot analyse Python imports: python3 exit code 1: Traceback: boom");
}

TEST_CASE("reaches: a module or a submodule of it, through every import form") {
  struct Row {
    Import import;
    std::string module;
    bool expected;
  };
  const std::vector<Row> rows = {
      {{"tinyml.gpu", {}, 1, ImportKind::plain, "module"}, "tinyml.gpu", true},
      {{"tinyml.gpu.kernels", {}, 1, ImportKind::plain, "module"}, "tinyml.gpu", true},
      {{"tinyml.gpux", {}, 1, ImportKind::plain, "module"}, "tinyml.gpu", false},
      {{"tinyml", {}, 1, ImportKind::plain, "module"}, "tinyml.gpu", false},
      {{"tinyml", {"gpu"}, 1, ImportKind::from, "module"}, "tinyml.gpu", true},
      {{"tinyml", {"cpu"}, 1, ImportKind::from, "module"}, "tinyml.gpu", false},
      {{"tinyml", {"gpu"}, 1, ImportKind::plain, "module"}, "tinyml.gpu", false},
      {{"src.tinyml", {"gpu"}, 1, ImportKind::relative, "module"}, "tinyml.gpu", true},
      {{"src.tinyml.gpu", {}, 1, ImportKind::relative, "module"}, "tinyml.gpu", true},
      {{"src.tinyml.gpu", {}, 1, ImportKind::plain, "module"}, "tinyml.gpu", false},
      {{"torch.cuda", {}, 1, ImportKind::dynamic, "module"}, "torch", true},
      {{"tinyml.gpu", {}, 1, ImportKind::run, "module"}, "tinyml.gpu", true},
      {{"tinyml.gpu", {}, 1, ImportKind::plain, "module"}, "", false},
  };
  for (const auto& row : rows) {
    INFO(row.import.module << " reaches " << row.module);
    CHECK(reaches(row.import, row.module) == row.expected);
  }
}
