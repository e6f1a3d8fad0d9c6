#pragma once
// The docs-only rule (docs/gpu-gate.md, "What counts as docs"): one decision for every caller
// that lets a documentation change skip the gate: the CI side (`ci-status`: inheritance,
// "no code change", merge groups), `gpu-gate status`, `prune` and `affected`.
//
// A path is docs only when all three hold:
//   1. it matches the docs patterns (configuration `docs`; default the path classifier's
//      `docs` category, gatekit/path_categories.hpp);
//   2. it is not something Python imports or pytest collects, wherever it lies: `.py`,
//      `.pyi`, `.pyw`, `.pyc`, extension modules (`.so`, `.pyd`), and so `conftest.py`;
//   3. no symbolic link of the tree leads into it: a link whose target (followed through
//      other links, up to 40 hops, as the kernel does) is the path, a folder holding it, or
//      passes through it on the way. `src/helper.py -> ../docs/helper.py` makes
//      `docs/helper.py` code;
//   4. the tree's test configuration does not make pytest collect it (TestConfigFacts): it is
//      none of the files pytest reads its configuration from (pytest.ini, tox.ini, setup.cfg,
//      pyproject.toml), its name matches no `--doctest-glob` of any of them (pytest's default,
//      test*.txt, when none names one), and it lies under no folder whose conftest.py binds
//      `pytest_collect_file` (a collector of other files, e.g. Sybil's). A configuration that
//      does not read leaves nothing docs only.
// A change that adds, removes or retargets a symbolic link, or moves a submodule, is never
// docs only, wherever it lies (is_docs_change), so the links of one tree hold for a whole
// docs-only history.
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/git.hpp"
#include "gatekit/glob.hpp"
#include "gatekit/result.hpp"

namespace gatekit::gpu_gate {

// A symbolic link of a tree (git mode 120000): its path and the target it holds.
struct TreeLink {
  std::string path;
  std::string target;
};

// What a tree's test configuration makes pytest collect besides Python files (rule 4), read by
// the script test_config.py.inc from every pytest.ini, tox.ini ([pytest]), setup.cfg
// ([tool:pytest]), pyproject.toml ([tool.pytest.ini_options], [tool.pytest]) and conftest.py of
// the tree.
struct TestConfigFacts {
  std::vector<std::string> doctest_globs;  // --doctest-glob values of every addopts ("" none: test*.txt)
  std::vector<std::string> collectors;     // conftest.py files that bind pytest_collect_file
  std::string unreadable;                  // "path: why" when a file does not read: nothing is docs only
};

class DocsRule {
 public:
  // A pattern that does not compile is bad_input ("docs pattern '<p>': <why>").
  static Result<DocsRule> make(const std::vector<std::string>& patterns, const std::vector<TreeLink>& links,
                               TestConfigFacts tests = {});

  bool is_docs(std::string_view path) const { return why_code(path).empty(); }
  // "" when the path is docs only; else why it is code, e.g. "a symbolic link leads into
  // it (src/helper.py)", "Python imports or pytest collects it (.py)",
  // "it is not in the docs patterns", "pytest collects it as a doctest (--doctest-glob '*.md')".
  std::string why_code(std::string_view path) const;
  // One side of a change: git's modes before and after ("000000" when absent).
  bool is_docs_change(std::string_view path, std::string_view old_mode, std::string_view new_mode) const;

 private:
  std::string why_collected(std::string_view path) const;

  glob::PatternList patterns_;
  TestConfigFacts tests_;
  // Every path a link leads into or through -> the first link that does ("" = the whole tree).
  std::map<std::string, std::string, std::less<>> linked_;
};

// Whether Python imports or pytest collects files with this name (rule 2).
bool is_python_code(std::string_view path);

// Whether pytest reads its configuration from a file of this name (pytest.ini, tox.ini,
// setup.cfg, pyproject.toml), wherever it lies; and conftest.py.
bool is_test_configuration(std::string_view path);

// Whether pytest's doctest plugin collects `path` under `glob` (fnmatch, as pytest's
// fnmatch_ex: the file name alone for a glob without '/', else the path's end).
bool doctest_glob_matches(std::string_view glob, std::string_view path);

// Pure: decodes the test-configuration script's output.
Result<TestConfigFacts> parse_test_config_report(std::string_view json);

// Where a link at `link_path` holding `target` leads inside the tree, with every tree path it
// passes through (links followed through `links`, keyed by path), last the final target
// ("" = the tree's root). Empty when it leaves the tree (an absolute target, `..` above the
// root) or takes more than 40 hops.
std::vector<std::string> link_reach(const std::map<std::string, std::string, std::less<>>& links,
                                    std::string_view link_path, std::string_view target);

// One line of git's --raw output (`-c core.quotePath=true`, `--no-renames`):
// ":<old mode> <new mode> <old> <new> <status>\t<path>", the path C-quoted.
struct RawChange {
  std::string old_mode, new_mode, path;
};
Result<RawChange> parse_raw_line(std::string_view line);
inline bool is_docs_change(const DocsRule& docs, const RawChange& change) {
  return docs.is_docs_change(change.path, change.old_mode, change.new_mode);
}

// The change from `from` to `to` (`from...to`, from their merge base, when three_dot) under
// the rule: whether it is empty, and its paths that are not docs only, sorted.
struct ChangeVerdict {
  bool empty = true;
  std::vector<std::string> code;
};
Result<ChangeVerdict> classify_change(const Git& git, const DocsRule& docs, const std::string& from,
                                      const std::string& to, bool three_dot);

// The symbolic links of `commit`'s tree, read through the git seam (ls-tree and, when it has
// links, one cat-file --batch for their targets).
Result<std::vector<TreeLink>> tree_links(const Git& git, const std::string& commit);

// The rule for `commit`'s tree: the patterns, the tree's links and its test configuration.
// One `git ls-tree`, one `git cat-file --batch` for the links' targets and the configuration
// files, and (only when the tree has configuration files) one `python3 -I` that reads them.
Result<DocsRule> docs_rule_for(const Git& git, const std::vector<std::string>& patterns, const std::string& commit);

}  // namespace gatekit::gpu_gate
