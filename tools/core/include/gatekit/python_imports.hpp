#pragma once
// Python import analysis (gpu-gate's scope and stress targets, suite-report's GPU filter
// check). No Python parser is written here: the analysis runs Python's own `ast` module in a
// child interpreter (`python3 -I -c <script>`, the script shipped inside the tool,
// src/python_imports.py.inc), which reads the files and prints JSON.
// The file list travels on stdin as JSON, never on the command line, so no file name can act
// as an option; `-I` keeps the analysed repository's own modules (an `ast.py`, a `json.py`)
// off the script's sys.path.
//
// What counts as an import of a file (each with its line):
//   import x.y                      kind import     module x.y
//   from x import a, b              kind from       module x, names a, b
//   from . import a / from ..m import a
//                                   kind relative   module resolved against the file's folder
//                                                   (tests/gpu/t.py: `from . import a` is tests.gpu, names a)
//   importlib.import_module("x"), __import__("x"), pytest.importorskip("x")
//                                   kind dynamic    module x (literal strings only)
//   [sys.executable, "-m", "x"], "python -m x"
//                                   kind run        module x
//   code run in a child interpreter through [sys.executable, "-c", CODE] or a
//   "python3 -c '...'" string (os.system, shell=True): CODE is analysed the same way,
//   recursively, and its imports are reported with the line of the call and where
//   "child interpreter". CODE may be a literal, a name assigned a literal, or
//   textwrap.dedent of one.
// Imports anywhere count: inside functions, classes, if/try/with/loops; `where` says which.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/process.hpp"
#include "gatekit/result.hpp"

namespace gatekit::python {

enum class ImportKind { plain, from, relative, dynamic, run };
std::string_view to_string(ImportKind kind);  // "import", "from", "relative", "dynamic", "run"

struct Import {
  std::string module;              // dotted; for `from` forms the module before `import`
  std::vector<std::string> names;  // `from m import a, b`: a, b (`*` left out)
  int line = 0;
  ImportKind kind = ImportKind::plain;
  std::string where;  // "module", "function", "class", "if", "try", "with", "loop", "match",
                      // or "child interpreter"
};

// Something the analysis could not follow (a -c argument that is not a literal): shown to
// the user, never an error.
struct ImportNote {
  int line = 0;
  std::string message;
};

struct SourceFile {
  std::string path;  // repository-relative, '/'-separated
  std::vector<Import> imports;
  std::vector<ImportNote> notes;
  // "" when analysed; else why not, located:
  // "tests/test_a.py:2:7: cannot analyse its imports: invalid syntax"
  std::string error;
};

// Whether `import` brings in `module` or a submodule of it: the imported module is `module`
// or inside it, or (`from` forms) one of the imported names is. A relative import also
// matches when its resolved name with leading folders dropped does (`src.pkg.gpu` reaches
// `pkg.gpu`), since the file's folder is not necessarily a sys.path root.
bool reaches(const Import& import, std::string_view module);

// Decodes the script's output for `paths` (the same order). A file the script could not
// read or parse comes back with `error` set; the caller decides what that means.
Result<std::vector<SourceFile>> parse_import_report(std::string_view json, const std::vector<std::string>& paths);

// Runs the analysis over `paths` (relative to repo_dir) with `python` (a program name or
// path). Python missing or failing is could_not_evaluate.
Result<std::vector<SourceFile>> analyze_imports(ProcessRunner& processes, const std::filesystem::path& repo_dir,
                                                const std::vector<std::string>& paths,
                                                const std::string& python = "python3");

// The analysis script (Python source), for tests and for running it by hand.
std::string_view import_analysis_script();

}  // namespace gatekit::python
