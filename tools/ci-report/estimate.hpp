#pragma once
// The report's figures from the gathered history (pure: no Context, no I/O).
//
// Saved: a leg (a job other than the path gate) that is `skipped` in a run whose path gate
// succeeded was skipped because the gate said "not needed" -- unless the run is a fork's pull
// request, whose GPU legs skip for want of secrets and runners: those skips are counted apart
// (skipped_fork), never saved. It is costed at the median
// duration (started -> completed) of the last `samples` runs of the same leg on the same
// runner labels that ran to a success or failure (the window and the lookback before it),
// with the 25th and 75th percentiles as its spread. A skipped matrix job, whose name GitHub
// leaves unexpanded ("pytest (CPU, py${{ matrix.python }})"), costs the sum over the legs
// that expanded from it. A skipped leg whose skip has no estimate (it never ran in the
// history) is counted, never costed.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "history.hpp"

namespace gatekit::ci_report {

struct EstimateOptions {
  std::int64_t since = 0;  // window [since, until): runs created in it are reported
  std::int64_t until = 0;
  std::size_t samples = 20;
  std::string gate_job = "path gate";
  std::vector<std::string> required_jobs{"CPU tests", "GPU tests"};
};

// "hosted CPU", "hosted GPU", "self-hosted CPU", "self-hosted GPU" (a label containing "gpu",
// any case, makes it GPU), "unknown" without labels.
std::string runner_kind(const std::vector<std::string>& labels);

struct Spread {
  double median = 0;  // minutes
  double low = 0;     // 25th percentile
  double high = 0;    // 75th percentile
  std::size_t samples = 0;
};
// Nearest-rank percentiles of `values` (sorted here); all zero when empty.
Spread spread_of(std::vector<double> values);

struct LegSaved {
  std::string workflow, leg, labels, kind;
  std::size_t skips = 0;
  Spread each;                      // one skip's cost
  double minutes = 0, low = 0, high = 0;  // skips x each
  std::vector<double> per_week;     // minutes
};

struct LegSpent {
  std::string workflow, leg, labels, kind;
  std::size_t jobs = 0;
  double minutes = 0;
  std::size_t cancelled = 0;
  double cancelled_minutes = 0;
};

struct QueueStat {
  std::string labels, kind;
  std::size_t jobs = 0;
  double median_s = 0, p90_s = 0, max_s = 0;
};

// One test's flake rate in the window, from its flaky-test issue's hidden state (the runs it
// flaked in) and the runs in the history (the runs it ran in):
//   rate = flakes / runs, where
//   flakes = the runs created in the window that the state records as flaky for the test;
//   runs   = the runs created in the window, of the workflows the test flaked in (over the
//            state's whole list), in which a leg (a job other than the path gate and the
//            required checks) ran to a success or failure: the runs that ran the test's suite.
// The state keeps the last 30 runs applied to an issue; when that list is full and reaches
// back into the window (or its oldest entry is not a run in the history), older flakes in the
// window may have fallen off it: `at_least` says the rate is a lower bound.
struct FlakeRate {
  std::int64_t number = 0;
  std::string test, state;
  std::string workflows;  // comma-separated
  std::size_t flakes = 0, runs = 0;
  double rate = 0;  // flakes / runs (0 when runs is 0)
  bool at_least = false;
};

struct Week {
  std::int64_t start = 0;
  double saved = 0, saved_low = 0, saved_high = 0, spent = 0, cancelled = 0;
};

struct KindTotals {
  double saved = 0, saved_low = 0, saved_high = 0, spent = 0;
};

struct Report {
  std::int64_t since = 0, until = 0;
  std::size_t runs = 0, jobs = 0, lookback_runs = 0;
  std::vector<Week> weeks;
  std::vector<LegSaved> saved;  // most minutes first
  std::vector<LegSpent> spent;  // most minutes first
  std::vector<QueueStat> queues;  // longest median first
  std::map<std::string, KindTotals> kinds;
  double saved_minutes = 0, saved_low = 0, saved_high = 0, spent_minutes = 0, cancelled_minutes = 0;
  std::size_t skipped_by_gate = 0, skipped_unestimated = 0, skipped_other = 0;
  std::size_t skipped_fork = 0;  // legs skipped in a fork's pull request (Run::from_fork): never saved
  // Honesty checks.
  std::size_t gated_runs = 0, fail_open_runs = 0;
  double fail_open_minutes = 0;  // minutes of the legs that ran in fail-open runs
  std::size_t required_checks = 0, required_failed = 0, could_not_evaluate = 0;
  std::size_t flaky_opened = 0, flaky_closed = 0, flaky_open = 0;
  std::vector<FlakyIssue> flaky_longest_open;  // up to ten, oldest first
  std::size_t flaky_tests_flaked = 0;          // tests with a flake in the window
  std::vector<FlakeRate> flake_rates;          // the worst ten: highest rate, then most flakes, then id
  std::size_t gpu_gate_samples = 0, gpu_gate_pending = 0;
  Spread gpu_gate_latency;  // minutes
  double gpu_gate_p90 = 0, gpu_gate_max = 0;
  std::vector<std::string> gaps;  // a partial history's reasons
  std::int64_t requests = 0;
  std::int64_t requests_not_modified = 0;  // answered 304 from the --cache
};

// The path gate's word on a run: whether it has the gate's job (the last job named
// options.gate_job), whether that job succeeded, and whether it failed open (it succeeded,
// and the run carries its "fail-open:" annotation).
struct RunGate {
  bool found = false;
  bool ok = false;
  bool fail_open = false;
};
RunGate run_gate(const Run& run, const EstimateOptions& options);

// How estimate() counts one job of a run in the window (the rules at the top of this file).
enum class JobFate {
  gate,             // the path gate's own job: spent time, the cost of the savings
  skipped_fork,     // skipped in a fork's pull request: counted apart, never saved
  skipped_other,    // skipped while the gate did not succeed or failed open: not saved
  skipped_by_gate,  // skipped because the gate said "not needed": saved, at its cost when it has one
  spent,            // ran (a start and an end): spent minutes and queue time
  not_run,          // neither skipped nor run (no start time): not counted
};
JobFate job_fate(const Job& job, const Run& run, const RunGate& gate, const EstimateOptions& options);

// The figures: estimate() counts each run in the window (its gate, each job by its fate), then
// the gate's own jobs, the flaky-test issues and the gate/gpu latencies.
Report estimate(const History& history, const EstimateOptions& options);

}  // namespace gatekit::ci_report
