#pragma once
// The pure parts of `gpu-gate run` (`--full` or not): the plan (which passes, which markers,
// which checks), whether the stress pass is due and on which tests, and the verdict.
#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "config.hpp"
#include "gatekit/git.hpp"
#include "gatekit/junit_reader.hpp"
#include "gatekit/python_modules.hpp"
#include "record/record.hpp"
#include "gpu-gate.hpp"
#include "run/test_map.hpp"

namespace gatekit::gpu_gate {

// One run of the test command, as planned; run_pass.hpp runs it.
struct PassSpec {
  std::string name;                         // "gate", "stress 2/3", "GPU"
  std::vector<std::string> paths;           // the test files ({tests})
  int workers = 8;
  std::map<std::string, std::string> env;   // added to the command's environment
  bool every_test = false;                  // run --full: {tests} is dropped, the command runs every test
  std::vector<std::string> extra_args;      // appended to the command (the GPU pass's coverage options)
  bool coverage = false;                    // COVERAGE_FILE in the run's scratch folder (the test map's data)
  junit::CaseHandler on_case;               // each test case of the report (may be empty)
  std::string usage_hint;                   // added to the error when the command exits 4 (pytest: usage)
  // What the pass must prove (evidence.hpp): that it imported the tested tree (every pass), and
  // for a GPU pass (the gate pass, the full run's GPU pass) that GPU tests ran.
  bool gpu_pass = false;
  std::vector<std::string> packages;        // the repository's top-level packages (repository_packages)
  std::string gpu_markers;                  // the GPU legs' expression ("" = every test is a GPU test)
  std::string context = "gate";             // the selection context, in messages
};

// What one `gpu-gate run` does, decided from its options and configuration before anything
// runs. `run` and `run --full` are one pipeline (run.cpp): check the tree, probe the GPUs,
// check out HEAD, select the tests, run the passes, check, record, summarize; the plan is
// where they differ.
struct RunPlan {
  bool full = false;             // the selection context: gate-full (every test, nightly included), else gate
  int workers = 8;
  std::vector<PassSpec> passes;  // run: the gate pass on the scope (paths filled in once the scope is known);
                                 // --full: every test on the GPU, then on the CPU (full_pass)
  bool stress = false;           // run: stress the tests of a concurrency change once the passes passed
  bool needs_scope = false;      // run: a scope with no test file is a configuration error
  bool scope_check = false;      // --full: the GPU and CPU passes compared test by test (check_scope)
  bool test_map = false;         // --full: the test map written from the GPU pass's coverage
  bool publish = false;          // --publish; a full run's result is recorded, not pushed
};

// Pure. `config.command` as loaded (its markers are applied when the passes run).
RunPlan plan_run(const RunOptions& options, const Config& config);

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
  bool may_pass_empty = false;  // a pass of every test (--full): none passing is no failure (the CPU
                                // pass of a GPU-only suite skips them all)
  std::string evidence;         // what the pass proved (evidence.hpp): "12 of 40 GPU tests ran; ..."
  bool passed() const {
    return exit_code == 0 && counts.failed == 0 && counts.errors == 0 && (may_pass_empty || counts.passed > 0);
  }
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
