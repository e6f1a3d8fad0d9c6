#pragma once
// The copies of a stress run folded into one report (pure): a test that failed in some
// copies and passed in others is flaky (a passed case with a <flakyFailure> per failed
// copy); one that failed in every copy that ran it is broken (its failure, and a
// <rerunFailure> per other failed copy).
#include <string>
#include <unordered_map>
#include <vector>

#include "gatekit/junit_reader.hpp"
#include "gatekit/junit_writer.hpp"

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

// The fold, one copy at a time, as the copies end: it keeps one case per test (the first that
// failed, else the last), never a copy's cases, so memory grows with the tests of the suite,
// not with the copies.
class StressFold {
 public:
  // One copy's cases (as a report is read: attempts folded, one case per test).
  void add(const std::vector<junit::TestCase>& copy);
  // The result; the fold is left empty.
  StressResult finish();
  std::size_t tests() const { return tallies_.size(); }

 private:
  struct Tally {
    junit::TestCase kept;  // the first case that failed, else the last one
    int failed = 0, passed = 0;
  };
  std::vector<Tally> tallies_;  // in first-seen order
  std::unordered_map<std::string, std::size_t> index_;  // id -> tallies_
};

StressResult fold_copies(const std::vector<std::vector<junit::TestCase>>& copies);

// The stress report: one suite per suite name, in first-seen order, each test as folded.
std::vector<JunitSuite> stress_report(const std::vector<junit::TestCase>& cases);

}  // namespace gatekit::flaky_tracker
