#pragma once
// A run's JUnit report as flaky-tracker sees it: every test case, in report order, with the
// attempts an in-process rerun plugin recorded folded into one case per test.
#include <string>
#include <vector>

#include "gatekit/files.hpp"
#include "gatekit/junit_reader.hpp"
#include "gatekit/result.hpp"

namespace gatekit::flaky_tracker {

struct Report {
  std::vector<junit::TestCase> cases;
  junit::ReadStats stats;
};

// Reads the report through `files` (the path is named in every error; the kind is
// could_not_evaluate: a missing or broken report is never a pass).
Result<Report> load_report(const Files& files, const std::string& path, const std::string& junit_prefix);

// A first look at a report, streamed from disk with bounded memory whatever its size (the
// Files seam reads whole files): whether anything in it needs a rerun or a merge. Most runs
// pass; they stop here.
struct Scan {
  junit::ReadStats stats;
  std::size_t failed = 0;       // failed or erred cases
  bool needs_merge = false;     // failures, recorded attempts, or in-process reruns
};
Result<Scan> scan_report(const std::string& path, const std::string& junit_prefix);

// pytest-rerunfailures writes one <testcase> per attempt of a rerun test, the failed ones
// without any failure element. Cases of a pytest report (those with a node id) that share an
// id are folded into the last one, which decides; each earlier one counts as a failed attempt
// (flaky_attempts when the test passed in the end, rerun_failures when it did not). Pure.
std::vector<junit::TestCase> fold_in_process_reruns(std::vector<junit::TestCase> cases);

// What one test did in a run, for the issue tracker.
enum class Observation { passed, flaky, failed, skipped, absent };
Observation observe(const junit::TestCase& test);

bool failed(const junit::TestCase& test);

}  // namespace gatekit::flaky_tracker
