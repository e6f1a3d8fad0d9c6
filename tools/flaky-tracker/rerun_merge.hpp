#pragma once
// What the reruns showed, and the merged report that records it (pure).
#include <map>
#include <string>
#include <vector>

#include "gatekit/exit_code.hpp"
#include "gatekit/junit_reader.hpp"
#include "gatekit/junit_rewrite.hpp"
#include "gatekit/junit_writer.hpp"
#include "rerun_plan.hpp"

namespace gatekit::flaky_tracker {

// The reruns of one target test.
struct TargetHistory {
  std::vector<JunitAttempt> failed_attempts;  // reruns that did not pass, in order
  int passed_on = 0;                          // the rerun (1..N) it passed on; 0: never
};
using Histories = std::map<std::string, TargetHistory>;  // by test id

struct FlakyTest {
  std::string id;
  std::string how;      // "failed, then passed on rerun 1 of 2"
  std::string message;  // the first failure's message
  std::string file;
  int line = 0;
};

struct FailedTest {
  std::string id;
  std::string reason;
  std::string file;
  int line = 0;
};

struct RerunVerdict {
  std::vector<FlakyTest> flaky;    // passed on rerun, or already rerun to a pass inside the report
  std::vector<FailedTest> failed;  // failed again, not rerun, or broken
  ExitCode code = ExitCode::pass;  // pass: no failure stands; verdict_fail otherwise
};

RerunVerdict decide_verdict(const std::vector<junit::TestCase>& cases, const RerunPlan& plan,
                            const Histories& histories, int times);

// How the merged report records the reruns, the way Surefire does (junit::rewrite writes
// them into the report as it was, changing nothing else): a test that passed on rerun passes,
// its failure and each failed rerun a <flakyFailure>; one that kept failing keeps its
// <failure> and gains a <rerunFailure> per rerun. One edit per rerun test, at its case in the
// report (the last of its attempts, which decides it).
std::vector<junit::CaseEdit> merge_edits(const std::vector<junit::TestCase>& cases, const Histories& histories);

}  // namespace gatekit::flaky_tracker
