// Reading the repository's rules, gate settings and workflows (gather.hpp).
#include "gather.hpp"
#include "report.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <set>

#include "gatekit/files.hpp"
#include "gatekit/github.hpp"
#include "gatekit/text.hpp"
#include "gatekit/run_info.hpp"
#include "gatekit/workflow.hpp"

namespace gatekit::gatekit_doctor {

namespace {

const char* kWorkflowFolder = ".github/workflows";

// The permissions of what the doctor reads (GitHub's documentation of each endpoint).
const char* kMetadata = "Metadata: read";
const char* kAdministration = "Administration: read";
const char* kContents = "Contents: read";
const char* kVariables = "Variables: read";
const char* kActions = "Actions: read";
const char* kEnvironments = "Environments: read";

template <class T>
T must(Result<T> result, const std::string& what, const char* permission) {
  if (result) return std::move(*result);
  Error error = result.error();
  error.message = "cannot read " + what + ": " + error.message;
  if (error.http_status == 401 || error.http_status == 403 || error.http_status == 404)
    error.message += "; " + permission_text(permission);
  fail(std::move(error));
}

std::string repository_of(const Options& options, const RunInfo& run) {
  std::string repo = run.repository_or(options.repo);
  if (repo.empty()) fail_bad_input("no repository: give --repo OWNER/NAME (or set GITHUB_REPOSITORY)");
  const auto slash = repo.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == repo.size() || repo.find('/', slash + 1) != std::string::npos)
    fail_bad_input("--repo: '" + repo + "' is not OWNER/NAME");
  return repo;
}

github::ClientOptions client_options(const Options& options, const Context& context) {
  auto out = github::options_for(context, options.token);
  out.total_budget = std::chrono::milliseconds(static_cast<std::int64_t>(options.budget_s * 1000));
  return out;
}

std::string ruleset_label(const github::BranchRule& rule) {
  return rule.ruleset_id != 0 ? "ruleset " + std::to_string(rule.ruleset_id) : std::string("a ruleset");
}

std::string ruleset_url(const github::BranchRule& rule, const Setup& setup) {
  if (rule.ruleset_source_type == "Organization" && !rule.ruleset_source.empty())
    return setup.server_url + "/organizations/" + rule.ruleset_source + "/settings/rules/" +
           std::to_string(rule.ruleset_id);
  return setup.server_url + "/" + setup.repository + "/settings/rules" +
         (rule.ruleset_id != 0 ? "/" + std::to_string(rule.ruleset_id) : std::string());
}

void read_rules(github::Client& client, Setup& setup) {
  const auto rules = must(client.list_branch_rules(setup.repository, setup.branch),
                          "the rules of branch " + setup.branch, kMetadata);
  // A repeated page must not count a rule twice: one requirement per ruleset and context.
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& rule : rules) {
    const auto label = ruleset_label(rule);
    if (rule.type == "merge_queue") {
      if (std::find(setup.merge_queue_rules.begin(), setup.merge_queue_rules.end(), label) ==
          setup.merge_queue_rules.end())
        setup.merge_queue_rules.push_back(label);
      continue;
    }
    if (rule.type != "required_status_checks") continue;
    for (const auto& check : rule.checks)
      if (seen.insert({label, check.context}).second)
        setup.required.push_back({check.context, check.app_id, label, ruleset_url(rule, setup)});
  }
}

void read_protection(github::Client& client, Setup& setup) {
  auto protection = client.get_branch_protection(setup.repository, setup.branch);
  if (!protection) {
    setup.gaps.push_back({"the branch protection of " + setup.branch, protection.error().message, kAdministration});
    return;
  }
  if (!*protection) return;
  std::set<std::string> seen;
  for (const auto& check : (*protection)->checks)
    if (seen.insert(check.context).second)
      setup.required.push_back({check.context, check.app_id, "branch protection",
                                setup.server_url + "/" + setup.repository + "/settings/branches"});
}

bool is_workflow_file(const std::string& name) {
  return name.size() > 4 && (name.ends_with(".yml") || name.ends_with(".yaml"));
}

void read_workflows_from_folder(const std::string& folder, Context& context, Setup& setup) {
  const auto names = value_or_throw(as_bad_input(context.files.list_folder(folder)));
  std::string errors;
  for (const auto& name : names) {
    if (!is_workflow_file(name)) continue;
    const std::string path = (std::filesystem::path(folder) / name).string();
    const auto status = context.files.stat(path);
    if (!status || !status->is_file()) continue;
    const auto text = value_or_throw(as_bad_input(context.files.read(path)));
    auto workflow = read_workflow(text, path);
    if (!workflow) {
      errors += (errors.empty() ? "" : "\n") + workflow.error().message;
      continue;
    }
    setup.workflows.push_back(std::move(*workflow));
  }
  if (!errors.empty()) fail_bad_input(errors);
  setup.workflows_from = "the folder " + folder;
}

void read_workflows_from_api(github::Client& client, Setup& setup) {
  const auto listing = must(client.list_directory(setup.repository, kWorkflowFolder, setup.branch),
                            std::string(kWorkflowFolder) + " of " + setup.branch, kContents);
  setup.workflows_from = std::string(kWorkflowFolder) + " of " + setup.branch + ", through the API";
  if (!listing) return;  // no workflows at all
  std::string errors;
  std::set<std::string> seen;
  for (const auto& entry : *listing) {
    if (entry.type != "file" || !is_workflow_file(entry.name) || !seen.insert(entry.path).second) continue;
    const auto text = must(client.get_file_text(setup.repository, entry.path, setup.branch), entry.path, kContents);
    auto workflow = read_workflow(text, entry.path);
    if (!workflow) {
      errors += (errors.empty() ? "" : "\n") + workflow.error().message;
      continue;
    }
    setup.workflows.push_back(std::move(*workflow));
  }
  // Not the caller's input: a workflow GitHub would refuse leaves its checks unknown.
  if (!errors.empty()) fail_could_not_evaluate(errors);
}

void read_gate_mode(const Options& options, github::Client& client, Setup& setup) {
  if (options.mode != "auto") {
    setup.gate_mode = options.mode;
    setup.gate_mode_from = "--mode " + options.mode;
    return;
  }
  const std::string name = "GATEKIT_GATE_MODE";
  auto value = client.get_repository_variable(setup.repository, name);
  if (!value) {
    setup.gaps.push_back({"the gate's mode (the repository variable " + name + "; or give --mode)",
                          value.error().message, kVariables});
    return;
  }
  setup.variables[name] = *value;
  setup.gate_mode = *value == std::optional<std::string>("pull-request") ? "pull-request" : "strict";
  setup.gate_mode_from = *value ? "the repository variable " + name + " is '" + **value + "'"
                                : "the repository variable " + name + " is not set";
}

void read_environment(github::Client& client, const std::string& name, const GateReads& reads, Setup& setup) {
  const std::string what = "the environment " + name;
  auto environment = client.get_environment(setup.repository, name);
  if (!environment) {
    setup.gaps.push_back({what, environment.error().message, kActions});
    return;
  }
  EnvironmentFacts facts;
  if (!*environment) {
    setup.environments[name] = facts;
    return;
  }
  facts.exists = true;
  facts.branches = (*environment)->branches;
  if (facts.branches == github::DeploymentBranches::custom) {
    auto policies = client.list_deployment_branch_policies(setup.repository, name);
    if (!policies) {
      setup.gaps.push_back({"the deployment branches of " + what, policies.error().message, kActions});
      return;
    }
    std::set<std::int64_t> ids;
    for (auto& policy : *policies)
      if (ids.insert(policy.id).second) facts.policies.push_back(std::move(policy));
  }
  if (!reads.variables.empty()) {
    auto variables = client.list_environment_variable_names(setup.repository, name);
    if (variables) facts.variables = std::set<std::string>(variables->begin(), variables->end());
    else setup.gaps.push_back({"the variables of " + what, variables.error().message, kEnvironments});
  }
  if (!reads.secrets.empty()) {
    auto secrets = client.list_environment_secret_names(setup.repository, name);
    if (secrets) facts.secrets = std::set<std::string>(secrets->begin(), secrets->end());
    else setup.gaps.push_back({"the secret names of " + what, secrets.error().message, kEnvironments});
  }
  setup.environments[name] = std::move(facts);
}

// A variable the gate's token step reads that its environment lacks may be the repository's.
void read_variables(github::Client& client, const GateReads& reads, Setup& setup) {
  for (const auto& name : reads.variables) {
    const bool in_some_environment = std::any_of(setup.environments.begin(), setup.environments.end(), [&](const auto& e) {
      return e.second.variables && e.second.variables->count(name) != 0;
    });
    if (in_some_environment || setup.variables.count(name) != 0) continue;
    auto value = client.get_repository_variable(setup.repository, name);
    if (value) setup.variables[name] = *value;
    else setup.gaps.push_back({"the repository variable " + name, value.error().message, kVariables});
  }
}

void read_gate(const Options& options, github::Client& client, Setup& setup) {
  if (options.app_id) setup.app_id = *options.app_id;
  const auto any_reads = gate_reads(setup.workflows, std::nullopt);
  const bool gate_required = std::any_of(setup.required.begin(), setup.required.end(),
                                         [&](const Requirement& r) { return r.context == any_reads.context; });
  if (!any_reads.gate_workflow && !gate_required) return;
  read_gate_mode(options, client, setup);
  if (!setup.gate_mode || *setup.gate_mode == "pull-request") return;
  const auto reads = gate_reads(setup.workflows, setup.gate_mode);
  for (const auto& name : reads.environments) read_environment(client, name, reads, setup);
  read_variables(client, reads, setup);
}

}  // namespace

Setup gather(const Options& options, Context& context) {
  Setup setup;
  setup.repository = repository_of(options, context.run);
  if (!context.run.server_url.empty()) setup.server_url = context.run.server_url;
  auto client = value_or_throw(github::connect(context, client_options(options, context)));
  const auto repository = must(client.get_repository(setup.repository), "the repository " + setup.repository, kMetadata);
  setup.default_branch = repository.default_branch;
  setup.branch = options.branch.empty() ? repository.default_branch : options.branch;
  read_rules(client, setup);
  read_protection(client, setup);
  if (!options.workflows.empty()) read_workflows_from_folder(options.workflows, context, setup);
  else read_workflows_from_api(client, setup);
  read_gate(options, client, setup);
  return setup;
}

}  // namespace gatekit::gatekit_doctor
