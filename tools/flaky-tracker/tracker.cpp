#include "tracker.hpp"

#include <algorithm>

#include "summary.hpp"

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

// GitHub refuses the comment for good: the issue is gone (404, 410) or the comment is
// invalid (422). Anything else (5xx, no answer, a rate limit) may pass on a later run.
bool refused_for_good(const Error& error) {
  return error.http_status == 404 || error.http_status == 410 || error.http_status == 422;
}

// The issue's marker names the test (the issue is that test's).
bool tracks(const StoredIssue& issue, const std::string& id) {
  const auto marker = marker_id(issue.body);
  return marker && *marker == id;
}

}  // namespace

Tracker::Tracker(IssueStore& store, std::string label, Rules rules, std::vector<std::string> creators,
                 std::size_t max_new_issues)
    : store_(store), label_(std::move(label)), rules_(rules), creators_(std::move(creators)), max_new_(max_new_issues) {}

std::vector<Flake> Tracker::take_deferred() {
  std::vector<Flake> out;
  out.swap(deferred_);
  return out;
}

bool Tracker::was_deferred(const std::string& id) const {
  return std::find(deferred_ids_.begin(), deferred_ids_.end(), id) != deferred_ids_.end();
}

bool Tracker::adopted(const StoredIssue& issue) const {
  return !issue.author.empty() && std::find(creators_.begin(), creators_.end(), issue.author) != creators_.end();
}

void Tracker::post(std::int64_t number, const std::string& id, std::string body) {
  auto posted = store_.comment(number, body);
  if (posted) return;
  if (comment_error_.empty()) comment_error_ = posted.error().message;
  unposted_.push_back({number, id, std::move(body)});
}

std::string Tracker::refusal(const PendingComment& comment) const {
  const auto it = listed_.find(comment.issue);
  if (!loaded_ || it == listed_.end())
    return "no issue labelled '" + label_ + "' with a flaky-test marker has that number";
  if (!it->second.adopted)
    return "it was opened by '" + (it->second.author.empty() ? std::string("?") : shorten(it->second.author, 60)) +
           "', not by flaky-tracker's identity";
  if (it->second.id != comment.id) return "its marker names another test, " + shorten(it->second.id, 200);
  return "";
}

bool Tracker::leave_changed(const std::string& id, const StoredIssue& issue) {
  index_.erase(id);
  const bool known = std::any_of(changed_.begin(), changed_.end(),
                                 [&](const Changed& c) { return c.number == issue.number && c.id == id; });
  if (!known) changed_.push_back({issue.number, id, marker_id(issue.body).value_or(""), issue.url});
  return false;
}

void Tracker::keep_unposted(const std::vector<PendingComment>& comments) {
  unposted_.insert(unposted_.begin(), comments.begin(), comments.end());
}

Status Tracker::post_journalled(const std::vector<PendingComment>& comments) {
  for (std::size_t i = 0; i < comments.size(); ++i) {
    if (auto why = refusal(comments[i]); !why.empty()) {
      refused_.push_back({comments[i], std::move(why)});
      continue;
    }
    auto posted = store_.comment(comments[i].issue, comments[i].body);
    if (posted) continue;
    if (refused_for_good(posted.error())) {
      given_up_.push_back({comments[i], posted.error().message});
      continue;
    }
    unposted_.insert(unposted_.end(), comments.begin() + static_cast<std::ptrdiff_t>(i), comments.end());
    if (comment_error_.empty()) comment_error_ = posted.error().message;
    return posted.error();
  }
  return {};
}

Status Tracker::load() {
  auto issues = store_.list(label_);
  if (!issues) return issues.error();
  loaded_ = true;
  return reindex(*issues, true);
}

Status Tracker::reindex(const std::vector<StoredIssue>& issues, bool close_duplicates) {
  std::map<std::string, std::vector<StoredIssue>> by_id;
  listed_.clear();
  for (const auto& issue : issues) {
    auto id = marker_id(issue.body);
    if (!id) continue;
    listed_[issue.number] = {*id, issue.author, adopted(issue)};
    if (adopted(issue)) {
      by_id[*id].push_back(issue);
      continue;
    }
    const bool known = std::any_of(not_adopted_.begin(), not_adopted_.end(),
                                   [&](const NotAdopted& n) { return n.number == issue.number; });
    if (!known) not_adopted_.push_back({issue.number, *id, issue.author, issue.url});
  }
  for (auto& [id, group] : by_id) {
    std::sort(group.begin(), group.end(), [](const auto& a, const auto& b) { return a.number < b.number; });
    index_[id] = group.front();
    for (std::size_t i = 1; close_duplicates && i < group.size(); ++i) {
      // The same issue listed twice is not its own duplicate (the listing holds each issue
      // once; this keeps the one irreversible step safe whatever a store answers).
      if (group[i].state != "open" || group[i].number == group.front().number) continue;
      post(group[i].number, id, duplicate_comment(group.front().number));
      if (auto s = store_.update(group[i].number, std::nullopt, "closed"); !s) return s;
      changes_.push_back({id, group[i].number, group[i].url, "closed as a duplicate of #" + std::to_string(group.front().number)});
    }
  }
  return {};
}

Status Tracker::apply(const Batch& batch) {
  for (const auto& flake : batch.flakes) {
    if (index_.count(flake.id) == 0 && opened_ >= max_new_) {
      deferred_.push_back(flake);
      ++deferred_count_;
      if (!was_deferred(flake.id)) deferred_ids_.push_back(flake.id);
      continue;
    }
    if (auto s = apply_one(flake.id, Observation::flaky, &flake.text, batch.run); !s) return s;
  }
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
  ++opened_;  // counted against the bound even when it turns out to be a duplicate
  if (!adopted(*created)) {
    std::string names;
    for (const auto& c : creators_) names += (names.empty() ? "'" : ", '") + c + "'";
    return bad_input("issue #" + std::to_string(created->number) + " was opened as '" + created->author +
                     "', which is not among the creators whose issues flaky-tracker adopts (" + names +
                     "): it would not be found again; give --creator '" + created->author +
                     "' (the action's `creator` input)");
  }
  auto after = store_.list(label_);
  if (!after) return after.error();
  index_.erase(id);
  if (auto s = reindex(*after, false); !s) return s.error();
  const auto it = index_.find(id);
  if (it != index_.end() && it->second.number != created->number) {
    post(created->number, id, duplicate_comment(it->second.number));
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
  if (!tracks(*fresh, id)) return leave_changed(id, *fresh);
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
  if (!tracks(*check, id)) return leave_changed(id, *check);
  index_[id] = *check;
  if (!has_key(*check, run.key)) return false;
  if (action.comment && text) post(fresh->number, id, flake_comment(*text, run, action.move == IssueMove::reopen));
  if (action.move == IssueMove::close_green || action.move == IssueMove::close_absent)
    post(fresh->number, id, close_comment(action.move, rules_, run));
  changes_.push_back({id, fresh->number, fresh->url, describe(action, observation, rules_)});
  return true;
}

}  // namespace gatekit::flaky_tracker
