#include "issue_state.hpp"

#include <algorithm>

namespace gatekit::flaky_tracker {

namespace {

bool has(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

bool applied(const IssueState& s, const std::string& key, Observation observation) {
  return has(s.applied, key + "!") || (observation != Observation::flaky && has(s.applied, key));
}

bool covers(const IssueState& s, const RunStamp& run) {
  return run.scope.empty() || s.scopes.empty() || has(s.scopes, run.scope);
}

IssueAction changed(IssueState next, const RunStamp& run, bool flake = false) {
  next.last_run = run.url;
  next.applied.push_back(run.key + (flake ? "!" : ""));
  if (next.applied.size() > kMaxApplied) next.applied.erase(next.applied.begin());
  return IssueAction{true, false, IssueMove::keep, std::move(next)};
}

IssueAction on_flake(const IssueState& state, bool open, const RunStamp& run) {
  IssueState next = state;
  ++next.flakes;
  next.greens = next.absences = 0;
  next.last_flake = run.time;
  if (next.first_seen.empty()) next.first_seen = run.time;
  if (!run.scope.empty() && !has(next.scopes, run.scope) && next.scopes.size() < kMaxScopes)
    next.scopes.push_back(run.scope);
  IssueAction action = changed(std::move(next), run, true);
  action.comment = true;
  action.move = open ? IssueMove::keep : IssueMove::reopen;
  return action;
}

IssueAction on_other(const IssueState& state, bool open, Observation observation, const RunStamp& run,
                     const Rules& rules) {
  if (!open) return {false, false, IssueMove::keep, state};
  IssueState next = state;
  if (observation != Observation::absent) next.absences = 0;
  if (observation == Observation::passed && run.kind == RunKind::main) ++next.greens;
  if (observation == Observation::failed) next.greens = 0;
  if (observation == Observation::absent && run.kind == RunKind::daily && covers(state, run)) ++next.absences;
  if (next == state) return {false, false, IssueMove::keep, state};
  IssueAction action = changed(std::move(next), run);
  if (action.next.greens >= rules.close_after_greens) action.move = IssueMove::close_green;
  if (action.next.absences >= rules.close_after_absences) action.move = IssueMove::close_absent;
  return action;
}

}  // namespace

IssueAction update_issue_state(const IssueState& state, bool open, Observation observation, const RunStamp& run,
                               const Rules& rules) {
  if (applied(state, run.key, observation)) return {false, false, IssueMove::keep, state};
  if (observation == Observation::flaky) return on_flake(state, open, run);
  return on_other(state, open, observation, run, rules);
}

std::string_view to_string(RunKind kind) {
  switch (kind) {
    case RunKind::pr: return "pr";
    case RunKind::main: return "main";
    case RunKind::daily: return "daily";
    case RunKind::stress: return "stress";
  }
  return "pr";
}

}  // namespace gatekit::flaky_tracker
