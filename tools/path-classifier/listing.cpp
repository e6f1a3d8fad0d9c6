#include "listing.hpp"

#include <chrono>
#include <iterator>
#include <string>
#include <utility>

#include "gatekit/files.hpp"
#include "gatekit/git.hpp"
#include "gatekit/github.hpp"
#include "gatekit/run_info.hpp"

namespace gatekit::path_classifier {
namespace {

ChangeListing failed(std::string source, std::string cause) {
  ChangeListing l;
  l.source = std::move(source);
  l.fail_open = std::move(cause);
  return l;
}

// --files FILE or '-': the list is the user's own input, so an unreadable file is bad input.
ChangeListing list_from_files(const Options& o, Context& ctx) {
  if (o.files == "-")
    return make_list_source(value_or_throw(as_bad_input(read_stream(ctx.in, "stdin"))), "the list on stdin")->list();
  auto text = value_or_throw(as_bad_input(ctx.files.read(o.files)));
  return make_list_source(std::move(text), "the list in " + o.files)->list();
}

// Whether `base` names the branch the push event is for (the run's ref, GITHUB_REF).
bool names_pushed_branch(const std::string& base, const RunInfo& run) {
  const std::string& ref = run.ref;
  const std::string prefix = "refs/heads/";
  if (ref.rfind(prefix, 0) != 0) return false;
  const auto name = ref.substr(prefix.size());
  return !name.empty() && (base == name || base == ref);
}

// git diffs for one run: the options' repository, remote and fetch policy.
class Differ {
 public:
  Differ(const Options& o, const EventInfo& event, Context& ctx)
      : o_(o), event_(event), git_(ctx.processes, o.repo_dir) {}

  ChangeListing diff(std::string base, std::string head, bool three_dot) {
    GitDiffSpec spec{std::move(base), std::move(head), three_dot, !o_.no_fetch, o_.remote};
    spec.initial_depth = o_.initial_fetch_depth;
    return make_git_source(git_, spec)->list();
  }

  // The payload's SHAs are outside data on their way to git: anything but full object
  // names fails open.
  ChangeListing event_diff(bool three_dot) {
    if (auto problem = event_revisions_problem(event_); !problem.empty()) return failed(source(), problem);
    return diff(event_.base_sha, event_.head_sha, three_dot);
  }

  std::string source() const { return event_.name + " event"; }

 private:
  const Options& o_;
  const EventInfo& event_;
  Git git_;
};

// As dorny/paths-filter: `base` naming the branch that was pushed means the previous commit.
ChangeListing pushed_branch_listing(const EventInfo& event, Differ& differ) {
  if (!event.problem.empty()) return failed(differ.source(), event.problem);
  if (is_null_sha(event.base_sha))
    return failed(differ.source(), "the push created the branch, so there is no previous commit to compare with");
  return differ.event_diff(false);
}

// The API when there is a token, else git with the payload's base and head.
ChangeListing pull_request_listing(const Options& o, const EventInfo& event, Differ& differ, Context& ctx) {
  if (!event.problem.empty()) return failed(differ.source(), event.problem);
  const auto number = o.pr > 0 ? o.pr : *event.pr_number;
  auto options = github::options_for(ctx);
  options.budget = std::chrono::seconds(o.api_budget_s);
  options.total_budget = options.budget;  // the pull request and every page of files together
  if (!options.token.empty() && !event.repo.empty()) {
    // The client masks the token through the workflow.
    auto client = value_or_throw(github::connect(ctx, options));
    return make_api_source(client, event.repo, number)->list();
  }
  if (!event.base_sha.empty() && !event.head_sha.empty()) {
    auto listing = differ.event_diff(true);
    listing.notes.push_back("no token (or no repository) for the API: listed the files with git");
    return listing;
  }
  return failed(differ.source(), "no token for the GitHub API and no base/head in the event");
}

ChangeListing push_listing(const EventInfo& event, Differ& differ) {
  if (!event.problem.empty()) return failed(differ.source(), event.problem);
  if (is_null_sha(event.base_sha))
    return failed(differ.source(), "the push created a branch, so there is no previous commit to compare with");
  if (is_null_sha(event.head_sha)) return failed(differ.source(), "the push deleted the branch");
  return differ.event_diff(false);
}

}  // namespace

Plan gather(const Options& o, bool evaluate_non_pr, const EventInfo& event, Context& ctx) {
  if (!o.files.empty()) return {true, list_from_files(o, ctx)};
  Differ differ(o, event, ctx);
  if (!o.base.empty() && event.kind == EventKind::push && names_pushed_branch(o.base, ctx.run))
    return {true, pushed_branch_listing(event, differ)};
  if (!o.base.empty()) {
    const auto head = !o.head.empty() ? o.head : (event.head_sha.empty() ? "HEAD" : event.head_sha);
    return {true, differ.diff(o.base, head, true)};
  }
  switch (event.kind) {
    case EventKind::local:
      fail_bad_input("nothing to compare: give --base REV (and --head REV), --files FILE, or run in GitHub Actions");
    case EventKind::pull_request: return {true, pull_request_listing(o, event, differ, ctx)};
    case EventKind::merge_group:
      if (!event.problem.empty()) return {true, failed(differ.source(), event.problem)};
      return {true, differ.event_diff(false)};
    case EventKind::push:
      if (evaluate_non_pr) return {true, push_listing(event, differ)};
      break;
    case EventKind::other: break;
  }
  Plan plan;
  plan.evaluate = false;
  plan.listing.source = "no listing (" + event.name + " event)";
  return plan;
}

}  // namespace gatekit::path_classifier
