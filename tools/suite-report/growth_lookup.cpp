#include "growth_lookup.hpp"

#include <variant>

namespace gatekit::suite_report {

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
  for (const auto& run : *runs) {
    if (run.event != "push" || run.head_branch != branch) continue;
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
