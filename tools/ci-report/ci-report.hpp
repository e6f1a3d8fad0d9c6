#pragma once
// ci-report: what the gates saved and what CI spent over a window (docs/ci-report.md). One
// subcommand, report.cpp; the figures come from the pure estimate() (estimate.hpp) over the
// runs and jobs that gather.cpp reads through the GitHub client (or --history reads from a file).
#include <cstdint>
#include <string>
#include <vector>

#include "gatekit/context.hpp"
#include "gatekit/exit_code.hpp"

int ci_report_main(int argc, const char* const* argv);

namespace gatekit::ci_report {

struct Options {
  std::string repo;                        // --repo, else GITHUB_REPOSITORY
  std::vector<std::string> workflows;      // --workflow (files); empty: cpu-tests.yml and gpu-tests.yml
  std::string since;                       // --since YYYY-MM-DD or UTC time; default until - 7 days
  std::string until;                       // --until; default now
  int lookback_days = 14;                  // runs before --since read for the medians only
  int samples = 20;                        // the last N runs of a leg on a label make its median
  std::string gate_job = "path gate";      // the path gate's job name in the templates
  std::vector<std::string> required_jobs;  // --required-job; empty: "CPU tests" and "GPU tests"
  std::string gpu_context = "gate/gpu";    // the commit status gpu-gate posts
  std::string flaky_label = "flaky";
  // --flaky-creator: whose flaky-test issues' hidden state is read for the flake rates (as
  // flaky-tracker adopts only the issues its own account opened); empty: github-actions[bot].
  std::vector<std::string> flaky_creators;
  std::string json_file;                   // --json FILE
  std::string csv_file;                    // --csv FILE
  std::string markdown_file;               // --markdown FILE (a discussion post)
  std::string history_file;                // --history FILE: read gathered data, no API
  std::string save_history;                // --save-history FILE: write what was gathered
  std::string cache_file;                  // --cache FILE: conditional requests' answers, kept between runs
  int api_budget_s = 600;                  // total time for every API call together
};

// Exit 0: a complete report; 3: a partial one (the API failed or its budget ran out; the
// report says so and what is missing); 2: bad options or a bad --history file.
ExitCode run_report(const Options& options, Context& context);

}  // namespace gatekit::ci_report
