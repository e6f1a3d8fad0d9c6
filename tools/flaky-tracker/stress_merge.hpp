#pragma once
// The copies of a stress run folded into one report (pure): a test that failed in some
// copies and passed in others is flaky (a passed case with a <flakyFailure> per failed
// copy); one that failed in every copy that ran it is broken (its failure, and a
// <rerunFailure> per other failed copy).
#include <string>
#include <vector>

#include "gatekit/junit_reader.hpp"

namespace gatekit::flaky_tracker {

struct StressTest {
  std::string id;
  int failed = 0;  // copies in which it failed
  int ran = 0;     // copies in which it ran (not skipped)
};

struct StressResult {
  std::vector<junit::TestCase> cases;  // one per test, in first-seen order
  std::vector<StressTest> flaky;
  std::vector<StressTest> broken;
};

StressResult fold_copies(const std::vector<std::vector<junit::TestCase>>& copies);

}  // namespace gatekit::flaky_tracker
