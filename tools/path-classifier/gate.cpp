// The gate: load rules, find the change's files, decide, report.
#include <fstream>
#include <iostream>
#include <sstream>

#include "changes.hpp"
#include "classify.hpp"
#include "gatekit/cli.hpp"
#include "gatekit/text.hpp"
#include "path-classifier.hpp"
#include "report.hpp"
#include "rules.hpp"

namespace gatekit::path_classifier {
namespace {

Rules load(const Options& o) {
  std::optional<glob::Dialect> dialect;
  if (!o.dialect.empty()) dialect = glob::parse_dialect(o.dialect);
  Result<Rules> rules = [&]() -> Result<Rules> {
    if (!o.rules_file.empty()) return load_rules_file(o.rules_file, dialect);
    if (!o.rules_text.empty()) return load_rules_text(o.rules_text, "filters input", dialect);
    return make_error("no rules: give --rules FILE or --rules-text YAML", ExitCode::usage_error);
  }();
  if (!rules) throw ToolError{ExitCode::usage_error, rules.error().message};
  return std::move(*rules);
}

std::string read_text(const std::string& path, std::istream& in, std::string& problem) {
  std::ostringstream text;
  if (path == "-") {
    text << in.rdbuf();
    return text.str();
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    problem = "cannot read the file list " + path;
    return "";
  }
  text << file.rdbuf();
  return text.str();
}

ChangeListing failed(std::string source, std::string cause) {
  ChangeListing l;
  l.source = std::move(source);
  l.fail_open = std::move(cause);
  return l;
}

struct Plan {
  bool evaluate = true;  // false: a non-PR event, every filter relevant
  ChangeListing listing;
};

Plan gather(const Options& o, const Rules& rules, const EventInfo& event, Context& ctx) {
  Plan plan;
  if (!o.files.empty()) {
    std::string problem;
    auto text = read_text(o.files, ctx.in, problem);
    if (!problem.empty()) throw ToolError{ExitCode::usage_error, problem};
    plan.listing = make_list_source(text, o.files == "-" ? "the list on stdin" : "the list in " + o.files)->list();
    return plan;
  }
  Git git(ctx.runner, o.repo_dir);
  auto diff = [&](std::string base, std::string head, bool three_dot) {
    GitDiffSpec spec{std::move(base), std::move(head), three_dot, !o.no_fetch, o.remote};
    return make_git_source(git, spec)->list();
  };
  if (!o.base.empty()) {
    plan.listing = diff(o.base, o.head.empty() ? (event.head_sha.empty() ? "HEAD" : event.head_sha) : o.head, true);
    return plan;
  }
  const std::string source = event.name + " event";
  switch (event.kind) {
    case EventKind::local:
      throw ToolError{ExitCode::usage_error,
                      "nothing to compare: give --base REV (and --head REV), --files FILE, or run in GitHub Actions"};
    case EventKind::pull_request: {
      if (!event.problem.empty()) {
        plan.listing = failed(source, event.problem);
        return plan;
      }
      const auto number = o.pr > 0 ? o.pr : *event.pr_number;
      auto options = github::options_from_environment(ctx.env);
      options.budget = std::chrono::seconds(o.api_budget_s);
      if (!options.token.empty() && !event.repo.empty()) {
        // The client masks the token through the workflow.
        auto transport = ctx.make_transport();
        github::Client client(options, *transport, ctx.clock, &ctx.workflow);
        plan.listing = make_api_source(client, event.repo, number)->list();
        return plan;
      }
      if (!event.base_sha.empty() && !event.head_sha.empty()) {
        plan.listing = diff(event.base_sha, event.head_sha, true);
        plan.listing.notes.push_back("no token (or no repository) for the API: listed the files with git");
        return plan;
      }
      plan.listing = failed(source, "no token for the GitHub API and no base/head in the event");
      return plan;
    }
    case EventKind::merge_group:
      if (!event.problem.empty()) plan.listing = failed(source, event.problem);
      else plan.listing = diff(event.base_sha, event.head_sha, false);
      return plan;
    case EventKind::push:
      if (!rules.evaluate_non_pr) break;
      if (!event.problem.empty()) plan.listing = failed(source, event.problem);
      else if (is_null_sha(event.base_sha))
        plan.listing = failed(source, "the push created a branch, so there is no previous commit to compare with");
      else if (is_null_sha(event.head_sha))
        plan.listing = failed(source, "the push deleted the branch");
      else plan.listing = diff(event.base_sha, event.head_sha, false);
      return plan;
    case EventKind::other: break;
  }
  plan.evaluate = false;
  plan.listing.source = "no listing (" + event.name + " event)";
  return plan;
}

}  // namespace

ExitCode run_gate(const Options& o, Context& ctx) {
  const Rules rules = load(o);
  std::vector<std::string> warnings;
  for (const auto& w : rules.warnings) {
    ctx.workflow.annotate({Severity::warning, w.message, "path-gate rules", w.file == "filters input" ? "" : w.file,
                           w.line, w.column});
    warnings.push_back(format_issue(w));
  }
  if (!o.explain.empty()) {
    ctx.out << explain(rules, o.explain);
    return ExitCode::pass;
  }

  auto payload_path = !o.event_path.empty() ? o.event_path : ctx.env.get("GITHUB_EVENT_PATH").value_or("");
  std::string payload;
  if (!payload_path.empty()) {
    std::ifstream file(payload_path, std::ios::binary);
    std::ostringstream text;
    if (file) text << file.rdbuf();
    payload = text.str();
  }
  const auto name = !o.event.empty() ? o.event : ctx.env.get("GITHUB_EVENT_NAME").value_or("");
  const auto repo = !o.repo.empty() ? o.repo : ctx.env.get("GITHUB_REPOSITORY").value_or("");
  auto event = parse_event(name, payload, repo);
  if (o.pr > 0 && event.kind == EventKind::pull_request && !event.pr_number) {
    event.pr_number = o.pr;
    event.problem.clear();
  }

  auto plan = gather(o, rules, event, ctx);
  for (const auto& note : plan.listing.notes) ctx.workflow.log(note);
  const auto decision = decide(rules, plan.listing, event.name, plan.evaluate);
  if (decision.fail_open)
    ctx.workflow.annotate({Severity::warning,
                           "fail-open: " + *decision.fail_open + "; every filter is relevant",
                           "path gate", "", 0, 0});

  ctx.workflow.begin_group("Path gate decision");
  for (const auto& line : log_lines(decision)) ctx.workflow.log(line);
  ctx.workflow.end_group();
  for (const auto& [key, value] : step_outputs(decision)) ctx.workflow.set_output(key, value);
  ctx.workflow.append_summary(summary_markdown(decision, warnings));
  return ExitCode::pass;
}

ExitCode run_match_batch(const Options& o, std::istream& in, std::ostream& out) {
  const auto dialect = o.dialect.empty() ? glob::Dialect::github : *glob::parse_dialect(o.dialect);
  std::map<std::string, std::variant<glob::Pattern, glob::PatternError>> cache;
  std::string line;
  while (std::getline(in, line)) {
    const auto tab = line.find('\t');
    if (tab == std::string::npos) {
      out << "E no tab\n";
      continue;
    }
    const auto pattern = line.substr(0, tab);
    const auto path = line.substr(tab + 1);
    auto it = cache.find(pattern);
    if (it == cache.end()) it = cache.emplace(pattern, glob::Pattern::compile(pattern, dialect)).first;
    if (const auto* e = std::get_if<glob::PatternError>(&it->second)) out << "E " << e->message << "\n";
    else out << (std::get<glob::Pattern>(it->second).matches(path) ? "1" : "0") << "\n";
  }
  return ExitCode::pass;
}

}  // namespace gatekit::path_classifier
