// `gpu-gate scope [--why FILE] [--json]`: the device-dependent test files of the checkout.
#include <algorithm>
#include <ostream>

#include "gatekit/files.hpp"
#include "gatekit/glob.hpp"
#include "gatekit/json.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "common.hpp"
#include "gatekit/python_modules.hpp"
#include "scope/scope.hpp"

namespace gatekit::gpu_gate {

namespace {

constexpr std::size_t kScopeSummaryRows = 500;  // a bigger scope is listed in the log only

std::string count_by_rule(const Scope& scope) {
  std::string text;
  for (auto rule : {ScopeRule::folder, ScopeRule::import, ScopeRule::extra}) {
    const auto n = std::count_if(scope.files.begin(), scope.files.end(), [&](const auto& e) { return e.rule == rule; });
    text += (text.empty() ? "" : ", ") + std::string(to_string(rule)) + " " + std::to_string(n);
  }
  return text;
}

std::string summary_of(const Scope& scope) {
  std::string md = "## GPU gate scope\n\n" + std::to_string(scope.files.size()) + " of " +
                   std::to_string(scope.test_files.size()) + " test files depend on the device.\n\n";
  md += "```mermaid\npie title Test files by scope rule\n";
  for (auto rule : {ScopeRule::folder, ScopeRule::import, ScopeRule::extra}) {
    const auto n = std::count_if(scope.files.begin(), scope.files.end(), [&](const auto& e) { return e.rule == rule; });
    md += "  \"" + std::string(to_string(rule)) + "\" : " + std::to_string(n) + "\n";
  }
  md += "  \"not in scope\" : " + std::to_string(scope.test_files.size() - scope.files.size()) + "\n```\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto& entry : scope.files) {
    if (rows.size() == kScopeSummaryRows) break;
    rows.push_back({markdown_code(entry.path), std::string(to_string(entry.rule)), markdown_code(entry.reason)});
  }
  if (!rows.empty()) md += markdown_table({"test file", "rule", "folder, module or pattern"}, rows);
  if (scope.files.size() > kScopeSummaryRows) {
    md += "\n… and " + std::to_string(scope.files.size() - kScopeSummaryRows) + " more (see the log).\n";
  }
  for (const auto& pattern : scope.unmatched_extras) {
    md += "\n> [!WARNING]\n> The extras entry " + markdown_code(pattern) + " matches no test file.\n";
  }
  if (!scope.notes.empty()) {
    md += "\nNot followed by the import analysis:\n\n";
    for (const auto& note : scope.notes) md += "- " + markdown_text(note) + "\n";
  }
  return md;
}

std::string json_of(const Scope& scope) {
  boost::json::array files;
  for (const auto& entry : scope.files) {
    boost::json::object item{{"path", entry.path}, {"rule", to_string(entry.rule)}, {"reason", entry.reason}};
    if (auto reach = scope.reaches.find(entry.path); entry.rule == ScopeRule::import && reach != scope.reaches.end()) {
      item["line"] = reach->second.line;
      item["through"] = reach->second.through;
    }
    files.push_back(std::move(item));
  }
  boost::json::array unmatched(scope.unmatched_extras.begin(), scope.unmatched_extras.end());
  boost::json::array notes(scope.notes.begin(), scope.notes.end());
  return boost::json::serialize(boost::json::object{{"test_files", scope.test_files.size()},
                                                    {"files", std::move(files)},
                                                    {"unmatched_extras", std::move(unmatched)},
                                                    {"notes", std::move(notes)}});
}

void log_scope(const Scope& scope, Workflow& workflow) {
  workflow.log("Scope: " + std::to_string(scope.files.size()) + " of " + std::to_string(scope.test_files.size()) +
               " test files depend on the device (" + count_by_rule(scope) + ")");
  for (const auto& entry : scope.files) {
    workflow.log("  " + entry.path + "  " + std::string(to_string(entry.rule)) + " " + entry.reason);
  }
  for (const auto& pattern : scope.unmatched_extras) {
    workflow.annotate({Severity::warning, "the extras entry " + pattern + " matches no test file", "gpu-gate scope"});
  }
  for (const auto& note : scope.notes) workflow.log("note: " + note);
}

// --why takes a path relative to the repository, or an absolute one inside it.
std::string repo_relative(const Files& files, const std::string& path, const std::string& repo_dir) {
  const std::filesystem::path given(path);
  if (!given.is_absolute()) return path;
  const auto repo = files.canonical(repo_dir);
  const auto resolved = files.canonical(given);
  if (!repo || !resolved) return path;
  const auto relative = resolved->lexically_relative(*repo);
  return relative.empty() || *relative.begin() == ".." ? path : relative.generic_string();
}

}  // namespace

Result<Scope> scope_of_checkout(ProcessRunner& processes, Files& files, const std::filesystem::path& repo_dir,
                                const Config& config) {
  auto paths = python::list_python_files(processes, files, repo_dir);
  if (!paths) return paths.error();
  auto analysed = python::analyze_imports(processes, repo_dir, *paths);
  if (!analysed) return analysed.error();
  return compute_scope(config, *analysed);
}

ExitCode run_scope(const ScopeOptions& options, Context& context) {
  const auto config = load_gate_config(context, options.repo_dir, options.config);
  const auto scope = value_or_throw(scope_of_checkout(context.processes, context.files, options.repo_dir, config));
  // With --json, stdout is the JSON alone (in a terminal, step outputs print there too).
  if (!options.json) context.workflow.set_output("count", std::to_string(scope.files.size()));
  if (!options.why.empty()) {
    context.workflow.log(explain(scope, config, repo_relative(context.files, options.why, options.repo_dir)));
  } else if (options.json) {
    context.out << inert_json(json_of(scope)) << "\n";
  } else {
    log_scope(scope, context.workflow);
  }
  context.workflow.append_summary(summary_of(scope));
  return ExitCode::pass;
}

}  // namespace gatekit::gpu_gate
