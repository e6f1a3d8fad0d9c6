// suite-report's subcommand table: each subcommand's options mapped onto its own Options.
#include "gatekit/cli.hpp"
#include "suite-report.hpp"

namespace {

using namespace gatekit::suite_report;

void selection_option(gatekit::CliCommand& sub, SelectionOptions& o) {
  sub.option("--selection", o.selection, "The selection file (YAML, docs/actions/suite-report.md)");
}
void context_option(gatekit::CliCommand& sub, ContextOptions& o) {
  sub.option("--context", o.context, "pr, main, daily, gate or gate-full (default: from GITHUB_EVENT_NAME)");
}
void python_options(gatekit::CliCommand& sub, PythonOptions& o) {
  sub.option("--python", o.python, "The Python interpreter that runs pytest");
  sub.option("--root", o.root, "The project folder pytest runs in");
  sub.option("--collect-timeout", o.collect_timeout_s, "Seconds one pytest collection may take")
      .range(1, 86400);
}
void variants_option(gatekit::CliCommand& sub, VariantsOptions& o) {
  sub.option("--variants", o.variants,
             "Every value of the docs leg's matrix (commas or spaces between; repeatable): the docs variant must be one");
}
void report_options(gatekit::CliCommand& sub, ReportOptions& o) {
  sub.option("--report", o.report, "The leg's JUnit XML report").required();
  sub.option("--junit-prefix", o.junit_prefix, "pytest's --junit-prefix, when the leg used one");
}

void configure_partition(gatekit::CliCommand& sub, PartitionOptions& o) {
  selection_option(sub, o);
  sub.option("--context", o.contexts, "Check only this context (repeatable; default: every context)");
  python_options(sub, o);
  variants_option(sub, o);
}

void configure_unmarked(gatekit::CliCommand& sub, UnmarkedOptions& o) {
  selection_option(sub, o);
  report_options(sub, o);
  sub.option("--leg", o.leg, "The CPU leg the report comes from").required();
}

void configure_ran(gatekit::CliCommand& sub, RanOptions& o) {
  selection_option(sub, o);
  report_options(sub, o);
  sub.option("--leg", o.leg, "The leg the report comes from").required();
  context_option(sub, o);
  python_options(sub, o);
}

void configure_nightly(gatekit::CliCommand& sub, NightlyOptions& o) {
  selection_option(sub, o);
  sub.option("--leg", o.leg, "The leg").required();
  context_option(sub, o);
  sub.flag("--docs-only", o.docs_only, "The change touches documentation only (the path gate's verdict)");
  sub.option("--variant", o.variant, "This matrix job's value (e.g. its Python version), for the docs tests");
  variants_option(sub, o);
  sub.option("--matrix-jobs", o.matrix_jobs, "The matrix's job count (strategy.job-total): --variants must list as many")
      .range(1, 256);
}

void configure_growth(gatekit::CliCommand& sub, GrowthOptions& o) {
  selection_option(sub, o);
  sub.option("--report", o.report, "This run's JUnit XML report");
  sub.option("--junit-prefix", o.junit_prefix, "pytest's --junit-prefix, when the leg used one");
  sub.option("--leg", o.leg, "The leg (its expression is part of the configuration key)").required();
  context_option(sub, o);
  sub.option("--baseline", o.baseline, "The baseline: a JUnit XML report or a suite-baseline.json (may be missing)");
  sub.option("--write-baseline", o.write_baseline, "Write this run as the next baseline (JSON) to this file");
  sub.flag("--find-baseline", o.find_baseline, "Find the baseline artifact of the last main run (GitHub API)");
  sub.option("--workflow", o.workflow, "Workflow file of the key (default: from GITHUB_WORKFLOW_REF)");
  sub.option("--job", o.job, "Job id of the key (default: GITHUB_JOB)");
  sub.option("--python-version", o.python_version, "Python version of the key (default: asked from --python)");
  sub.option("--python", o.python, "The interpreter asked for its version");
  sub.option("--repo", o.repo, "owner/name (default: GITHUB_REPOSITORY)");
  sub.option("--branch", o.branch, "The branch whose pushes store baselines");
  sub.option("--api-budget", o.api_budget_s, "Seconds the API lookup may take, retries included")
      .range(1, 3600);
  sub.option("--notice-tests", o.notice_tests, "Notice at this many new or removed tests (default: the selection file's, else 100)")
      .range(1L, 100'000'000L);
  sub.option("--notice-seconds", o.notice_seconds, "Notice at this many seconds of new tests (default: the file's, else 60)")
      .positive_number();
}

void configure_gpu_filter(gatekit::CliCommand& sub, GpuFilterOptions& o) {
  selection_option(sub, o);
  sub.option("--rules", o.rules, "The path gate's rules file (default .github/gatekit/filters.yml)");
  sub.option("--filter", o.filter, "The filter that runs the GPU jobs (default gpu)");
  sub.option("--path-classifier", o.path_classifier,
             "The path-classifier program that answers for the rules (default: on PATH)");
  sub.option("--context", o.context, "The context whose GPU selection is checked (default pr)");
  python_options(sub, o);
}

void configure_shard(gatekit::CliCommand& sub, ShardOptions& o) {
  selection_option(sub, o);
  sub.option("--leg", o.leg, "The leg to split").required();
  context_option(sub, o);
  python_options(sub, o);
  sub.option("--shards", o.shards, "How many shards").required().range(1, 256);
  sub.option("--index", o.index, "Write only this shard's list (1..N)").range(1, 256);
  sub.option("--out", o.out, "With --index: the list's file; without: an existing folder for shard-K.txt")
      .required();
  sub.option("--baseline", o.baseline,
             "The last main run's baseline (JUnit XML or suite-baseline.json); none: split by count");
  sub.option("--plan", o.plan, "Write what the split was made from here (JSON, for shard-report)");
}

void configure_shard_report(gatekit::CliCommand& sub, ShardReportOptions& o) {
  sub.option("--leg", o.leg, "The leg that was split").required();
  sub.option("--shards", o.shards, "How many shards").required().range(1, 256);
  sub.option("--reports", o.reports, "Folder with LEG-shard-K-attemptA/list.txt, .../plan.json and .../junit.xml")
      .required();
  sub.option("--junit-prefix", o.junit_prefix, "pytest's --junit-prefix, when the leg used one");
  sub.option("--out", o.out, "Write the merged JUnit report here (only when every shard has one)");
}

}  // namespace

int suite_report_main(int argc, const char* const* argv) {
  using gatekit::subcommand;
  // Every subcommand has a `result` output: the frame sets it to `error` when there is no verdict.
  const bool result = true;
  const std::vector<gatekit::Subcommand> table = {
      subcommand<PartitionOptions>("partition", "Prove that every test is in exactly one leg, per context",
                                   configure_partition, run_partition, result),
      subcommand<UnmarkedOptions>("unmarked", "Fail on CPU-leg tests skipped for want of a device", configure_unmarked,
                                  run_unmarked, result),
      subcommand<RanOptions>("ran", "Could not evaluate when a leg with a non-empty selection ran no test",
                             configure_ran, run_ran, result),
      subcommand<NightlyOptions>("nightly", "Print the leg's marker expression for the current context",
                                 configure_nightly, run_nightly, result),
      subcommand<GrowthOptions>("growth", "Compare the suite with the last main run of the same configuration",
                                configure_growth, run_growth, result),
      subcommand<GpuFilterOptions>("gpu-filter",
                                   "Fail on files the GPU legs read that the path gate's GPU filter misses",
                                   configure_gpu_filter, run_gpu_filter, result),
      subcommand<ShardOptions>("shard", "Split a leg's tests into N shards of about equal time (pytest @FILE lists)",
                               configure_shard, run_shard, result),
      subcommand<ShardReportOptions>("shard-report", "Predicted vs actual time per shard; merge the shards' reports",
                                     configure_shard_report, run_shard_report, result),
  };
  return gatekit::run_tool(
      {"suite-report", "Proves the CI legs' test selections and reports what ran and how the suite grows."}, argc, argv,
      table, [](gatekit::CliCommand& app) {
        app.footer("Exit codes: 0 pass, 1 the check found a problem, 2 usage or selection-file error, 3 could not "
                   "evaluate (docs/exit-codes.md). See docs/actions/suite-report.md.");
      });
}
