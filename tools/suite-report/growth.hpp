#pragma once
// Suite growth: this run's tests against the last main run's, for the same configuration.
//
// A baseline is keyed by configuration (workflow file, job, Python version, the leg's
// selection expression): comparing a 3.12 job with a 3.11 baseline, or a daily selection with
// a pull request's, is how suite-size checks raise false alarms. Main runs store the baseline
// as a workflow artifact named after the key; the JSON inside also carries the key (checked
// on load) and the counts of recent main runs, for the chart.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "gatekit/result.hpp"

namespace gatekit {
class Files;
}

namespace gatekit::suite_report {

struct ConfigKey {
  std::string workflow;   // file name, e.g. cpu-tests.yml
  std::string job;        // job id
  std::string python;     // e.g. 3.12
  std::string selection;  // the leg's -m expression in this context
  bool operator==(const ConfigKey&) const = default;
  // "workflow=cpu-tests.yml job=tests python=3.12 selection=(not gpu) and not nightly"
  std::string text() const;
  // A workflow artifact name: readable parts and a hash of the whole key, e.g.
  // suite-baseline-cpu-tests-tests-py3.12-5f0c2a9b13
  std::string artifact_name() const;
};

struct HistoryPoint {
  std::string sha;
  std::string run_id;
  std::string date;  // ISO 8601 UTC
  std::size_t tests = 0;
  double seconds = 0;
};

// Test id -> seconds (a test reported twice adds up).
using Snapshot = std::unordered_map<std::string, double>;

struct Baseline {
  std::optional<ConfigKey> key;  // absent for a plain JUnit report
  std::vector<HistoryPoint> history;
  Snapshot tests;
  std::string source;  // the file, for messages
};

struct Thresholds {
  long tests = 100;
  double seconds = 60;
};

struct NewTest {
  std::string id;
  double seconds = 0;
};

struct GrowthResult {
  std::size_t base_tests = 0, tests = 0;
  double base_seconds = 0, seconds = 0;
  std::vector<NewTest> added;        // slowest first, then by id
  std::vector<std::string> removed;  // sorted
  double added_seconds = 0;
  bool notice = false;               // the thresholds were reached
};

double total_seconds(const Snapshot& snapshot);
GrowthResult compare(const Snapshot& base, const Snapshot& now, const Thresholds& thresholds);

// "adds 120 tests (1m 30s of test time)"; the notice's sentence.
std::string describe_growth(const GrowthResult& growth, const Thresholds& thresholds);

// ---- baselines on disk ---------------------------------------------------------------

// A JUnit report or a suite-baseline.json (told apart by the first character), read whole
// through `files` (at most 1 GiB). An Error when it cannot be read, or not as either.
Result<Baseline> read_baseline(const Files& files, const std::string& path);
// This run's JUnit report, streamed from the file (the core reader keeps memory bounded).
Result<Snapshot> read_report_snapshot(const std::string& path, const std::string& junit_prefix);

inline constexpr std::size_t kHistoryLimit = 30;
// This run as the next baseline: the previous history (when its key matches) plus this run,
// at most kHistoryLimit points.
std::string baseline_json(const ConfigKey& key, const std::vector<HistoryPoint>& history, const Snapshot& tests);

// The mermaid charts of the history (tests and minutes per main run, this run last).
std::string history_charts(const std::vector<HistoryPoint>& history, const HistoryPoint& now);

}  // namespace gatekit::suite_report
