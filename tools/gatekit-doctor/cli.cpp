// gatekit-doctor: maps argv to Options and calls run_doctor.
#include "gatekit-doctor.hpp"
#include "gatekit/cli.hpp"

int gatekit_doctor_main(int argc, const char* const* argv) {
  using namespace gatekit;
  gatekit_doctor::Options o;
  ToolInfo info{"gatekit-doctor",
                "Checks a repository's required checks and gate setup against its workflows, with the fix for each "
                "finding."};
  info.no_verdict = NoVerdict{true, {}};
  return run_tool(
      info, argc, argv,
      [&](gatekit::CliCommand& app) {
        app.option("--repo", o.repo, "OWNER/NAME (default: GITHUB_REPOSITORY)");
        app.option("--branch", o.branch, "The branch whose rules are checked (default: the default branch)");
        app.option("--workflows", o.workflows,
                   "Read the workflow files from this folder (default: .github/workflows of the branch, through the API)");
        app.option("--mode", o.mode, "The GPU gate's mode: auto (the repository variable GATEKIT_GATE_MODE), strict or "
                                     "pull-request")
            .is_member({"auto", "strict", "pull-request"});
        app.option("--app-id", o.app_id, "The gate App's id: gate/gpu must be pinned to it in strict mode")
            .check([](const std::string& v) { return v.find_first_not_of("0123456789") == std::string::npos && !v.empty()
                                                         ? std::string()
                                                         : "a GitHub App's id is a number"; },
                   "NUMBER");
        app.option("--token", o.token, "Token (default: GITHUB_TOKEN, then GH_TOKEN)");
        app.option("--budget", o.budget_s, "Seconds for every API call together (default 300)").positive_number();
      },
      [&](Context& context) { return gatekit_doctor::run_doctor(o, context); });
}
