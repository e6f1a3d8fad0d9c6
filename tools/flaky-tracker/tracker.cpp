#include "tracker.hpp"

#include <algorithm>

namespace gatekit::flaky_tracker {

namespace {

constexpr int kTries = 3;

bool has_key(const StoredIssue& issue, const std::string& key) {
  auto state = parse_state(issue.body);
  return state && (std::find(state->applied.begin(), state->applied.end(), key) != state->applied.end() ||
                   std::find(state->applied.begin(), state->applied.end(), key + "!") != state->applied.end());
}

// A body whose state line is missing or damaged (edited by hand) starts from zero.
IssueState state_of(const StoredIssue& issue) {
  auto state = parse_state(issue.body);
  return state ? *state : IssueState{};
}

std::optional<std::string> new_state(IssueMove move) {
  if (move == IssueMove::reopen) return "open";
  if (move == IssueMove::close_green || move == IssueMove::close_absent) return "closed";
  return std::nullopt;
}

std::string describe(const IssueAction& a, Observation o, const Rules& rules) {
  switch (a.move) {
    case IssueMove::reopen: return "reopened (flaked again)";
    case IssueMove::close_green: return "closed: " + std::to_string(rules.close_after_greens) + " green main runs in a row";
    case IssueMove::close_absent: return "closed: the test no longer exists";
    case IssueMove::keep: break;
  }
  if (a.comment) return "flaked again (comment)";
  if (o == Observation::failed) return "failed: greens back to 0";
  if (a.next.absences > 0) return "absent " + std::to_string(a.next.absences) + " of " + std::to_string(rules.close_after_absences);
  return "green " + std::to_string(a.next.greens) + " of " + std::to_string(rules.close_after_greens);
}

}  // namespace

Tracker::Tracker(IssueStore& store, std::string label, Rules rules)
    : store_(store), label_(std::move(label)), rules_(rules) {}

Status Tracker::load() {
  auto issues = store_.list(label_);
  if (!issues) return issues.error();
  return reindex(*issues, true);
}

Status Tracker::reindex(const std::vector<StoredIssue>& issues, bool close_duplicates) {
  std::map<std::string, std::vector<StoredIssue>> by_id;
  for (const auto& issue : issues)
    if (auto id = marker_id(issue.body)) by_id[*id].push_back(issue);
  for (auto& [id, group] : by_id) {
    std::sort(group.begin(), group.end(), [](const auto& a, const auto& b) { return a.number < b.number; });
    index_[id] = group.front();
    for (std::size_t i = 1; close_duplicates && i < group.size(); ++i) {
      if (group[i].state != "open") continue;
      if (auto s = store_.comment(group[i].number, duplicate_comment(group.front().number)); !s) return s;
      if (auto s = store_.update(group[i].number, std::nullopt, "closed"); !s) return s;
      changes_.push_back({id, group[i].number, group[i].url, "closed as a duplicate of #" + std::to_string(group.front().number)});
    }
  }
  return {};
}

Status Tracker::apply(const Batch& batch) {
  for (const auto& flake : batch.flakes)
    if (auto s = apply_one(flake.id, Observation::flaky, &flake.text, batch.run); !s) return s;
  if (!batch.complete) return {};
  std::vector<std::string> tracked;
  for (const auto& [id, issue] : index_) tracked.push_back(id);
  for (const auto& id : tracked) {
    auto seen = batch.seen.find(id);
    const Observation o = seen == batch.seen.end() ? Observation::absent : seen->second;
    if (o == Observation::flaky) continue;  // applied above
    if (auto s = apply_one(id, o, nullptr, batch.run); !s) return s;
  }
  return {};
}

Status Tracker::apply_one(const std::string& id, Observation observation, const FlakeText* text, const RunStamp& run) {
  for (int attempt = 0; attempt < kTries; ++attempt) {
    Result<bool> done = index_.count(id) ? write_state(id, observation, text, run)
                        : observation == Observation::flaky ? open_issue(id, text, run)
                                                            : Result<bool>(true);
    if (!done) return done.error();
    if (*done) return {};
  }
  return could_not_evaluate("the issue of " + id + " kept changing under other runs; gave up after " +
                            std::to_string(kTries) + " tries");
}

Result<bool> Tracker::open_issue(const std::string& id, const FlakeText* text, const RunStamp& run) {
  auto before = store_.list(label_);  // re-read: another run may have opened it meanwhile
  if (!before) return before.error();
  if (auto s = reindex(*before, false); !s) return s.error();
  if (index_.count(id)) return false;
  const IssueAction action = update_issue_state(IssueState{}, true, Observation::flaky, run, rules_);
  const std::string section = text ? failure_section(*text, run.url, kMaxBodyBytes / 2) : "";
  auto created = store_.create(issue_title(id), issue_body(id, action.next, rules_, section), label_);
  if (!created) return created.error();
  auto after = store_.list(label_);
  if (!after) return after.error();
  index_.erase(id);
  if (auto s = reindex(*after, false); !s) return s.error();
  const auto it = index_.find(id);
  if (it != index_.end() && it->second.number != created->number) {
    if (auto s = store_.comment(created->number, duplicate_comment(it->second.number)); !s) return s.error();
    if (auto s = store_.update(created->number, std::nullopt, "closed"); !s) return s.error();
    return false;  // apply this run to the lower number
  }
  index_[id] = *created;
  changes_.push_back({id, created->number, created->url, "opened"});
  return true;
}

Result<bool> Tracker::write_state(const std::string& id, Observation observation, const FlakeText* text,
                                  const RunStamp& run) {
  const StoredIssue& listed = index_.at(id);
  const IssueState listed_state = state_of(listed);
  if (!update_issue_state(listed_state, listed.state == "open", observation, run, rules_).write) return true;
  auto fresh = store_.get(listed.number);  // re-read before write
  if (!fresh) return fresh.error();
  const IssueAction action =
      update_issue_state(state_of(*fresh), fresh->state == "open", observation, run, rules_);
  if (!action.write) {
    index_[id] = *fresh;
    return true;
  }
  const std::string section = text ? failure_section(*text, run.url, kMaxBodyBytes / 2) : failure_section_of(fresh->body);
  if (auto s = store_.update(fresh->number, issue_body(id, action.next, rules_, section), new_state(action.move)); !s)
    return s.error();
  auto check = store_.get(fresh->number);  // did it stick, or did another run write over it?
  if (!check) return check.error();
  index_[id] = *check;
  if (!has_key(*check, run.key)) return false;
  if (action.comment && text) {
    if (auto s = store_.comment(fresh->number, flake_comment(*text, run, action.move == IssueMove::reopen)); !s)
      return s.error();
  }
  if (action.move == IssueMove::close_green || action.move == IssueMove::close_absent) {
    if (auto s = store_.comment(fresh->number, close_comment(action.move, rules_, run)); !s) return s.error();
  }
  changes_.push_back({id, fresh->number, fresh->url, describe(action, observation, rules_)});
  return true;
}

}  // namespace gatekit::flaky_tracker
