#include "gatekit/workflow_run.hpp"

namespace gatekit {

std::optional<std::string> workflow_run_url(const Environment& env) {
  const auto run_id = env.get_nonempty("GITHUB_RUN_ID");
  if (!run_id) return std::nullopt;
  return env.get_nonempty("GITHUB_SERVER_URL").value_or("https://github.com") + "/" +
         env.get("GITHUB_REPOSITORY").value_or("") + "/actions/runs/" + *run_id;
}

}  // namespace gatekit
