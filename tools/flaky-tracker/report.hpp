#pragma once
// A run's JUnit report as flaky-tracker sees it: every test case, in report order, with the
// attempts an in-process rerun plugin recorded folded into one case per test.
#include <optional>
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
// could_not_evaluate: a missing or broken report is never a pass, nor is one whose suites
// declare failures or errors its cases do not show, nor one in which two different cases
// share an id).
Result<Report> load_report(const Files& files, const std::string& path, const std::string& junit_prefix);

// The title of the ::error annotation for a report that is missing or unreadable (a test run
// that crashed before writing it): the run's page shows it, not only the log.
inline constexpr const char* kNoReportTitle = "flaky-tracker: no test report";

// A first look at a report, streamed through `files` in bounded memory whatever its size:
// whether anything in it needs a rerun or a merge. Most runs pass; they stop here. The cases
// come from the same read (`cases`, as read; finish_report folds them), unless they are more
// than `keep_bytes` in memory; only then is the report read again (load_report). Small, because
// every scan pays for it, the passing run too (the benchmark's peak memory stays flat from
// 10,000 to 1,000,000 cases; at 64 MiB it grew 4.7x and passed 64 MB).
inline constexpr std::size_t kScanWindow = 32768;
inline constexpr std::size_t kKeepBytes = std::size_t{4} << 20;
struct Scan {
  junit::ReadStats stats;
  std::size_t failed = 0;       // failed or erred cases
  bool needs_merge = false;     // failures, recorded attempts, or in-process reruns
  std::optional<std::vector<junit::TestCase>> cases;  // when they fit in keep_bytes
};
Result<Scan> scan_report(const Files& files, const std::string& path, const std::string& junit_prefix,
                         std::size_t keep_bytes = kKeepBytes);
// The cases of a report read whole, checked and folded as load_report does (`path` names it
// in errors).
Result<Report> finish_report(std::vector<junit::TestCase> cases, const junit::ReadStats& stats, const std::string& path);

// The report's cases, one per test (docs/junit.md, "The same id twice"). First each case is
// numbered (junit::Occurrences): in a family that writes no attempts as cases (Surefire and
// TestNG, jest-junit, CTest, every other), cases of one id are distinct tests, such as a
// TestNG data provider's invocations, and the k-th gets the id "ID #k". Then cases that still
// share an id, with the same suite, classname, name and file, are one test only in the
// shapes their runner writes:
// - pytest-rerunfailures: one <testcase> per attempt, the earlier attempts with no <failure>
//   or <error> (at most a <skipped>); the last one decides, and each earlier one counts as a
//   failed attempt (flaky_attempts when the test passed in the end, rerun_failures when not);
// - pytest itself: a test whose call failed and whose teardown then erred is written as a
//   case with the <failure> followed by a case with the <error> ("failed on teardown ..."):
//   one attempt, which erred;
// - gotestsum --rerun-fails: a package's failed runs first, each a case with its <failure>,
//   then the last run (passed, skipped, or failed once more): counted as pytest's are; a test
//   run again with the same result (`go test -count=N`) stays the case first written.
// Any other repeated id (pytest's or gotestsum's cases of one id in two suites, a mixin's
// method in two classes reported under one file, two cases of one test that both failed) is
// an Error (could not evaluate) naming the report, the id and both report lines: their
// results cannot be told apart, and merging them would let one's pass hide the other's
// failure. Pure.
Result<std::vector<junit::TestCase>> fold_in_process_reruns(std::vector<junit::TestCase> cases,
                                                            const std::string& origin);

// What one test did in a run, for the issue tracker.
enum class Observation { passed, flaky, failed, skipped, absent };
Observation observe(const junit::TestCase& test);

bool failed(const junit::TestCase& test);

}  // namespace gatekit::flaky_tracker
