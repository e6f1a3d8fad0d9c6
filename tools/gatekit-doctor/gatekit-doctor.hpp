#pragma once
// gatekit-doctor: checks a repository's required checks and gate setup against its workflows
// (docs/doctor.md). It reads, through the GitHub API, the rules that apply to a branch
// (rulesets and classic branch protection), the gate's mode, environment and App settings, and
// the workflow files; decide.hpp turns them into findings, each with its fix.
#include <optional>
#include <string>

#include "gatekit/context.hpp"
#include "gatekit/exit_code.hpp"

int gatekit_doctor_main(int argc, const char* const* argv);

namespace gatekit::gatekit_doctor {

struct Options {
  std::string repo;       // --repo OWNER/NAME (default: GITHUB_REPOSITORY)
  std::string branch;     // --branch (default: the repository's default branch)
  std::string workflows;  // --workflows DIR (default: .github/workflows of the branch, through the API)
  std::string mode = "auto";       // --mode auto|strict|pull-request (auto: the variable GATEKIT_GATE_MODE)
  std::optional<long> app_id;      // --app-id: the gate App's id
  std::string token;               // --token (default: GITHUB_TOKEN, then GH_TOKEN)
  double budget_s = 300;           // --budget: seconds for every API call together
};

// Reads, decides and reports: the findings on stdout (a table of the required checks, then
// each finding with its fix), the same as the job summary, and the step outputs `result`
// (pass/fail), `findings` and `checks`. Exit 0 when all is well, 1 on a finding, 3 when
// something could not be read (the report says which permission is missing); bad options or
// an unreadable --workflows folder are exit 2.
ExitCode run_doctor(const Options& options, Context& context);

}  // namespace gatekit::gatekit_doctor
