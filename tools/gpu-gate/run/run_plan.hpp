#pragma once
// The pure parts of `gpu-gate run`: whether the stress pass is
// due and on which tests, and the verdict.
#include <chrono>
#include <string>
#include <vector>

#include "gatekit/git.hpp"
#include "gatekit/python_modules.hpp"
#include "record/record.hpp"
#include "run/test_map.hpp"

namespace gatekit::gpu_gate {

// Whether any changed path (either side of a rename) matches the patterns (github dialect,
// last match wins); `touched` receives the first such path.
bool touches(const std::vector<std::string>& patterns, const std::vector<FileChange>& changes, std::string* touched = nullptr);

// Every changed path (either side of a rename) that matches the patterns, sorted, unique.
std::vector<std::string> touched_paths(const std::vector<std::string>& patterns, const std::vector<FileChange>& changes);

// The tests of the stress pass: the test files of the checkout that load a touched path
// (directly or through other repository files, by the import analysis), that the test map
// says executed one, or that are touched themselves.
struct StressTargets {
  std::vector<std::string> touched;  // the changed concurrency paths
  std::vector<std::string> tests;    // the test files to stress, sorted
  std::vector<std::string> reasons;  // per test: "imports src/stream/q.py", "executed ... (test map)", "changed"
  bool fallback = false;             // none found: `tests` is the gate's scope
};

// Pure. `test_files`: every test file of the checkout (sorted); `map`: the test map, when
// there is one; `scope_paths`: the fallback when no test file loads or executed the touched code.
StressTargets stress_targets(const std::vector<std::string>& touched, const python::ImportGraph& imports,
                             const std::vector<std::string>& test_files, const TestMap* map,
                             const std::vector<std::string>& scope_paths);

// One run of the test command.
struct PassResult {
  std::string name;  // "gate", "stress 1/3" ...
  int exit_code = 0;
  TestCounts counts;
  std::chrono::milliseconds duration{0};
  bool passed() const { return exit_code == 0 && counts.failed == 0 && counts.errors == 0 && counts.passed > 0; }
};

// pass when the gate pass and every stress repeat passed.
Verdict verdict_of(const PassResult& gate, const std::vector<PassResult>& stress);
// The record's stress value, naming what was stressed and the change that called for it:
// "not needed (no concurrency change)", "passed 3x on tests/test_q.py (src/stream/q.py)",
// "failed on repeat 2 of 3 on 2 test files: tests/test_a.py, tests/test_b.py (src/stream/q.py)",
// "passed 3x on the gate's 12 test files, none loads it (src/stream/q.py)". Test files are
// listed while the value stays under kMaxFactBytes, then "+N more".
std::string stress_text(bool needed, const std::string& touched, const StressTargets& targets,
                        const std::vector<PassResult>& stress, int repeats);

}  // namespace gatekit::gpu_gate
