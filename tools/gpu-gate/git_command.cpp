#include "git_command.hpp"

#include "gatekit/text.hpp"

namespace gatekit::gpu_gate {

Result<ProcessResult> git_exec(const Git& git, const GitCall& call) {
  ProcessSpec spec;
  spec.argv = {"git", "-C", (call.dir.empty() ? git.repo() : call.dir).string()};
  spec.argv.insert(spec.argv.end(), call.args.begin(), call.args.end());
  spec.capture_limit = std::size_t{1} << 30;
  spec.env_set = call.env;
  spec.env_set["GIT_TERMINAL_PROMPT"] = "0";
  spec.env_set["LC_ALL"] = "C";
  spec.stdin_data = call.stdin_data;
  return git.runner().run(spec);
}

Result<std::string> git_output(const Git& git, const GitCall& call) {
  auto result = git_exec(git, call);
  if (!result) return result.error();
  if (!result->succeeded()) {
    // Only the subcommand is named: arguments may be long (paths) and are in stderr anyway.
    std::string message = "git " + (call.args.empty() ? std::string() : call.args.front()) + " failed (" +
                          result->describe() + ")";
    auto err = trim(result->err);
    if (!err.empty()) message += ": " + err;
    return could_not_evaluate(std::move(message));
  }
  return std::move(result->out);
}

Result<std::string> git_output(const Git& git, std::vector<std::string> args) {
  return git_output(git, GitCall{std::move(args), std::nullopt, {}, {}});
}

}  // namespace gatekit::gpu_gate
