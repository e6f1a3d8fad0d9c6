#pragma once
// Reruns failed tests alone, tells flaky from broken, keeps one issue per flaky test.
//
//   rerun   read a run's JUnit report; rerun its failures alone; merge the attempts into the
//           report (Surefire's flakyFailure/rerunFailure); exit 0 when every failure passed
//           on rerun (a warning per flaky test), 1 when any failed again.
//   issues  keep one GitHub issue per flaky test, state in the issue; close it after enough
//           green main runs, or when daily runs no longer have the test. API failures leave the
//           verdict alone (exit 0 with a warning) and are caught up by the next run.
//   stress  run the suite N times under load and write one report of what flaked; never fails.
// See docs/actions/flaky-tracker.md.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/context.hpp"
#include "gatekit/exit_code.hpp"

int flaky_tracker_main(int argc, const char* const* argv);

namespace gatekit::flaky_tracker {

struct RerunOptions {
  std::string report;                // --report: the run's JUnit XML
  std::string output;                // --output: the merged report (default: --report, in place)
  std::string command_text;          // --command TEMPLATE, split into words at spaces
  std::vector<std::string> command;  // or the command's words after `--` (neither: pytest)
  int max_failures = 20;             // --max-failures K: more means broken, no rerun
  int times = 1;                     // --times N: reruns of a test that keeps failing
  std::string junit_prefix;          // --junit-prefix: pytest's, when the run used one
  std::string work_dir;              // --work-dir: where the rerun reports go (default: next to --output)
  std::string cwd;                   // --cwd: where the rerun command runs (default: here)
  int timeout_s = 3600;              // --timeout: seconds one rerun may take
};

enum class RunKind { pr, main, daily, stress };

struct IssuesOptions {
  std::vector<std::string> reports;  // --report (repeatable: every report of the run)
  std::optional<RunKind> kind;       // --kind (default: from GITHUB_EVENT_NAME, run_kind_of_event)
  std::string repo;                  // --repo (default GITHUB_REPOSITORY)
  std::string label = "flaky";       // --label
  int close_after_greens = 20;       // --close-after-greens
  int close_after_absences = 5;      // --close-after-absences
  std::string run_key;               // --run-key (default GITHUB_RUN_ID.GITHUB_RUN_ATTEMPT)
  std::string scope;                 // --scope: the suite the reports cover (absences count within it)
  std::string run_url;               // --run-url (default from GITHUB_SERVER_URL/REPOSITORY/RUN_ID)
  std::string pending;               // --pending FILE: flakes and comments not yet recorded (kept between runs)
  std::vector<std::string> creators; // --creator LOGIN (repeatable): whose issues are adopted (default: the token's)
  std::string junit_prefix;          // --junit-prefix
  int api_budget_s = 120;            // --api-budget
  int max_new_issues = 10;           // --max-new-issues: issues one run may open; the other flakes wait in --pending
};

struct StressOptions {
  std::string command_text;          // --command TEMPLATE ({junit} and {copy} placeholders)
  std::vector<std::string> command;  // or the command's words after `--` (one of them is required)
  int times = 10;                    // --times N copies in all
  int parallel = 1;                  // --parallel P copies at a time
  int hog = 0;                       // --hog T busy threads while the copies run
  std::string output = "stress.xml"; // --output: the merged report
  std::string work_dir;              // --work-dir: per-copy folders (default: next to --output)
  std::string junit_prefix;          // --junit-prefix
  std::string cwd;                   // --cwd: where the copies run (default: here)
  int timeout_s = 3600;              // --timeout per copy
};

// The kind of run a workflow event makes: pull_request, pull_request_target and merge_group
// are pr, schedule is daily, any other event (push, workflow_dispatch, none) is main.
RunKind run_kind_of_event(std::string_view event_name);

ExitCode run_rerun(const RerunOptions& options, Context& context);
ExitCode run_issues(const IssuesOptions& options, Context& context);
ExitCode run_stress(const StressOptions& options, Context& context);

}  // namespace gatekit::flaky_tracker
