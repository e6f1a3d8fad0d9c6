#pragma once
// Proves that the marker selections CI runs partition the suite, catches GPU tests that
// slipped into the CPU leg and GPU legs that ran nothing, prints each leg's selection for
// the current context, reports the suite's growth against the last main run, and checks that
// the path gate's GPU filter covers every file the GPU legs read.
#include <optional>
#include <string>
#include <vector>

#include "gatekit/context.hpp"
#include "gatekit/exit_code.hpp"

int suite_report_main(int argc, const char* const* argv);

namespace gatekit::suite_report {

struct Options {
  std::string command;  // partition | unmarked | ran | nightly | growth | gpu-filter
  std::string selection = ".github/gatekit/suite.yml";  // --selection FILE
  std::string leg;                    // --leg NAME
  std::string context;                // --context pr|main|daily|gate|gate-full (default: the event)
  std::vector<std::string> contexts;  // partition --context (repeatable; default every context)
  std::string report;                 // --report JUnit XML of the leg's run
  std::string junit_prefix;           // --junit-prefix (pytest's, when the leg used one)
  std::string python = "python3";     // --python: the interpreter that runs pytest / the imports
  std::string root = ".";             // --root: the project folder pytest runs in
  int collect_timeout_s = 900;        // --collect-timeout
  // nightly
  bool docs_only = false;             // --docs-only: the gate found only documentation changes
  std::string variant;                // --variant: this matrix leg's value (e.g. the Python version)
  // partition, nightly
  std::vector<std::string> variants;  // --variants V,V: every value of the docs leg's matrix
  int matrix_jobs = 0;                // nightly --matrix-jobs N: the matrix's job count (0: not given)
  // growth
  std::string baseline;               // --baseline FILE (JUnit XML or baseline JSON); may be missing
  std::string write_baseline;         // --write-baseline FILE: this run as the next baseline
  bool find_baseline = false;         // --find-baseline: look the artifact up through the API
  std::string workflow;               // --workflow (default: from GITHUB_WORKFLOW_REF)
  std::string job;                    // --job (default GITHUB_JOB)
  std::string python_version;         // --python-version (default: asked from --python)
  std::string repo;                   // --repo OWNER/NAME (default GITHUB_REPOSITORY)
  std::string branch = "main";        // --branch: the branch whose push runs store baselines
  int api_budget_s = 60;              // --api-budget
  std::optional<long> notice_tests;   // --notice-tests N (default: the selection file's, else 100)
  std::optional<double> notice_seconds;  // --notice-seconds S (default: the selection file's, else 60)
  // gpu-filter
  std::string rules = ".github/gatekit/filters.yml";  // --rules: the path gate's rules file
  std::string filter = "gpu";                          // --filter: the filter that runs the GPU jobs
  std::string path_classifier = "path-classifier";     // --path-classifier: the program that reads the rules
};

// One function per subcommand, over the core's seams (gatekit/context.hpp). A subcommand that
// cannot reach a verdict throws a Failure (gatekit/result.hpp); cli.cpp then sets the
// `result` output to `error` before the frame prints it and exits with its kind's code.
ExitCode run_partition(const Options& options, Context& context);
ExitCode run_unmarked(const Options& options, Context& context);
ExitCode run_ran(const Options& options, Context& context);
ExitCode run_nightly(const Options& options, Context& context);
ExitCode run_growth(const Options& options, Context& context);
ExitCode run_gpu_filter(const Options& options, Context& context);

}  // namespace gatekit::suite_report
