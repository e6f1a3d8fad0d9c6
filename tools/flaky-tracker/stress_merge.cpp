#include "stress_merge.hpp"

#include "report.hpp"

namespace gatekit::flaky_tracker {

namespace {

bool failed_in_copy(const junit::TestCase& c) { return failed(c) || c.flaky_attempts > 0; }

junit::TestCase folded(junit::TestCase c, int failed_copies, int passed_copies) {
  if (failed_copies == 0) return c;
  if (passed_copies > 0) {  // flaky: it passed in the end, its failures are attempts
    c.outcome = JunitOutcome::passed;
    c.flaky_attempts = failed_copies;
    c.rerun_failures = 0;
  } else {
    c.flaky_attempts = 0;
    c.rerun_failures = failed_copies - 1;
  }
  return c;
}

// The attempts a folded case records: the reader keeps the text of the first flaky one only.
std::vector<JunitAttempt> recorded_attempts(const junit::TestCase& c) {
  std::vector<JunitAttempt> out;
  for (int i = 0; i < c.flaky_attempts; ++i)
    out.push_back(i == 0 ? JunitAttempt{false, c.message, c.type, c.detail} : JunitAttempt{false, "failed (an earlier attempt)"});
  for (int i = 0; i < c.rerun_failures; ++i) out.push_back({false, "failed again (an earlier rerun)"});
  return out;
}

JunitCase written_case(const junit::TestCase& c) {
  JunitCase j{c.classname, c.name, c.time_s, c.outcome, c.message, c.type, c.detail, c.system_out, c.file, c.line,
              recorded_attempts(c)};
  if (c.outcome == JunitOutcome::passed) j.message = j.type = j.detail = "";
  return j;
}

}  // namespace

void StressFold::add(const std::vector<junit::TestCase>& copy) {
  std::string scratch;
  for (const auto& c : copy) {
    const auto [it, inserted] = index_.try_emplace(std::string(c.id(scratch)), tallies_.size());
    if (inserted) tallies_.emplace_back();
    Tally& t = tallies_[it->second];
    const bool fail = failed_in_copy(c);
    if (!fail && t.failed == 0) t.kept = c;  // the last, until one fails
    if (fail && t.failed++ == 0) t.kept = c;
    if (c.outcome == JunitOutcome::passed && c.flaky_attempts == 0) ++t.passed;
  }
}

StressResult StressFold::finish() {
  StressResult result;
  std::vector<std::string> ids(tallies_.size());
  for (auto& [id, at] : index_) ids[at] = id;
  result.cases.reserve(tallies_.size());
  for (std::size_t i = 0; i < tallies_.size(); ++i) {
    Tally& t = tallies_[i];
    result.cases.push_back(folded(std::move(t.kept), t.failed, t.passed));
    if (t.failed == 0) continue;
    (t.passed > 0 ? result.flaky : result.broken).push_back({ids[i], t.failed, t.failed + t.passed});
  }
  tallies_.clear();
  index_.clear();
  return result;
}

StressResult fold_copies(const std::vector<std::vector<junit::TestCase>>& copies) {
  StressFold fold;
  for (const auto& copy : copies) fold.add(copy);
  return fold.finish();
}

std::vector<JunitSuite> stress_report(const std::vector<junit::TestCase>& cases) {
  std::vector<JunitSuite> suites;
  std::unordered_map<std::string, std::size_t> index;
  for (const auto& c : cases) {
    auto [it, inserted] = index.emplace(c.suite, suites.size());
    if (inserted) suites.push_back(JunitSuite{c.suite});
    JunitSuite& suite = suites[it->second];
    suite.cases.push_back(written_case(c));
    suite.time_s += c.time_s;
  }
  return suites;
}

}  // namespace gatekit::flaky_tracker
