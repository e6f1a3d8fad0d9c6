#include "growth_lookup.hpp"

#include <optional>
#include <string>
#include <unordered_set>

namespace gatekit::suite_report {
namespace {

// The commits refs/heads/BRANCH was updated to (its full name: a tag named like the branch
// is another ref).
Result<std::unordered_set<std::string>> branch_tips(github::Client& client, const std::string& repo,
                                                    const std::string& full_ref, std::size_t max_updates) {
  auto activity = client.list_ref_activity(repo, full_ref, max_updates);
  if (!activity) return activity.error();
  std::unordered_set<std::string> tips;
  for (const auto& update : *activity)
    if (update.ref == full_ref && update.activity_type != "branch_deletion") tips.insert(update.after);
  return tips;
}

}  // namespace

BaselineLookup find_baseline_artifact(github::Client& client, const std::string& repo, const std::string& workflow_file,
                                      const std::string& branch_option, const std::string& artifact,
                                      std::size_t max_runs, std::size_t max_updates) {
  BaselineLookup lookup;
  const std::string branch = branch_option.starts_with("refs/heads/") ? branch_option.substr(11) : branch_option;
  const std::string full_ref = "refs/heads/" + branch;
  auto runs = client.list_workflow_runs(repo, workflow_file, branch, "completed", max_runs);
  if (!runs) {
    lookup.api_failed = true;
    lookup.note = runs.error().message;
    return lookup;
  }
  std::size_t pushes = 0;
  std::optional<std::unordered_set<std::string>> tips;  // read once a push run is there to check
  for (const auto& run : *runs) {
    if (run.event != "push" || run.head_branch != branch) continue;
    if (!tips) {
      auto read = branch_tips(client, repo, full_ref, max_updates);
      if (!read) {
        lookup.api_failed = true;
        lookup.note = read.error().message;
        return lookup;
      }
      tips = std::move(*read);
    }
    if (!tips->contains(run.head_sha)) {
      ++lookup.not_the_branch;  // a tag's push, or a commit the branch no longer had in its last updates
      continue;
    }
    ++pushes;
    auto artifacts = client.list_run_artifacts(repo, run.id);
    if (!artifacts) {
      lookup.api_failed = true;
      lookup.note = artifacts.error().message;
      return lookup;
    }
    for (const auto& a : *artifacts) {
      if (a.name != artifact || a.expired) continue;
      lookup.found = true;
      lookup.run_id = run.id;
      lookup.sha = run.head_sha;
      return lookup;
    }
  }
  lookup.note = pushes == 0 ? "no completed push run of " + workflow_file + " on " + full_ref + " yet"
                            : "none of the last " + std::to_string(pushes) + " push runs of " + workflow_file + " on " +
                                  full_ref + " stored " + artifact;
  if (lookup.not_the_branch > 0)
    lookup.note += "; " + std::to_string(lookup.not_the_branch) + " push run" + (lookup.not_the_branch == 1 ? "" : "s") +
                   " named " + branch + " ran a commit " + full_ref + " was never updated to (a tag named " + branch +
                   "?), and " + (lookup.not_the_branch == 1 ? "was" : "were") + " not taken";
  return lookup;
}

}  // namespace gatekit::suite_report
