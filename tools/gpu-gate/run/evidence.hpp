#pragma once
// What a test pass proves (docs/gpu-gate.md, "What a pass proves"). A pass's exit code and
// JUnit report say how its tests ended, not what they tested: on a machine whose test
// environment cannot see the GPU every GPU test skips ("CUDA not available") and pytest exits
// 0, and a package installed from another clone (`pip install -e ../other`) is imported instead
// of the tree under test. So every pass runs with a small pytest plugin (evidence.py.inc,
// through PYTEST_PLUGINS, its folder on PYTHONPATH), which writes, from each pytest process:
// the tests it ran (which of them are the GPU legs' tests, and how each ended) and where each
// loaded module of the repository's packages came from. After the pass:
//   - a pass that left no evidence (the command is not pytest, or dropped the environment)
//     proves nothing: could_not_evaluate;
//   - a module of the repository loaded from outside the tested worktree: could_not_evaluate,
//     naming the module and the file (nothing is recorded);
//   - a GPU pass (the gate pass, the full run's GPU pass) needs GPU tests that ran: the core's
//     rule (gatekit/ran_rule.hpp, shared with `suite-report ran`), where the GPU tests are the
//     selection file's GPU legs' (device: gpu), or every test without such legs.
#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/context.hpp"
#include "gatekit/ran_rule.hpp"
#include "gatekit/result.hpp"

namespace gatekit::gpu_gate {

// One test as the process that ran it saw it.
struct TestEvidence {
  bool gpu = false;     // one of the GPU legs' tests (every test when the selection has no GPU leg)
  std::string outcome;  // "passed", "failed", "skipped", "xfail"
  std::string skip_reason;
};

struct Evidence {
  std::size_t processes = 0;                     // pytest processes that wrote a line
  std::map<std::string, TestEvidence> tests;     // node id ->
  std::map<std::string, std::string> modules;    // module -> the real path it was loaded from
  std::vector<std::string> errors;               // what the plugin could not do
};

// Pure: the plugin's JSON lines (evidence.py.inc) read into one Evidence; `origin` names the
// file in errors. A line that is not the plugin's: could_not_evaluate.
Result<Evidence> parse_evidence(std::string_view lines, std::string_view origin);

// Pure: the top-level names under which the repository's Python files are imported from its
// usual import roots, the repository's root and `src/`: packages (folders with an __init__.py
// whose parent has none) and modules (.py files) there. `files`: repository-relative paths.
std::vector<std::string> repository_packages(const std::vector<std::string>& files);

// Pure: the first module of the evidence loaded from outside `worktree` (a real path), as
// the refusal reads it; "" when every module came from the worktree.
std::string foreign_import(const Evidence& evidence, const std::filesystem::path& worktree);

// Pure: the GPU evidence of a GPU pass, by the core's rule (ran_rule.hpp), with the skip
// reasons of the GPU tests that did not run; `legs`: the GPU legs' expression ("" = none).
struct GpuEvidence {
  RanVerdict verdict;
  std::vector<SkipReason> skipped;  // why the GPU tests skipped, most frequent first
};
GpuEvidence gpu_evidence(const Evidence& evidence, std::string_view legs, const std::string& context);

// How a pass gathers its evidence: the plugin and the environment that loads it.
struct EvidencePlan {
  std::filesystem::path file;                 // where the processes append their lines
  std::map<std::string, std::string> env;     // PYTEST_PLUGINS, PYTHONPATH, GATEKIT_GATE_*
};
// Writes the plugin into `scratch` (once per run: the same file each time) and returns the
// environment of the pass named `pass` (`existing`: the caller's PYTHONPATH and PYTEST_PLUGINS,
// kept after the plugin's). `gpu_markers`: the GPU legs' expression for a GPU pass.
Result<EvidencePlan> plan_evidence(Files& files, const std::filesystem::path& scratch, std::string_view pass,
                                   const std::vector<std::string>& packages, const std::string& gpu_markers,
                                   const Environment& existing);

}  // namespace gatekit::gpu_gate
