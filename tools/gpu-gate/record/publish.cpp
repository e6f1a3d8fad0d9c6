#include "record/publish.hpp"

#include "gatekit/clock.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/github.hpp"
#include "gatekit/run_info.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "status/open_pulls.hpp"
#include "record/record.hpp"

namespace gatekit::gpu_gate {
namespace {

// The pull requests to refresh: --pr, else every open pull request whose head is the tested
// commit (the workflow's dispatch needs the number; in strict mode this dispatch is the run
// that posts gate/gpu).
Result<std::vector<std::string>> pulls_to_refresh(github::Client& client, const std::string& repo,
                                                  const RunOptions& options, const std::string& commit) {
  if (!options.pr.empty()) return std::vector<std::string>{options.pr};
  auto pulls = list_open_pulls(client, repo);
  if (!pulls) return pulls.error();
  std::vector<std::string> numbers;
  for (const auto& pull : *pulls)
    if (pull.head_sha == commit) numbers.push_back(std::to_string(pull.number));
  return numbers;
}

Status dispatch(Context& context, const Git& git, const RunOptions& options, const std::string& commit) {
  auto client_options = github::options_for(context);
  const std::string repo = context.run.repository_or(options.repository);
  if (client_options.token.empty() || repo.empty()) {
    context.workflow.log("CI was not asked to refresh the status (" +
                         std::string(client_options.token.empty() ? "no token: GITHUB_TOKEN or GH_TOKEN" : "no repository: --repository or GITHUB_REPOSITORY") +
                         "); it reads the result on its next run, or: gh workflow run " + options.workflow +
                         " -f pr=" + (options.pr.empty() ? "<number>" : options.pr));
    return {};
  }
  auto client = github::connect(context, client_options);
  if (!client) return client.error();
  auto numbers = pulls_to_refresh(*client, repo, options, commit);
  if (!numbers)
    return could_not_evaluate("the result was pushed, but the pull requests to refresh were not found: " +
                              numbers.error().message);
  if (numbers->empty()) {
    context.workflow.log("no open pull request of " + repo + " has " + commit +
                         " as its head: CI reads the result when a pull request's CPU or GPU workflow next finishes, "
                         "or: gh workflow run " + options.workflow + " -f pr=<number>");
    return {};
  }
  const std::string branch = default_branch(git, options.remote);
  for (const auto& number : *numbers) {
    // By the branch's full ref: the dispatch API takes a branch or a tag name, and a tag named
    // like the default branch must never be the ref the refresh runs on.
    if (auto sent = client->dispatch_workflow(repo, options.workflow, "refs/heads/" + branch, {{"pr", number}}); !sent)
      return could_not_evaluate("the result was pushed, but CI was not asked to refresh the status: " + sent.error().message);
    context.workflow.log("asked CI to refresh the status: " + options.workflow + " on " + branch +
                         " for pull request " + number);
  }
  return {};
}

}  // namespace

std::string default_branch(const Git& git, const std::string& remote) {
  auto out = git.exec(GitCommand{"symbolic-ref", "-q", "--short"}.argument("the ref", "refs/remotes/" + remote + "/HEAD"));
  if (!out || !out->succeeded()) return "main";
  const std::string name = trim(out->out);
  const std::string prefix = remote + "/";
  return name.starts_with(prefix) && name.size() > prefix.size() ? name.substr(prefix.size()) : "main";
}

Status publish_result(Context& context, const Git& git, const RunOptions& options, const Config& config,
                      const std::string& commit, const std::string& ref) {
  if (!ref.starts_with(mine_prefix(config.namespace_)))
    return could_not_evaluate("the result was recorded without a GPU and stays local (" + ref +
                              "): only a GPU machine's result is published, unless the configuration sets cpu_gate: true");
  const std::string refspec = "+" + ref + ":" + published_name(config.namespace_, ref);
  context.workflow.log("publishing: git push " + options.remote + " " + refspec);
  if (auto pushed = git.push(options.remote, {refspec}); !pushed)
    return could_not_evaluate("the result is recorded here but was not pushed: " + pushed.error().message);
  return dispatch(context, git, options, commit);
}

}  // namespace gatekit::gpu_gate
