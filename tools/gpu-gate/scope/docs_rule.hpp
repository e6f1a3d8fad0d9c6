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
//
// With the path gate's GPU filter (gpu_filter.hpp), the rule also says which changes need a
// GPU result (why_gpu): one for a path the filter takes, docs only or not (a docs example the
// GPU tests run: the path gate runs the GPU jobs for it); else none for a docs-only path; none
// for a path the filter, self-protection and the gate's scope let go when, as for docs, no symbolic link leads into it and pytest's
// configuration neither reads nor collects it (rules 3 and 4); one for anything else, for a
// change of a link or a submodule, and for every path that is not docs only when there is no
// filter. A step of history that needs no GPU result lends a result over it like a docs-only
// one (status_decide.hpp), so the links and the test configuration of one tree hold for that
// whole history too.
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/git.hpp"
#include "gatekit/glob.hpp"
#include "gatekit/result.hpp"
#include "scope/gpu_filter.hpp"

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

  // The path gate's GPU filter the rule also judges by (nullptr: none, and every path that is
  // not docs only needs a GPU result). The caller keeps it alive while the rule is used.
  void set_gpu_filter(const GpuFilter* filter) { gpu_ = filter; }
  const GpuFilter* gpu_filter() const { return gpu_; }
  // "" when a change of `path` (of change type `type`, path_rules::change_type's names; ""
  // unknown) needs no GPU result; else why it needs one, e.g. "the 'gpu' filter takes it
  // ('src/**')", "a symbolic link leads into it (src/helper.py)", "pytest reads its
  // configuration from it".
  std::string why_gpu(std::string_view path, std::string_view type = "") const;
  // One side of a change, as is_docs_change: a change of a link or a submodule needs a result.
  bool needs_gpu_change(std::string_view path, std::string_view old_mode, std::string_view new_mode,
                        std::string_view type) const;

 private:
  std::string why_collected(std::string_view path) const;
  std::string why_linked(std::string_view path) const;

  glob::PatternList patterns_;
  TestConfigFacts tests_;
  const GpuFilter* gpu_ = nullptr;
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
  std::string status;  // git's letter: A, M, D, T, ...
};
Result<RawChange> parse_raw_line(std::string_view line);
inline bool is_docs_change(const DocsRule& docs, const RawChange& change) {
  return docs.is_docs_change(change.path, change.old_mode, change.new_mode);
}
inline bool needs_gpu_change(const DocsRule& docs, const RawChange& change) {
  return docs.needs_gpu_change(change.path, change.old_mode, change.new_mode,
                               path_rules::change_type(change.status, /*previous=*/false));
}

// The change from `from` to `to` (`from...to`, from their merge base, when three_dot) under
// the rule: whether it is empty, its paths that are not docs only, and those of them that need
// a GPU result, each sorted.
struct ChangeVerdict {
  bool empty = true;
  std::vector<std::string> code;
  std::vector<std::string> gpu;
  // The paths that are not docs only and need no GPU result (code less gpu), sorted.
  std::vector<std::string> outside_filter() const;
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
