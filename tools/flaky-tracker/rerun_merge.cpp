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

std::vector<junit::CaseEdit> merge_edits(const std::vector<junit::TestCase>& cases, const Histories& histories) {
  std::vector<junit::CaseEdit> edits;
  if (histories.empty()) return edits;
  std::string scratch;
  for (const auto& c : cases) {
    const auto h = histories.find(std::string(c.id(scratch)));
    if (h == histories.end()) continue;
    edits.push_back({c.byte_offset, std::string(c.base_id(scratch)), h->second.passed_on > 0, h->second.failed_attempts});
  }
  return edits;
}

}  // namespace gatekit::flaky_tracker
