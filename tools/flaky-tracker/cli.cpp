// flaky-tracker's subcommand table: each subcommand's options mapped onto its own Options.
#include <map>

#include "flaky-tracker.hpp"
#include "gatekit/cli.hpp"

namespace {

using namespace gatekit::flaky_tracker;

void command_options(gatekit::CliCommand& sub, std::string& text, std::vector<std::string>& words,
                     const std::string& what) {
  sub.option("--command", text, what + " (words split at spaces; see docs/actions/flaky-tracker.md)");
  sub.option("words", words, "The command as separate words, after --");
}

void configure_rerun(gatekit::CliCommand& s, RerunOptions& o) {
  s.option("--report", o.report, "The run's JUnit XML report").required();
  s.option("--output", o.output, "Where the merged report goes (default: over --report)");
  command_options(s, o.command_text, o.command, "Rerun command template with {tests} or {names}, and {junit} (default: pytest)");
  s.option("--max-failures", o.max_failures, "More failed tests than this is breakage: nothing is rerun")
      .range(0, 100000);
  s.option("--times", o.times, "Reruns of a test that keeps failing").range(1, 20);
  s.option("--junit-prefix", o.junit_prefix, "pytest's --junit-prefix, when the run used one");
  s.option("--work-dir", o.work_dir, "Folder for the rerun reports (default: the folder of --output)");
  s.option("--cwd", o.cwd, "Folder the rerun command runs in (default: here)");
  s.option("--timeout", o.timeout_s, "Seconds one rerun may take").range(1, 86400);
}

void configure_issues(gatekit::CliCommand& s, IssuesOptions& o) {
  s.option("--report", o.reports, "A JUnit XML report of the run (repeatable: every leg's)").required();
  static const std::map<std::string, RunKind> kinds = {
      {"pr", RunKind::pr}, {"main", RunKind::main}, {"daily", RunKind::daily}, {"stress", RunKind::stress}};
  s.option_function(
      "--kind", [&o](const std::string& name) { o.kind = kinds.at(name); },
      "The kind of run: pr, main, daily or stress (default: from GITHUB_EVENT_NAME: pull_request, "
      "pull_request_target and merge_group are pr, schedule is daily, any other event main)")
      .is_member({"pr", "main", "daily", "stress"});
  s.option("--repo", o.repo, "owner/name (default: GITHUB_REPOSITORY)");
  s.option("--label", o.label, "The label of flaky-test issues");
  s.option("--close-after-greens", o.close_after_greens, "Green main runs in a row that close an issue")
      .range(1, 1000);
  s.option("--close-after-absences", o.close_after_absences, "Daily runs in a row without the test that close it")
      .range(1, 1000);
  s.option("--run-key", o.run_key, "Unique per run: its legs count once (default: GITHUB_RUN_ID.GITHUB_RUN_ATTEMPT)");
  s.option("--scope", o.scope, "The suite the reports cover, e.g. cpu or gpu: daily absences count only within it");
  s.option("--run-url", o.run_url, "Link to the run (default: from GITHUB_SERVER_URL, GITHUB_REPOSITORY, GITHUB_RUN_ID)");
  s.option("--pending", o.pending, "Journal of flakes and comments not yet recorded, kept between runs");
  s.option("--creator", o.creators,
           "Login whose issues are adopted (repeatable; default: the token's account, github-actions[bot] for "
           "GITHUB_TOKEN)");
  s.option("--junit-prefix", o.junit_prefix, "pytest's --junit-prefix, when the run used one");
  s.option("--api-budget", o.api_budget_s, "Seconds all API calls may take together").range(1, 3600);
  s.option("--max-new-issues", o.max_new_issues,
           "Issues one run may open; the flakes of further new tests wait in --pending for later runs")
      .range(0, 1000);
}

void configure_stress(gatekit::CliCommand& s, StressOptions& o) {
  command_options(s, o.command_text, o.command, "Command template with {junit} (and {copy})");
  s.option("--times", o.times, "Copies of the run in all").range(1, 1000);
  s.option("--parallel", o.parallel, "Copies at a time").range(1, 64);
  s.option("--hog", o.hog, "Busy threads competing for the CPU meanwhile").range(0, 256);
  s.option("--output", o.output, "The merged report");
  s.option("--work-dir", o.work_dir, "Folder for the copies' reports (default: the folder of --output)");
  s.option("--junit-prefix", o.junit_prefix, "pytest's --junit-prefix, when the run used one");
  s.option("--cwd", o.cwd, "Folder the copies run in (default: here)");
  s.option("--timeout", o.timeout_s, "Seconds one copy may take").range(1, 86400);
}

}  // namespace

int flaky_tracker_main(int argc, const char* const* argv) {
  using gatekit::subcommand;
  const std::vector<gatekit::Subcommand> table = {
      subcommand<RerunOptions>("rerun", "Rerun the failed tests of a JUnit report alone and merge what happened",
                               configure_rerun, run_rerun, /*result_output=*/true),
      subcommand<IssuesOptions>("issues", "Keep one GitHub issue per flaky test, its state in the issue",
                                configure_issues, run_issues),
      subcommand<StressOptions>("stress", "Run the suite N times under load and report what flaked", configure_stress,
                                run_stress),
  };
  return gatekit::run_tool(
      {"flaky-tracker", "Reruns failed tests alone, tells flaky from broken, keeps one issue per flaky test."}, argc,
      argv, table, [](gatekit::CliCommand& app) {
        app.footer("Exit codes: 0 pass, 1 a test failed for real (rerun), 2 usage error, 3 could not evaluate "
                   "(docs/exit-codes.md). See docs/actions/flaky-tracker.md.");
      });
}
