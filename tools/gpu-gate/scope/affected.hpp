#pragma once
// `gpu-gate affected [--base REV] [--json]`: the tests a change touches, from the test map
// written by `run --full` (test_map.hpp).
//
// The change: the commits since the merge base with REV (default: the remote's default
// branch, origin/HEAD, else main), plus uncommitted changes and untracked files. Each changed
// path (both sides of a rename):
//   - docs only (docs_rule.hpp: the docs patterns, not Python code, no link leads into it)
//     is ignored;
//   - a file the map knows: every test that executed it is affected;
//   - a test file (test_*.py, *_test.py): its tests in the map, or the file itself when the
//     map has none of them (a new test file);
//   - anything else is code the map lacks (a new module, a data file, a build file): the
//     answer is "all", naming those files.
// A map older than four weeks gives a warning (the answer still comes from it); no map at
// all answers "all" with a warning. The answer is never narrower than the map allows.
#include <string>
#include <vector>

#include "scope/docs_rule.hpp"
#include "gatekit/context.hpp"
#include "gatekit/exit_code.hpp"
#include "gatekit/git.hpp"
#include "gatekit/result.hpp"
#include "run/test_map.hpp"

namespace gatekit::gpu_gate {

struct AffectedOptions {
  std::string repo_dir = ".";
  std::string config;  // "" = .github/gatekit/gpu-gate.yml in the repository (may be absent)
  std::string base;    // "" = origin/HEAD when it exists, else main
  bool json = false;
};

struct Affected {
  bool all = false;
  std::vector<std::string> unknown;  // changed paths the map lacks: why the answer is "all"
  std::vector<std::string> tests;    // node ids (or new test files), sorted, unique
  std::vector<std::string> docs;     // changed paths ignored as docs
  std::size_t changed = 0;           // changed paths considered
};

// Pure. `docs`: the docs-only rule (docs_rule.hpp) with the links of the change's tree.
Affected decide_affected(const TestMap& map, const std::vector<FileChange>& changes, const DocsRule& docs);

ExitCode run_affected(const AffectedOptions& options, Context& context);

}  // namespace gatekit::gpu_gate
