#pragma once
// The pure parts of `gpu-gate run`: the command line of a pass, whether the stress pass is
// due and on which tests, and the verdict.
#include <chrono>
#include <string>
#include <vector>

#include "gatekit/git.hpp"
#include "record.hpp"

namespace gatekit::gpu_gate {

// The configured command with {workers}, {junit} and {paths} (one argument per path) expanded;
// a path starting with '-' is given as ./path, so no file name reads as an option.
std::vector<std::string> expand_command(const std::vector<std::string>& command, int workers,
                                        const std::string& junit, const std::vector<std::string>& paths);

// Whether any changed path (either side of a rename) matches the patterns (github dialect,
// last match wins); `touched` receives the first such path.
bool touches(const std::vector<std::string>& patterns, const std::vector<FileChange>& changes, std::string* touched = nullptr);

// The tests of the stress pass: the scope's test files that match the concurrency patterns,
// else (none match) the whole scope.
std::vector<std::string> stress_paths(const std::vector<std::string>& concurrency_patterns,
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
// The record's stress value: "not needed (no concurrency change)", "passed 3x (src/stream/a.py)",
// "failed on repeat 2 of 3 (src/stream/a.py)".
std::string stress_text(bool needed, const std::string& touched, const std::vector<PassResult>& stress, int repeats);

}  // namespace gatekit::gpu_gate
