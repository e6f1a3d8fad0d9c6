#pragma once
// The doctor's verdict: a pure function from what it read (the rules that apply to a branch,
// the workflows, the gate's settings) to the findings, each with the exact fix. The rules are
// documented in docs/doctor.md ("What it checks"); tests/gatekit-doctor/test_decide.cpp holds
// their table.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gatekit/exit_code.hpp"
#include "gatekit/github.hpp"
#include "workflow_file.hpp"

namespace gatekit::gatekit_doctor {

// GitHub Actions' app id: the source of every check run a workflow's job reports.
inline constexpr std::int64_t kGitHubActionsApp = 15368;

// A required check and the rule that requires it.
struct Requirement {
  std::string context;
  std::optional<std::int64_t> app_id;  // none: any source
  std::string rule;                    // "ruleset 42" or "branch protection"
  std::string settings_url;            // where the rule is edited
};

// What could not be read, and what the token lacks to read it.
struct Gap {
  std::string what;        // "the branch protection of main"
  std::string why;         // the API's answer
  std::string permission;  // "Administration: read"
};

// The gate's settings, as far as they were read.
struct EnvironmentFacts {
  bool exists = false;
  github::DeploymentBranches branches = github::DeploymentBranches::all;
  std::vector<github::DeploymentBranchPolicy> policies;
  std::optional<std::set<std::string>> variables;  // names; nullopt: not read
  std::optional<std::set<std::string>> secrets;    // names; nullopt: not read
};

struct Setup {
  std::string repository;      // owner/name
  std::string branch;          // the branch whose rules are checked
  std::string default_branch;
  std::string server_url = "https://github.com";
  std::vector<Requirement> required;
  std::vector<std::string> merge_queue_rules;  // the rules that put a merge queue on the branch
  std::vector<WorkflowFile> workflows;
  std::string workflows_from;  // "the default branch (main), through the API" / "the folder .github/workflows"
  // The gate (gate.yml) in strict or pull-request mode: nullopt when not known (a gap).
  std::optional<std::string> gate_mode;
  std::string gate_mode_from;  // how it was learned, for the report
  std::optional<std::int64_t> app_id;  // --app-id: the gate App's id
  std::map<std::string, EnvironmentFacts> environments;     // by name, those read
  // Repository variables read, by name: their value, nullopt when not set (vars.NAME is then '').
  std::map<std::string, std::optional<std::string>> variables;
  std::vector<Gap> gaps;
};

// What the doctor must read besides the rules and workflows, worked out from the workflows:
// the environment of the job that posts gate/gpu and the variables and secrets its steps name.
struct GateReads {
  bool gate_workflow = false;         // some workflow posts the gate's status
  std::string context = "gate/gpu";   // the status it posts (gpu-gate-status's `context:`)
  std::vector<std::string> environments;
  std::vector<std::string> variables;  // vars.NAME the posting job reads
  std::vector<std::string> secrets;    // secrets.NAME the posting job reads
};
GateReads gate_reads(const std::vector<WorkflowFile>& workflows, const std::optional<std::string>& mode);

enum class Kind {
  not_produced,       // no workflow reports the check on a pull request
  skippable,          // a job the path gate (or its matrix `if:`) can skip, without an aggregator
  merge_queue,        // a merge queue is on and nothing reports the check on its group commit
  check_source,       // a workflow's check pinned to another App: it never counts
  gate_source,        // gate/gpu not pinned to the source its mode needs
  gate_environment,   // strict mode's environment missing or open to other branches
  gate_app,           // strict mode's App missing (no key, no client id, no token step)
  gate_not_required,  // a workflow posts gate/gpu but no rule requires it
  aggregator_needs,   // an aggregator's needs: or gated: miss a leg
};
std::string_view to_string(Kind kind);

struct Finding {
  Kind kind = Kind::not_produced;
  std::string check;    // the required check (or the aggregator's name)
  std::string where;    // the rule or file:line it is about
  std::string problem;  // what is wrong and what it does to pull requests
  std::string fix;      // the exact change that fixes it
};

// One required check as the doctor found it.
struct CheckRow {
  std::string context;
  std::string rules;       // "ruleset 42, branch protection"
  std::string source;      // "any source", "GitHub Actions", "app 123456"
  std::string produced_by; // "cpu-tests.yml: cpu-tests" ("" when nothing)
  bool ok = true;
};

struct Report {
  std::vector<CheckRow> checks;
  std::vector<Finding> findings;
  std::vector<std::string> notes;  // facts worth knowing that are no finding
  std::vector<Gap> gaps;
  bool merge_queue = false;
  ExitCode exit_code() const;
};

Report decide(const Setup& setup);

}  // namespace gatekit::gatekit_doctor
