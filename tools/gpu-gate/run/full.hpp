#pragma once
// `gpu-gate run --full`: every test, nightly included, on the GPU and then on the CPU, in a
// temporary worktree of the committed HEAD; then the scope check; then the test map. It is
// `run`'s pipeline (run.cpp) with the full run's plan (plan_run in run_plan.hpp): these are
// the parts only that plan uses.
//
// How the device is chosen: the test command runs twice with GATEKIT_DEVICE=gpu, then
// GATEKIT_DEVICE=cpu, in its environment; the project's conftest reads it (and hides the GPUs
// on the CPU pass). GATEKIT_NIGHTLY=1 is set on both; the command gets the selection file's
// expression for context gate-full (markers.hpp; by default every test: a pytest command gets
// `-m "nightly or not nightly"`, which overrides a `-m` in addopts).
// The GPU pass of a pytest command also gets pytest-cov's `--cov=. --cov-context=test
// --cov-report=` (coverage per test, for the test map).
//
// The scope check: a test file outside the scope (scope.hpp) with a test that runs on one
// device and is skipped (or absent) on the other fails the run, naming the file, the tests and
// the line to add under `scope: extras:`.
//
// Verdict: pass when both passes pass and the check finds nothing; exit 1 otherwise. A pass
// whose command cannot start, ends other than 0 or 1, or leaves no readable JUnit report is
// exit 3 (could not evaluate). The result is recorded like `run`'s (record.hpp), scope "full".
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "config.hpp"
#include "gatekit/context.hpp"
#include "gatekit/exit_code.hpp"
#include "gpu-gate.hpp"
#include "scope/scope.hpp"

namespace gatekit::gpu_gate {

enum class Device { gpu, cpu };
std::string_view to_string(Device device);  // "gpu", "cpu"
std::string_view display_name(Device device);  // "GPU", "CPU"

// One test of one pass: where it lives, and whether it ran (not skipped).
struct CaseRun {
  std::string file;
  bool ran = false;
};
using PassCases = std::map<std::string, CaseRun>;  // test id -> case

struct ScopeViolation {
  std::string file;
  std::vector<std::string> gpu_only;  // ran on the GPU, skipped or absent on the CPU
  std::vector<std::string> cpu_only;  // ran on the CPU, skipped or absent on the GPU
};

// Pure: the files outside the scope whose tests run on one device and not on the other.
std::vector<ScopeViolation> check_scope(const Scope& scope, const PassCases& gpu, const PassCases& cpu);
// The failure message for one violation (one line), with the line to add to scope.extras.
std::string describe(const ScopeViolation& violation, const std::string& config_file);
// `- <file>` as it goes under `scope:` / `extras:` in the configuration (single-quoted when
// YAML would read it otherwise).
std::string extras_line(std::string_view file);
// argv for a person: arguments with spaces or quotes in single quotes, as a shell reads them.
std::string display_command(const std::vector<std::string>& argv);

// One pass of `run --full` on `device` (run_pass.hpp): every test ({tests} is dropped; the
// marker expression is already in config.command, see use_selection in common.hpp),
// GATEKIT_DEVICE and GATEKIT_NIGHTLY=1 set, and for a pytest command on the GPU, coverage.
struct PassSpec;
PassSpec full_pass(const Config& config, Device device, int workers);
// Its command line, the placeholders expanded ({workers}, {junit}).
std::vector<std::string> full_command(const Config& config, int workers, const std::string& junit, Device device);
bool is_pytest_command(const std::vector<std::string>& argv);

// run_run with `full` set: the same pipeline.
ExitCode run_full(const RunOptions& options, Context& context);

}  // namespace gatekit::gpu_gate
