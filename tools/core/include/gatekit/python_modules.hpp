#pragma once
// Which files of a repository a Python file loads, from the import analysis
// (gatekit/python_imports.hpp): the module index, the import graph and its closures. Pure,
// but for list_python_files.
//
// A repository file answers to the dotted names of its path (`src/pkg/gpu.py`:
// `src.pkg.gpu`), with leading folders dropped, since the folder that is a sys.path root is
// not known (`pkg.gpu`, and under Naming::any_folder also `gpu`). An import loads the module
// it names, every package above it (their __init__.py runs first) and, in `from` forms, each
// imported name that is a module. The answer may hold more files than Python would load,
// never fewer.
#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/files.hpp"
#include "gatekit/process.hpp"
#include "gatekit/python_imports.hpp"
#include "gatekit/result.hpp"

namespace gatekit::python {

enum class Naming {
  // Any leading folders may be dropped: `src/pkg/gpu.py` also answers to `gpu` (gpu-gate's
  // scope: a wider scope is safe).
  any_folder,
  // Only folders that are not packages (no __init__.py among the files): `src/pkg/gpu.py`
  // answers to `src.pkg.gpu` and `pkg.gpu` when src/pkg/__init__.py exists, never to `gpu`,
  // so `import queue` (the standard library's) does not load `src/pkg/stream/queue.py`.
  packages,
};

// The dotted names `path` (a *.py file) answers to, longest first; none for a top-level
// __init__.py. `packages`: the folders that hold an __init__.py (used by Naming::packages).
std::vector<std::string> dotted_names(std::string_view path, Naming naming = Naming::any_folder,
                                      const std::vector<std::string>& packages = {});

// The dotted names an import may load: the module, its parents, and for `from` and relative
// forms each imported name as a submodule.
std::vector<std::string> loaded_names(const Import& import);

// One import of a file that loads another repository file.
struct Edge {
  std::string to;   // the repository file loaded
  int line = 0;     // the import's line in the importing file
  std::string where;  // Import::where
};

// The repository files each analysed file loads (itself left out), in import order, each
// target once. Files that could not be analysed have no edges.
using ImportGraph = std::map<std::string, std::vector<Edge>>;
ImportGraph import_graph(const std::vector<SourceFile>& files, Naming naming = Naming::any_folder);

// How a file of a closure was reached: `from` loads it at `line` ("" for a root).
struct Via {
  std::string from;
  int line = 0;
  std::string root;  // the root whose chain of imports reaches it (itself for a root)
};

// The roots and every repository file they load, transitively; breadth first, so each
// file's Via is on a shortest chain from the first root (in `roots` order) that reaches it.
std::map<std::string, Via> loaded_closure(const ImportGraph& graph, const std::vector<std::string>& roots);

// The files that load one of `targets`, directly or through other repository files (the
// targets themselves included, as roots). Via::from is the next file on the way to a target.
std::map<std::string, Via> importer_closure(const ImportGraph& graph, const std::vector<std::string>& targets);

// "tests/test_a.py imports tests/helpers.py (line 2), which imports src/pkg/gpu.py (line 5)":
// the chain from Via::root to `path` in `closure` (loaded_closure's), or `path` alone.
std::string describe_chain(const std::map<std::string, Via>& closure, const std::string& path);

// The Python files of a checkout (git ls-files: tracked, and untracked but not ignored),
// present on disk; sorted. Not a git repository: could_not_evaluate.
Result<std::vector<std::string>> list_python_files(ProcessRunner& processes, const Files& files,
                                                   const std::filesystem::path& repo_dir);

}  // namespace gatekit::python
