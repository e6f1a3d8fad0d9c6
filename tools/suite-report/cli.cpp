// Maps argv to suite_report::Options and calls the chosen subcommand.
#include "gatekit/cli.hpp"
#include "gatekit/result.hpp"
#include "gatekit/workflow.hpp"
#include "suite-report.hpp"

namespace {

using gatekit::suite_report::Options;

void selection_option(CLI::App& sub, Options& o) {
  sub.add_option("--selection", o.selection, "The selection file (YAML, docs/actions/suite-report.md)");
}
void context_option(CLI::App& sub, Options& o) {
  sub.add_option("--context", o.context, "pr, main, daily, gate or gate-full (default: from GITHUB_EVENT_NAME)");
}
void python_options(CLI::App& sub, Options& o) {
  sub.add_option("--python", o.python, "The Python interpreter that runs pytest");
  sub.add_option("--root", o.root, "The project folder pytest runs in");
  sub.add_option("--collect-timeout", o.collect_timeout_s, "Seconds one pytest collection may take")
      ->check(CLI::Range(1, 86400));
}
void variants_option(CLI::App& sub, Options& o) {
  sub.add_option("--variants", o.variants,
                 "Every value of the docs leg's matrix (commas or spaces between; repeatable): the docs variant must be one");
}
void report_options(CLI::App& sub, Options& o) {
  sub.add_option("--report", o.report, "The leg's JUnit XML report")->required();
  sub.add_option("--junit-prefix", o.junit_prefix, "pytest's --junit-prefix, when the leg used one");
}

void configure(CLI::App& app, Options& o) {
  app.require_subcommand(1);
  app.footer("Exit codes: 0 pass, 1 the check found a problem, 2 usage or selection-file error, 3 could not "
             "evaluate (docs/exit-codes.md). See docs/actions/suite-report.md.");
  auto* partition = app.add_subcommand("partition", "Prove that every test is in exactly one leg, per context");
  selection_option(*partition, o);
  partition->add_option("--context", o.contexts, "Check only this context (repeatable; default: every context)");
  python_options(*partition, o);
  variants_option(*partition, o);

  auto* unmarked = app.add_subcommand("unmarked", "Fail on CPU-leg tests skipped for want of a device");
  selection_option(*unmarked, o);
  report_options(*unmarked, o);
  unmarked->add_option("--leg", o.leg, "The CPU leg the report comes from")->required();

  auto* ran = app.add_subcommand("ran", "Could not evaluate when a leg with a non-empty selection ran no test");
  selection_option(*ran, o);
  report_options(*ran, o);
  ran->add_option("--leg", o.leg, "The leg the report comes from")->required();
  context_option(*ran, o);
  python_options(*ran, o);

  auto* nightly = app.add_subcommand("nightly", "Print the leg's marker expression for the current context");
  selection_option(*nightly, o);
  nightly->add_option("--leg", o.leg, "The leg")->required();
  context_option(*nightly, o);
  nightly->add_flag("--docs-only", o.docs_only, "The change touches documentation only (the path gate's verdict)");
  nightly->add_option("--variant", o.variant, "This matrix job's value (e.g. its Python version), for the docs tests");
  variants_option(*nightly, o);
  nightly->add_option("--matrix-jobs", o.matrix_jobs, "The matrix's job count (strategy.job-total): --variants must list as many")
      ->check(CLI::Range(1, 256));

  auto* growth = app.add_subcommand("growth", "Compare the suite with the last main run of the same configuration");
  selection_option(*growth, o);
  growth->add_option("--report", o.report, "This run's JUnit XML report");
  growth->add_option("--junit-prefix", o.junit_prefix, "pytest's --junit-prefix, when the leg used one");
  growth->add_option("--leg", o.leg, "The leg (its expression is part of the configuration key)")->required();
  context_option(*growth, o);
  growth->add_option("--baseline", o.baseline, "The baseline: a JUnit XML report or a suite-baseline.json (may be missing)");
  growth->add_option("--write-baseline", o.write_baseline, "Write this run as the next baseline (JSON) to this file");
  growth->add_flag("--find-baseline", o.find_baseline, "Find the baseline artifact of the last main run (GitHub API)");
  growth->add_option("--workflow", o.workflow, "Workflow file of the key (default: from GITHUB_WORKFLOW_REF)");
  growth->add_option("--job", o.job, "Job id of the key (default: GITHUB_JOB)");
  growth->add_option("--python-version", o.python_version, "Python version of the key (default: asked from --python)");
  growth->add_option("--python", o.python, "The interpreter asked for its version");
  growth->add_option("--repo", o.repo, "owner/name (default: GITHUB_REPOSITORY)");
  growth->add_option("--branch", o.branch, "The branch whose pushes store baselines");
  growth->add_option("--api-budget", o.api_budget_s, "Seconds the API lookup may take, retries included")
      ->check(CLI::Range(1, 3600));
  growth->add_option("--notice-tests", o.notice_tests, "Notice at this many new or removed tests (default: the selection file's, else 100)")
      ->check(CLI::Range(1L, 100'000'000L));
  growth->add_option("--notice-seconds", o.notice_seconds, "Notice at this many seconds of new tests (default: the file's, else 60)")
      ->check(CLI::PositiveNumber);

  auto* gpu_filter = app.add_subcommand("gpu-filter", "Fail on files the GPU legs read that the path gate's GPU filter misses");
  selection_option(*gpu_filter, o);
  gpu_filter->add_option("--rules", o.rules, "The path gate's rules file (default .github/gatekit/filters.yml)");
  gpu_filter->add_option("--filter", o.filter, "The filter that runs the GPU jobs (default gpu)");
  gpu_filter->add_option("--path-classifier", o.path_classifier,
                         "The path-classifier program that answers for the rules (default: on PATH)");
  gpu_filter->add_option("--context", o.context, "The context whose GPU selection is checked (default pr)");
  python_options(*gpu_filter, o);
}

gatekit::ExitCode dispatch(const Options& o, gatekit::Context& context) {
  using namespace gatekit::suite_report;
  if (o.command == "partition") return run_partition(o, context);
  if (o.command == "unmarked") return run_unmarked(o, context);
  if (o.command == "ran") return run_ran(o, context);
  if (o.command == "nightly") return run_nightly(o, context);
  if (o.command == "gpu-filter") return run_gpu_filter(o, context);
  return run_growth(o, context);
}

}  // namespace

int suite_report_main(int argc, const char* const* argv) {
  using namespace gatekit;
  suite_report::Options o;
  return run_tool(
      {"suite-report", "Proves the CI legs' test selections and reports what ran and how the suite grows."}, argc,
      argv, [&](CLI::App& app) { configure(app, o); },
      [&](CLI::App& app, Context& context) -> ExitCode {
        o.command = app.get_subcommands().front()->get_name();
        try {
          return dispatch(o, context);
        } catch (const Failure&) {
          // No verdict: the step's `result` says so before the frame prints the error.
          context.workflow.set_output("result", "error");
          throw;
        }
      });
}
