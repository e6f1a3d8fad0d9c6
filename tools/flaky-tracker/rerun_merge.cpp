#include "rerun_merge.hpp"

#include <unordered_map>

#include "report.hpp"

namespace gatekit::flaky_tracker {

namespace {

std::string last_message(const TargetHistory& h, const junit::TestCase& c) {
  for (auto it = h.failed_attempts.rbegin(); it != h.failed_attempts.rend(); ++it)
    if (!it->message.empty()) return it->message;
  return c.message;
}

std::string plural(std::size_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// The attempts the report already recorded (Surefire, or folded pytest-rerunfailures cases):
// the reader keeps the text of the first flaky one only.
std::vector<JunitAttempt> recorded_attempts(const junit::TestCase& c) {
  std::vector<JunitAttempt> out;
  for (int i = 0; i < c.flaky_attempts; ++i)
    out.push_back(i == 0 ? JunitAttempt{false, c.message, c.type, c.detail} : JunitAttempt{false, "failed (an earlier attempt)"});
  for (int i = 0; i < c.rerun_failures; ++i) out.push_back({false, "failed again (an earlier rerun)"});
  return out;
}

JunitCase merged_case(const junit::TestCase& c, const TargetHistory* history) {
  JunitCase j{c.classname, c.name, c.time_s, c.outcome, c.message, c.type, c.detail, c.system_out, c.file, c.line,
              recorded_attempts(c)};
  if (c.outcome == JunitOutcome::passed) j.message = j.type = j.detail = "";
  if (history == nullptr) return j;
  if (history->passed_on > 0) {
    j.attempts.push_back({c.outcome == JunitOutcome::error, c.message, c.type, c.detail});
    j.outcome = JunitOutcome::passed;
    j.message = j.type = j.detail = "";
  }
  j.attempts.insert(j.attempts.end(), history->failed_attempts.begin(), history->failed_attempts.end());
  return j;
}

}  // namespace

RerunVerdict decide_verdict(const std::vector<junit::TestCase>& cases, const RerunPlan& plan,
                            const Histories& histories, int times) {
  std::unordered_map<std::string, std::string> not_rerun;
  for (const auto& n : plan.not_rerun) not_rerun.emplace(n.id, n.reason);
  RerunVerdict verdict;
  for (const auto& c : cases) {
    const std::string id = c.id();
    if (auto h = histories.find(id); h != histories.end()) {
      if (h->second.passed_on > 0)
        verdict.flaky.push_back({id, "failed, then passed on rerun " + std::to_string(h->second.passed_on) + " of " +
                                         std::to_string(times), c.message, c.file, c.line});
      else
        verdict.failed.push_back({id, "failed again on " + plural(h->second.failed_attempts.size(), "rerun") + ": " +
                                          last_message(h->second, c), c.file, c.line});
    } else if (failed(c)) {
      auto n = not_rerun.find(id);
      std::string reason = !plan.broken.empty() ? plan.broken : n != not_rerun.end() ? n->second : "failed";
      if (!c.message.empty()) reason += ": " + c.message;
      verdict.failed.push_back({id, reason, c.file, c.line});
    } else if (c.outcome == JunitOutcome::passed && c.flaky_attempts > 0) {
      verdict.flaky.push_back({id, "failed, then passed after " + plural(static_cast<std::size_t>(c.flaky_attempts), "earlier attempt") +
                                       " recorded in the report", c.message, c.file, c.line});
    }
  }
  verdict.code = verdict.failed.empty() ? ExitCode::pass : ExitCode::verdict_fail;
  return verdict;
}

std::vector<JunitSuite> merge_reruns(const std::vector<junit::TestCase>& cases, const Histories& histories) {
  std::vector<JunitSuite> suites;
  std::unordered_map<std::string, std::size_t> index;
  for (const auto& c : cases) {
    auto [it, inserted] = index.emplace(c.suite, suites.size());
    if (inserted) suites.push_back(JunitSuite{c.suite});
    JunitSuite& suite = suites[it->second];
    auto h = histories.find(c.id());
    suite.cases.push_back(merged_case(c, h == histories.end() ? nullptr : &h->second));
    suite.time_s += c.time_s;
  }
  return suites;
}

}  // namespace gatekit::flaky_tracker
