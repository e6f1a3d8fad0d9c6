#include "growth_lookup.hpp"

#include <optional>
#include <string>
#include <variant>

namespace gatekit::suite_report {
namespace {

// GitHub reports a tag push's run with the tag's name as head_branch and event `push`, as it
// does a branch push: with a tag named like the branch, the runs of the two cannot be told
// apart. Why no run can be taken (the tag exists, or the API could not say); nullopt when no
// such tag exists.
std::optional<std::string> tag_named_like(github::Client& client, const std::string& repo, const std::string& branch) {
  auto tag = client.get_ref(repo, "tags/" + branch);
  if (!tag && tag.error().http_status == 404) return std::nullopt;
  if (!tag) return tag.error().message;
  return "a tag named " + branch + " exists, and GitHub reports its push runs with head_branch " + branch +
         " as it does the branch's: which runs are the branch's cannot be told (rename the tag)";
}

}  // namespace

BaselineLookup find_baseline_artifact(github::Client& client, const std::string& repo, const std::string& workflow_file,
                                      const std::string& branch, const std::string& artifact, std::size_t max_runs) {
  BaselineLookup lookup;
  auto runs = client.list_workflow_runs(repo, workflow_file, branch, "completed", max_runs);
  if (!runs) {
    lookup.api_failed = true;
    lookup.note = runs.error().message;
    return lookup;
  }
  std::size_t pushes = 0;
  bool tag_checked = false;
  for (const auto& run : *runs) {
    if (run.event != "push" || run.head_branch != branch) continue;
    if (!tag_checked) {
      tag_checked = true;
      if (auto ambiguous = tag_named_like(client, repo, branch)) {
        lookup.api_failed = true;
        lookup.note = *ambiguous;
        return lookup;
      }
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
  lookup.note = pushes == 0 ? "no completed push run of " + workflow_file + " on " + branch + " yet"
                            : "none of the last " + std::to_string(pushes) + " push runs of " + workflow_file + " on " +
                                  branch + " stored " + artifact;
  return lookup;
}

}  // namespace gatekit::suite_report
