#include "publish.hpp"

#include "gatekit/clock.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/github.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "git_command.hpp"
#include "record.hpp"

namespace gatekit::gpu_gate {
namespace {

Status dispatch(Context& context, const Git& git, const RunOptions& options) {
  auto client_options = github::options_from_environment(context.env);
  const std::string repo = !options.repository.empty() ? options.repository
                                                        : context.env.get_nonempty("GITHUB_REPOSITORY").value_or("");
  if (client_options.token.empty() || repo.empty()) {
    context.workflow.log("CI was not asked to refresh the status (" +
                         std::string(client_options.token.empty() ? "no token: GITHUB_TOKEN or GH_TOKEN" : "no repository: --repository or GITHUB_REPOSITORY") +
                         "); it reads the result on its next run, or: gh workflow run " + options.workflow +
                         (options.pr.empty() ? "" : " -f pr=" + options.pr));
    return {};
  }
  if (!context.make_transport) return could_not_evaluate("no HTTP transport to reach GitHub");
  auto transport = context.make_transport();
  github::Client client(client_options, *transport, context.clock, &context.workflow);
  std::map<std::string, std::string> inputs;
  if (!options.pr.empty()) inputs["pr"] = options.pr;
  const std::string branch = default_branch(git, options.remote);
  if (auto sent = client.dispatch_workflow(repo, options.workflow, branch, inputs); !sent)
    return could_not_evaluate("the result was pushed, but CI was not asked to refresh the status: " + sent.error().message);
  context.workflow.log("asked CI to refresh the status: " + options.workflow + " on " + branch +
                       (options.pr.empty() ? "" : " for pull request " + options.pr));
  return {};
}

}  // namespace

std::string default_branch(const Git& git, const std::string& remote) {
  auto out = git_exec(git, GitCall{{"symbolic-ref", "-q", "--short", "--end-of-options", "refs/remotes/" + remote + "/HEAD"},
                                   std::nullopt, {}, {}});
  if (!out || !out->succeeded()) return "main";
  const std::string name = trim(out->out);
  const std::string prefix = remote + "/";
  return name.starts_with(prefix) && name.size() > prefix.size() ? name.substr(prefix.size()) : "main";
}

Status publish_result(Context& context, const Git& git, const RunOptions& options, const Config& config,
                      const std::string& ref) {
  if (!ref.starts_with(mine_prefix(config.namespace_)))
    return could_not_evaluate("the result was recorded without a GPU and stays local (" + ref +
                              "): only a GPU machine's result is published, unless the configuration sets cpu_gate: true");
  const std::string refspec = "+" + ref + ":" + published_name(config.namespace_, ref);
  context.workflow.log("publishing: git push " + options.remote + " " + refspec);
  if (auto pushed = git.push(options.remote, {refspec}); !pushed)
    return could_not_evaluate("the result is recorded here but was not pushed: " + pushed.error().message);
  return dispatch(context, git, options);
}

}  // namespace gatekit::gpu_gate
