#pragma once
// The GPU gate's scope: the test files whose outcome depends on the device.
//
// A test file (a Python file named test_*.py or *_test.py) is in scope, by the first rule
// that takes it:
//   folder  it lies under one of `scope.folders`;
//   import  it imports one of `scope.modules` or a submodule of it (any import form the
//           analysis of gatekit/python_imports.hpp finds), directly or through modules of the repository
//           it imports that do (a helper `tests/gpu_helpers.py` importing `tinyml.gpu`);
//   extra   it matches one of `scope.extras` (github glob dialect).
// A module of the repository is found by its dotted name with leading folders dropped
// (`src/tinyml/gpu.py` answers to `src.tinyml.gpu`, `tinyml.gpu` and `gpu`), which may take
// more files than Python would, never fewer.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config.hpp"
#include "gatekit/context.hpp"
#include "gatekit/exit_code.hpp"
#include "gatekit/glob.hpp"
#include "gatekit/process.hpp"
#include "gatekit/python_imports.hpp"
#include "gatekit/python_modules.hpp"
#include "gatekit/result.hpp"

namespace gatekit::gpu_gate {

using python::Import;
using python::ImportKind;
using python::SourceFile;

struct ScopeOptions {
  std::string repo_dir = ".";
  std::string config;  // "" = .github/gatekit/gpu-gate.yml in the repository (may be absent)
  std::string why;     // --why FILE: say which rule took FILE (or that none did)
  bool json = false;
};

enum class ScopeRule { folder, import, extra };
std::string_view to_string(ScopeRule rule);  // "folder", "import", "extra"

// How a file of the repository reaches a configured module.
struct Reach {
  std::string module;   // the configured module reached
  int line = 0;         // the import in this file that leads there
  std::string where;    // where that import sits ("module", "function", "child interpreter" ...)
  std::string through;  // "" = imported directly; else the repository file imported at `line`
};

struct ScopeEntry {
  std::string path;
  ScopeRule rule = ScopeRule::folder;
  std::string reason;  // the folder, the configured module, or the extras pattern
};

struct Scope {
  std::vector<ScopeEntry> files;               // in scope, sorted by path
  std::vector<std::string> test_files;         // every test file considered, sorted
  std::map<std::string, Reach> reaches;        // every repository file that reaches a module
  std::vector<std::string> unmatched_extras;   // extras patterns that took no test file
  std::vector<std::string> notes;              // "path:line: what the analysis could not follow"
  python::ImportGraph imports;                 // which repository files each Python file loads

  const ScopeEntry* find(std::string_view path) const;
  std::vector<std::string> paths() const;      // the files in scope, sorted
};

// The folder of `folders` (scope.folders, as configured) that holds `path` by the folder rule;
// nullopt when none does.
std::optional<std::string> scope_folder_holding(std::string_view path, const std::vector<std::string>& folders);

// `scope.extras` compiled (github dialect); a pattern that does not compile is bad_input
// naming the configuration file.
Result<glob::PatternList> compile_extras(const Config& config);

// test_*.py or *_test.py (pytest's default `python_files`).
bool is_test_file(std::string_view path);

// Pure: the scope from the configuration and the analysed Python files of the repository
// (all of them, helpers included, so imports through helpers are followed). An extras
// pattern that does not compile, or test files whose imports could not be analysed (syntax
// errors: all named together, with line and column), are bad_input; a helper that could not
// be analysed is a note.
Result<Scope> compute_scope(const Config& config, const std::vector<SourceFile>& python_files);

// The --why answer for one file, one sentence (chains of imports spelled out).
std::string explain(const Scope& scope, const Config& config, std::string_view path);

// python::list_python_files + analyze_imports + compute_scope: the scope of a checkout (used by
// `scope`, `run` and `run --full`).
Result<Scope> scope_of_checkout(ProcessRunner& processes, Files& files, const std::filesystem::path& repo_dir,
                                const Config& config);

ExitCode run_scope(const ScopeOptions& options, Context& context);

}  // namespace gatekit::gpu_gate
