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

// One Options struct per subcommand, built from the option groups they share (the shared
// helpers in common.hpp take a group).
struct SelectionOptions {
  std::string selection = ".github/gatekit/suite.yml";  // --selection FILE
};
struct ContextOptions {
  std::string context;  // --context pr|main|daily|gate|gate-full (default: the event's)
};
struct PythonOptions {
  std::string python = "python3";  // --python: the interpreter that runs pytest / the imports
  std::string root = ".";          // --root: the project folder pytest runs in
  int collect_timeout_s = 900;     // --collect-timeout
};
struct ReportOptions {
  std::string report;        // --report: the leg's JUnit XML
  std::string junit_prefix;  // --junit-prefix (pytest's, when the leg used one)
};
struct VariantsOptions {
  std::vector<std::string> variants;  // --variants V,V: every value of the docs leg's matrix
};

struct PartitionOptions : SelectionOptions, PythonOptions, VariantsOptions {
  std::vector<std::string> contexts;  // --context (repeatable; default every context)
};

struct UnmarkedOptions : SelectionOptions, ReportOptions {
  std::string leg;  // --leg: the CPU leg the report comes from
};

struct RanOptions : SelectionOptions, ReportOptions, ContextOptions, PythonOptions {
  std::string leg;  // --leg
};

struct NightlyOptions : SelectionOptions, ContextOptions, VariantsOptions {
  std::string leg;         // --leg
  bool docs_only = false;  // --docs-only: the gate found only documentation changes
  std::string variant;     // --variant: this matrix leg's value (e.g. the Python version)
  int matrix_jobs = 0;     // --matrix-jobs N: the matrix's job count (0: not given)
};

struct GrowthOptions : SelectionOptions, ReportOptions, ContextOptions {
  std::string leg;                       // --leg (its expression is part of the configuration key)
  std::string baseline;                  // --baseline FILE (JUnit XML or baseline JSON); may be missing
  std::string write_baseline;            // --write-baseline FILE: this run as the next baseline
  bool find_baseline = false;            // --find-baseline: look the artifact up through the API
  std::string workflow;                  // --workflow (default: from GITHUB_WORKFLOW_REF)
  std::string job;                       // --job (default GITHUB_JOB)
  std::string python_version;            // --python-version (default: asked from --python)
  std::string python = "python3";        // --python: the interpreter asked for its version
  std::string repo;                      // --repo OWNER/NAME (default GITHUB_REPOSITORY)
  std::string branch = "main";           // --branch: the branch whose push runs store baselines
  int api_budget_s = 60;                 // --api-budget
  std::optional<long> notice_tests;      // --notice-tests N (default: the selection file's, else 100)
  std::optional<double> notice_seconds;  // --notice-seconds S (default: the selection file's, else 60)
};

struct GpuFilterOptions : SelectionOptions, ContextOptions, PythonOptions {  // --context default: pr
  std::string rules = ".github/gatekit/filters.yml";  // --rules: the path gate's rules file
  std::string filter = "gpu";                          // --filter: the filter that runs the GPU jobs
  std::string path_classifier = "path-classifier";     // --path-classifier: the program that reads the rules
};

struct ShardOptions : SelectionOptions, ContextOptions, PythonOptions {
  std::string leg;       // --leg: the leg to split
  int shards = 1;        // --shards N
  int index = 0;         // --index K (1..N); 0: write every shard
  std::string out;       // --out: FILE with --index, else an existing DIR
  std::string baseline;  // --baseline: the last main run's (JUnit XML or suite-baseline.json)
  std::string plan;      // --plan FILE: what the split was made from, for shard-report
};

struct ShardReportOptions {
  std::string leg;           // --leg: the leg that was split
  int shards = 1;            // --shards N
  std::string reports;       // --reports DIR: DIR/<leg>-shard-K-attemptA/{list.txt,plan.json,junit.xml}
  std::string junit_prefix;  // --junit-prefix
  std::string out;           // --out: the merged JUnit report
};

// One function per subcommand, over the core's seams (gatekit/context.hpp). A subcommand that
// cannot reach a verdict throws a Failure (gatekit/result.hpp); the frame then sets the
// `result` output to `error`, prints the error and exits with its kind's code.
ExitCode run_partition(const PartitionOptions& options, Context& context);
ExitCode run_unmarked(const UnmarkedOptions& options, Context& context);
ExitCode run_ran(const RanOptions& options, Context& context);
ExitCode run_nightly(const NightlyOptions& options, Context& context);
ExitCode run_growth(const GrowthOptions& options, Context& context);
ExitCode run_gpu_filter(const GpuFilterOptions& options, Context& context);
ExitCode run_shard(const ShardOptions& options, Context& context);
ExitCode run_shard_report(const ShardReportOptions& options, Context& context);

}  // namespace gatekit::suite_report
