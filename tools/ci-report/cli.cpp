// ci-report: what the gates saved and what CI spent over a window. This file only maps argv
// to Options and calls run_report.
#include "ci-report.hpp"
#include "gatekit/cli.hpp"

int ci_report_main(int argc, const char* const* argv) {
  using namespace gatekit;
  ci_report::Options o;
  return run_tool(
      {"ci-report", "Reports the minutes the gates saved and the minutes CI spent, from the Actions API."}, argc, argv,
      [&](gatekit::CliCommand& app) {
        app.option("--repo", o.repo, "OWNER/NAME (default: GITHUB_REPOSITORY)");
        app.option("--workflow", o.workflows, "A gated workflow file; repeatable (default: cpu-tests.yml, gpu-tests.yml)")
            .expected(1)
            .take_all();
        app.option("--since", o.since, "Window start: 2026-11-01 or 2026-11-01T10:00:00Z (default: --until - 7 days)");
        app.option("--until", o.until, "Window end, exclusive (default: now)");
        app.option("--lookback-days", o.lookback_days, "Days before --since read for the medians only (default 14)");
        app.option("--samples", o.samples, "The last N runs of a leg on a label make its median (default 20)");
        app.option("--gate-job", o.gate_job, "The path gate's job name (default 'path gate')");
        app.option("--required-job", o.required_jobs, "A required check's job name; repeatable (default: 'CPU tests', 'GPU tests')")
            .expected(1)
            .take_all();
        app.option("--gpu-context", o.gpu_context, "The gpu-gate commit status (default gate/gpu)");
        app.option("--flaky-label", o.flaky_label, "The flaky-test issues' label (default flaky)");
        app.option("--flaky-creator", o.flaky_creators,
                   "Whose flaky-test issues' state is read for flake rates; repeatable (default: github-actions[bot])")
            .expected(1)
            .take_all();
        app.option("--json", o.json_file, "Write the report as JSON");
        app.option("--csv", o.csv_file, "Write the report as CSV");
        app.option("--markdown", o.markdown_file, "Write the summary as a Markdown file (a discussion post)");
        app.option("--history", o.history_file, "Read the runs and jobs from this file (--save-history's) instead of the API");
        app.option("--save-history", o.save_history, "Write the runs and jobs read to this file");
        app.option("--cache", o.cache_file,
                   "Keep the API's answers here for conditional requests (If-None-Match); read, then rewritten");
        app.option("--api-budget", o.api_budget_s, "Seconds for every API call together (default 600)");
      },
      [&](Context& context) { return ci_report::run_report(o, context); });
}
