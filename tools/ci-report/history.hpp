#pragma once
// What ci-report reads: runs, their jobs, flaky issues and gate/gpu statuses, as plain data
// (times in seconds since the epoch, 0 when unknown). gather.cpp fills it from the API,
// history_json.cpp from and to a file.
#include <cstdint>
#include <string>
#include <vector>

namespace gatekit::ci_report {

struct Job {
  std::int64_t id = 0;
  std::string name;
  std::string conclusion;  // success|failure|cancelled|skipped|... ("" while unfinished)
  std::vector<std::string> labels;
  std::string runner_name;
  std::int64_t created = 0;    // queued
  std::int64_t started = 0;
  std::int64_t completed = 0;
  bool could_not_evaluate = false;  // a required check whose annotation says "could not evaluate"
};

struct Run {
  std::int64_t id = 0;
  std::string workflow;  // the workflow file, e.g. gpu-tests.yml
  std::string event;
  std::string head_sha;
  std::string conclusion;
  std::int64_t created = 0;
  bool gate_failed_open = false;  // the path gate's job carries a "fail-open:" annotation
  std::vector<Job> jobs;
  // A fork's pull request: the head repository is not the run's repository (or GitHub names
  // none, as for a deleted fork). Its GPU legs skip for want of secrets and runners, not
  // because the path gate said so.
  bool from_fork = false;
};

struct FlakyIssue {
  std::int64_t number = 0;
  std::string title;
  std::string state;  // open|closed
  std::int64_t created = 0;
  std::int64_t closed = 0;
  // From flaky-tracker's hidden state in the body (gatekit/flaky_issue.hpp); empty/0 when the
  // issue has none (not written by gatekit, or unreadable).
  std::string test;                      // the test id (the marker)
  std::int64_t flakes = 0;               // flakes recorded in all
  std::vector<std::int64_t> flake_runs;  // the Actions runs of the flakes still in the state's
                                         // bounded list of runs applied, oldest first
  bool runs_cut = false;                 // that list is full: older runs fell off it
  std::int64_t oldest_run = 0;           // then: the oldest run still in it (0: not a run id)
};

// A pull request's head commit: when its first run was created (the push) and when the
// gpu-gate status turned success (0: not yet).
struct GpuGateSample {
  std::string sha;
  std::int64_t pushed = 0;
  std::int64_t success = 0;
};

struct History {
  std::vector<Run> runs;
  std::vector<FlakyIssue> flaky;
  std::vector<GpuGateSample> gpu_gate;
  std::vector<std::string> gaps;  // why the history is partial; empty when complete
  std::int64_t requests = 0;      // API requests made
  std::int64_t not_modified = 0;  // of them, 304s answered from the --cache (free of the rate limit)
};

}  // namespace gatekit::ci_report
