#include "setup/setup_plan.hpp"

#include <algorithm>

namespace gatekit::gpu_gate {
namespace {

bool contains(const std::vector<std::string>& values, const std::string& value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

void want(SetupPlan& plan, const std::vector<std::string>& present, const std::string& remote,
          const std::string& key, const std::string& value, const std::string& why) {
  if (contains(present, value)) {
    plan.unchanged.push_back("remote." + remote + "." + key + " " + value + " (already set)");
    return;
  }
  plan.changes.push_back({true, key, value, why});
}

}  // namespace

std::string branch_push_refspec() { return "HEAD"; }
std::string results_push_refspec(const std::string& ns) { return "+refs/" + ns + "-mine/*:refs/" + ns + "/*"; }
std::string results_fetch_refspec(const std::string& ns) { return "+refs/" + ns + "/*:refs/" + ns + "/*"; }

SetupPlan plan_setup(const RemoteSettings& found, const std::string& remote, const std::string& ns) {
  SetupPlan plan;
  // A push refspec replaces push.default: without HEAD a plain push would send the results only.
  want(plan, found.push, remote, "push", branch_push_refspec(),
       "a plain `git push` pushes the current branch to the branch of the same name on " + remote +
           (found.push.empty() ? " (push.default no longer applies in this clone)" : ""));
  want(plan, found.push, remote, "push", results_push_refspec(ns),
       "a plain `git push` also sends this machine's results (refs/" + ns + "-mine/) to refs/" + ns + "/");
  want(plan, found.fetch, remote, "fetch", results_fetch_refspec(ns),
       "`git fetch` brings everyone's results (refs/" + ns + "/)");
  if (!found.push.empty() && !contains(found.push, branch_push_refspec()))
    plan.notes.push_back("remote." + remote + ".push already held refspecs of yours; they stay, and a plain push sends them too");
  plan.notes.push_back("A detached HEAD, `git push -u " + remote + " <branch>` and any push that names what to send carry the branch only. "
                       "Send the results on their own with: git push " + remote + " '" + results_push_refspec(ns) + "'");
  return plan;
}

SetupPlan plan_undo(const RemoteSettings& found, const std::string& remote) {
  SetupPlan plan;
  for (const auto& entry : found.added) {
    const auto space = entry.find(' ');
    if (space == std::string::npos) continue;
    const std::string key = entry.substr(0, space);
    const std::string value = entry.substr(space + 1);
    const auto& present = key == "push" ? found.push : found.fetch;
    const auto copies = static_cast<int>(std::count(present.begin(), present.end(), value));
    if ((key == "push" || key == "fetch") && copies > 0) {
      plan.changes.push_back({false, key, value, "added by gpu-gate setup", copies - 1});
      if (copies > 1)
        plan.notes.push_back("remote." + remote + "." + key + " " + value + " was also set by hand: that copy stays");
    } else
      plan.unchanged.push_back("remote." + remote + "." + key + " " + value + " (already gone)");
  }
  if (found.added.empty()) plan.notes.push_back("gpu-gate setup has not changed this clone's settings for " + remote + ": nothing to undo");
  else if (found.push.size() == static_cast<std::size_t>(std::count_if(plan.changes.begin(), plan.changes.end(), [](const ConfigChange& c) { return c.key == "push" && c.keep == 0; })))
    plan.notes.push_back("a plain `git push` follows push.default again");
  return plan;
}

}  // namespace gatekit::gpu_gate
