// The open pull requests and their heads: see open_pulls.hpp.
#include "status/open_pulls.hpp"

#include "gatekit/git.hpp"
#include "gatekit/github_json.hpp"
#include "gatekit/json.hpp"

namespace gatekit::gpu_gate {

Result<std::vector<OpenPull>> list_open_pulls(github::Client& client, const std::string& repo) {
  auto issues = github::request(client, "GET", "/repos/" + repo + "/issues?state=open", std::nullopt, true);
  if (!issues) return could_not_evaluate("cannot list the open pull requests of " + repo + ": " + issues.error().message);
  if (!issues->is_array()) return could_not_evaluate("cannot list the open pull requests of " + repo + ": not a list");
  std::vector<OpenPull> pulls;
  for (const auto& item : issues->get_array()) {
    const auto* object = item.if_object();
    if (object == nullptr || json_find(*object, "pull_request") == nullptr) continue;
    auto number = json_int_at(*object, "number");
    if (!number) continue;
    auto pull = client.get_pull_request(repo, *number);
    if (!pull) return could_not_evaluate("cannot read pull request #" + std::to_string(*number) + ": " + pull.error().message);
    if (pull->state == "open" && is_object_name(pull->head_sha)) pulls.push_back({*number, pull->head_sha});
  }
  return pulls;
}

}  // namespace gatekit::gpu_gate
